// SPDX-License-Identifier: GPL-2.0
/* Bitmaps: writing one as ranges, growing one (util/bitmap.h). */
#include "util/bitmap.h"

#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

bool bitmap_ranges(const uint64_t *map, size_t nr, struct strbuf *out)
{
	size_t n, start, before = out->len;

	for (n = 0; map && n < nr;) {
		if (!bitmap_test(map, n)) {
			n++;
			continue;
		}
		start = n;
		while (n + 1 < nr && bitmap_test(map, n + 1))
			n++;
		if (out->len > before)
			strbuf_addch(out, ',');
		if (n > start)
			strbuf_addf(out, "%zu-%zu", start, n);
		else
			strbuf_addf(out, "%zu", start);
		n++;
	}
	return out->len > before;
}

void bitmap_set_grow(uint64_t **map, size_t *words, size_t bit)
{
	size_t need = bit / 64 + 1;

	if (need > *words) {
		*map = xrealloc(*map, need * sizeof(**map));
		memset(*map + *words, 0, (need - *words) * sizeof(**map));
		*words = need;
	}
	bitmap_set(*map, bit);
}
