/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layout diff: what changed in each struct between two type models (two
 * builds, or a build and a saved JSON baseline) in cache-line terms: size
 * and line deltas, members added, removed, moved and resized, holes and
 * padding, pairs of members that now share a cache line they did not share
 * before, and kernel cache-line groups that broke.
 *
 * Members are compared at the top level by name; anonymous members by
 * their order among anonymous members ("<anonymous #2>").
 */
#ifndef C2C_LAYOUT_LAYOUT_DIFF_H
#define C2C_LAYOUT_LAYOUT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types/types.h"
#include "util/err.h"

enum diff_change {
	DIFF_ADDED,
	DIFF_REMOVED,
	DIFF_MOVED, /* offset changed (perhaps size too) */
	DIFF_RESIZED, /* same offset, other size */
};

struct diff_member {
	enum diff_change change;
	char *name;
	uint64_t old_offset, new_offset; /* bytes; 0 for the side it is missing from */
	uint64_t old_size, new_size;
	uint64_t old_line, new_line;
};

/* Two members that share a cache line in NEW and did not in OLD. */
struct diff_shared {
	char *a, *b;
	uint64_t line; /* the line they share now (the first, if several) */
	uint64_t old_line_a, old_line_b;
};

struct diff_group {
	char *name;
	char *message; /* why it is broken now, or "removed" */
};

enum diff_struct_status {
	DIFF_STRUCT_CHANGED,
	DIFF_STRUCT_ONLY_OLD,
	DIFF_STRUCT_ONLY_NEW,
};

struct diff_struct {
	const char *name;
	enum diff_struct_status status;
	const struct type *old, *new;
	uint64_t old_size, new_size;
	uint64_t old_lines, new_lines;
	uint64_t old_holes, new_holes, old_sum_holes, new_sum_holes;
	uint64_t old_padding, new_padding;
	struct diff_member *members;
	size_t nr_members;
	struct diff_shared *shared;
	size_t nr_shared;
	struct diff_group *groups;
	size_t nr_groups;
};

struct layout_diff {
	struct diff_struct *structs; /* changed ones only, by name */
	size_t nr, alloc;
	unsigned int cacheline_size;
};

struct layout_diff_opts {
	unsigned int cacheline_size; /* 0: 64 */
	/* NULL-terminated fnmatch globs; NULL: every struct in either model */
	const char *const *only;
};

int layout_diff_compute(const struct type_db *old, const struct type_db *new,
			const struct layout_diff_opts *opts, struct layout_diff *out,
			struct c2c_err *err);
void layout_diff_release(struct layout_diff *d);

/* The --fail-on policies. */
enum {
	DIFF_FAIL_SIZE_GROWTH = 1 << 0,
	DIFF_FAIL_NEW_SHARED_LINE = 1 << 1,
	DIFF_FAIL_HOLE_GROWTH = 1 << 2,
	DIFF_FAIL_MOVED = 1 << 3,
};

/* Which policies of mask this struct's changes trip. */
unsigned int diff_struct_trips(const struct diff_struct *s, unsigned int mask);

#endif
