/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of src/layout, shared by its files only. */
#ifndef C2C_LAYOUT_LAYOUT_INT_H
#define C2C_LAYOUT_LAYOUT_INT_H

#include "layout/layout.h"

struct layout {
	const struct type *type;
	unsigned int cacheline_size;
	struct layout_summary sum;
	struct layout_member *members;
	struct layout_group *groups;
	uint32_t nr_groups;
};

/* pahole's member geometry: storage-unit offset, size and bit position. */
void layout_member_geometry(const struct type_member *m, uint64_t *offset, uint64_t *size,
			    uint32_t *bitfield_offset);

/*
 * Holes of a struct as pahole's class__find_holes computes them. members
 * may be NULL (only the summary's hole/padding fields are filled).
 */
void layout_find_holes(const struct type *t, struct layout_member *members,
		       struct layout_summary *sum);

/* pahole's class__infer_packed_attributes for struct t (false for unions). */
bool layout_infer_packed(const struct type *t);

/* Tail padding of a struct type (0 for anything else). */
uint64_t layout_struct_padding(const struct type *t);

#endif
