/* SPDX-License-Identifier: GPL-2.0 */
/* c2cscope suggest --patch (suggest_patch.c), called from suggest.c. */
#ifndef C2C_SUGGEST_PATCH_H
#define C2C_SUGGEST_PATCH_H

#include <stdbool.h>

#include "cmd.h"
#include "profile/profile.h"
#include "suggest/suggest.h"
#include "types/types.h"

struct suggest_patch_args {
	const struct type *t;
	const struct struct_profile *prof;
	const struct proposer *pr; /* proposals without source constraints */
	const struct propose_opts *opts; /* the options pr was made with */
	const char *source_dir; /* NULL: the current directory */
	unsigned int cacheline_size;
	bool isolate; /* patch the isolate option instead of reorder */
	const struct proposal **chosen; /* out: the option patched (may be NULL) */
	struct proposer **keep; /* out: a constrained proposer to free later */
};

/* Print the diff (exit 0), or why not and the moves (1), or an input error (2). */
int suggest_patch(const struct suggest_patch_args *a, struct c2c_err *err);

#endif
