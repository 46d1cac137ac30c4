// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: our BTF reader, on a raw BTF file (as /sys/kernel/btf/vmlinux). */
#include "fuzz_common.h"
#include "types/types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("types.btf", data, size);
	struct type_load_opts opts = { .source = TYPE_SOURCE_BTF };
	struct type_db *db;
	struct err_msg err;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (type_db_load(path, &opts, &db, &err) < 0)
		return 0;
	for (i = 0; i < type_db_nr_structs(db) && i < 64; i++) {
		strbuf_reset(&sb);
		type_format_name(&sb, type_db_struct(db, i));
	}
	strbuf_release(&sb);
	type_db_free(db);
	return 0;
}
