// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF loader: raw BTF (/sys/kernel/btf/vmlinux, module BTF split on top
 * of vmlinux) and ELF .BTF sections, read in place by btf_data.c (libbpf
 * copies the whole file, and faulting in that copy cost more than all the
 * rest of `layout -C`). BTF has no alignment attribute,
 * so forced alignment is inferred from holes the way pahole does it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "types/types_internal.h"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include "types/btf_data.h"
#include "util/hashmap.h"
#include "util/xalloc.h"

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"
#define INFER_CACHELINE 64

struct btf_ctx {
	const struct btf_data *btf;
	struct type_db *db;
	uint8_t *shallow; /* bitmap over ids: struct loaded without members */
	uint32_t nr_ids;
	bool lazy_pointees;
	unsigned int depth;
	bool failed;
	const char *cycle; /* a struct that holds itself by value */
	uint32_t array_cycle; /* an array type that is its own element */
	struct type **aggregates; /* converted with members, for infer_struct */
	size_t nr_aggregates, alloc_aggregates;
	struct hashmap inferred;
};

static const struct type *btf_to_type(struct btf_ctx *ctx, uint32_t id, bool full);

/* Names point into the BTF, which lives as long as the db: no copies. */
static const char *btf_name(struct btf_ctx *ctx, uint32_t name_off)
{
	const char *name = type_btf_str(ctx->btf, name_off);

	return *name ? name : NULL;
}

static enum type_kind kind_of(const struct btf_rec *t)
{
	switch (btf_rec_kind(t)) {
	case BTFK_INT:
	case BTFK_FLOAT:
		return TYPE_BASE;
	case BTFK_PTR:
		return TYPE_POINTER;
	case BTFK_ARRAY:
		return TYPE_ARRAY;
	case BTFK_STRUCT:
		return TYPE_STRUCT;
	case BTFK_UNION:
		return TYPE_UNION;
	case BTFK_ENUM:
	case BTFK_ENUM64:
		return TYPE_ENUM;
	case BTFK_FWD:
		return TYPE_FWD;
	case BTFK_TYPEDEF:
		return TYPE_TYPEDEF;
	case BTFK_VOLATILE:
		return TYPE_VOLATILE;
	case BTFK_CONST:
		return TYPE_CONST;
	case BTFK_RESTRICT:
		return TYPE_RESTRICT;
	case BTFK_FUNC_PROTO:
		return TYPE_FUNC;
	default:
		return TYPE_VOID;
	}
}

static enum base_encoding int_encoding(const struct btf_rec *t)
{
	uint32_t enc;

	if (btf_rec_kind(t) == BTFK_FLOAT)
		return BASE_FLOAT;
	enc = (btf_rec_data(t)[0] >> 24) & 0x0f;
	if (enc & BTF_INT_BOOL_BIT)
		return BASE_BOOL;
	if (enc & BTF_INT_CHAR_BIT)
		return enc & BTF_INT_SIGNED_BIT ? BASE_SIGNED_CHAR : BASE_UNSIGNED_CHAR;
	return enc & BTF_INT_SIGNED_BIT ? BASE_SIGNED : BASE_UNSIGNED;
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

/*
 * Infer after everything is converted: a struct met again through a cycle
 * (a pointer back to it from a member's function type) is only half built
 * while its members are still converting, and sizes read then are 0.
 * Nested structs first: the parent's packing reads their alignment.
 */
static void infer_struct(struct btf_ctx *ctx, struct type *t, unsigned int depth)
{
	uint32_t i;

	if (hashmap_get(&ctx->inferred, (uintptr_t)t) || depth > TYPE_MAX_DEPTH)
		return;
	hashmap_put(&ctx->inferred, (uintptr_t)t, t);
	for (i = 0; i < t->nr_members; i++) {
		const struct type *mt = type_strip(t->members[i].type);
		unsigned int n = 0;

		while (mt && mt->kind == TYPE_ARRAY && n++ < TYPE_MAX_DEPTH)
			mt = type_strip(mt->target);
		if (mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
			infer_struct(ctx, (struct type *)mt, depth + 1);
	}
	infer_aggregate_alignment(t);
	t->packed = type_infer_packed(t, false);
}

static void convert_members(struct btf_ctx *ctx, const struct btf_rec *bt, struct type *t)
{
	const uint32_t *bm = btf_rec_data(bt); /* name_off, type, offset */
	uint16_t i, n = btf_rec_vlen(bt);
	struct type_member *m = type_db_add_members(ctx->db, t, n);

	for (i = 0; i < n; i++, bm += 3) {
		m[i].name = btf_name(ctx, bm[0]);
		m[i].type = btf_to_type(ctx, bm[1], true);
		/* kind_flag: bitfield size in the top 8 bits of the offset */
		m[i].bit_offset = btf_rec_kflag(bt) ? bm[2] & 0xffffff : bm[2];
		m[i].bit_size = btf_rec_kflag(bt) ? bm[2] >> 24 : 0;
		m[i].offset = m[i].bit_offset / 8;
	}
	ctx->aggregates = xgrow(ctx->aggregates, &ctx->alloc_aggregates, ctx->nr_aggregates + 1,
				sizeof(*ctx->aggregates));
	ctx->aggregates[ctx->nr_aggregates++] = t;
}

static void convert_enum(struct btf_ctx *ctx, const struct btf_rec *bt, struct type *t)
{
	const uint32_t *e = btf_rec_data(bt);
	bool is64 = btf_rec_kind(bt) == BTFK_ENUM64;
	uint16_t i, n = btf_rec_vlen(bt);

	t->enumerators = type_db_alloc(ctx->db, (n ? n : 1) * sizeof(*t->enumerators));
	t->nr_enumerators = n;
	for (i = 0; i < n; i++, e += is64 ? 3 : 2) {
		t->enumerators[i].name = btf_name(ctx, e[0]);
		if (is64) /* name_off, val_lo32, val_hi32 */
			t->enumerators[i].value = (int64_t)((uint64_t)e[2] << 32 | e[1]);
		else /* kind_flag: signed values */
			t->enumerators[i].value = btf_rec_kflag(bt) ? (int64_t)(int32_t)e[1] :
								      (int64_t)e[1];
	}
}

/* name_off/info/type and then type, index_type, nelems */
static const uint32_t *array_of(const struct btf_rec *t)
{
	return t && btf_rec_kind(t) == BTFK_ARRAY ? btf_rec_data(t) : NULL;
}

/* Whether the element chain of array t (through typedefs) comes back to t. */
static bool array_holds_itself(const struct type *t)
{
	const struct type *mt = type_strip(t->target);
	unsigned int n = 0;

	for (; mt && mt->kind == TYPE_ARRAY; mt = type_strip(mt->target))
		if (mt == t || ++n > TYPE_MAX_DEPTH)
			return true;
	return false;
}

/* BTF nests multi-dimensional arrays; the model keeps one list of dims. */
static void convert_array(struct btf_ctx *ctx, const struct btf_rec *bt, struct type *t)
{
	const uint32_t *a = btf_rec_data(bt), *inner;
	uint32_t n = 1, elem = a[0], i;

	while ((inner = array_of(type_btf_type(ctx->btf, elem))) && n < 16) {
		n++;
		elem = inner[0];
	}
	t->dims = type_db_alloc(ctx->db, n * sizeof(*t->dims));
	t->nr_dims = n;
	for (i = 0, inner = a; i < n; i++) {
		t->dims[i] = inner[2];
		inner = array_of(type_btf_type(ctx->btf, inner[0]));
	}
	t->target = btf_to_type(ctx, elem, true);
	if (array_holds_itself(t)) { /* fuzz_btf found one: walks over it never end */
		ctx->failed = true;
		ctx->array_cycle = elem;
		t->target = NULL;
	}
	t->size = type_size(t->target);
	for (i = 0; i < n; i++)
		t->size *= t->dims[i];
}

static void convert_func(struct btf_ctx *ctx, const struct btf_rec *bt, struct type *t)
{
	const uint32_t *p = btf_rec_data(bt); /* name_off, type */
	uint16_t i, n = btf_rec_vlen(bt);

	t->target = btf_to_type(ctx, bt->size_type, false);
	if (n && !p[2 * (n - 1) + 1] && !p[2 * (n - 1)]) {
		t->variadic = true;
		n--;
	}
	t->params = type_db_alloc(ctx->db, (n ? n : 1) * sizeof(*t->params));
	t->nr_params = n;
	for (i = 0; i < n; i++)
		t->params[i] = btf_to_type(ctx, p[2 * i + 1], false);
}

static void fill_type(struct btf_ctx *ctx, const struct btf_rec *bt, struct type *t)
{
	switch (t->kind) {
	case TYPE_BASE:
		t->size = bt->size_type;
		t->encoding = int_encoding(bt);
		break;
	case TYPE_POINTER:
		t->size = 8;
		t->target = btf_to_type(ctx, bt->size_type, false);
		break;
	case TYPE_ARRAY:
		convert_array(ctx, bt, t);
		break;
	case TYPE_STRUCT:
	case TYPE_UNION:
		t->size = bt->size_type;
		convert_members(ctx, bt, t);
		break;
	case TYPE_ENUM:
		t->size = bt->size_type;
		convert_enum(ctx, bt, t);
		break;
	case TYPE_FUNC:
		convert_func(ctx, bt, t);
		break;
	case TYPE_TYPEDEF:
	case TYPE_CONST:
	case TYPE_VOLATILE:
	case TYPE_RESTRICT:
		t->target = btf_to_type(ctx, bt->size_type, true);
		type_note_typedef(t);
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
		const struct btf_rec *bt = type_btf_type(ctx->btf, id);

		if (!bt || btf_rec_kind(bt) != BTFK_TYPE_TAG || n++ > TYPE_MAX_DEPTH)
			return id;
		id = bt->size_type;
	}
}

static bool is_shallow(struct btf_ctx *ctx, uint32_t id)
{
	return ctx->shallow[id / 8] & (1U << (id % 8));
}

static void set_shallow(struct btf_ctx *ctx, uint32_t id, bool on)
{
	if (on)
		ctx->shallow[id / 8] |= (uint8_t)(1U << (id % 8));
	else
		ctx->shallow[id / 8] &= (uint8_t) ~(1U << (id % 8));
}

static const struct type *btf_to_type(struct btf_ctx *ctx, uint32_t id, bool full)
{
	const struct btf_rec *bt;
	struct type *t;

	id = skip_type_tags(ctx, id);
	if (!id || id >= ctx->nr_ids)
		return NULL; /* void */
	full = full || !ctx->lazy_pointees;
	/* The db's reference map is the id -> type map; the db owns t. */
	t = (struct type *)type_db_by_ref(ctx->db, id);
	if (t && (!full || !is_shallow(ctx, id)))
		return t;
	bt = type_btf_type(ctx->btf, id);
	if (!t) {
		t = type_db_add_raw(ctx->db, kind_of(bt), btf_name(ctx, bt->name_off));
		type_db_set_ref(ctx->db, id, t);
		if (t->kind == TYPE_FWD) {
			t->fwd_union = btf_rec_kflag(bt); /* kind_flag: union */
			return t;
		}
		/* pahole prints a pointed-to anonymous struct inline: load it */
		if (!full && t->name && (t->kind == TYPE_STRUCT || t->kind == TYPE_UNION)) {
			t->size = bt->size_type;
			set_shallow(ctx, id, true);
			return t;
		}
	}
	set_shallow(ctx, id, false);
	if (ctx->depth >= 512) {
		ctx->failed = true;
		return t;
	}
	ctx->depth++;
	fill_type(ctx, bt, t);
	ctx->depth--;
	return t;
}

static void convert_all(struct btf_ctx *ctx)
{
	const struct btf_rec *bt;
	uint32_t id;

	for (bt = type_btf_next(ctx->btf, NULL, &id); bt && !ctx->failed;
	     bt = type_btf_next(ctx->btf, bt, &id)) {
		const char *name;

		name = btf_name(ctx, bt->name_off);
		if (btf_rec_kind(bt) == BTFK_TYPEDEF) {
			if (type_db_wants_typedef(ctx->db, name))
				btf_to_type(ctx, id, true);
			continue;
		}
		if (btf_rec_kind(bt) != BTFK_STRUCT && btf_rec_kind(bt) != BTFK_UNION)
			continue;
		if (name && type_db_wants(ctx->db, name))
			btf_to_type(ctx, id, true);
	}
}

/* What the db keeps alive: names point into the BTF bytes. */
struct btf_source {
	struct btf_data *btf, *base;
	Elf *elf;
	int fd;
};

static void btf_source_free(void *arg)
{
	struct btf_source *src = arg;

	type_btf_close(src->btf);
	type_btf_close(src->base);
	if (src->elf)
		elf_end(src->elf);
	if (src->fd >= 0)
		close(src->fd);
	free(src);
}

static int open_elf_btf(struct btf_source *src, const char *path, bool sparse, struct err_msg *err)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	src->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	src->elf = elf_begin(src->fd, ELF_C_READ_MMAP, NULL);
	if (!src->elf || elf_getshdrstrndx(src->elf, &shstrndx))
		return err_set(err, ENOEXEC, "%s: corrupt ELF file: %s", path, elf_errmsg(-1));
	while ((scn = elf_nextscn(src->elf, scn))) {
		GElf_Shdr shdr;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(src->elf, shstrndx, shdr.sh_name);
		if (!name || strcmp(name, ".BTF"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			return err_set(err, EINVAL, "%s: unreadable .BTF section: %s", path,
				       elf_errmsg(-1));
		return type_btf_parse(d->d_buf, d->d_size, NULL, sparse, path, &src->btf, err);
	}
	return err_set(err, ENODATA, "%s has no BTF (.BTF section)", path);
}

static int open_btf(struct btf_source *src, const char *path, bool sparse, struct err_msg *err)
{
	unsigned char magic[2] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	ret = pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
	      (magic[0] | magic[1] << 8) == 0xeB9F;
	close(fd);
	if (!ret)
		return open_elf_btf(src, path, sparse, err);
	/* Module BTF is split BTF on top of the kernel's. */
	if (strcmp(path, KERNEL_BTF) && !strncmp(path, "/sys/kernel/btf/", 16)) {
		ret = type_btf_open(KERNEL_BTF, NULL, sparse, &src->base, err);
		if (ret)
			return ret;
	}
	return type_btf_open(path, src->base, sparse, &src->btf, err);
}

int type_db_load_btf(const char *path, const struct type_load_opts *opts, struct type_db **out,
		     struct err_msg *err)
{
	struct btf_source *src = xcalloc(1, sizeof(*src));
	struct btf_ctx ctx = { 0 };
	int ret;

	src->fd = -1;
	/* -C loads touch few types: a sparse id index faults in less memory. */
	ret = open_btf(src, path, opts->only != NULL, err);
	if (ret) {
		btf_source_free(src);
		return ret;
	}
	ctx.btf = src->btf;
	ctx.nr_ids = type_btf_type_cnt(src->btf);
	ctx.shallow = xcalloc(ctx.nr_ids / 8 + 1, 1);
	ctx.lazy_pointees = opts->only != NULL;
	ctx.db = type_db_new("BTF", path);
	type_db_keep(ctx.db, btf_source_free, src);
	if (opts->only)
		type_db_set_only(ctx.db, opts->only);
	convert_all(&ctx);
	if (!ctx.failed) {
		const struct type *self = type_db_self_container(ctx.db);

		if (self) { /* fuzz_btf found one: walks over it never end */
			ctx.cycle = self->name ? self->name : "(anonymous)";
			ctx.failed = true;
		}
	}
	hashmap_init(&ctx.inferred);
	for (size_t i = 0; i < ctx.nr_aggregates && !ctx.failed; i++)
		infer_struct(&ctx, ctx.aggregates[i], 0);
	hashmap_release(&ctx.inferred);
	free(ctx.aggregates);
	free(ctx.shallow);
	if (ctx.failed) {
		int ret; /* the name lives in the db */

		if (ctx.array_cycle)
			ret = err_set(err, ELOOP,
				      "%s: corrupt BTF: array type %u is its own element, "
				      "expected an element type",
				      path, ctx.array_cycle);
		else if (ctx.cycle)
			ret = err_set(err, ELOOP,
				      "%s: corrupt BTF: struct %s contains itself by value, "
				      "expected a pointer",
				      path, ctx.cycle);
		else
			ret = err_set(err, ELOOP, "%s: corrupt BTF: types nest too deeply", path);
		type_db_free(ctx.db);
		return ret;
	}
	type_db_finish(ctx.db);
	*out = ctx.db;
	return 0;
}
