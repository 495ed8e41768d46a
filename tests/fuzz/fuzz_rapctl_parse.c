// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of what rapolicyctl parses from files: the input is a
 * saved state for 'apply' or a samples file for 'ab report --samples'.
 * Exit 0, 1 or 2 with messages in the tool's format; bad input (2)
 * writes nothing; a report's verdict is one of the documented ones.
 */
#include "fuzz_rapctl.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return fk_init() ? 1 : 0;
}

static bool verdict_ok(const char *out)
{
	static const char *const v[] = { "B better", "B worse",
					  "no difference detected at this power",
					  "not enough data", "invalid: settings changed",
					  "observational" };
	const char *p = strstr(out, "\nverdict: ");

	if (!p)
		return false;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strncmp(p + 10, v[i], strlen(v[i])))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128], *out, *err, *before, *after;
	bool report = size && (data[0] & 1);
	char *argv[] = { "rapolicyctl", report ? "ab" : "apply",
			 report ? "report" : path, "--samples", path, NULL };
	FILE *f;
	int rc;

	fk_reset();
	snprintf(path, sizeof(path), "%s/input", fk_root);
	f = fopen(path, "w");
	if (!f)
		abort();
	if (size)
		fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	before = fk_dump();
	rc = fk_run(report ? 5 : 3, argv, &out, &err);
	after = fk_dump();
	FZ_CHECK(rc >= 0 && rc <= 2, "exit %d", rc);
	FZ_CHECK(fk_messages_ok(err), "stderr: %s", err);
	FZ_CHECK(rc != 2 || !strcmp(before, after), "bad input but files changed: %s", err);
	FZ_CHECK(!report || rc || verdict_ok(out), "report without a verdict: %s", out);
	free(before);
	free(after);
	free(out);
	free(err);
	return 0;
}
