/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the layout gate: member resolution shared by its files. */
#ifndef C2C_GATE_GATE_INT_H
#define C2C_GATE_GATE_INT_H

#include "gate/gate.h"
#include "util/strbuf.h"

struct gate_members {
	struct gate_member *v;
	size_t nr, alloc;
};

void gate_set_lines(struct gate_member *gm, unsigned int cl);
/* Resolve "a.b" in root; -ENOENT with a reason appended to why. */
int gate_resolve(const struct type *root, const char *path, unsigned int cl,
		 struct gate_member *out, struct strbuf *why);
void gate_members_add(struct gate_members *list, const char *prefix, const char *name,
		      uint64_t offset, uint64_t size, unsigned int cl);
void gate_members_release(struct gate_members *list);
/* Members (with bytes) that are not PATH, inside it or around it. */
void gate_neighbours(struct gate_members *list, const struct type *root, const char *path,
		     unsigned int cl);

/* Top-level member i of t ("<anonymous>" when it has no name). */
void gate_member_at(const struct type *t, uint32_t i, unsigned int cl, struct gate_member *out);

/* holes (may be NULL) gets the member after which each hole opens. */
int gate_stats(const struct type *t, unsigned int cl, struct gate_stats *st,
	       struct gate_members *holes);

#endif
