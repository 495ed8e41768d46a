// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of rapolicyctl's command line: the input, split at NUL
 * bytes, is argv for rapctl_main() on the fake tree.  Any argv must give
 * exit 0, 1 or 2 with messages in the tool's format, and a usage error
 * writes nothing.  Arguments that wait (--interval, --every, stdin "-")
 * are left out.
 */
#include "fuzz_rapctl.h"

#define MAX_ARGS 12

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
	char *argv[MAX_ARGS + 2], *own[MAX_ARGS + 2], *out, *err, *before;
	bool skip = false;
	int argc = 1, rc;

	argv[0] = "rapolicyctl";
	while (fz.n && argc <= MAX_ARGS) {
		argv[argc] = own[argc] = fz_chunk(&fz, 0);
		skip |= strstr(own[argc], "--i") || strstr(own[argc], "--e") ||
			strstr(own[argc], "--r") || !strcmp(own[argc], "-");
		argc++;
	}
	argv[argc] = NULL;
	if (!skip) {
		fk_reset();
		before = fk_dump();
		rc = fk_run(argc, argv, &out, &err);
		FZ_CHECK(rc >= 0 && rc <= 2, "exit %d", rc);
		FZ_CHECK(fk_messages_ok(err), "stderr: %s", err);
		FZ_CHECK(rc == 0 || *err || !strcmp(argv[1], "profile"), "exit %d without a message", rc);
		if (rc == 2) {
			char *after = fk_dump();

			FZ_CHECK(!strcmp(before, after), "usage error but files changed: %s", err);
			free(after);
		}
		free(before);
		free(out);
		free(err);
	}
	for (int i = 1; i < argc; i++)
		free(own[i]);
	return 0;
}
