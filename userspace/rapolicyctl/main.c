// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: the dispatcher.
 */
#include <jansson.h>
#include <string.h>

#include "rapctl.h"

static int cmd_help(struct ctx *c, int argc, char **argv);

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
	{ "policies", cmd_policies, "each policy and number of the module's table, with its help" },
	{ "trace", cmd_trace, "which policy of which arm decided which windows, live" },
	{ "help", cmd_help, "this text, or 'help COMMAND [WORD...]': that command's" },
};
#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void help(FILE *f)
{
	fputs("Usage: rapolicyctl [--root DIR] COMMAND [ARGS]\n"
	      "       rapolicyctl --version | -V\n\n"
	      "Control rapolicy.ko, the mmap readahead policies (" RAP_DIR ").\n\n"
	      "Commands:\n", f);
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].what);
	fputs("\n'rapolicyctl COMMAND --help' describes each.  --root DIR reads and\n"
	      "writes DIR/sys and DIR/proc instead of /sys and /proc.\n"
	      "Exit status: 0 success, 1 error or drift, 2 bad usage or input.\n", f);
}

/* help [COMMAND [WORD...]]: what COMMAND [WORD...] --help prints */
static int cmd_help(struct ctx *c, int argc, char **argv)
{
	char *args[8];

	for (int i = 1; i < argc; i++) {
		if (is_help(argv[i]) || !strcmp(argv[i], "help")) {
			fputs("Usage: rapolicyctl help [COMMAND [WORD...]]\n\n"
			      "What 'rapolicyctl COMMAND [WORD...] --help' prints.\n\n", c->out);
			help(c->out);
			return RC_OK;
		}
	}
	if (argc == 1) {
		help(c->out);
		return RC_OK;
	}
	if (argc > 7)
		return usage(c, "help", "takes a COMMAND and 5 words at most");
	for (int i = 1; i < argc; i++)
		args[i - 1] = argv[i];
	args[argc - 1] = "--help";
	args[argc] = NULL;
	for (size_t k = 0; k < NR_COMMANDS; k++)
		if (!strcmp(argv[1], commands[k].name))
			return commands[k].fn(c, argc, args);
	return usage(c, "help", "unknown command '%s'", esc(argv[1]));
}

/* With --json, a failure that printed no JSON prints {"error", "exit"} */
static int run(struct ctx *c, size_t k, int argc, char **argv)
{
	unsigned int outs = json_outs();
	int ret;

	for (int i = 1; i < argc; i++)
		c->json |= !strcmp(argv[i], "--json");
	ret = commands[k].fn(c, argc, argv);
	if (ret && c->json && json_outs() == outs) {
		json_t *m = json_string(c->msg);

		json_out(c->out, json_pack("{s:o, s:i}", "error",
					   m ? m : json_string(esc_text(c->msg)), "exit", ret),
			 false);
	}
	return ret;
}

int rapctl_main(int argc, char **argv, FILE *out, FILE *err)
{
	struct ctx c = { out, err, false, "" };
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		int ret = opt_val(argc, argv, &i, "--root", &rap_root);

		if (ret < 0)
			return usage(&c, NULL, "--root needs a directory");
		if (!ret && is_help(argv[i])) {
			help(out);
			return RC_OK;
		}
		if (!ret && (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))) {
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
			return run(&c, k, argc - i, argv + i);
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
