/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal, validating BTF reader that works in place on the bytes of a
 * raw BTF file (mapped, not copied: /sys/kernel/btf/vmlinux supports mmap)
 * or an ELF .BTF section, with split BTF (module BTF on top of vmlinux).
 * Faulting in fresh memory is what makes BTF loading slow, so nothing is
 * copied and the id -> record index is sparse when only a few types are
 * wanted. Private to src/types/.
 */
#ifndef C2C_TYPES_BTF_DATA_H
#define C2C_TYPES_BTF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* The BTF UAPI's kinds (include/uapi/linux/btf.h). */
enum {
	BTFK_UNKN,
	BTFK_INT,
	BTFK_PTR,
	BTFK_ARRAY,
	BTFK_STRUCT,
	BTFK_UNION,
	BTFK_ENUM,
	BTFK_FWD,
	BTFK_TYPEDEF,
	BTFK_VOLATILE,
	BTFK_CONST,
	BTFK_RESTRICT,
	BTFK_FUNC,
	BTFK_FUNC_PROTO,
	BTFK_VAR,
	BTFK_DATASEC,
	BTFK_FLOAT,
	BTFK_DECL_TAG,
	BTFK_TYPE_TAG,
	BTFK_ENUM64,
	BTFK_MAX = BTFK_ENUM64,
};

/* BTF_INT_ENCODING bits */
#define BTF_INT_SIGNED_BIT 0x1
#define BTF_INT_CHAR_BIT 0x2
#define BTF_INT_BOOL_BIT 0x4

struct btf_rec {
	uint32_t name_off;
	uint32_t info; /* vlen 0..15, kind 24..28, kind_flag 31 */
	uint32_t size_type; /* size, or the referenced type id */
};

struct btf_data {
	const struct btf_data *base; /* split BTF: the base (vmlinux) */
	const uint8_t *types; /* the type section */
	uint32_t types_len;
	const char *strs;
	uint32_t strs_len;
	uint32_t first_id; /* id of this BTF's first type (1, or after base's) */
	uint32_t nr_types; /* this BTF's own types */
	uint32_t first_str; /* string offset where this BTF's strings start */
	/* offset in types of type first_id + (k << shift) */
	uint32_t *index;
	unsigned int shift;
	void *map; /* munmap()ed on close */
	size_t map_len;
	void *owned; /* free()d on close (read() fallback) */
};

static inline unsigned int btf_rec_kind(const struct btf_rec *t)
{
	return (t->info >> 24) & 0x1f;
}

static inline uint16_t btf_rec_vlen(const struct btf_rec *t)
{
	return (uint16_t)(t->info & 0xffff);
}

static inline bool btf_rec_kflag(const struct btf_rec *t)
{
	return t->info >> 31;
}

/* The u32 words that follow the common record (kind-specific data). */
static inline const uint32_t *btf_rec_data(const struct btf_rec *t)
{
	return (const uint32_t *)(t + 1);
}

/*
 * Open a raw BTF file (mapped when the file allows it, else read) on top of
 * base (NULL for a self-contained one). sparse: index only every 16th type
 * (lookups walk at most 15 records), for loads that touch few types.
 */
int type_btf_open(const char *path, const struct btf_data *base, bool sparse, struct btf_data **out,
		  struct err_msg *err);
/* BTF in memory (an ELF .BTF section); data must outlive the result. */
int type_btf_parse(const void *data, size_t len, const struct btf_data *base, bool sparse,
		   const char *what, struct btf_data **out, struct err_msg *err);
void type_btf_close(struct btf_data *btf);

/* One past the last valid type id (ids start at 1; 0 is void). */
uint32_t type_btf_type_cnt(const struct btf_data *btf);
/* The record of type id, or NULL for void / out of range. */
const struct btf_rec *type_btf_type(const struct btf_data *btf, uint32_t id);
/*
 * Walk this BTF's own types in id order (base types excluded):
 * for (t = type_btf_next(btf, NULL, &id); t; t = type_btf_next(btf, t, &id))
 */
const struct btf_rec *type_btf_next(const struct btf_data *btf, const struct btf_rec *t,
				    uint32_t *id);
/* Size of a record (common part and kind data) already checked at open. */
uint32_t type_btf_rec_size(const struct btf_rec *t);
/* The string at offset off, or "" when out of range. */
const char *type_btf_str(const struct btf_data *btf, uint32_t off);

#endif
