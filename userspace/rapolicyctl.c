// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicyctl: the control tool of rapolicy.  See rapolicyctl(8).
 */
#include <stdio.h>

#include "rapctl.h"

int main(int argc, char **argv)
{
	int ret = rapctl_main(argc, argv, stdout, stderr);

	if (fflush(stdout) || ferror(stdout)) {
		perror("rapolicyctl: stdout");
		return RAPCTL_ERR;
	}
	return ret;
}
