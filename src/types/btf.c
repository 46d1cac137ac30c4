// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF loader (libbpf): raw BTF (/sys/kernel/btf/vmlinux, module BTF split
 * on top of vmlinux) and ELF .BTF sections. BTF has no alignment attribute,
 * so forced alignment is inferred from holes the way pahole does it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "types/types_internal.h"

#ifdef HAVE_LIBBPF
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "util/xalloc.h"

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"
#define INFER_CACHELINE 64

struct btf_ctx {
	const struct btf *btf;
	struct type_db *db;
	struct type **by_id;
	bool *shallow;
	uint32_t nr_ids;
	bool lazy_pointees;
	unsigned int depth;
	bool failed;
};

static const struct type *btf_to_type(struct btf_ctx *ctx, uint32_t id, bool full);

static const char *btf_name(struct btf_ctx *ctx, uint32_t name_off)
{
	const char *name = btf__name_by_offset(ctx->btf, name_off);

	return name && *name ? type_db_intern(ctx->db, name) : NULL;
}

static enum type_kind kind_of(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		return TYPE_BASE;
	case BTF_KIND_PTR:
		return TYPE_POINTER;
	case BTF_KIND_ARRAY:
		return TYPE_ARRAY;
	case BTF_KIND_STRUCT:
		return TYPE_STRUCT;
	case BTF_KIND_UNION:
		return TYPE_UNION;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return TYPE_ENUM;
	case BTF_KIND_FWD:
		return TYPE_FWD;
	case BTF_KIND_TYPEDEF:
		return TYPE_TYPEDEF;
	case BTF_KIND_VOLATILE:
		return TYPE_VOLATILE;
	case BTF_KIND_CONST:
		return TYPE_CONST;
	case BTF_KIND_RESTRICT:
		return TYPE_RESTRICT;
	case BTF_KIND_FUNC_PROTO:
		return TYPE_FUNC;
	default:
		return TYPE_VOID;
	}
}

static enum base_encoding int_encoding(const struct btf_type *t)
{
	uint8_t enc;

	if (btf_kind(t) == BTF_KIND_FLOAT)
		return BASE_FLOAT;
	enc = btf_int_encoding(t);
	if (enc & BTF_INT_BOOL)
		return BASE_BOOL;
	if (enc & BTF_INT_CHAR)
		return enc & BTF_INT_SIGNED ? BASE_SIGNED_CHAR : BASE_UNSIGNED_CHAR;
	return enc & BTF_INT_SIGNED ? BASE_SIGNED : BASE_UNSIGNED;
}

/*
 * pahole's inference: a member that starts after a hole at an even offset is
 * taken to be aligned to the power of two above the hole's size, when that
 * is more than its natural alignment (rounded up to the cache line when the
 * offset is cache-line aligned).
 */
static uint32_t infer_alignment(uint64_t offset, uint32_t natural, uint64_t smallest)
{
	uint64_t delta = offset > smallest ? offset - smallest : 0;
	uint32_t align = 0;

	if (delta && offset % 2 == 0 && delta < (1ULL << 31))
		align = 1U << (32 - __builtin_clz((uint32_t)delta));
	if (align <= natural || align == 1)
		return 0;
	if (align < INFER_CACHELINE && INFER_CACHELINE % align == 0 &&
	    offset % INFER_CACHELINE == 0)
		align = INFER_CACHELINE;
	return align;
}

static void infer_aggregate_alignment(struct type *t)
{
	uint64_t smallest = 0;
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		struct type_member *m = &t->members[i];
		uint64_t size = type_size(m->type), offset = m->offset;

		/* pahole skips zero-sized members: no alignment, no progress */
		if (!size)
			continue;
		if (m->bit_size)
			offset = m->bit_offset / (size * 8) * size; /* storage unit */
		m->alignment = infer_alignment(offset, type_natural_alignment(m->type), smallest);
		smallest = offset + size;
	}
	/* As pahole: natural means the members' types, not their forced alignment. */
	t->alignment = infer_alignment(t->size, type_natural_alignment(t), smallest);
}

static bool infer_packed(const struct type *t)
{
	uint32_t i, max_align = 1;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		uint32_t a = type_alignment(m->type);

		if (m->alignment > a)
			a = m->alignment;
		if (a > max_align)
			max_align = a;
		if (!m->bit_size && m->offset % a)
			return true;
	}
	return t->nr_members && t->size % max_align;
}

static void convert_members(struct btf_ctx *ctx, const struct btf_type *bt, struct type *t)
{
	const struct btf_member *bm = btf_members(bt);
	uint16_t i, n = btf_vlen(bt);
	struct type_member *m = type_db_add_members(ctx->db, t, n);

	for (i = 0; i < n; i++) {
		m[i].name = btf_name(ctx, bm[i].name_off);
		m[i].type = btf_to_type(ctx, bm[i].type, true);
		m[i].bit_offset = btf_member_bit_offset(bt, i);
		m[i].bit_size = btf_member_bitfield_size(bt, i);
		m[i].offset = m[i].bit_offset / 8;
	}
	infer_aggregate_alignment(t);
	t->packed = infer_packed(t);
}

static void convert_enum(struct btf_ctx *ctx, const struct btf_type *bt, struct type *t)
{
	uint16_t i, n = btf_vlen(bt);

	t->enumerators = type_db_alloc(ctx->db, (n ? n : 1) * sizeof(*t->enumerators));
	t->nr_enumerators = n;
	for (i = 0; i < n; i++) {
		if (btf_is_enum(bt)) {
			const struct btf_enum *e = btf_enum(bt) + i;

			t->enumerators[i].name = btf_name(ctx, e->name_off);
			t->enumerators[i].value = btf_kflag(bt) ? (int64_t)e->val :
								  (uint32_t)e->val;
		} else {
			const struct btf_enum64 *e = btf_enum64(bt) + i;

			t->enumerators[i].name = btf_name(ctx, e->name_off);
			t->enumerators[i].value = (int64_t)btf_enum64_value(e);
		}
	}
}

/* BTF nests multi-dimensional arrays; the model keeps one list of dims. */
static void convert_array(struct btf_ctx *ctx, const struct btf_type *bt, struct type *t)
{
	const struct btf_array *a = btf_array(bt);
	uint32_t n = 1, elem = a->type, i;
	const struct btf_type *et = btf__type_by_id(ctx->btf, elem);

	while (et && btf_is_array(et) && n < 16) {
		n++;
		elem = btf_array(et)->type;
		et = btf__type_by_id(ctx->btf, elem);
	}
	t->dims = type_db_alloc(ctx->db, n * sizeof(*t->dims));
	t->nr_dims = n;
	t->dims[0] = a->nelems;
	et = btf__type_by_id(ctx->btf, a->type);
	for (i = 1; i < n; i++) {
		t->dims[i] = btf_array(et)->nelems;
		et = btf__type_by_id(ctx->btf, btf_array(et)->type);
	}
	t->target = btf_to_type(ctx, elem, true);
	t->size = type_size(t->target);
	for (i = 0; i < n; i++)
		t->size *= t->dims[i];
}

static void convert_func(struct btf_ctx *ctx, const struct btf_type *bt, struct type *t)
{
	const struct btf_param *p = btf_params(bt);
	uint16_t i, n = btf_vlen(bt);

	t->target = btf_to_type(ctx, bt->type, false);
	if (n && !p[n - 1].type && !p[n - 1].name_off) {
		t->variadic = true;
		n--;
	}
	t->params = type_db_alloc(ctx->db, (n ? n : 1) * sizeof(*t->params));
	t->nr_params = n;
	for (i = 0; i < n; i++)
		t->params[i] = btf_to_type(ctx, p[i].type, false);
}

static void fill_type(struct btf_ctx *ctx, const struct btf_type *bt, struct type *t)
{
	switch (t->kind) {
	case TYPE_BASE:
		t->size = bt->size;
		t->encoding = int_encoding(bt);
		break;
	case TYPE_POINTER:
		t->size = btf__pointer_size(ctx->btf) ? btf__pointer_size(ctx->btf) : 8;
		t->target = btf_to_type(ctx, bt->type, false);
		break;
	case TYPE_ARRAY:
		convert_array(ctx, bt, t);
		break;
	case TYPE_STRUCT:
	case TYPE_UNION:
		t->size = bt->size;
		convert_members(ctx, bt, t);
		break;
	case TYPE_ENUM:
		t->size = bt->size;
		convert_enum(ctx, bt, t);
		break;
	case TYPE_FUNC:
		convert_func(ctx, bt, t);
		break;
	case TYPE_TYPEDEF:
	case TYPE_CONST:
	case TYPE_VOLATILE:
	case TYPE_RESTRICT:
		t->target = btf_to_type(ctx, bt->type, true);
		break;
	default:
		break;
	}
}

/* TYPE_TAG is an annotation on a pointer's target: look through it. */
static uint32_t skip_type_tags(struct btf_ctx *ctx, uint32_t id)
{
	int n = 0;

	for (;;) {
		const struct btf_type *bt = btf__type_by_id(ctx->btf, id);

		if (!bt || btf_kind(bt) != BTF_KIND_TYPE_TAG || n++ > TYPE_MAX_DEPTH)
			return id;
		id = bt->type;
	}
}

static const struct type *btf_to_type(struct btf_ctx *ctx, uint32_t id, bool full)
{
	const struct btf_type *bt;
	struct type *t;

	id = skip_type_tags(ctx, id);
	if (!id || id >= ctx->nr_ids)
		return NULL; /* void */
	full = full || !ctx->lazy_pointees;
	t = ctx->by_id[id];
	if (t && (!full || !ctx->shallow[id]))
		return t;
	bt = btf__type_by_id(ctx->btf, id);
	if (!t) {
		t = type_db_add_raw(ctx->db, kind_of(bt), btf_name(ctx, bt->name_off));
		ctx->by_id[id] = t;
		type_db_set_ref(ctx->db, id, t);
		if (t->kind == TYPE_FWD)
			return t;
		if (!full && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION)) {
			t->size = bt->size;
			ctx->shallow[id] = true;
			return t;
		}
	}
	ctx->shallow[id] = false;
	if (ctx->depth >= 512) {
		ctx->failed = true;
		return t;
	}
	ctx->depth++;
	fill_type(ctx, bt, t);
	ctx->depth--;
	return t;
}

static int silent_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static struct btf *parse_btf(const char *path, struct btf **base, int *err)
{
	struct btf *btf;
	size_t len = strlen(path);

	errno = 0;
	btf = btf__parse(path, NULL);
	if (btf)
		return btf;
	*err = errno ? errno : EINVAL;
	/* Module BTF is split BTF on top of the kernel's. */
	if (strcmp(path, KERNEL_BTF) && len > 15 && !strncmp(path, "/sys/kernel/btf/", 16)) {
		*base = btf__parse_raw(KERNEL_BTF);
		if (*base) {
			btf = btf__parse_split(path, *base);
			if (btf)
				return btf;
		}
	}
	return NULL;
}

static void convert_all(struct btf_ctx *ctx)
{
	uint32_t id;

	for (id = 1; id < ctx->nr_ids && !ctx->failed; id++) {
		const struct btf_type *bt = btf__type_by_id(ctx->btf, id);
		const char *name;

		if (!btf_is_composite(bt))
			continue;
		name = btf__name_by_offset(ctx->btf, bt->name_off);
		if (name && *name && type_db_wants(ctx->db, name))
			btf_to_type(ctx, id, true);
	}
}

int type_db_load_btf(const char *path, const struct type_load_opts *opts, struct type_db **out,
		     struct c2c_err *err)
{
	libbpf_print_fn_t old_print = libbpf_set_print(silent_print);
	struct btf *btf, *base = NULL;
	struct btf_ctx ctx = { 0 };
	int code = 0;

	btf = parse_btf(path, &base, &code);
	libbpf_set_print(old_print);
	if (!btf) {
		btf__free(base);
		return c2c_err_set(err, code == ENOENT ? ENODATA : code,
				   "%s: corrupt or unsupported BTF: %s", path, strerror(code));
	}
	ctx.btf = btf;
	ctx.nr_ids = btf__type_cnt(btf);
	ctx.by_id = xcalloc(ctx.nr_ids, sizeof(*ctx.by_id));
	ctx.shallow = xcalloc(ctx.nr_ids, sizeof(*ctx.shallow));
	ctx.lazy_pointees = opts->only != NULL;
	ctx.db = type_db_new("BTF", path);
	if (opts->only)
		type_db_set_only(ctx.db, opts->only);
	convert_all(&ctx);
	free(ctx.by_id);
	free(ctx.shallow);
	btf__free(btf);
	btf__free(base);
	if (ctx.failed) {
		type_db_free(ctx.db);
		return c2c_err_set(err, ELOOP, "%s: corrupt BTF: types nest too deeply", path);
	}
	type_db_finish(ctx.db);
	*out = ctx.db;
	return 0;
}

#else /* !HAVE_LIBBPF */

int type_db_load_btf(const char *path, const struct type_load_opts *opts, struct type_db **out,
		     struct c2c_err *err)
{
	return c2c_err_set(err, ENOTSUP, "%s: BTF support is not built in (install libbpf-dev)",
			   path);
}

#endif
