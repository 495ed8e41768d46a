// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: the dispatcher.
 */
#include <string.h>

#include "rapctl.h"

static const struct {
	const char *name;
	int (*fn)(struct ctx *c, int argc, char **argv);
	const char *what;
} commands[] = {
	{ "status", cmd_status, "hooks, module, both arms, profile, A/B, counters" },
	{ "get", cmd_get, "print policies" },
	{ "set", cmd_set, "set policies of arm A, all or none" },
	{ "profile", cmd_profile, "list, apply or verify a profile" },
	{ "save", cmd_save, "print the whole state as JSON" },
	{ "apply", cmd_apply, "set the whole state from a saved file" },
	{ "stats", cmd_stats, "counters: text, JSON, Prometheus, per interval" },
	{ "ab", cmd_ab, "arm B, A/B assignment, A/B report" },
};
#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void help(FILE *f)
{
	fputs("Usage: rapolicyctl [--root DIR] COMMAND [ARGS]\n\n"
	      "Control rapolicy.ko, the mmap readahead policies (" RAP_DIR ").\n\n"
	      "Commands:\n", f);
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].what);
	fputs("\n'rapolicyctl COMMAND --help' describes each.  --root DIR reads and\n"
	      "writes DIR/sys and DIR/proc instead of /sys and /proc.\n"
	      "Exit status: 0 success, 1 error or drift, 2 bad usage or input.\n", f);
}

int rapctl_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct ctx c = { out, err };
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		int ret = opt_val(argc, argv, &i, "--root", &rap_root);

		if (ret < 0)
			return usage(&c, NULL, "--root needs a directory");
		if (!ret && is_help(argv[i])) {
			help(out);
			return RC_OK;
		}
		if (!ret && !strcmp(argv[i], "--version")) {
			fprintf(out, "rapolicyctl %s\n", RAPOLICY_VERSION);
			return RC_OK;
		}
		if (!ret)
			return usage(&c, NULL, "unknown option '%s'", esc(argv[i]));
		i++;
	}
	if (i == argc)
		return usage(&c, NULL, "needs a command");
	for (size_t k = 0; k < NR_COMMANDS; k++)
		if (!strcmp(argv[i], commands[k].name))
			return commands[k].fn(&c, argc - i, argv + i);
	return usage(&c, NULL, "unknown command '%s'", esc(argv[i]));
}

#ifndef RAPCTL_NO_MAIN
int main(int argc, char **argv)
{
	int ret = rapctl_main(argc, argv, stdout, stderr);

	if (fflush(stdout) || ferror(stdout))
		return RC_ERR;
	return ret;
}
#endif
