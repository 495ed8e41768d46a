// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of rapolicyctl's command line: the input, split at NUL
 * bytes, is argv for rapctl_main() against the fake module directory of
 * fake_sysfs.h (writes in memory).  Any argv must give exit 0, 1 or 2 with
 * messages in the tool's format; a usage error (2) writes nothing, and a
 * runtime error (1) leaves every file as it was unless the tool says some
 * stay changed.  argv with --interval is left out (it sleeps).
 */
#include "fake_sysfs.h"
#include "fuzz.h"

#define MAX_ARGS 16

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return fake_init() ? 1 : 0;
}

/* Every line of err starts with the program's name, or is usage text */
static bool messages_ok(const char *err)
{
	return !*err || !strncmp(err, "rapolicyctl: ", 13);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz fz = { data, size };
	char *argv[MAX_ARGS + 2], *own[MAX_ARGS + 2], *out, *err;
	bool skip = false;
	int argc = 1, rc, i;

	argv[0] = "rapolicyctl";
	while (fz.n && argc <= MAX_ARGS) {
		/* the subcommands move their operands around in argv */
		argv[argc] = own[argc] = fz_chunk(&fz, 0);
		skip |= strstr(own[argc], "--i") != NULL || !strcmp(own[argc], "reset");
		argc++;
	}
	argv[argc] = NULL;
	if (!skip) {
		fake_reset();
		fake_snapshot();
		rc = fake_run(argc, argv, &out, &err);
		FZ_CHECK(rc >= 0 && rc <= 2, "exit %d", rc);
		FZ_CHECK(messages_ok(err), "stderr: %s", err);
		FZ_CHECK(rc == 0 || *err, "exit %d without a message", rc);
		FZ_CHECK(rc != 2 || fake_unchanged(), "usage error but files changed: %s", err);
		FZ_CHECK(rc != 1 || strstr(err, "stay changed") || fake_unchanged(),
			 "failed but files changed: %s", err);
		free(out);
		free(err);
	}
	for (i = 1; i < argc; i++)
		free(own[i]);
	return 0;
}
