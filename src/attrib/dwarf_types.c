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

static uint64_t udata_of(Dwarf_Die *die, unsigned int name, bool *found)
{
	Dwarf_Attribute attr;
	Dwarf_Word w = 0;

	*found = dwarf_attr(die, name, &attr) && dwarf_formudata(&attr, &w) == 0;
	return w;
}

/*
 * An aggregate the model skipped: the anonymous struct behind
 * "typedef struct { ... } pthread_mutex_t" and its like.
 */
static const struct type *make_aggregate(struct attrib *a, Dwarf_Die *die, int depth)
{
	struct type_member *m;
	uint32_t n = 0, i = 0;
	struct type *t;
	Dwarf_Die c;
	bool found;

	if (dwarf_child(die, &c) == 0) {
		do
			n += dwarf_tag(&c) == DW_TAG_member;
		while (dwarf_siblingof(&c, &c) == 0);
	}
	t = type_db_add(a->extra, dwarf_tag(die) == DW_TAG_union_type ? TYPE_UNION : TYPE_STRUCT,
			dwarf_diename(die));
	t->size = udata_of(die, DW_AT_byte_size, &found);
	hashmap_put(&a->extra_refs, dwarf_dieoffset(die), t);
	m = type_db_add_members(a->extra, t, n);
	if (!n || dwarf_child(die, &c) != 0)
		return t;
	do {
		const char *name = dwarf_diename(&c);
		uint64_t v;

		if (dwarf_tag(&c) != DW_TAG_member || i == n)
			continue;
		m[i].name = name ? type_db_intern(a->extra, name) : NULL;
		m[i].type = target_of(a, &c, depth);
		v = udata_of(&c, DW_AT_data_bit_offset, &found);
		if (found) {
			m[i].bit_offset = v;
			m[i].offset = v / 8;
		} else {
			m[i].offset = udata_of(&c, DW_AT_data_member_location, &found);
			m[i].bit_offset = m[i].offset * 8;
		}
		m[i].bit_size = udata_of(&c, DW_AT_bit_size, &found);
		i++;
	} while (dwarf_siblingof(&c, &c) == 0);
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
		if (name && (target = type_db_find(a->types, name)))
			return target;
		if (dwarf_hasattr(die, DW_AT_declaration))
			return NULL;
		return make_aggregate(a, die, depth);
	case DW_TAG_typedef:
		/* Kept: it names an anonymous struct ("pthread_mutex_t"). */
		target = target_of(a, die, depth);
		if (!target)
			return NULL;
		t = type_db_add(a->extra, TYPE_TYPEDEF, name);
		t->target = target;
		return t;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		/* Qualifiers do not change what an offset names. */
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
