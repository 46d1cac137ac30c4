/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress for long work: drawn on stderr only when stderr is a terminal
 * (and C2CSCOPE_PROGRESS is not "0"); silent when piped. Redraws at most
 * ten times a second, so calling progress_update in a hot loop is cheap.
 */
#ifndef C2C_UTIL_PROGRESS_H
#define C2C_UTIL_PROGRESS_H

#include <stdint.h>

struct progress;

/* total 0 means unknown: a counter is shown instead of a percentage. */
struct progress *progress_new(const char *title, uint64_t total);
void progress_update(struct progress *p, uint64_t done);
/* Clears the line; NULL is fine. */
void progress_free(struct progress *p);
/* Whether progress would be drawn at all (for callers that skip the work). */
int progress_enabled(void);

#endif
