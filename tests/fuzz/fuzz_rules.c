// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the rules language (c2cscope check --rules). */
#include "fuzz_common.h"
#include "gate/gate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset *rs = ruleset_new();
	char *text = fuzz_string(data, size);
	struct err_msg err;

	/* a name in our own folder: includes resolve there, not in the cwd */
	if (ruleset_parse_string(rs, fuzz_file("fuzz.rules", data, 0), text, &err) == 0) {
		struct strbuf sb = STRBUF_INIT;
		size_t i, j;

		for (i = 0; i < ruleset_nr_blocks(rs); i++) {
			const struct rule_block *b = ruleset_block(rs, i);

			for (j = 0; j < b->nr_rules; j++)
				rule_format(&sb, &b->rules[j]);
		}
		strbuf_release(&sb);
	}
	free(text);
	ruleset_free(rs);
	return 0;
}
