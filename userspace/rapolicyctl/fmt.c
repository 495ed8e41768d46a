// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: output formats.  A leaf: it formats what it is given and
 * reads nothing.  JSON goes through jansson.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rapctl.h"
#include "util.h"

#define ESC_MAX 48

static const char *escape(const char *s, size_t max, bool quote)
{
	static char bufs[4][160 * 4 + 8];
	static int next;
	char *b = bufs[next++ % 4];
	size_t o = 0, i;

	for (i = 0; s[i] && i < max; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch < ' ' || ch >= 0x7f || ch == '\\' || (quote && ch == '\''))
			o += (size_t)sprintf(b + o, "\\x%02x", ch);
		else
			b[o++] = (char)ch;
	}
	strcpy(b + o, s[i] ? "..." : "");
	return b;
}

const char *esc(const char *s)
{
	return escape(s, ESC_MAX, true);
}

const char *esc_text(const char *s)
{
	return escape(s, 160, false);
}

void prom_head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* The values the module lists; a policy it lacks has no series */
static void prom_policies(FILE *f, const struct rap_state *s)
{
	prom_head(f, "rapolicy_policy", "gauge",
		  "Policy values per A/B arm: 1 for the current value, 0 for the others.");
	for (int arm = 0; arm < NR_ARMS; arm++) {
		for (int p = 0; p < NR_POL; p++) {
			const struct pol_def *d = &pol_defs[p];
			const struct pol_avail *av = &s->avail[p];
			unsigned int nv = d->nr + (d->order ? av->max_order + 1 : 0);

			for (unsigned int v = 0; v < nv && !av->absent; v++) {
				char val[VAL_LEN];

				if (!(av->listed >> v & 1))
					continue;
				if (v < d->nr)
					snprintf(val, sizeof(val), "%s", d->values[v]);
				else
					snprintf(val, sizeof(val), "%u", v - d->nr);
				fprintf(f, "rapolicy_policy{arm=\"%c\",policy=\"%s\",value=\"%s\"} %d\n",
					'a' + arm, d->name, val,
					!strcmp(val, s->arm[arm].v[p]));
			}
		}
	}
}

void print_prometheus(FILE *f, const struct rap_state *s, bool up)
{
	prom_head(f, "rapolicy_up", "gauge",
		  "Whether rapolicy.ko is loaded (1) or not (0).");
	fprintf(f, "rapolicy_up %d\n", up);
	prom_head(f, "rapolicy_exporter_timestamp_seconds", "gauge",
		  "When rapolicyctl wrote these metrics, in seconds since the epoch.");
	fprintf(f, "rapolicy_exporter_timestamp_seconds %lld\n", (long long)time(NULL));
	if (!up)
		return;
	prom_head(f, "rapolicy_info", "gauge", "The module's version.");
	/* rap_load() checked its characters: no escaping */
	fprintf(f, "rapolicy_info{version=\"%s\"} 1\n", s->version);
	prom_policies(f, s);
	prom_head(f, "rapolicy_ab_mode", "gauge",
		  "How faults pick their A/B arm: 1 for the current mode.");
	for (int m = 0; m < 3; m++)
		fprintf(f, "rapolicy_ab_mode{mode=\"%s\"} %d\n", ab_modes[m],
			m == s->ab.mode);
	prom_head(f, "rapolicy_ab_buckets", "gauge",
		  "A/B buckets per arm in sample mode, 0 in the other modes.");
	for (int arm = 0; arm < NR_ARMS; arm++) {
		int nb = 0;

		for (int i = 0; i < ABT_BUCKETS && s->ab.mode == AB_SAMPLE; i++)
			nb += s->st.bucket_arm[i] == 'a' + arm;
		fprintf(f, "rapolicy_ab_buckets{arm=\"%c\"} %d\n", 'a' + arm, nb);
	}
	prom_head(f, "rapolicy_ab_holdback", "gauge",
		  "1 for the arm that has every A/B bucket in sample mode (permille 0: a, 1000: b): a host held back on that arm.");
	for (int arm = 0; arm < NR_ARMS; arm++) {
		int nb = 0;

		for (int i = 0; i < ABT_BUCKETS && s->ab.mode == AB_SAMPLE; i++)
			nb += s->st.bucket_arm[i] == 'a' + arm;
		fprintf(f, "rapolicy_ab_holdback{arm=\"%c\"} %d\n", 'a' + arm, nb == ABT_BUCKETS);
	}
	prom_head(f, "rapolicy_ab_sample_permille", "gauge",
		  "Share of files in arm B in sample mode, per mille.");
	fprintf(f, "rapolicy_ab_sample_permille %u\n", s->ab.permille);
	if (s->ab.has_key) {
		prom_head(f, "rapolicy_ab_key", "gauge",
			  "The key of the A/B bucket hash, as a label: one experiment on one host.");
		fprintf(f, "rapolicy_ab_key{key=\"%llu\"} 1\n", (unsigned long long)s->ab.key);
	}
	prom_head(f, "rapolicy_stats_elapsed_seconds", "gauge",
		  "Seconds since the module loaded or its counters were last reset.");
	fprintf(f, "rapolicy_stats_elapsed_seconds %.3f\n", s->st.elapsed_ms / 1000.0);
	prom_head(f, "rapolicy_settings_changed", "gauge",
		  "Writes that changed a policy or an A/B setting since the last reset.");
	fprintf(f, "rapolicy_settings_changed %llu\n",
		(unsigned long long)s->st.settings_changed);
	for (int i = 0; i < NR_ST; i++) {
		char name[64], help[160];

		if (s->st.absent >> i & 1)	/* an older module's: no series */
			continue;
		snprintf(name, sizeof(name), "rapolicy_%s_total", st_names[i]);
		snprintf(help, sizeof(help), "Counter of %s, per A/B arm.", st_help[i]);
		prom_head(f, name, "counter", help);
		for (int arm = 0; arm < NR_ARMS; arm++)
			fprintf(f, "%s{arm=\"%c\"} %llu\n", name, 'a' + arm,
				(unsigned long long)s->st.c[arm][i]);
	}
}

/* An arm's values (settable: those apply takes); none the module lacks */
static json_t *json_arm(const struct rap_state *s, int arm, bool settable)
{
	json_t *o = json_object();

	for (int p = 0; p < NR_SHOWN; p++)
		if (!s->avail[p].absent && (pol_defs[p].settable || !settable))
			json_object_set_new(o, pol_defs[p].name, json_value(p, s->arm[arm].v[p]));
	return o;
}

void *json_value(int p, const char *v)
{
	return p < NR_POL ? json_string(v) : json_u64(strtoull(v, NULL, 10));
}

void *json_unavailable(const struct rap_state *s)
{
	char u[UNAV_MAX][UNAV_LEN];
	unsigned int n = rap_unavailable(s, u, UNAV_MAX);
	json_t *o = json_array();

	for (unsigned int i = 0; i < n; i++)
		json_array_append_new(o, json_string(u[i]));
	return o;
}

void *json_ab(const struct ab_conf *ab)
{
	/* a cgroup name need not be UTF-8; JSON must */
	json_t *cg = json_string(ab->cgroup);

	return json_pack("{s:s, s:o, s:i, s:o}", "mode", ab_modes[ab->mode],
			 "cgroup", cg ? cg : json_string(esc(ab->cgroup)),
			 "sample_permille", (int)ab->permille, "salt", json_u64(ab->salt));
}

void *json_counters(const struct counters *st)
{
	json_t *o = json_pack("{s:o, s:o}", "elapsed_ms", json_u64(st->elapsed_ms),
			      "settings_changed", json_u64(st->settings_changed));

	for (int arm = 0; arm < NR_ARMS; arm++) {
		json_t *a = json_object();
		char key[2] = { (char)('a' + arm), 0 };

		for (int i = 0; i < NR_ST; i++)
			if (!(st->absent >> i & 1))
				json_object_set_new(a, st_names[i], json_u64(st->c[arm][i]));
		json_object_set_new(o, key, a);
	}
	return o;
}

/* stats/buckets: [arm, sync_miss, pages_read] per bucket */
void *json_buckets(const struct counters *st)
{
	json_t *bk = json_array();

	for (int i = 0; i < ABT_BUCKETS; i++)
		json_array_append_new(bk, json_pack("[s#, o, o]", &st->bucket_arm[i], 1,
						    json_u64(st->bucket[i][BK_MISS]),
						    json_u64(st->bucket[i][BK_PAGES])));
	return bk;
}

void *json_state(const struct rap_state *s, bool settable)
{
	return json_pack("{s:s, s:o, s:o, s:o}", "version", s->version,
			 "a", json_arm(s, ARM_A, settable), "b", json_arm(s, ARM_B, settable),
			 "ab", json_ab(&s->ab));
}

const char *ab_line(const struct ab_conf *ab, char *buf, size_t size)
{
	if (ab->mode == AB_CGROUP && *ab->cgroup)
		snprintf(buf, size, "cgroup %s", esc(ab->cgroup));
	else if (ab->mode != AB_OFF)
		snprintf(buf, size, "%s %u permille, salt %llu", ab->mode == AB_SAMPLE ?
			 "sample" : "cgroups", ab->permille, (unsigned long long)ab->salt);
	else
		snprintf(buf, size, "off");
	return buf;
}

/* jansson's integers are signed: a u64 above INT64_MAX goes as a string */
void *json_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return json_string(buf);
}

int json_get_u64(const void *j, uint64_t *v)
{
	if (json_is_integer((const json_t *)j) && json_integer_value(j) >= 0) {
		*v = (uint64_t)json_integer_value(j);
		return 0;
	}
	return json_is_string((const json_t *)j) ? parse_u64(json_string_value(j), v) : -1;
}

static unsigned int nr_json_outs;

unsigned int json_outs(void)
{
	return nr_json_outs;
}

void json_out(FILE *f, void *j, bool compact)
{
	nr_json_outs++;
	json_dumpf(j, f, compact ? JSON_COMPACT : JSON_INDENT(2));
	fputc('\n', f);
	json_decref(j);
}
