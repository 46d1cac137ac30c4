// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: JSON baselines (c2cscope check/diff --baseline). */
#include "fuzz_common.h"
#include "layout/baseline.h"
#include "layout/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("baseline.json", data, size);
	struct type_db *db;
	struct c2c_err err;
	size_t i;

	if (baseline_load(path, &db, &err) < 0)
		return 0;
	for (i = 0; i < type_db_nr_structs(db) && i < 64; i++) {
		struct layout *l;

		if (layout_analyze(type_db_struct(db, i), 64, &l, &err) == 0)
			layout_free(l);
	}
	type_db_free(db);
	return 0;
}
