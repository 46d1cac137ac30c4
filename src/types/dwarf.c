// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF loader. Compilation units are cut into runs of roughly equal
 * size; worker threads convert runs into private dbs, which are then merged
 * in CU order so "order of appearance" does not depend on scheduling.
 *
 * Only named structs/unions (and what their members need) are converted;
 * subprograms, variables and location lists are never read, and libdw is
 * kept from even decompressing the sections that hold them.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "types/dwarf_internal.h"
#include "util/xalloc.h"

#define MAX_THREADS 16
#define CHUNKS_PER_THREAD 16

struct dwarf_file {
	int fd;
	Elf *elf;
	Dwarf *dbg; /* owned unless dwfl */
	Dwfl *dwfl;
};

struct cu_run {
	size_t first, last; /* [first, last) in the CU array */
	struct type_db *db;
	struct err_msg err;
	bool failed;
};

struct dwarf_job {
	const char *path;
	const struct type_load_opts *opts;
	Dwarf *dbg;
	Dwarf_Die *cus;
	size_t nr_cus;
	struct cu_run *runs;
	size_t nr_runs;
	atomic_size_t next_run;
	bool lazy_pointees;
};

/* Sections libdw would read (and decompress) that types never need. */
static const char *const unneeded_sections[] = {
	".debug_loc",	   ".debug_loclists", ".debug_ranges",	     ".debug_rnglists",
	".debug_aranges",  ".debug_frame",    ".debug_macro",	     ".debug_macinfo",
	".debug_pubnames", ".debug_pubtypes", ".debug_gnu_pubnames", ".debug_gnu_pubtypes",
	".debug_names",	   ".zdebug_loc",     ".zdebug_ranges",	     ".zdebug_aranges",
	".zdebug_frame",   ".zdebug_macro",
};

static bool is_unneeded(const char *name, bool skip_decl)
{
	size_t i;

	/* The line table only gives decl_file its name. */
	if (skip_decl && (!strcmp(name, ".debug_line") || !strcmp(name, ".zdebug_line")))
		return true;
	for (i = 0; i < sizeof(unneeded_sections) / sizeof(unneeded_sections[0]); i++)
		if (!strcmp(name, unneeded_sections[i]))
			return true;
	return false;
}

/* Rename unneeded sections (in our private mapping) so libdw skips them. */
static void hide_unneeded_sections(Elf *elf, bool skip_decl)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL, *strscn;
	Elf64_Shdr *strsh;

	if (gelf_getclass(elf) != ELFCLASS64 || elf_getshdrstrndx(elf, &shstrndx))
		return;
	strscn = elf_getscn(elf, shstrndx);
	strsh = strscn ? elf64_getshdr(strscn) : NULL;
	if (!strsh)
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf64_Shdr *sh = elf64_getshdr(scn);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;

		if (name && is_unneeded(name, skip_decl))
			sh->sh_name = strsh->sh_name; /* ".shstrtab": ignored by libdw */
	}
}

static int open_relocatable(const char *path, struct dwarf_file *f, struct err_msg *err)
{
	static const Dwfl_Callbacks callbacks = {
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl_Module *mod;
	Dwarf_Addr bias;

	f->dwfl = dwfl_begin(&callbacks);
	if (!f->dwfl)
		return err_set(err, ENOMEM, "%s: %s", path, dwfl_errmsg(-1));
	mod = dwfl_report_offline(f->dwfl, path, path, -1);
	dwfl_report_end(f->dwfl, NULL, NULL);
	f->dbg = mod ? dwfl_module_getdwarf(mod, &bias) : NULL;
	if (!f->dbg)
		return err_set(err, EINVAL, "%s: corrupt DWARF: %s", path, dwfl_errmsg(-1));
	return 0;
}

/*
 * Apply one .rela.debug_* section to its target in our private mapping.
 * Returns 0, -ENOTSUP for what only libdwfl knows (other relocation
 * types), or -EINVAL for corrupt relocations.
 */
static int apply_rela(Elf_Data *rd, Elf_Data *td, Elf_Data *sd)
{
	const Elf64_Rela *r = rd->d_buf;
	size_t i, n = rd->d_size / sizeof(*r), nsyms = sd->d_size / sizeof(Elf64_Sym);

	for (i = 0; i < n; i++) {
		size_t sym = ELF64_R_SYM(r[i].r_info), width;
		uint64_t v = (uint64_t)r[i].r_addend;
		uint32_t v32;

		if (sym >= nsyms)
			return -EINVAL;
		/* Section symbols of debug sections are 0: offsets into them. */
		v += ((const Elf64_Sym *)sd->d_buf)[sym].st_value;
		switch (ELF64_R_TYPE(r[i].r_info)) {
		case R_X86_64_NONE:
			continue;
		case R_X86_64_64:
			width = 8;
			break;
		case R_X86_64_32:
		case R_X86_64_32S:
			width = 4;
			break;
		default:
			return -ENOTSUP;
		}
		if (r[i].r_offset > td->d_size || td->d_size - r[i].r_offset < width)
			return -EINVAL;
		v32 = (uint32_t)v;
		memcpy((char *)td->d_buf + r[i].r_offset, width == 8 ? (void *)&v : (void *)&v32,
		       width);
	}
	return 0;
}

/*
 * Relocations are read once: let the kernel drop their pages (mapped from
 * the file, unmodified) so they do not count in the peak RSS.
 */
static void release_pages(void *p, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(page - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
}

/*
 * A relocatable x86-64 object (a kernel .o): apply the relocations of the
 * debug sections libdw reads, in place. libdwfl would relocate every debug
 * section (location lists, frames...) through gelf calls, which cost more
 * than converting the types.
 */
static int relocate_debug(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		Elf64_Shdr *sh = elf64_getshdr(scn), *tsh, *ssh;
		Elf_Scn *target, *symscn;
		Elf_Data *rd, *td, *sd;
		const char *name;
		int ret;

		if (!sh || sh->sh_type != SHT_RELA)
			continue;
		target = elf_getscn(elf, sh->sh_info);
		symscn = elf_getscn(elf, sh->sh_link);
		tsh = target ? elf64_getshdr(target) : NULL;
		ssh = symscn ? elf64_getshdr(symscn) : NULL;
		name = tsh ? elf_strptr(elf, shstrndx, tsh->sh_name) : NULL;
		/* hide_unneeded_sections() renamed what types do not read */
		if (!name || strncmp(name, ".debug_", 7) || tsh->sh_type == SHT_NOBITS)
			continue;
		if (tsh->sh_flags & SHF_COMPRESSED)
			return -ENOTSUP;
		if (!ssh || ssh->sh_type != SHT_SYMTAB)
			return -EINVAL;
		rd = elf_getdata(scn, NULL);
		td = elf_getdata(target, NULL);
		sd = elf_getdata(symscn, NULL);
		if (!rd || !td || !sd || !td->d_buf)
			return -EINVAL;
		ret = apply_rela(rd, td, sd);
		if (ret)
			return ret;
		release_pages(rd->d_buf, rd->d_size);
	}
	return 0;
}

static int open_dwarf(const char *path, struct dwarf_file *f, struct err_msg *err)
{
	f->dbg = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	if (!f->dbg)
		return err_set(err, EINVAL, "%s: corrupt DWARF: %s", path, dwarf_errmsg(-1));
	return 0;
}

static int dwarf_file_open(const char *path, bool skip_decl, struct dwarf_file *f,
			   struct err_msg *err)
{
	GElf_Ehdr ehdr;
	int ret;

	memset(f, 0, sizeof(*f));
	elf_version(EV_CURRENT);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!f->elf || !gelf_getehdr(f->elf, &ehdr))
		return err_set(err, ENOEXEC, "%s: corrupt ELF file: %s", path, elf_errmsg(-1));
	if (ehdr.e_type != ET_REL) {
		hide_unneeded_sections(f->elf, skip_decl);
		return open_dwarf(path, f, err);
	}
	if (ehdr.e_machine != EM_X86_64 || gelf_getclass(f->elf) != ELFCLASS64)
		return open_relocatable(path, f, err);
	hide_unneeded_sections(f->elf, skip_decl);
	ret = relocate_debug(f->elf);
	if (ret == -EINVAL)
		return err_set(err, EINVAL, "%s: corrupt relocations of the debug sections", path);
	if (ret) {
		/* Not ours to relocate: start again from a clean mapping. */
		elf_end(f->elf);
		f->elf = elf_begin(f->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
		if (!f->elf)
			return err_set(err, ENOEXEC, "%s: %s", path, elf_errmsg(-1));
		return open_relocatable(path, f, err);
	}
	return open_dwarf(path, f, err);
}

static void dwarf_file_close(struct dwarf_file *f)
{
	if (f->dwfl)
		dwfl_end(f->dwfl);
	else if (f->dbg)
		dwarf_end(f->dbg);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

/* Collect every unit's DIE (this also makes libdw index all CUs up front,
 * so that lookups from worker threads only read that index). */
static int collect_units(struct dwarf_job *job, struct err_msg *err)
{
	Dwarf_Off off = 0, next;
	size_t hsize, alloc = 0;

	for (;;) {
		Dwarf_Die *cu;
		int ret = dwarf_next_unit(job->dbg, off, &next, &hsize, NULL, NULL, NULL, NULL,
					  NULL, NULL);

		if (ret > 0)
			break;
		if (ret < 0)
			return err_set(err, EINVAL, "%s: corrupt DWARF: unit at 0x%llx: %s",
				       job->path, (unsigned long long)off, dwarf_errmsg(-1));
		job->cus = xgrow(job->cus, &alloc, job->nr_cus + 1, sizeof(*job->cus));
		cu = &job->cus[job->nr_cus];
		if (!dwarf_offdie(job->dbg, off + hsize, cu))
			return err_set(err, EINVAL, "%s: corrupt DWARF: unit DIE at 0x%llx: %s",
				       job->path, (unsigned long long)(off + hsize),
				       dwarf_errmsg(-1));
		job->nr_cus++;
		off = next;
	}
	return 0;
}

static void make_runs(struct dwarf_job *job, unsigned int threads)
{
	Dwarf_Off total = 0, target, acc = 0;
	size_t i, first = 0;

	total = job->nr_cus ? dwarf_dieoffset(&job->cus[job->nr_cus - 1]) + 1 : 0;
	target = total / (threads * CHUNKS_PER_THREAD) + 1;
	job->runs = xcalloc(job->nr_cus + 1, sizeof(*job->runs));
	for (i = 0; i < job->nr_cus; i++) {
		Dwarf_Off start = dwarf_dieoffset(&job->cus[i]);
		Dwarf_Off end = i + 1 < job->nr_cus ? dwarf_dieoffset(&job->cus[i + 1]) : total;

		acc += end - start;
		if (acc >= target || i + 1 == job->nr_cus) {
			job->runs[job->nr_runs].first = first;
			job->runs[job->nr_runs].last = i + 1;
			job->nr_runs++;
			first = i + 1;
			acc = 0;
		}
	}
}

static void process_unit(struct dwarf_cu_ctx *ctx, Dwarf_Die *unit, int depth)
{
	Dwarf_Die die;

	if (dwarf_child(unit, &die))
		return;
	do {
		int tag = dwarf_tag(&die);
		const char *name;

		switch (tag) {
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_class_type:
			if (dwarf_hasattr(&die, DW_AT_declaration))
				break;
			name = dwarf_diename(&die);
			if (name && type_db_wants(ctx->db, name))
				type_dwarf_convert(ctx, &die, true);
			break;
		case DW_TAG_typedef:
			name = dwarf_diename(&die);
			if (type_db_wants_typedef(ctx->db, name))
				type_dwarf_convert(ctx, &die, true);
			break;
		case DW_TAG_imported_unit: {
			Dwarf_Attribute attr;
			Dwarf_Die imported;

			if (depth < 8 && dwarf_attr(&die, DW_AT_import, &attr) &&
			    dwarf_formref_die(&attr, &imported))
				process_unit(ctx, &imported, depth + 1);
			break;
		}
		default:
			break;
		}
	} while (!ctx->failed && dwarf_siblingof(&die, &die) == 0);
}

static void convert_run(struct dwarf_job *job, struct cu_run *run)
{
	struct dwarf_cu_ctx ctx = {
		.dbg = job->dbg,
		.path = job->path,
		.err = &run->err,
		.lazy_pointees = job->lazy_pointees,
		.want_decl = !job->opts->skip_decl,
		/* One unit (a kernel .o) defines each struct once: nothing to reuse. */
		.dedupe = job->nr_cus > 1,
	};
	size_t i;

	ctx.db = type_db_new("DWARF", NULL);
	if (job->opts->only)
		type_db_set_only(ctx.db, job->opts->only);
	hashmap_init(&ctx.shallow);
	hashmap_init(&ctx.seen);
	for (i = run->first; i < run->last && !ctx.failed; i++) {
		uint8_t addr_size = 8, offset_size;
		Dwarf_Die cudie;

		dwarf_diecu(&job->cus[i], &cudie, &addr_size, &offset_size);
		ctx.addr_size = addr_size;
		process_unit(&ctx, &job->cus[i], 0);
	}
	hashmap_release(&ctx.shallow);
	hashmap_release(&ctx.seen);
	run->db = ctx.db;
	run->failed = ctx.failed;
}

static void *worker(void *arg)
{
	struct dwarf_job *job = arg;
	size_t i;

	while ((i = atomic_fetch_add(&job->next_run, 1)) < job->nr_runs)
		convert_run(job, &job->runs[i]);
	return NULL;
}

static unsigned int thread_count(const struct dwarf_job *job)
{
	long n = job->opts->threads;

	if (!n)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	/* Units that import others (dwz) make libdw look up DIEs across units
	 * lazily; keep that single-threaded. */
	if (dwarf_getalt(job->dbg))
		n = 1;
	return (unsigned int)n;
}

static void run_workers(struct dwarf_job *job, unsigned int threads)
{
	pthread_t tids[MAX_THREADS];
	unsigned int i, started = 0;

	if (threads > job->nr_runs)
		threads = job->nr_runs ? (unsigned int)job->nr_runs : 1;
	for (i = 1; i < threads; i++)
		if (!pthread_create(&tids[started], NULL, worker, job))
			started++;
	worker(job);
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
}

static int merge_runs(struct dwarf_job *job, struct type_db *db, struct err_msg *err)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < job->nr_runs; i++) {
		struct cu_run *run = &job->runs[i];

		if (run->failed && !ret)
			ret = err_set(err, run->err.code ? run->err.code : EINVAL, "%s",
				      run->err.msg);
		if (ret)
			type_db_free(run->db);
		else
			type_db_absorb(db, run->db);
		run->db = NULL;
	}
	return ret;
}

/* fuzz_dwarf found a struct holding itself through a typedef: walks over it never end */
static int refuse_self_container(const struct type_db *db, const char *path, struct err_msg *err)
{
	const struct type *self = type_db_self_container(db);

	if (!self)
		return 0;
	return err_set(err, ELOOP,
		       "%s: corrupt DWARF: %s %s contains itself by value, expected a pointer",
		       path, self->kind == TYPE_UNION ? "union" : "struct",
		       self->name ? self->name : "(anonymous)");
}

int type_db_load_dwarf(const char *path, const struct type_load_opts *opts, struct type_db **out,
		       struct err_msg *err)
{
	struct dwarf_job job = { .path = path, .opts = opts };
	struct dwarf_file f;
	struct type_db *db = NULL;
	unsigned int threads;
	int ret;

	ret = dwarf_file_open(path, opts->skip_decl, &f, err);
	if (ret)
		goto out;
	job.dbg = f.dbg;
	job.lazy_pointees = opts->only != NULL;
	ret = collect_units(&job, err);
	if (ret)
		goto out;
	threads = thread_count(&job);
	make_runs(&job, threads);
	atomic_init(&job.next_run, 0);
	run_workers(&job, threads);
	db = type_db_new("DWARF", path);
	if (opts->only)
		type_db_set_only(db, opts->only);
	ret = merge_runs(&job, db, err);
	if (!ret)
		ret = refuse_self_container(db, path, err);
	if (ret) {
		type_db_free(db);
		db = NULL;
		goto out;
	}
	type_db_finish(db);
out:
	free(job.cus);
	free(job.runs);
	dwarf_file_close(&f);
	*out = db;
	return ret;
}
