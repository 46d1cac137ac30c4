/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean": the closest of many names to one the user typed, by edit
 * distance (insertions, deletions, substitutions).
 */
#ifndef C2C_UTIL_SIMILAR_H
#define C2C_UTIL_SIMILAR_H

#include <stdbool.h>
#include <stddef.h>

struct similar {
	const char *name; /* what the user typed */
	size_t limit; /* the most edits a suggestion may need */
	size_t best; /* edits of the best candidate so far (limit + 1: none) */
	const char *found; /* the best candidate, or NULL */
	size_t *row; /* work row, grown as candidates need */
	size_t row_len;
};

/* Start a search for NAME: a third of its length in edits, at least 2. */
void similar_init(struct similar *s, const char *name);
/* Offer a candidate; returns true when it is an exact match. */
bool similar_offer(struct similar *s, const char *cand);
/* The best candidate (NULL when none is close); frees the work row. */
const char *similar_done(struct similar *s);

#endif
