// SPDX-License-Identifier: GPL-2.0
/* Build ids of ELF files, for MMAP2 records and the BUILD_ID feature. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "perf/perf_data.h"

#define NOTE_GNU_BUILD_ID 3

static int note_build_id(Elf_Data *data, uint8_t id[20], uint8_t *size)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nhdr;

	while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type != NOTE_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
		    memcmp((char *)data->d_buf + name_off, "GNU", 4) != 0)
			continue;
		if (nhdr.n_descsz == 0)
			continue;
		*size = nhdr.n_descsz > 20 ? 20 : nhdr.n_descsz;
		memset(id, 0, 20);
		memcpy(id, (char *)data->d_buf + desc_off, *size);
		return 0;
	}
	return -ENOENT;
}

static int elf_build_id(Elf *elf, uint8_t id[20], uint8_t *size)
{
	Elf_Scn *scn = NULL;
	size_t i, nr_phdr;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && note_build_id(data, id, size) == 0)
			return 0;
	}
	/* Stripped of section headers: try the PT_NOTE segments. */
	if (elf_getphdrnum(elf, &nr_phdr) != 0)
		return -ENOENT;
	for (i = 0; i < nr_phdr; i++) {
		GElf_Phdr phdr;
		Elf_Data *data;

		if (!gelf_getphdr(elf, i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		data = elf_getdata_rawchunk(elf, phdr.p_offset, phdr.p_filesz, ELF_T_NHDR);
		if (data && note_build_id(data, id, size) == 0)
			return 0;
	}
	return -ENOENT;
}

int perf_build_id_of_file(const char *path, uint8_t id[20], uint8_t *size, struct err_msg *err)
{
	Elf *elf;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ret = err_set(err, ENOEXEC, "%s: not an ELF file", path);
	} else {
		ret = elf_build_id(elf, id, size);
		if (ret)
			err_set(err, -ret, "%s: no GNU build id note", path);
	}
	elf_end(elf);
	close(fd);
	return ret;
}
