// SPDX-License-Identifier: GPL-2.0
/*
 * type_db_load: decide what FILE is (raw BTF, ELF with DWARF, ELF with only
 * .BTF) and hand it to the right loader, with one clear error otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "types/types_internal.h"

#define BTF_MAGIC 0xeB9F
#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

struct file_kind {
	bool raw_btf;
	bool elf;
	bool has_dwarf; /* .debug_info (or compressed .zdebug_info) */
	bool has_btf; /* .BTF */
	bool has_debuglink; /* .gnu_debuglink / build-id: debug info may live elsewhere */
	char debug_path[96]; /* /usr/lib/debug/.build-id/xx/yyyy.debug when it exists */
};

#define DEBUG_ROOT "/usr/lib/debug/.build-id/"

/* Separate debuginfo as Debian's -dbg/-dbgsym packages install it. */
static void find_build_id_debug(Elf *elf, struct file_kind *k)
{
	const void *id;
	const unsigned char *b;
	ssize_t len = dwelf_elf_gnu_build_id(elf, &id);
	size_t off, i;

	if (len < 2 || len > 32)
		return;
	b = id;
	off = (size_t)snprintf(k->debug_path, sizeof(k->debug_path), DEBUG_ROOT "%02x/", b[0]);
	for (i = 1; i < (size_t)len; i++)
		off += (size_t)snprintf(k->debug_path + off, sizeof(k->debug_path) - off, "%02x",
					b[i]);
	snprintf(k->debug_path + off, sizeof(k->debug_path) - off, ".debug");
	if (access(k->debug_path, R_OK))
		k->debug_path[0] = '\0';
}

static void scan_sections(Elf *elf, struct file_kind *k)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info"))
			k->has_dwarf = shdr.sh_type != SHT_NOBITS;
		else if (!strcmp(name, ".BTF"))
			k->has_btf = shdr.sh_type != SHT_NOBITS;
		else if (!strcmp(name, ".gnu_debuglink") || !strcmp(name, ".note.gnu.build-id"))
			k->has_debuglink = true;
	}
}

static int probe_file(const char *path, struct file_kind *k, struct err_msg *err)
{
	unsigned char magic[4] = { 0 };
	struct stat st;
	Elf *elf;
	int fd;
	ssize_t n;

	memset(k, 0, sizeof(*k));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return err_set(err, EISDIR, "%s: is a directory, not an ELF or BTF file", path);
	}
	n = pread(fd, magic, sizeof(magic), 0);
	if (n >= 2 && (magic[0] | magic[1] << 8) == BTF_MAGIC) {
		k->raw_btf = true;
		close(fd);
		return 0;
	}
	if (n < 4 || memcmp(magic, ELFMAG, SELFMAG)) {
		close(fd);
		return err_set(err, ENOEXEC, "%s: not an ELF file or raw BTF (bad magic)", path);
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		return err_set(err, ENOEXEC, "%s: corrupt ELF file: %s", path, elf_errmsg(-1));
	}
	k->elf = true;
	scan_sections(elf, k);
	if (!k->has_dwarf)
		find_build_id_debug(elf, k);
	elf_end(elf);
	close(fd);
	return 0;
}

int type_db_load(const char *path, const struct type_load_opts *opts, struct type_db **out,
		 struct err_msg *err)
{
	static const struct type_load_opts no_opts;
	enum type_source source;
	struct file_kind k;
	int ret;

	*out = NULL;
	if (!opts)
		opts = &no_opts;
	ret = probe_file(path, &k, err);
	if (ret)
		return ret;
	source = opts->source;
	if (k.raw_btf) {
		if (source == TYPE_SOURCE_DWARF)
			return err_set(err, ENODATA, "%s: raw BTF has no DWARF", path);
		return type_db_load_btf(path, opts, out, err);
	}
	if (source == TYPE_SOURCE_AUTO)
		source = k.has_dwarf || !k.has_btf ? TYPE_SOURCE_DWARF : TYPE_SOURCE_BTF;
	if (source == TYPE_SOURCE_BTF) {
		if (!k.has_btf)
			return err_set(err, ENODATA, "%s has no BTF (.BTF section)", path);
		return type_db_load_btf(path, opts, out, err);
	}
	if (!k.has_dwarf && k.debug_path[0] && strcmp(k.debug_path, path))
		return type_db_load(k.debug_path, opts, out, err);
	if (!k.has_dwarf)
		return err_set(err, ENODATA,
			       "%s has no DWARF or BTF: install the -dbgsym package for it or "
			       "set DEBUGINFOD_URLS",
			       path);
	return type_db_load_dwarf(path, opts, out, err);
}

int type_db_load_kernel(const struct type_load_opts *opts, struct type_db **out,
			struct err_msg *err)
{
	struct type_load_opts kopts = { 0 };

	if (opts)
		kopts = *opts;
	kopts.source = TYPE_SOURCE_BTF;
	return type_db_load(KERNEL_BTF, &kopts, out, err);
}
