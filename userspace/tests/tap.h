/* SPDX-License-Identifier: GPL-2.0 */
/* TAP output of the host unit tests: one line per check, a plan at the end */
#ifndef RAP_TAP_H
#define RAP_TAP_H

void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void skip(const char *why);
/* Print the plan; 1 if any check failed, else 0 (the exit status) */
int tap_done(void);

#endif /* RAP_TAP_H */
