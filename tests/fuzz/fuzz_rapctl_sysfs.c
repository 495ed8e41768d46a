// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of rapolicyctl against hostile module files: the input
 * replaces the contents of chosen files of the fake tree, then chooses a
 * command.  The tool must exit 0, 1 or 2 with messages in its format,
 * print JSON that parses, and never crash on what a file holds.
 */
#include <jansson.h>

#include "fuzz_rapctl.h"

static const char *const files[] = {
	"version", "descending_thp", "pmd_hit", "sync_mmap_order", "ab/mode",
	"ab/cgroup", "ab/salt", "ab/sample_permille", "ab/descending_around",
	"stats/a/sync_miss", "stats/b/pages_read", "stats/elapsed_ms",
	"stats/settings_changed", "stats/buckets", "streams_max_kb", "ab/streams_bytes",
};

static const char *const commands[][5] = {
	{ "status" }, { "status", "--json" }, { "get", "--json" }, { "get", "-n" },
	{ "set", "pmd_hit=on", "sync_mmap_order=3" }, { "profile", "best" },
	{ "profile", "verify", "seed" }, { "save" }, { "stats" },
	{ "stats", "--json" }, { "stats", "--prometheus" }, { "ab", "status" },
	{ "ab", "sample" }, { "ab", "report" }, { "ab", "report", "--json" },
	{ "ab", "assign", "sample", "10" }, { "ab", "set", "descending_thp=stream" },
	{ "ab", "period" }, { "set", "streams_max_kb=8192", "pmd_hit=on" },
	{ "get", "streams_max_kb", "streams_bytes", "--json" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return fk_init() ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz fz = { data, size };
	unsigned int k = fz_u8(&fz) % N(commands), nf = fz_u8(&fz) % 4;
	char *argv[8] = { "rapolicyctl" }, *out, *err, path[256];
	int argc = 1, rc;

	fk_reset();
	for (unsigned int i = 0; i < nf; i++) {
		const char *f = files[fz_u8(&fz) % N(files)];
		char *text = fz_chunk(&fz, 0);
		FILE *fp;

		snprintf(path, sizeof(path), "%s/sys/kernel/mm/rapolicy/%s", fk_root, f);
		fp = fopen(path, "w");
		if (fp) {
			fputs(text, fp);
			fclose(fp);
		}
		free(text);
	}
	while (argc < 6 && commands[k][argc - 1]) {
		argv[argc] = (char *)commands[k][argc - 1];
		argc++;
	}
	rc = fk_run(argc, argv, &out, &err);
	FZ_CHECK(rc >= 0 && rc <= 2, "exit %d", rc);
	FZ_CHECK(fk_messages_ok(err), "stderr: %s", err);
	if (rc == 0 && strstr(argv[argc - 1], "json")) {
		json_t *j = json_loads(out, 0, NULL);

		FZ_CHECK(j, "not JSON: %s", out);
		json_decref(j);
	}
	free(out);
	free(err);
	return 0;
}
