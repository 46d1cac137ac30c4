// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the C struct parser behind suggest --patch. The input
 * is the source file; the struct is the first "struct NAME" in it.
 */
#include "fuzz_common.h"
#include "suggest/suggest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct type_db *db = type_db_new("DWARF", "fuzz");
	char *text = fuzz_string(data, size);
	const struct type *t = fuzz_struct(db, text, "fuzz.c");
	struct src_struct *s;
	struct err_msg err;

	fuzz_file("fuzz.c", data, size);
	if (suggest_src_load(t, fuzz_dir(), &s, &err) == 0)
		suggest_src_free(s);
	free(text);
	type_db_free(db);
	return 0;
}
