// SPDX-License-Identifier: GPL-2.0
/*
 * fake_tree create DIR [VERSION [LACKING]] | settle DIR: the tests' fake
 * module tree; LACKING as fake_tree_create() takes it.
 */
#include <stdio.h>
#include <string.h>

#include "fake_tree.h"

int main(int argc, char **argv)
{
	int ret;

	if (argc >= 3 && !strcmp(argv[1], "create"))
		ret = fake_tree_create(argv[2], argc > 3 ? argv[3] : RAPOLICY_VERSION,
				       argc > 4 ? argv[4] : NULL);
	else if (argc == 3 && !strcmp(argv[1], "settle"))
		ret = fake_tree_settle(argv[2]);
	else
		return fprintf(stderr, "usage: fake_tree create DIR [VERSION [LACKING]] | settle DIR\n"), 2;
	if (ret)
		fprintf(stderr, "fake_tree: %s: %s\n", argv[2], strerror(-ret));
	return ret ? 1 : 0;
}
