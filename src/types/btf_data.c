// SPDX-License-Identifier: GPL-2.0
/*
 * The BTF reader behind btf.c: header and section checks, one validating
 * pass over the type records that builds the (possibly sparse) id index,
 * and lookups that never leave the checked bounds. Format: the kernel's
 * Documentation/bpf/btf.rst.
 */
#include "types/btf_data.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

#define BTF_MAGIC 0xeB9F
#define BTF_HDR_LEN 24
#define SPARSE_SHIFT 4

struct btf_hdr {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off, type_len;
	uint32_t str_off, str_len;
};

/* Bytes of kind-specific data after the common record; -1: unknown kind. */
static long rec_extra(unsigned int kind, uint16_t vlen)
{
	switch (kind) {
	case BTFK_PTR:
	case BTFK_FWD:
	case BTFK_TYPEDEF:
	case BTFK_VOLATILE:
	case BTFK_CONST:
	case BTFK_RESTRICT:
	case BTFK_FUNC:
	case BTFK_FLOAT:
	case BTFK_TYPE_TAG:
		return 0;
	case BTFK_INT:
	case BTFK_VAR:
	case BTFK_DECL_TAG:
		return 4;
	case BTFK_ARRAY:
		return 12;
	case BTFK_STRUCT:
	case BTFK_UNION:
	case BTFK_DATASEC:
	case BTFK_ENUM64:
		return 12L * vlen;
	case BTFK_ENUM:
	case BTFK_FUNC_PROTO:
		return 8L * vlen;
	default:
		return -1;
	}
}

uint32_t type_btf_rec_size(const struct btf_rec *t)
{
	return (uint32_t)(sizeof(*t) + rec_extra(btf_rec_kind(t), btf_rec_vlen(t)));
}

static int index_types(struct btf_data *btf, const char *what, struct err_msg *err)
{
	uint32_t off = 0, n = 0, mask = (1U << btf->shift) - 1;

	btf->index = xmalloc(((btf->types_len / sizeof(struct btf_rec)) >> btf->shift) * 4 + 4);
	while (off < btf->types_len) {
		const struct btf_rec *t = (const void *)(btf->types + off);
		long extra;

		if (btf->types_len - off < sizeof(*t))
			return err_set(err, EINVAL, "%s: corrupt BTF: type %u truncated", what,
				       btf->first_id + n);
		extra = rec_extra(btf_rec_kind(t), btf_rec_vlen(t));
		if (extra < 0)
			return err_set(err, ENOTSUP, "%s: unsupported BTF kind %u (type %u)", what,
				       btf_rec_kind(t), btf->first_id + n);
		if (btf->types_len - off - sizeof(*t) < (unsigned long)extra)
			return err_set(err, EINVAL, "%s: corrupt BTF: type %u truncated", what,
				       btf->first_id + n);
		if (!(n & mask))
			btf->index[n >> btf->shift] = off;
		off += (uint32_t)(sizeof(*t) + extra);
		n++;
	}
	btf->nr_types = n;
	return 0;
}

static int check_header(struct btf_data *btf, const uint8_t *p, size_t len, const char *what,
			struct err_msg *err)
{
	struct btf_hdr h;
	uint64_t end_types, end_strs;

	if (len < BTF_HDR_LEN)
		return err_set(err, EINVAL, "%s: corrupt BTF: %zu bytes, shorter than a header",
			       what, len);
	memcpy(&h, p, sizeof(h));
	if (h.magic != BTF_MAGIC)
		return err_set(err, h.magic == 0x9FeB ? ENOTSUP : EINVAL,
			       "%s: %s BTF (magic 0x%04x)", what,
			       h.magic == 0x9FeB ? "unsupported foreign-endian" : "not", h.magic);
	if (h.version != 1 || h.hdr_len < BTF_HDR_LEN || h.hdr_len > len)
		return err_set(err, EINVAL, "%s: corrupt BTF header (version %u, length %u)", what,
			       h.version, h.hdr_len);
	end_types = (uint64_t)h.hdr_len + h.type_off + h.type_len;
	end_strs = (uint64_t)h.hdr_len + h.str_off + h.str_len;
	if (end_types > len || end_strs > len)
		return err_set(err, EINVAL,
			       "%s: corrupt BTF: type (%u+%u) or string (%u+%u) section "
			       "outside the %zu bytes",
			       what, h.type_off, h.type_len, h.str_off, h.str_len, len);
	/* records are read as u32s (fuzz_btf found a header of 26 bytes) */
	if ((h.hdr_len + (uint64_t)h.type_off) % 4)
		return err_set(err, EINVAL,
			       "%s: at 0x%llx: corrupt BTF: type section not 4-byte aligned "
			       "(header %u bytes, type_off %u)",
			       what, (unsigned long long)h.hdr_len + h.type_off, h.hdr_len,
			       h.type_off);
	if (h.str_len && p[end_strs - 1] != '\0')
		return err_set(err, EINVAL, "%s: corrupt BTF: string section not terminated", what);
	btf->types = p + h.hdr_len + h.type_off;
	btf->types_len = h.type_len;
	btf->strs = (const char *)p + h.hdr_len + h.str_off;
	btf->strs_len = h.str_len;
	return 0;
}

int type_btf_parse(const void *data, size_t len, const struct btf_data *base, bool sparse,
		   const char *what, struct btf_data **out, struct err_msg *err)
{
	struct btf_data *btf = xcalloc(1, sizeof(*btf));
	int ret;

	*out = NULL;
	if ((uintptr_t)data % 4) {
		/* Records are read as u32s: keep them aligned. */
		btf->owned = xmalloc(len ? len : 1);
		memcpy(btf->owned, data, len);
		data = btf->owned;
	}
	btf->base = base;
	btf->shift = sparse ? SPARSE_SHIFT : 0;
	btf->first_id = base ? type_btf_type_cnt(base) : 1;
	btf->first_str = base ? base->first_str + base->strs_len : 0;
	ret = check_header(btf, data, len, what, err);
	if (!ret)
		ret = index_types(btf, what, err);
	if (ret) {
		type_btf_close(btf);
		return ret;
	}
	*out = btf;
	return 0;
}

/* The whole file: mapped (regular files, sysfs BTF since Linux 6.16) or read. */
static void *read_whole(int fd, size_t *len, bool *mapped)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;
	ssize_t r;

	*mapped = false;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p != MAP_FAILED) {
			*mapped = true;
			*len = (size_t)st.st_size;
			return p;
		}
	}
	cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 20;
	buf = xmalloc(cap);
	while ((r = read(fd, buf + n, cap - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		n += (size_t)r;
		if (n == cap)
			buf = xgrow(buf, &cap, cap + 1, 1);
	}
	*len = n;
	return buf;
}

int type_btf_open(const char *path, const struct btf_data *base, bool sparse, struct btf_data **out,
		  struct err_msg *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	size_t len = 0;
	bool mapped;
	void *p;

	*out = NULL;
	if (fd < 0)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	p = read_whole(fd, &len, &mapped);
	ret = errno;
	close(fd);
	if (!p)
		return err_set(err, ret, "%s: %s", path, strerror(ret));
	ret = type_btf_parse(p, len, base, sparse, path, out, err);
	if (ret) {
		if (mapped)
			munmap(p, len);
		else
			free(p);
		return ret;
	}
	if (mapped) {
		(*out)->map = p;
		(*out)->map_len = len;
	} else if (!(*out)->owned) {
		(*out)->owned = p;
	} else {
		free(p);
	}
	return 0;
}

void type_btf_close(struct btf_data *btf)
{
	if (!btf)
		return;
	if (btf->map)
		munmap(btf->map, btf->map_len);
	free(btf->owned);
	free(btf->index);
	free(btf);
}

uint32_t type_btf_type_cnt(const struct btf_data *btf)
{
	return btf->first_id + btf->nr_types;
}

const struct btf_rec *type_btf_type(const struct btf_data *btf, uint32_t id)
{
	uint32_t k, off, i;

	if (id < btf->first_id)
		return btf->base ? type_btf_type(btf->base, id) : NULL;
	k = id - btf->first_id;
	if (k >= btf->nr_types)
		return NULL;
	off = btf->index[k >> btf->shift];
	for (i = 0; i < (k & ((1U << btf->shift) - 1)); i++)
		off += type_btf_rec_size((const void *)(btf->types + off));
	return (const void *)(btf->types + off);
}

const struct btf_rec *type_btf_next(const struct btf_data *btf, const struct btf_rec *t,
				    uint32_t *id)
{
	const uint8_t *p;

	if (!t) {
		*id = btf->first_id;
		return btf->nr_types ? (const void *)btf->types : NULL;
	}
	if (*id + 1 >= type_btf_type_cnt(btf))
		return NULL;
	p = (const uint8_t *)t + type_btf_rec_size(t);
	(*id)++;
	return (const void *)p;
}

const char *type_btf_str(const struct btf_data *btf, uint32_t off)
{
	if (off < btf->first_str)
		return btf->base ? type_btf_str(btf->base, off) : "";
	off -= btf->first_str;
	return off < btf->strs_len ? btf->strs + off : "";
}
