/* SPDX-License-Identifier: GPL-2.0 */
/* ab_sim's fleet part: ab_fleet.c */
#ifndef AB_FLEET_H
#define AB_FLEET_H

#include <stdbool.h>
#include <stdio.h>

/*
 * The fleet's tables into tab, their checks as TAP: make check's rows,
 * or (full) the recorded grid of 2,000 runs a cell
 */
void fleet_table(FILE *tab, bool full);
/*
 * A promtool test of the rules file RULES into FILE: fixed hosts'
 * series, and the values fleet.c computes from them, which the rules
 * must give within 1e-6 relative
 */
int fleet_rules_test(const char *file, const char *rules);

#endif /* AB_FLEET_H */
