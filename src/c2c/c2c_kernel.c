// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel debug files for attribution: which files (given, or searched where
 * distributions and perf keep a vmlinux), and whether one may explain a
 * sample of the running kernel (build-id, else the function's size).
 */
#include "c2c/c2c_kernel.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "c2c/c2c_attrib.h"
#include "util/xalloc.h"

/* where x86-64 kernel addresses start */
#define KERNEL_SPACE_START 0xffff800000000000ULL
/* static functions sharing a name, told apart by size (a vmlinux has dozens of "show") */
#define KERNEL_MAX_SAME_NAME 64
/*
 * kallsyms has no sizes: a function's extent (to the next symbol) is its
 * size plus less than this much padding (x86-64 kernels align functions
 * to 16 bytes; padding symbols and cold parts are symbols of their own).
 */
#define KERNEL_MAX_PADDING 16

struct kfile {
	char *path;
	struct attrib *a; /* NULL when it did not open */
	/* A vmlinux's data: runtime address - delta = the file's (KASLR). */
	bool delta_tried, have_delta;
	uint64_t delta;
};

struct c2c_kernel {
	const struct c2c_session_opts *opts;
	const struct c2c_machine *machine; /* the kernel's build-id */
	const char *release; /* the recording's kernel release */
	struct utsname uts;
	struct kfile *files;
	size_t nr_files, alloc_files, nr_opened;
	bool opened;
	struct strbuf problems;
};

struct c2c_kernel *c2c_kernel_new(const struct c2c_session *s)
{
	struct c2c_kernel *k = xcalloc(1, sizeof(*k));

	k->opts = &s->opts;
	k->machine = &s->machine;
	strbuf_init(&k->problems, 0);
	k->release = s->machine.osrelease;
	if (!k->release && !uname(&k->uts))
		k->release = k->uts.release;
	return k;
}

void c2c_kernel_free(struct c2c_kernel *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nr_files; i++) {
		attrib_close(k->files[i].a);
		free(k->files[i].path);
	}
	free(k->files);
	strbuf_release(&k->problems);
	free(k);
}

static void add_file(struct c2c_kernel *k, const char *path)
{
	struct err_msg err = { 0 };
	struct kfile *f;

	k->files = xgrow(k->files, &k->alloc_files, k->nr_files + 1, sizeof(*k->files));
	f = &k->files[k->nr_files++];
	*f = (struct kfile){ .path = xstrdup(path) };
	if (attrib_open(path, NULL, &f->a, &err)) {
		f->a = NULL;
		strbuf_addf(&k->problems, "kernel debug file %s\n", err.msg);
		return;
	}
	k->nr_opened++;
}

static bool is_elf(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf = fd >= 0 && read(fd, magic, 4) == 4 && !memcmp(magic, "\177ELF", 4);

	if (fd >= 0)
		close(fd);
	return elf;
}

/* The main kernel map (not a module's): its build-id is the vmlinux's. */
static bool is_kernel_image(const struct as_map *m)
{
	return m && m->kernel && !strncmp(m->filename, "[kernel.kallsyms]", 17);
}

/* The recorded kernel's build-id: its map's (MMAP2), else the BUILD_ID feature's. */
static size_t kernel_build_id(const struct c2c_kernel *k, const struct as_map *m,
			      const uint8_t **id)
{
	if (!is_kernel_image(m))
		return 0;
	if (m->build_id_size) {
		*id = m->build_id;
		return m->build_id_size;
	}
	*id = k->machine->kernel_build_id;
	return k->machine->kernel_build_id_size;
}

/* perf's build-id cache: DIR/.build-id/ab/cdef.../{elf,debug}. */
static bool try_build_id_cache(struct c2c_kernel *k, const struct as_map *m, struct strbuf *tried)
{
	static const char *const leaves[] = { "elf", "debug" };
	const char *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;
	const uint8_t *id;
	size_t i, j, n = kernel_build_id(k, m, &id);

	if (!n)
		return false;
	for (j = 0; j < ARRAY_SIZE(leaves); j++) {
		strbuf_reset(&sb);
		if (k->opts->symbols.debug_dir)
			strbuf_addstr(&sb, k->opts->symbols.debug_dir);
		else
			strbuf_addf(&sb, "%s/.debug", home ? home : "");
		strbuf_addf(&sb, "/.build-id/%02x/", id[0]);
		for (i = 1; i < n; i++)
			strbuf_addf(&sb, "%02x", id[i]);
		strbuf_addf(&sb, "/%s", leaves[j]);
		if (is_elf(sb.buf)) {
			add_file(k, sb.buf);
			strbuf_release(&sb);
			return true;
		}
	}
	strbuf_addf(tried, ", %s", sb.buf);
	strbuf_release(&sb);
	return false;
}

/*
 * Where a vmlinux with DWARF is kept, for the recording's release:
 * Debian's linux-image-*-dbg, other distributions' /usr/lib/debug/boot,
 * a kernel built in place. C2CSCOPE_DEBUG_ROOT prefixes them (tests).
 */
static void search_vmlinux(struct c2c_kernel *k, const struct as_map *m)
{
	static const char *const where[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/lib/modules/%s/build/vmlinux",
	};
	const char *root = getenv("C2CSCOPE_DEBUG_ROOT"), *rel = k->release;
	struct strbuf sb = STRBUF_INIT, tried = STRBUF_INIT;
	size_t i;

	for (i = 0; rel && i < ARRAY_SIZE(where); i++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, root ? root : "");
		strbuf_addf(&sb, where[i], rel);
		if (is_elf(sb.buf)) {
			add_file(k, sb.buf);
			goto out;
		}
		strbuf_addf(&tried, "%s%s", i ? ", " : "", sb.buf);
	}
	if (try_build_id_cache(k, m, &tried))
		goto out;
	strbuf_addf(&k->problems,
		    "no debug file for kernel %s (looked in %s); install its debug package "
		    "(Debian: linux-image-%s-dbg) or give --vmlinux or --kernel-debug\n",
		    rel ? rel : "?", tried.buf, rel ? rel : "<release>");
out:
	strbuf_release(&sb);
	strbuf_release(&tried);
}

static void open_files(struct c2c_kernel *k, const struct as_map *m)
{
	size_t i;

	k->opened = true;
	if (k->opts->symbols.vmlinux)
		add_file(k, k->opts->symbols.vmlinux);
	for (i = 0; i < k->opts->nr_kernel_debug; i++)
		add_file(k, k->opts->kernel_debug[i]);
	if (!k->nr_files)
		search_vmlinux(k, m);
}

/*
 * Whether f's function fn is the one the kernel ran: the build-ids of a
 * vmlinux and the recorded kernel agree; else kallsyms' extent holds the
 * function's size and little more; else (an exact size from another ELF)
 * the sizes are equal. Nothing to compare: unverified.
 */
static int verify(const struct c2c_kernel *k, const struct kfile *f, const struct as_map *m,
		  const struct sym_info *info, const struct attrib_function *fn)
{
	const uint8_t *id, *want;
	size_t n = attrib_build_id(f->a, &id), nwant = kernel_build_id(k, m, &want);

	if (fn->size && info->sym_offset >= fn->size)
		return C2C_ATTRIB_KERNEL_MISMATCH;
	if (n && nwant && !attrib_is_relocatable(f->a))
		return n == nwant && !memcmp(id, want, n) ? ATTRIB_OK : C2C_ATTRIB_KERNEL_MISMATCH;
	if (!info->sym_size || !fn->size ||
	    (info->sym_size_exact && info->path && !strcmp(info->path, f->path)))
		return C2C_ATTRIB_KERNEL_UNVERIFIED;
	if (info->sym_size_exact)
		return info->sym_size == fn->size ? ATTRIB_OK : C2C_ATTRIB_KERNEL_MISMATCH;
	return info->sym_size >= fn->size && info->sym_size - fn->size < KERNEL_MAX_PADDING ?
		       ATTRIB_OK :
		       C2C_ATTRIB_KERNEL_MISMATCH;
}

/*
 * perf's kernel map records the runtime address of its reference symbol
 * (_text) as pgoff: against the vmlinux's own, that is the KASLR shift,
 * for data addresses (globals). A relocatable file has no such address.
 */
static void find_delta(struct kfile *f, const struct as_map *m)
{
	static const char *const refs[] = { "_text", "_stext" };
	uint64_t addr;
	size_t i;

	f->delta_tried = true;
	if (attrib_is_relocatable(f->a) || !is_kernel_image(m) || m->pgoff < KERNEL_SPACE_START)
		return;
	for (i = 0; i < ARRAY_SIZE(refs); i++) {
		if (attrib_find_symbol(f->a, refs[i], &addr) || addr < KERNEL_SPACE_START)
			continue;
		f->delta = m->pgoff - addr;
		f->have_delta = !(f->delta & 0xfff); /* KASLR moves by pages */
		return;
	}
}

/*
 * The one function named like the sample's in f that passes verify (static
 * functions share names: the size tells them apart); several: unverified.
 */
static int pick_function(const struct c2c_kernel *k, const struct kfile *f, const struct as_map *m,
			 const struct sym_info *info, struct attrib_function *out)
{
	struct attrib_function fns[KERNEL_MAX_SAME_NAME];
	size_t i, n = attrib_find_functions(f->a, info->symbol, fns, ARRAY_SIZE(fns)), ok = 0;
	int reason = C2C_ATTRIB_KERNEL_MISMATCH;

	if (n > ARRAY_SIZE(fns))
		return C2C_ATTRIB_KERNEL_UNVERIFIED;
	for (i = 0; i < n; i++) {
		int r = verify(k, f, m, info, &fns[i]);

		if (r == ATTRIB_OK && !ok++)
			*out = fns[i];
		else if (r == C2C_ATTRIB_KERNEL_UNVERIFIED)
			reason = r;
	}
	return ok == 1 ? ATTRIB_OK : ok ? C2C_ATTRIB_KERNEL_UNVERIFIED : reason;
}

int c2c_kernel_locate(struct c2c_kernel *k, struct c2c_session *s, const struct c2c_row *r,
		      struct attrib **a, uint64_t *pc, uint64_t *addr)
{
	const struct sym_info *info;
	struct attrib_function fn;
	size_t i;
	int reason;

	if (!k->opened)
		open_files(k, r->imap);
	if (!k->nr_opened)
		return C2C_ATTRIB_KERNEL;
	info = sym_resolve(s->symbols, r->imap, r->iaddr);
	if (!info->symbol)
		return C2C_ATTRIB_KERNEL_NO_SYMBOL;
	for (i = 0; i < k->nr_files; i++) {
		struct kfile *f = &k->files[i];

		if (!f->a || !attrib_find_functions(f->a, info->symbol, &fn, 0))
			continue;
		reason = pick_function(k, f, r->imap, info, &fn);
		if (reason != ATTRIB_OK)
			return reason;
		*a = f->a;
		*pc = fn.addr + info->sym_offset;
		if (!f->delta_tried)
			find_delta(f, r->imap);
		*addr = f->have_delta && r->line->addr ? r->line->addr + r->offset - f->delta : 0;
		return ATTRIB_OK;
	}
	return C2C_ATTRIB_KERNEL_NOT_IN_DEBUGINFO;
}

size_t c2c_kernel_nr_opened(const struct c2c_kernel *k)
{
	return k->nr_opened;
}

const char *c2c_kernel_problems(const struct c2c_kernel *k)
{
	return k->problems.buf;
}
