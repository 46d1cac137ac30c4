// SPDX-License-Identifier: GPL-2.0
/*
 * The model type of a DWARF type DIE. The type model converts named structs
 * and unions and all they reach (type_db_by_ref on the DIE offset); the
 * types only variables use (a parameter's "struct pair *", a global's
 * "struct arg [8]", a function pointer) are made here, in a side db, from
 * the model's structs.
 */
#include <dwarf.h>
#include <stdlib.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

static const struct type *void_type(struct attrib *a)
{
	if (!a->void_type)
		a->void_type = type_db_add(a->extra, TYPE_VOID, NULL);
	return a->void_type;
}

static const struct type *target_of(struct attrib *a, Dwarf_Die *die, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die target;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &target))
		return void_type(a);
	return dwarf_type_of_die(a, &target, depth + 1);
}

static const struct type *make_array(struct attrib *a, Dwarf_Die *die, int depth)
{
	const struct type *elem = target_of(a, die, depth);
	uint64_t nr = 1, *dims;
	Dwarf_Attribute attr;
	uint32_t nr_dims = 0;
	struct type *t;
	Dwarf_Word w;
	Dwarf_Die c;

	if (!elem || !type_size(elem))
		return NULL;
	dims = xcalloc(8, sizeof(*dims));
	a->owned = xgrow(a->owned, &a->alloc_owned, a->nr_owned + 1, sizeof(*a->owned));
	a->owned[a->nr_owned++] = (char *)dims;
	if (dwarf_child(die, &c) == 0) {
		do {
			uint64_t d = 0;

			if (dwarf_tag(&c) != DW_TAG_subrange_type || nr_dims == 8)
				continue;
			if (dwarf_attr(&c, DW_AT_count, &attr) && !dwarf_formudata(&attr, &w))
				d = w;
			else if (dwarf_attr(&c, DW_AT_upper_bound, &attr) &&
				 !dwarf_formudata(&attr, &w))
				d = w + 1;
			dims[nr_dims++] = d;
			nr *= d;
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	t = type_db_add(a->extra, TYPE_ARRAY, NULL);
	t->target = elem;
	t->dims = dims;
	t->nr_dims = nr_dims ? nr_dims : 1;
	t->size = nr * type_size(elem);
	return t;
}

static const struct type *make_type(struct attrib *a, Dwarf_Die *die, int depth)
{
	Dwarf_Attribute attr;
	const struct type *target;
	const char *name = dwarf_diename(die);
	struct type *t;
	Dwarf_Word size = 0;

	switch (dwarf_tag(die)) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		return name ? type_db_find(a->types, name) : NULL;
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		/* Qualifiers and typedef names do not change what an offset names. */
		return target_of(a, die, depth);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		target = target_of(a, die, depth);
		t = type_db_add(a->extra, TYPE_POINTER, NULL);
		t->size = 8;
		t->target = target ? target : void_type(a);
		return t;
	case DW_TAG_array_type:
		return make_array(a, die, depth);
	case DW_TAG_subroutine_type:
		return type_db_add(a->extra, TYPE_FUNC, NULL);
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		if (dwarf_attr(die, DW_AT_byte_size, &attr))
			dwarf_formudata(&attr, &size);
		t = type_db_add(a->extra,
				dwarf_tag(die) == DW_TAG_base_type ? TYPE_BASE : TYPE_ENUM, name);
		t->size = size;
		return t;
	}
	return NULL;
}

const struct type *dwarf_type_of_die(struct attrib *a, Dwarf_Die *die, int depth)
{
	uint64_t ref = dwarf_dieoffset(die);
	const struct type *t = type_db_by_ref(a->types, ref);

	if (t)
		return t;
	t = hashmap_get(&a->extra_refs, ref);
	if (t || depth > 16)
		return t;
	t = make_type(a, die, depth);
	if (t)
		hashmap_put(&a->extra_refs, ref, (void *)t);
	return t;
}
