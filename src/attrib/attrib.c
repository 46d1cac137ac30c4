// SPDX-License-Identifier: GPL-2.0
/* The attrib object: opening a binary, caching, statistics, mapping helpers. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

static const char *const reason_names[ATTRIB_NR_REASONS] = {
	[ATTRIB_OK] = "ok",
	[ATTRIB_NO_SYMBOL] = "no-symbol",
	[ATTRIB_NO_INSN] = "no-instruction",
	[ATTRIB_NO_MEM_OPERAND] = "no-memory-operand",
	[ATTRIB_STACK] = "stack",
	[ATTRIB_SEGMENT] = "segment",
	[ATTRIB_NO_VARIABLE] = "no-variable",
	[ATTRIB_NO_TYPE] = "no-type",
	[ATTRIB_OUTSIDE_TYPE] = "outside-type",
	[ATTRIB_UNKNOWN_INDEX] = "unknown-index",
};

const char *attrib_reason_name(enum attrib_reason reason)
{
	return reason < ATTRIB_NR_REASONS ? reason_names[reason] : "?";
}

const char *attrib_intern(struct attrib *a, const char *s)
{
	uint64_t h = hash_str(s);
	const char *old = hashmap_get(&a->strings, h);
	char *copy;

	if (old && !strcmp(old, s))
		return old;
	copy = xstrdup(s);
	a->owned = xgrow(a->owned, &a->alloc_owned, a->nr_owned + 1, sizeof(*a->owned));
	a->owned[a->nr_owned++] = copy;
	if (!old)
		hashmap_put(&a->strings, h, copy);
	return copy;
}

const uint8_t *attrib_code_at(const struct attrib *a, uint64_t pc, size_t *avail)
{
	size_t i;

	for (i = 0; i < a->nr_code; i++) {
		const struct code_section *c = &a->code[i];

		if (pc >= c->addr && pc < c->addr + c->size) {
			*avail = c->addr + c->size - pc;
			return c->data + (pc - c->addr);
		}
	}
	return NULL;
}

static void read_sections(struct attrib *a)
{
	size_t shstrndx, alloc_code = 0, alloc_sec = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(a->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(a->elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		a->sections =
			xgrow(a->sections, &alloc_sec, a->nr_sections + 1, sizeof(*a->sections));
		a->sections[a->nr_sections++] =
			(struct elf_section){ .addr = sh.sh_addr,
					      .size = sh.sh_size,
					      .name = elf_strptr(a->elf, shstrndx, sh.sh_name) };
		if (!(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || data->d_size < sh.sh_size)
			continue;
		a->code = xgrow(a->code, &alloc_code, a->nr_code + 1, sizeof(*a->code));
		a->code[a->nr_code++] = (struct code_section){ .addr = sh.sh_addr,
							       .size = sh.sh_size,
							       .data = data->d_buf };
	}
}

static void read_segments(struct attrib *a)
{
	size_t n, i, alloc = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(a->elf, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(a->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		a->loads = xgrow(a->loads, &alloc, a->nr_loads + 1, sizeof(*a->loads));
		a->loads[a->nr_loads++] = ph;
	}
}

static int open_elf(struct attrib *a, const char *debug_dir, struct c2c_err *err)
{
	GElf_Ehdr eh;

	elf_version(EV_CURRENT);
	a->fd = open(a->path, O_RDONLY | O_CLOEXEC);
	if (a->fd < 0)
		return c2c_err_set(err, errno, "%s: %s", a->path, strerror(errno));
	a->elf = elf_begin(a->fd, ELF_C_READ_MMAP, NULL);
	if (!a->elf || elf_kind(a->elf) != ELF_K_ELF || !gelf_getehdr(a->elf, &eh))
		return c2c_err_set(err, EINVAL, "%s: not an ELF file", a->path);
	a->machine = eh.e_machine;
	/* Without a decoder (no capstone, other machine) only globals resolve. */
	if (decoder_open(&a->dec, a->machine) < 0)
		a->dec = NULL;
	a->sym_elf = a->elf;
	if (!debuginfo_has_dwarf(a->elf)) {
		a->debug_path = debuginfo_find(a->elf, a->path, debug_dir);
		if (!a->debug_path)
			return c2c_err_set(err, ENODATA,
					   "%s: no DWARF debug info, in the file or in %s "
					   "(build with -g or install its debug package)",
					   a->path, debug_dir ? debug_dir : "/usr/lib/debug");
		a->debug_fd = open(a->debug_path, O_RDONLY | O_CLOEXEC);
		a->debug_elf = a->debug_fd >= 0 ? elf_begin(a->debug_fd, ELF_C_READ_MMAP, NULL) :
						  NULL;
		if (!a->debug_elf)
			return c2c_err_set(err, EINVAL, "%s: cannot read its debug file %s",
					   a->path, a->debug_path);
		a->sym_elf = a->debug_elf;
	}
	a->dwarf = dwarf_begin_elf(a->debug_elf ? a->debug_elf : a->elf, DWARF_C_READ, NULL);
	if (!a->dwarf)
		return c2c_err_set(err, ENODATA, "%s: no DWARF debug info (build with -g)",
				   a->debug_path ? a->debug_path : a->path);
	read_sections(a);
	read_segments(a);
	return 0;
}

int attrib_open(const char *path, const struct attrib_opts *opts, struct attrib **out,
		struct c2c_err *err)
{
	struct type_load_opts topts = { .source = TYPE_SOURCE_DWARF };
	struct attrib *a = xcalloc(1, sizeof(*a));
	int ret;

	a->path = xstrdup(path);
	a->fd = -1;
	hashmap_init(&a->strings);
	hashmap_init(&a->by_pc);
	hashmap_init(&a->by_addr);
	a->debug_fd = -1;
	ret = open_elf(a, opts ? opts->debug_dir : NULL, err);
	if (ret)
		goto out_free;
	if (opts && opts->types) {
		a->types = opts->types;
	} else {
		ret = type_db_load(a->debug_path ? a->debug_path : path, &topts, &a->types, err);
		if (ret)
			goto out_free;
		a->own_types = true;
	}
	a->extra = type_db_new("DWARF", path);
	ret = globals_load(a, err);
	if (ret)
		goto out_free;
	*out = a;
	return 0;
out_free:
	attrib_close(a);
	return ret;
}

static void free_results(struct hashmap *map)
{
	uint64_t key;
	void *val;
	size_t i;

	for (i = 0; hashmap_next(map, &i, &key, &val);)
		free(val);
	hashmap_release(map);
}

void attrib_close(struct attrib *a)
{
	size_t i;

	if (!a)
		return;
	free_results(&a->by_pc);
	free_results(&a->by_addr);
	for (i = 0; i < a->nr_funcs; i++)
		func_free(a->funcs[i]);
	free(a->funcs);
	for (i = 0; i < a->nr_owned; i++)
		free(a->owned[i]);
	free(a->owned);
	hashmap_release(&a->strings);
	free(a->globals);
	free(a->code);
	free(a->sections);
	free(a->loads);
	if (a->extra)
		type_db_free(a->extra);
	if (a->own_types)
		type_db_free(a->types);
	if (a->dwarf)
		dwarf_end(a->dwarf);
	if (a->elf)
		elf_end(a->elf);
	if (a->fd >= 0)
		close(a->fd);
	if (a->debug_elf)
		elf_end(a->debug_elf);
	if (a->debug_fd >= 0)
		close(a->debug_fd);
	free(a->debug_path);
	decoder_close(a->dec);
	free(a->path);
	free(a);
}

void attrib_stats(const struct attrib *a, uint64_t counts[ATTRIB_NR_REASONS])
{
	memcpy(counts, a->stats, sizeof(a->stats));
}

uint64_t attrib_nr_unique_pcs(const struct attrib *a)
{
	return a->by_pc.nr;
}

const char *attrib_arch(const struct attrib *a)
{
	return a->machine == EM_AARCH64 ? "aarch64" : "x86_64";
}

int attrib_load_bias(const struct attrib *a, uint64_t map_start, uint64_t pgoff, uint64_t *bias)
{
	size_t i;

	for (i = 0; i < a->nr_loads; i++) {
		const GElf_Phdr *ph = &a->loads[i];
		uint64_t align = ph->p_align > 1 ? ph->p_align : 1;
		uint64_t seg_off = ph->p_offset & ~(align - 1);

		/* The kernel maps a segment from its page-aligned file offset. */
		if (pgoff < seg_off || pgoff >= ph->p_offset + (ph->p_filesz ? ph->p_filesz : 1))
			continue;
		*bias = map_start - pgoff - (ph->p_vaddr - ph->p_offset);
		return 0;
	}
	return -ENOENT;
}

void attrib_format_mapping(struct strbuf *sb, const struct attrib *a, const char *map_name,
			   uint64_t map_offset, uint64_t vaddr)
{
	const char *base = map_name ? strrchr(map_name, '/') : NULL;
	size_t i;

	base = base ? base + 1 : map_name ? map_name : "?";
	if (a) {
		for (i = 0; i < a->nr_sections; i++) {
			const struct elf_section *s = &a->sections[i];

			if (vaddr >= s->addr && vaddr < s->addr + s->size && s->name) {
				strbuf_addf(sb, "%s %s+%#llx", base, s->name,
					    (unsigned long long)(vaddr - s->addr));
				return;
			}
		}
	}
	strbuf_addf(sb, "%s+%#llx", base, (unsigned long long)map_offset);
}
