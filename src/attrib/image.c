// SPDX-License-Identifier: GPL-2.0
/*
 * The image layer of attribution, below dwarf.c, func.c and attrib.c: the
 * binary and its separate debug file opened, their DWARF handle, sections,
 * code bytes and load segments, and the strings the layers above intern.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

const char *attrib_image_intern(struct attrib_image *img, const char *s)
{
	return strpool_intern(&img->strings, s);
}

const uint8_t *attrib_image_code(const struct attrib_image *img, uint64_t pc, size_t *avail)
{
	size_t i;

	for (i = 0; i < img->nr_code; i++) {
		const struct code_section *c = &img->code[i];

		if (pc >= c->addr && pc < c->addr + c->size) {
			*avail = c->addr + c->size - pc;
			return c->data + (pc - c->addr);
		}
	}
	return NULL;
}

static void read_sections(struct attrib_image *img)
{
	size_t shstrndx, alloc_code = 0, alloc_sec = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(img->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(img->elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		img->sections = xgrow(img->sections, &alloc_sec, img->nr_sections + 1,
				      sizeof(*img->sections));
		img->sections[img->nr_sections++] =
			(struct elf_section){ .addr = sh.sh_addr,
					      .size = sh.sh_size,
					      .name = elf_strptr(img->elf, shstrndx, sh.sh_name) };
		if (!(sh.sh_flags & SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || data->d_size < sh.sh_size)
			continue;
		img->code = xgrow(img->code, &alloc_code, img->nr_code + 1, sizeof(*img->code));
		img->code[img->nr_code++] = (struct code_section){ .addr = sh.sh_addr,
								   .size = sh.sh_size,
								   .data = data->d_buf };
	}
}

static void read_segments(struct attrib_image *img)
{
	size_t n, i, alloc = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(img->elf, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(img->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		img->loads = xgrow(img->loads, &alloc, img->nr_loads + 1, sizeof(*img->loads));
		img->loads[img->nr_loads++] = ph;
	}
}

bool attrib_image_section_holds(const struct attrib_image *img, const char *name, uint64_t addr)
{
	size_t i;

	for (i = 0; i < img->nr_sections; i++) {
		const struct elf_section *s = &img->sections[i];

		if (addr >= s->addr && addr < s->addr + s->size && s->name &&
		    !strcmp(s->name, name))
			return true;
	}
	return false;
}

int attrib_image_symbols(const struct attrib_image *img,
			 int (*fn)(void *ctx, const GElf_Sym *sym, const char *name), void *ctx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int ret;

	while ((scn = elf_nextscn(img->sym_elf, scn))) {
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; data && i < n; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    !(name = elf_strptr(img->sym_elf, sh.sh_link, sym.st_name)))
				continue;
			ret = fn(ctx, &sym, name);
			if (ret)
				return ret;
		}
	}
	return 0;
}

uint64_t attrib_image_sym_addr(const struct attrib_image *img, const GElf_Sym *sym)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (!img->dwfl || sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return sym->st_value;
	scn = elf_getscn(img->sym_elf, sym->st_shndx);
	return scn && gelf_getshdr(scn, &sh) ? sym->st_value + sh.sh_addr : sym->st_value;
}

/*
 * A relocatable object: libdwfl gives every allocated section an address
 * (in the ELF handle's section headers) and applies the relocations of the
 * debug sections, so DWARF addresses and code addresses agree.
 */
static int open_relocatable(struct attrib_image *img, struct err_msg *err)
{
	static const Dwfl_Callbacks callbacks = {
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwarf_Addr bias;
	GElf_Addr ebias;

	img->dwfl = dwfl_begin(&callbacks);
	if (!img->dwfl)
		return err_set(err, ENOMEM, "%s: %s", img->path, dwfl_errmsg(-1));
	img->mod = dwfl_report_offline(img->dwfl, img->path, img->path, -1);
	dwfl_report_end(img->dwfl, NULL, NULL);
	img->elf = img->mod ? dwfl_module_getelf(img->mod, &ebias) : NULL;
	img->dwarf = img->elf ? dwfl_module_getdwarf(img->mod, &bias) : NULL;
	if (!img->dwarf)
		return err_set(err, ENODATA, "%s: no DWARF debug info (%s)", img->path,
			       dwfl_errmsg(-1));
	img->sym_elf = img->elf;
	read_sections(img);
	return 0;
}

static int open_elf(struct attrib_image *img, const char *debug_dir, struct err_msg *err)
{
	GElf_Ehdr eh;

	elf_version(EV_CURRENT);
	img->fd = open(img->path, O_RDONLY | O_CLOEXEC);
	if (img->fd < 0)
		return err_set(err, errno, "%s: %s", img->path, strerror(errno));
	img->elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	if (!img->elf || elf_kind(img->elf) != ELF_K_ELF || !gelf_getehdr(img->elf, &eh))
		return err_set(err, EINVAL, "%s: not an ELF file", img->path);
	img->machine = eh.e_machine;
	img->sym_elf = img->elf;
	if (eh.e_type == ET_REL) {
		elf_end(img->elf);
		img->elf = NULL;
		return open_relocatable(img, err);
	}
	if (!attrib_debuginfo_has_dwarf(img->elf)) {
		img->debug_path = attrib_debuginfo_find(img->elf, img->path, debug_dir);
		if (!img->debug_path)
			return err_set(err, ENODATA,
				       "%s: no DWARF debug info, in the file or in %s "
				       "(build with -g or install its debug package)",
				       img->path, debug_dir ? debug_dir : "/usr/lib/debug");
		img->debug_fd = open(img->debug_path, O_RDONLY | O_CLOEXEC);
		img->debug_elf =
			img->debug_fd >= 0 ? elf_begin(img->debug_fd, ELF_C_READ_MMAP, NULL) : NULL;
		if (!img->debug_elf)
			return err_set(err, EINVAL, "%s: cannot read its debug file %s", img->path,
				       img->debug_path);
		img->sym_elf = img->debug_elf;
	}
	img->dwarf =
		dwarf_begin_elf(img->debug_elf ? img->debug_elf : img->elf, DWARF_C_READ, NULL);
	if (!img->dwarf)
		return err_set(err, ENODATA, "%s: no DWARF debug info (build with -g)",
			       img->debug_path ? img->debug_path : img->path);
	read_sections(img);
	read_segments(img);
	return 0;
}

int attrib_image_open(struct attrib_image *img, const char *path, const char *debug_dir,
		      struct err_msg *err)
{
	img->path = xstrdup(path);
	img->fd = -1;
	img->debug_fd = -1;
	strpool_init(&img->strings);
	return open_elf(img, debug_dir, err);
}

void attrib_image_close(struct attrib_image *img)
{
	strpool_release(&img->strings);
	free(img->code);
	free(img->sections);
	free(img->loads);
	if (img->dwfl)
		dwfl_end(img->dwfl); /* its elf and dwarf with it */
	else if (img->dwarf)
		dwarf_end(img->dwarf);
	if (img->elf && !img->dwfl)
		elf_end(img->elf);
	if (img->fd >= 0)
		close(img->fd);
	if (img->debug_elf)
		elf_end(img->debug_elf);
	if (img->debug_fd >= 0)
		close(img->debug_fd);
	free(img->debug_path);
	free(img->path);
}
