// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the ELF/DWARF layout path (our walker over libdw), then the layout of each struct. */
#include "fuzz_common.h"
#include "types/types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("object.o", data, size);
	struct type_load_opts opts = { .source = TYPE_SOURCE_DWARF, .threads = 1 };
	struct type_db *db;
	struct err_msg err;

	if (type_db_load(path, &opts, &db, &err) == 0)
		fuzz_layout_all(db);
	return 0;
}
