// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: JSON baselines (c2cscope check/diff --baseline). */
#include "fuzz_common.h"
#include "gate/gate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("baseline.json", data, size);
	struct type_db *db;
	struct err_msg err;

	if (baseline_load(path, &db, &err) == 0)
		fuzz_layout_all(db);
	return 0;
}
