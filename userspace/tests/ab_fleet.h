/* SPDX-License-Identifier: GPL-2.0 */
/* ab_sim's fleet part: ab_fleet.c */
#ifndef AB_FLEET_H
#define AB_FLEET_H

#include <stdio.h>

/* The fleet's table into tab, its checks as TAP */
void fleet_table(FILE *tab);
/*
 * A promtool test of the rules file RULES into FILE: fixed hosts'
 * series, and the values fleet.c computes from them, which the rules
 * must give within 1e-6 relative
 */
int fleet_rules_test(const char *file, const char *rules);

#endif /* AB_FLEET_H */
