// SPDX-License-Identifier: GPL-2.0
/*
 * Edit distance for "did you mean" suggestions (type names, variables,
 * fields). Stops early once a candidate cannot beat the best one.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/similar.h"
#include "util/xalloc.h"

static size_t edit_distance(const char *a, const char *b, size_t *row, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j;

	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], cost = a[i - 1] != b[j - 1];
			size_t v = diag + cost;

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (best > limit)
			return limit + 1;
	}
	return row[lb];
}

void similar_init(struct similar *s, const char *name)
{
	size_t len = strlen(name);

	*s = (struct similar){ .name = name, .limit = len / 3 > 2 ? len / 3 : 2 };
	s->best = s->limit + 1;
}

bool similar_offer(struct similar *s, const char *cand)
{
	size_t need = strlen(cand) + 2, d;

	if (need > s->row_len) {
		s->row = xrealloc(s->row, need * sizeof(*s->row));
		s->row_len = need;
	}
	d = edit_distance(s->name, cand, s->row, s->best - 1 < s->limit ? s->best - 1 : s->limit);
	if (d < s->best) {
		s->best = d;
		s->found = cand;
	}
	return s->best == 0;
}

const char *similar_done(struct similar *s)
{
	free(s->row);
	s->row = NULL;
	s->row_len = 0;
	return s->found;
}
