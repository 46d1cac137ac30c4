// SPDX-License-Identifier: GPL-2.0
/* The attrib object: its image, types and caches, statistics, mapping helpers. */
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
	[ATTRIB_BITFIELDS] = "bitfields",
};

const char *attrib_reason_name(enum attrib_reason reason)
{
	return reason < ATTRIB_NR_REASONS ? reason_names[reason] : "?";
}

int attrib_open(const char *path, const struct attrib_opts *opts, struct attrib **out,
		struct err_msg *err)
{
	struct type_load_opts topts = { .source = TYPE_SOURCE_DWARF };
	struct attrib *a = xcalloc(1, sizeof(*a));
	int ret;

	hashmap_init(&a->by_pc);
	hashmap_init(&a->by_addr);
	hashmap_init(&a->no_func);
	ret = attrib_image_open(&a->img, path, opts ? opts->debug_dir : NULL, err);
	if (ret)
		goto out_free;
	/* Without a decoder (no capstone, other machine) only globals resolve. */
	if (attrib_decoder_open(&a->dec, a->img.machine) < 0)
		a->dec = NULL;
	if (opts && opts->types) {
		a->types = opts->types;
	} else {
		ret = type_db_load(a->img.debug_path ? a->img.debug_path : path, &topts, &a->types,
				   err);
		if (ret)
			goto out_free;
		a->own_types = true;
	}
	a->extra = type_db_new("DWARF", path);
	ret = attrib_globals_load(a, err);
	if (ret)
		goto out_free;
	*out = a;
	return 0;
out_free:
	attrib_close(a);
	return ret;
}

void attrib_close(struct attrib *a)
{
	size_t i;

	if (!a)
		return;
	hashmap_free_values(&a->by_pc, NULL);
	hashmap_free_values(&a->by_addr, NULL);
	for (i = 0; i < a->nr_funcs; i++)
		attrib_func_free(a->funcs[i]);
	free(a->funcs);
	hashmap_release(&a->no_func);
	free(a->globals);
	attrib_func_syms_free(a);
	if (a->extra)
		type_db_free(a->extra);
	if (a->own_types)
		type_db_free(a->types);
	attrib_decoder_close(a->dec);
	attrib_cfi_release(a);
	attrib_image_close(&a->img);
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
	return a->img.machine == EM_AARCH64 ? "aarch64" : "x86_64";
}

int attrib_load_bias(const struct attrib *a, uint64_t map_start, uint64_t pgoff, uint64_t *bias)
{
	size_t i;

	for (i = 0; i < a->img.nr_loads; i++) {
		const GElf_Phdr *ph = &a->img.loads[i];
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
		for (i = 0; i < a->img.nr_sections; i++) {
			const struct elf_section *s = &a->img.sections[i];

			if (vaddr >= s->addr && vaddr < s->addr + s->size && s->name) {
				strbuf_addf(sb, "%s %s+%#llx", base, s->name,
					    (unsigned long long)(vaddr - s->addr));
				return;
			}
		}
	}
	strbuf_addf(sb, "%s+%#llx", base, (unsigned long long)map_offset);
}
