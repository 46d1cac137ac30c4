// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: hotness files (c2cscope suggest --hotness). */
#include "fuzz_common.h"
#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("fuzz.hot", data, size);
	struct type_db *db = type_db_new("JSON", "fuzz");
	char *text = fuzz_string(data, size);
	const struct type *t = fuzz_struct(db, text, "fuzz.c");
	struct struct_profile *p;
	struct err_msg err;

	if (profile_parse_hotness(path, t, &p, &err) == 0)
		profile_free(p);
	free(text);
	type_db_free(db);
	return 0;
}
