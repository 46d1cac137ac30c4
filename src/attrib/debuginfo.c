// SPDX-License-Identifier: GPL-2.0
/*
 * Separate debug info: a stripped binary names its DWARF file by build-id
 * (DEBUG_DIR/.build-id/ab/cdef....debug) or by .gnu_debuglink (next to the
 * binary, in its .debug/ folder, or under DEBUG_DIR/<binary's folder>/).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

static Elf_Scn *section_named(Elf *elf, const char *name)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

bool attrib_debuginfo_has_dwarf(Elf *elf)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_named(elf, ".debug_info");

	return scn && gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS;
}

size_t attrib_debuginfo_build_id(Elf *elf, const uint8_t **bits)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_descsz < 2 || nh.n_namesz != 4 ||
			    memcmp((const char *)d->d_buf + name_off, "GNU", 4))
				continue;
			*bits = (const uint8_t *)d->d_buf + desc_off;
			return nh.n_descsz;
		}
	}
	return 0;
}

static bool build_id_path(Elf *elf, const char *debug_dir, struct strbuf *sb)
{
	const uint8_t *id;
	size_t i, n = attrib_debuginfo_build_id(elf, &id);

	if (!n)
		return false;
	strbuf_addf(sb, "%s/.build-id/%02x/", debug_dir, id[0]);
	for (i = 1; i < n; i++)
		strbuf_addf(sb, "%02x", id[i]);
	strbuf_addstr(sb, ".debug");
	return true;
}

static bool readable(const struct strbuf *sb)
{
	return access(sb->buf, R_OK) == 0;
}

static char *debuglink_path(Elf *elf, const char *path, const char *debug_dir)
{
	Elf_Scn *scn = section_named(elf, ".gnu_debuglink");
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	struct strbuf sb = STRBUF_INIT;
	const char *name, *slash = strrchr(path, '/');
	char *real = realpath(path, NULL), *rslash = real ? strrchr(real, '/') : NULL;
	int dir_len = slash ? (int)(slash - path) : 1;
	const char *dir = slash ? path : ".";

	if (!d || !d->d_buf || !d->d_size || !memchr(d->d_buf, 0, d->d_size))
		goto out;
	name = d->d_buf;
	strbuf_addf(&sb, "%.*s/%s", dir_len, dir, name);
	if (strcmp(sb.buf, path) && readable(&sb))
		goto out;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%.*s/.debug/%s", dir_len, dir, name);
	if (readable(&sb))
		goto out;
	strbuf_reset(&sb);
	if (rslash)
		strbuf_addf(&sb, "%s%.*s/%s", debug_dir, (int)(rslash - real), real, name);
	if (rslash && readable(&sb))
		goto out;
	strbuf_release(&sb);
out:
	free(real);
	return sb.len ? strbuf_detach(&sb, NULL) : NULL;
}

char *attrib_debuginfo_find(Elf *elf, const char *path, const char *debug_dir)
{
	struct strbuf sb = STRBUF_INIT;

	if (!debug_dir)
		debug_dir = "/usr/lib/debug";
	if (build_id_path(elf, debug_dir, &sb) && readable(&sb))
		return strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return debuglink_path(elf, path, debug_dir);
}
