// SPDX-License-Identifier: GPL-2.0
/*
 * DIE → type conversion. Only what layouts need is read: named structs and
 * unions and, transitively, the types of their members. Every converted DIE
 * is remembered under its offset in the db's reference map, which doubles
 * as the memo that breaks cycles (struct list_head *next).
 */
#include <dwarf.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "types/dwarf_internal.h"

static uint64_t die_ref(const struct dwarf_cu_ctx *ctx, Dwarf_Die *die)
{
	uint64_t off = dwarf_dieoffset(die);

	if (die->cu && dwarf_cu_getdwarf(die->cu) != ctx->dbg)
		off |= TYPE_DWARF_ALT_REF;
	return off;
}

static bool attr_udata(Dwarf_Die *die, unsigned int at, uint64_t *val)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;

	if (!dwarf_attr(die, at, &attr) || dwarf_formudata(&attr, &w))
		return false;
	*val = w;
	return true;
}

static bool attr_sdata(Dwarf_Die *die, unsigned int at, int64_t *val)
{
	Dwarf_Attribute attr;
	Dwarf_Sword w;

	if (!dwarf_attr(die, at, &attr) || dwarf_formsdata(&attr, &w))
		return false;
	*val = w;
	return true;
}

static const char *die_name(struct dwarf_cu_ctx *ctx, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);

	return name ? type_db_intern(ctx->db, name) : NULL;
}

/* The DIE's DW_AT_type, or false for void. */
static bool die_type_die(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, out);
}

static const struct type *die_target(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, bool full)
{
	Dwarf_Die tdie;

	if (!die_type_die(die, &tdie))
		return NULL;
	return type_dwarf_convert(ctx, &tdie, full);
}

/*
 * libdw (0.188) keeps the line tables of all units in one tsearch tree
 * without a lock; the loader's worker threads reach it through
 * dwarf_decl_file -> dwarf_getsrclines and corrupted it (a crash loading
 * libc's DWARF). One lock around the call; after a unit's first call its
 * files are cached, so the lock is held briefly.
 */
static pthread_mutex_t srclines_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * DW_AT_decl_file's name, under srclines_lock. libdw (0.188) takes index 0
 * as "no file", as DWARF 4 meant it, but in DWARF 5 it is the unit's
 * primary file, which clang names that way: read it from the unit's file
 * table then.
 */
static const char *decl_file(Dwarf_Die *die)
{
	Dwarf_Die cu;
	Dwarf_Files *files;
	Dwarf_Half version = 0;
	size_t nfiles;
	uint64_t idx;
	const char *file;

	pthread_mutex_lock(&srclines_lock);
	file = dwarf_decl_file(die);
	if (!file && attr_udata(die, DW_AT_decl_file, &idx) && idx == 0 &&
	    dwarf_cu_info(die->cu, &version, NULL, &cu, NULL, NULL, NULL, NULL) == 0 &&
	    version >= 5 && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 && nfiles)
		file = dwarf_filesrc(files, 0, NULL, NULL);
	pthread_mutex_unlock(&srclines_lock);
	return file;
}

/* Returns libdw's own string for the file, so members can compare pointers. */
static const char *die_decl(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, struct type *t)
{
	uint64_t line;
	const char *file;

	if (!ctx->want_decl)
		return NULL;
	file = decl_file(die);
	if (file)
		t->decl_file = type_db_intern(ctx->db, file);
	if (attr_udata(die, DW_AT_decl_line, &line))
		t->decl_line = (uint32_t)line;
	return file;
}

/*
 * A member's declaration site. libdw hands out one string per file of the
 * CU, so a member declared in its struct's file (nearly all) reuses the
 * struct's interned copy instead of interning again.
 */
static void member_decl(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, const struct type *parent,
			const char *parent_raw, struct type_member *m)
{
	uint64_t line;
	const char *file;

	if (!ctx->want_decl || !attr_udata(die, DW_AT_decl_line, &line))
		return;
	m->decl_line = (uint32_t)line;
	file = decl_file(die);
	if (file && file == parent_raw)
		m->decl_file = parent->decl_file;
	else if (file)
		m->decl_file = type_db_intern(ctx->db, file);
}

static enum base_encoding base_encoding(Dwarf_Die *die)
{
	uint64_t enc = 0;

	attr_udata(die, DW_AT_encoding, &enc);
	switch (enc) {
	case DW_ATE_boolean:
		return BASE_BOOL;
	case DW_ATE_float:
	case DW_ATE_complex_float:
	case DW_ATE_imaginary_float:
	case DW_ATE_decimal_float:
		return BASE_FLOAT;
	case DW_ATE_signed_char:
		return BASE_SIGNED_CHAR;
	case DW_ATE_unsigned_char:
		return BASE_UNSIGNED_CHAR;
	case DW_ATE_unsigned:
	case DW_ATE_UTF:
		return BASE_UNSIGNED;
	default:
		return BASE_SIGNED;
	}
}

static int member_location(Dwarf_Die *die, uint64_t *off)
{
	Dwarf_Attribute attr;
	Dwarf_Op *expr;
	size_t len;
	Dwarf_Word w;

	*off = 0;
	if (!dwarf_attr(die, DW_AT_data_member_location, &attr))
		return 0; /* union members */
	if (!dwarf_formudata(&attr, &w)) {
		*off = w;
		return 0;
	}
	if (dwarf_getlocation(&attr, &expr, &len) == 0 && len == 1 &&
	    (expr[0].atom == DW_OP_plus_uconst || expr[0].atom == DW_OP_constu)) {
		*off = expr[0].number;
		return 0;
	}
	return -EINVAL;
}

/*
 * Bit offset of a bitfield from the start of the struct, little-endian
 * numbering. DWARF 5 (and clang) give DW_AT_data_bit_offset directly; DWARF
 * 2-4 give DW_AT_bit_offset counted from the most significant bit of a
 * storage unit of DW_AT_byte_size bytes at DW_AT_data_member_location.
 */
static uint64_t bitfield_offset(Dwarf_Die *die, const struct type *type, uint64_t loc,
				uint64_t bit_size)
{
	uint64_t dbo, storage;
	int64_t msb_off;

	if (attr_udata(die, DW_AT_data_bit_offset, &dbo))
		return dbo;
	if (!attr_sdata(die, DW_AT_bit_offset, &msb_off))
		return loc * 8;
	if (!attr_udata(die, DW_AT_byte_size, &storage))
		storage = type_size(type);
	return (uint64_t)((int64_t)(loc * 8 + storage * 8) - msb_off - (int64_t)bit_size);
}

static int convert_member(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, struct type_member *m)
{
	uint64_t loc, bit_size = 0, align = 0;

	m->name = die_name(ctx, die);
	m->type = die_target(ctx, die, true);
	if (member_location(die, &loc))
		return -EINVAL;
	if (attr_udata(die, DW_AT_bit_size, &bit_size) && bit_size) {
		m->bit_size = (uint32_t)bit_size;
		m->bit_offset = bitfield_offset(die, m->type, loc, bit_size);
		m->offset = m->bit_offset / 8;
	} else {
		m->offset = loc;
		m->bit_offset = loc * 8;
	}
	if (attr_udata(die, DW_AT_alignment, &align))
		m->alignment = (uint32_t)align;
	return 0;
}

static uint32_t count_children(Dwarf_Die *die, int tag)
{
	Dwarf_Die child;
	uint32_t n = 0;

	if (dwarf_child(die, &child))
		return 0;
	do {
		if (dwarf_tag(&child) == tag)
			n++;
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

static int convert_aggregate(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, struct type *t)
{
	Dwarf_Die child;
	uint32_t n = count_children(die, DW_TAG_member), i = 0;
	uint64_t align;
	const char *raw_file;

	if (attr_udata(die, DW_AT_alignment, &align))
		t->alignment = (uint32_t)align;
	raw_file = die_decl(ctx, die, t);
	type_db_add_members(ctx->db, t, n);
	if (!n || dwarf_child(die, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_member || i >= n)
			continue;
		if (dwarf_hasattr(&child, DW_AT_external)) { /* C++ static member */
			t->nr_members--;
			continue;
		}
		member_decl(ctx, &child, t, raw_file, &t->members[i]);
		if (convert_member(ctx, &child, &t->members[i++]))
			return err_set(ctx->err, EINVAL,
				       "%s: DIE 0x%llx: member with an unsupported location",
				       ctx->path, (unsigned long long)dwarf_dieoffset(&child));
	} while (dwarf_siblingof(&child, &child) == 0);
	t->nr_members = i;
	t->packed = type_infer_packed(t, true);
	return 0;
}

static void convert_enum(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, struct type *t)
{
	Dwarf_Die child;
	uint32_t n = count_children(die, DW_TAG_enumerator), i = 0;

	die_decl(ctx, die, t);
	if (!n || dwarf_child(die, &child))
		return;
	t->enumerators = type_db_alloc(ctx->db, n * sizeof(*t->enumerators));
	do {
		Dwarf_Attribute attr;
		Dwarf_Sword s;

		if (dwarf_tag(&child) != DW_TAG_enumerator || i >= n)
			continue;
		t->enumerators[i].name = die_name(ctx, &child);
		if (dwarf_attr(&child, DW_AT_const_value, &attr) && !dwarf_formsdata(&attr, &s))
			t->enumerators[i].value = s;
		i++;
	} while (dwarf_siblingof(&child, &child) == 0);
	t->nr_enumerators = i;
}

/*
 * gcc spells the bound of a zero-length array as -1. Only a signed form can
 * say that: dwarf_formsdata sign-extends DW_FORM_data1..8 too, which would
 * read "char a[200]" (upper bound 199 in one byte) as -57.
 */
static bool upper_bound_is_negative(Dwarf_Die *die, int64_t *val)
{
	Dwarf_Attribute attr;
	uint64_t u;

	if (!dwarf_attr(die, DW_AT_upper_bound, &attr))
		return false;
	switch (dwarf_whatform(&attr)) {
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		return attr_sdata(die, DW_AT_upper_bound, val) && *val < 0;
	default:
		/* data8 all-ones is gcc's -1 in an unsigned form */
		return attr_udata(die, DW_AT_upper_bound, &u) && u == UINT64_MAX;
	}
}

static void convert_array(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, struct type *t)
{
	Dwarf_Die child;
	uint32_t n = count_children(die, DW_TAG_subrange_type), i = 0;
	uint64_t total = 1, byte_size;

	t->target = die_target(ctx, die, true);
	if (n && !dwarf_child(die, &child)) {
		t->dims = type_db_alloc(ctx->db, n * sizeof(*t->dims));
		do {
			uint64_t count = 0, upper, lower = 0;
			int64_t supper;

			if (dwarf_tag(&child) != DW_TAG_subrange_type || i >= n)
				continue;
			if (attr_udata(&child, DW_AT_count, &count)) {
				/* count as given */
			} else if (upper_bound_is_negative(&child, &supper)) {
				count = 0; /* gcc's [0]: upper bound -1 */
			} else if (attr_udata(&child, DW_AT_upper_bound, &upper)) {
				attr_udata(&child, DW_AT_lower_bound, &lower);
				count = upper >= lower ? upper - lower + 1 : 0;
			}
			t->dims[i++] = count;
			total *= count;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	t->nr_dims = i;
	if (attr_udata(die, DW_AT_byte_size, &byte_size))
		t->size = byte_size;
	else
		t->size = i ? total * type_size(t->target) : 0;
}

static void convert_func(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, struct type *t)
{
	Dwarf_Die child;
	uint32_t n = count_children(die, DW_TAG_formal_parameter), i = 0;

	t->target = die_target(ctx, die, false);
	if (dwarf_child(die, &child))
		return;
	if (n)
		t->params = type_db_alloc(ctx->db, n * sizeof(*t->params));
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_unspecified_parameters)
			t->variadic = true;
		else if (tag == DW_TAG_formal_parameter && i < n)
			t->params[i++] = die_target(ctx, &child, false);
	} while (dwarf_siblingof(&child, &child) == 0);
	t->nr_params = i;
}

static enum type_kind kind_of_tag(int tag, Dwarf_Die *die)
{
	switch (tag) {
	case DW_TAG_base_type:
		return TYPE_BASE;
	case DW_TAG_enumeration_type:
		return dwarf_hasattr(die, DW_AT_declaration) ? TYPE_FWD : TYPE_ENUM;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
		return TYPE_POINTER;
	case DW_TAG_array_type:
		return TYPE_ARRAY;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_hasattr(die, DW_AT_declaration))
			return TYPE_FWD;
		return tag == DW_TAG_union_type ? TYPE_UNION : TYPE_STRUCT;
	case DW_TAG_typedef:
		return TYPE_TYPEDEF;
	case DW_TAG_const_type:
		return TYPE_CONST;
	case DW_TAG_volatile_type:
		return TYPE_VOLATILE;
	case DW_TAG_restrict_type:
		return TYPE_RESTRICT;
	case DW_TAG_atomic_type:
		return TYPE_ATOMIC;
	case DW_TAG_subroutine_type:
		return TYPE_FUNC;
	default:
		return TYPE_VOID;
	}
}

static void fill_type(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, struct type *t)
{
	uint64_t size = 0;

	if (attr_udata(die, DW_AT_byte_size, &size))
		t->size = size;
	switch (t->kind) {
	case TYPE_BASE:
		t->encoding = base_encoding(die);
		break;
	case TYPE_ENUM:
		convert_enum(ctx, die, t);
		break;
	case TYPE_POINTER:
		if (!t->size)
			t->size = ctx->addr_size;
		t->target = die_target(ctx, die, false);
		break;
	case TYPE_ARRAY:
		convert_array(ctx, die, t);
		break;
	case TYPE_STRUCT:
	case TYPE_UNION:
		if (convert_aggregate(ctx, die, t))
			ctx->failed = true;
		break;
	case TYPE_FUNC:
		convert_func(ctx, die, t);
		break;
	case TYPE_TYPEDEF:
	case TYPE_CONST:
	case TYPE_VOLATILE:
	case TYPE_RESTRICT:
	case TYPE_ATOMIC:
		t->target = die_target(ctx, die, true);
		type_note_typedef(t);
		break;
	default:
		break;
	}
}

static char shallow_done;

static uint64_t mix(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ v) + 0x9e3779b97f4a7c15ULL;
}

static uint64_t mix_str(uint64_t h, const char *s)
{
	return mix(h, s ? hash_str(s) : 0);
}

/* A member type's shape: its tag and name, and one level below. */
static uint64_t type_shape(Dwarf_Die *member, uint64_t h)
{
	Dwarf_Die t, below;
	uint64_t size = 0;
	int i;

	if (!die_type_die(member, &t))
		return mix(h, 1);
	h = mix_str(mix(h, (uint64_t)dwarf_tag(&t)), dwarf_diename(&t));
	if (attr_udata(&t, DW_AT_byte_size, &size))
		h = mix(h, size);
	/* Through pointers, qualifiers and arrays down to a named type. */
	for (i = 0; i < 6 && !dwarf_diename(&t) && die_type_die(&t, &below); i++) {
		h = mix_str(mix(h, (uint64_t)dwarf_tag(&below)), dwarf_diename(&below));
		t = below;
	}
	return h;
}

/*
 * A cheap fingerprint of a named struct DIE: name, size, and per member its
 * name, location, bitfield attributes and type shape. The same header
 * struct met again in the next CU is then reused without converting it.
 */
static uint64_t struct_fingerprint(Dwarf_Die *die, const char *name)
{
	static const unsigned int attrs[] = { DW_AT_data_member_location, DW_AT_bit_size,
					      DW_AT_data_bit_offset, DW_AT_bit_offset,
					      DW_AT_alignment };
	uint64_t h = mix_str(mix(0, (uint64_t)dwarf_tag(die)), name), v;
	Dwarf_Die child;
	size_t i;

	if (attr_udata(die, DW_AT_byte_size, &v))
		h = mix(h, v);
	if (attr_udata(die, DW_AT_alignment, &v))
		h = mix(h, v + 1);
	if (dwarf_child(die, &child))
		return h;
	do {
		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		h = mix_str(h, dwarf_diename(&child));
		for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
			int64_t sv;

			if (attr_sdata(&child, attrs[i], &sv))
				h = mix(h, (uint64_t)sv ^ attrs[i]);
		}
		h = type_shape(&child, h);
	} while (dwarf_siblingof(&child, &child) == 0);
	return h;
}

static struct type *seen_struct(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, uint64_t *fp)
{
	const char *name = dwarf_diename(die);
	struct type *t;

	if (!name)
		return NULL;
	*fp = struct_fingerprint(die, name);
	t = hashmap_get(&ctx->seen, *fp);
	return t && !strcmp(t->name, name) ? t : NULL;
}

/*
 * FULL: a struct met through a pointer only needs its name when loading a
 * subset (-C); everything else is converted completely.
 */
/*
 * What the loaded model already has for DIE: the type converted from it,
 * or for a named struct or union definition the model's of that name.
 */
static const struct type *model_type(const struct dwarf_cu_ctx *ctx, Dwarf_Die *die, uint64_t ref)
{
	const struct type *t = NULL;
	int tag = dwarf_tag(die);
	const char *name;

	if (!strcmp(type_db_source(ctx->model), "DWARF"))
		t = type_db_by_ref(ctx->model, ref);
	if (t ||
	    (tag != DW_TAG_structure_type && tag != DW_TAG_union_type && tag != DW_TAG_class_type))
		return t;
	name = dwarf_diename(die);
	if (!name || dwarf_hasattr(die, DW_AT_declaration))
		return NULL;
	return type_db_find(ctx->model, name);
}

const struct type *type_dwarf_convert(struct dwarf_cu_ctx *ctx, Dwarf_Die *die, bool full)
{
	uint64_t ref = die_ref(ctx, die);
	struct type *t = (struct type *)type_db_by_ref(ctx->db, ref);
	const struct type *known;

	if (!t && ctx->model && (known = model_type(ctx, die, ref)))
		return known;

	full = full || !ctx->lazy_pointees;
	if (t) {
		if (!full || hashmap_get(&ctx->shallow, ref) != t)
			return t;
		hashmap_put(&ctx->shallow, ref, &shallow_done);
	} else {
		enum type_kind kind = kind_of_tag(dwarf_tag(die), die);
		uint64_t fp = 0;
		bool aggregate = kind == TYPE_STRUCT || kind == TYPE_UNION;

		if (aggregate && full && !ctx->lazy_pointees && ctx->dedupe) {
			t = seen_struct(ctx, die, &fp);
			if (t) {
				type_db_set_ref(ctx->db, ref, t);
				return t;
			}
		}
		t = type_db_add_raw(ctx->db, kind, die_name(ctx, die));
		t->fwd_union = kind == TYPE_FWD && dwarf_tag(die) == DW_TAG_union_type;
		type_db_set_ref(ctx->db, ref, t);
		if (fp)
			hashmap_put(&ctx->seen, fp, t);
		/* pahole prints a pointed-to anonymous struct inline: load it */
		if (!full && aggregate && t->name) {
			uint64_t size = 0;

			attr_udata(die, DW_AT_byte_size, &size);
			t->size = size;
			hashmap_put(&ctx->shallow, ref, t);
			return t;
		}
	}
	if (ctx->depth >= DWARF_MAX_DEPTH) {
		ctx->failed = true;
		err_set(ctx->err, ELOOP, "%s: DIE 0x%llx: types nest too deeply", ctx->path,
			(unsigned long long)dwarf_dieoffset(die));
		return t;
	}
	ctx->depth++;
	fill_type(ctx, die, t);
	ctx->depth--;
	return t;
}

const struct type *type_dwarf_type_at(const struct type_db *model, struct type_db *side,
				      struct Dwarf *dbg, uint64_t ref)
{
	struct err_msg err = { 0 };
	struct dwarf_cu_ctx ctx = {
		.dbg = dbg,
		.db = side,
		.model = model,
		.path = type_db_path(side),
		.err = &err,
	};
	Dwarf *in = ref & TYPE_DWARF_ALT_REF ? dwarf_getalt(dbg) : dbg;
	const struct type *t;
	uint8_t addr_size = 8, off_size;
	Dwarf_Die die, cu;

	if (!in || !dwarf_offdie(in, ref & ~TYPE_DWARF_ALT_REF, &die))
		return NULL;
	dwarf_diecu(&die, &cu, &addr_size, &off_size);
	ctx.addr_size = addr_size;
	hashmap_init(&ctx.shallow);
	hashmap_init(&ctx.seen);
	t = type_dwarf_convert(&ctx, &die, true);
	hashmap_release(&ctx.shallow);
	hashmap_release(&ctx.seen);
	return ctx.failed ? NULL : t;
}
