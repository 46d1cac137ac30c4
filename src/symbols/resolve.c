// SPDX-License-Identifier: GPL-2.0
#include "symbols/resolve.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/kallsyms.h"
#include "util/hashmap.h"
#include "util/strbuf.h"
#include "util/strpool.h"
#include "util/xalloc.h"

/* One object file opened through libdwfl (or not found: dwfl NULL). */
struct dso_file {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	char *path;
	GElf_Addr bias;
	bool tried;
};

struct cached {
	unsigned int dso_id;
	uint64_t addr;
	struct sym_info info;
	struct cached *next;
};

struct sym_resolver {
	struct sym_resolver_opts opts;
	char *debug_dir;
	struct hashmap dsos; /* dso_id -> struct dso_file */
	struct hashmap cache; /* hash(dso_id, addr) -> chain of cached */
	struct kallsyms *kallsyms;
	bool kallsyms_tried;
	struct dso_file vmlinux;
	struct sym_info unknown;
	struct strpool names; /* symbol names and source lines, one copy each */
};

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

struct sym_resolver *sym_resolver_new(const struct sym_resolver_opts *opts)
{
	struct sym_resolver *r = xcalloc(1, sizeof(*r));
	const char *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;

	r->opts = *opts;
	if (opts->debug_dir)
		strbuf_addstr(&sb, opts->debug_dir);
	else
		strbuf_addf(&sb, "%s/.debug", home ? home : "");
	r->debug_dir = strbuf_detach(&sb, NULL);
	hashmap_init(&r->dsos);
	hashmap_init(&r->cache);
	strpool_init(&r->names);
	r->unknown.dso = "[unknown]";
	r->unknown.srcline = "??:0";
	return r;
}

static void dso_file_release(struct dso_file *f)
{
	if (f->dwfl)
		dwfl_end(f->dwfl);
	free(f->path);
}

static void dso_file_free(void *f)
{
	dso_file_release(f);
	free(f);
}

/* A cache slot holds a chain of entries. */
static void cached_free(void *val)
{
	struct cached *c = val, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
}

void sym_resolver_free(struct sym_resolver *r)
{
	if (!r)
		return;
	hashmap_free_values(&r->dsos, dso_file_free);
	hashmap_free_values(&r->cache, cached_free);
	strpool_release(&r->names);
	dso_file_release(&r->vmlinux);
	kallsyms_free(r->kallsyms);
	free(r->debug_dir);
	free(r);
}

/* The pool's copy of what sb holds; sb is released. */
static const char *keep(struct sym_resolver *r, struct strbuf *sb)
{
	const char *kept = strpool_intern(&r->names, sb->buf);

	strbuf_release(sb);
	return kept;
}

static void build_id_hex(const struct as_map *m, struct strbuf *sb)
{
	unsigned int i;

	for (i = 0; i < m->build_id_size; i++)
		strbuf_addf(sb, "%02x", m->build_id[i]);
}

/* Whether the file at path carries the map's build id (or none is known). */
static bool build_id_matches(const char *path, const struct as_map *m)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	bool ok = false;
	int len;

	if (!m->build_id_size)
		return true;
	dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl)
		return false;
	mod = dwfl_report_offline(dwfl, "", path, -1);
	if (mod) {
		len = dwfl_module_build_id(mod, &bits, &vaddr);
		ok = len == m->build_id_size && !memcmp(bits, m->build_id, (size_t)len);
	}
	dwfl_end(dwfl);
	return ok;
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The mapped path, then ~/.debug/.build-id/xx/rest{,/elf}. */
static char *find_object(struct sym_resolver *r, const struct as_map *m)
{
	struct strbuf hex = STRBUF_INIT, sb = STRBUF_INIT;

	if (m->filename[0] == '/' && is_file(m->filename) && build_id_matches(m->filename, m))
		return xstrdup(m->filename);
	if (!m->build_id_size)
		return NULL;
	build_id_hex(m, &hex);
	/* perf's layout: the first byte names the folder */
	strbuf_addf(&sb, "%s/.build-id/%.2s/%s", r->debug_dir, hex.buf, hex.buf + 2);
	strbuf_release(&hex);
	if (is_file(sb.buf))
		return strbuf_detach(&sb, NULL);
	strbuf_addstr(&sb, "/elf");
	if (is_file(sb.buf))
		return strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return NULL;
}

static void open_with_dwfl(struct dso_file *f, const char *path)
{
	f->dwfl = dwfl_begin(&offline_callbacks);
	if (!f->dwfl)
		return;
	f->mod = dwfl_report_offline(f->dwfl, path, path, -1);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (!f->mod) {
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
		return;
	}
	dwfl_module_getelf(f->mod, &f->bias);
	f->path = xstrdup(path);
}

/* Without a local copy: let elfutils ask debuginfod by build id. */
static void open_by_build_id(struct dso_file *f, const struct as_map *m)
{
	if (!getenv("DEBUGINFOD_URLS") || !*getenv("DEBUGINFOD_URLS") || !m->build_id_size)
		return;
	f->dwfl = dwfl_begin(&offline_callbacks);
	if (!f->dwfl)
		return;
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_module(f->dwfl, m->filename, 0, 1ULL << 40);
	if (f->mod && dwfl_module_report_build_id(f->mod, m->build_id, m->build_id_size, 0) == 0) {
		dwfl_report_end(f->dwfl, NULL, NULL);
		if (dwfl_module_getelf(f->mod, &f->bias)) {
			f->path = xstrdup(m->filename);
			return;
		}
	}
	dwfl_end(f->dwfl);
	f->dwfl = NULL;
	f->mod = NULL;
}

static struct dso_file *dso_file_of(struct sym_resolver *r, const struct as_map *m)
{
	struct dso_file *f = hashmap_get(&r->dsos, m->dso_id);
	char *path;

	if (f)
		return f;
	f = xcalloc(1, sizeof(*f));
	hashmap_put(&r->dsos, m->dso_id, f);
	if (m->identity)
		return f; /* anonymous memory: no object to read */
	path = find_object(r, m);
	if (path)
		open_with_dwfl(f, path);
	else
		open_by_build_id(f, m);
	free(path);
	return f;
}

/* File offset -> the ELF's own virtual address, through PT_LOAD. */
static int offset_to_vaddr(Dwfl_Module *mod, uint64_t off, uint64_t *vaddr)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t i, n;

	if (!elf || elf_getphdrnum(elf, &n))
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);

		if (!ph || ph->p_type != PT_LOAD)
			continue;
		if (off >= ph->p_offset && off < ph->p_offset + ph->p_filesz) {
			*vaddr = off - ph->p_offset + ph->p_vaddr + bias;
			return 0;
		}
	}
	return -1;
}

static void fill_from_dwfl(struct sym_resolver *r, struct dso_file *f, uint64_t addr,
			   struct sym_info *info)
{
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name, *src;
	Dwfl_Line *line;
	int lineno = 0;

	name = dwfl_module_addrinfo(f->mod, addr, &off, &sym, NULL, NULL, NULL);
	if (name) {
		info->symbol = strpool_intern(&r->names, name);
		info->sym_offset = off;
		info->sym_size = sym.st_size;
		info->sym_size_exact = true;
	}
	line = dwfl_module_getsrc(f->mod, addr);
	src = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (src && lineno > 0) {
		struct strbuf sb = STRBUF_INIT;
		const char *base = strrchr(src, '/');

		strbuf_addf(&sb, "%s:%d", r->opts.full_paths || !base ? src : base + 1, lineno);
		info->srcline = keep(r, &sb);
	}
	info->path = f->path;
}

static void fallback_srcline(struct sym_resolver *r, const struct as_map *m, uint64_t addr,
			     struct sym_info *info)
{
	struct strbuf sb = STRBUF_INIT;

	if (info->srcline)
		return;
	/* perf's text when addr2line knows nothing: sym+off, else dso[addr] */
	if (info->symbol)
		strbuf_addf(&sb, "%s+%" PRIu64, info->symbol, info->sym_offset);
	else
		strbuf_addf(&sb, "%s[%" PRIx64 "]", m->short_name, addr);
	info->srcline = keep(r, &sb);
}

static void resolve_kernel(struct sym_resolver *r, uint64_t ip, struct sym_info *info)
{
	if (r->opts.vmlinux && !r->vmlinux.tried) {
		r->vmlinux.tried = true;
		open_with_dwfl(&r->vmlinux, r->opts.vmlinux);
	}
	if (r->vmlinux.mod) {
		fill_from_dwfl(r, &r->vmlinux, ip + r->vmlinux.bias, info);
		return;
	}
	if (!r->kallsyms_tried) {
		r->kallsyms_tried = true;
		r->kallsyms = kallsyms_load(r->opts.kallsyms ? r->opts.kallsyms : "/proc/kallsyms");
	}
	info->symbol = kallsyms_lookup(r->kallsyms, ip, &info->sym_offset);
	if (info->symbol)
		info->sym_size = kallsyms_extent(r->kallsyms, ip);
}

static void resolve_uncached(struct sym_resolver *r, const struct as_map *m, uint64_t ip,
			     struct sym_info *info)
{
	uint64_t off, vaddr;
	struct dso_file *f;

	info->dso = m->short_name;
	info->kernel = m->kernel;
	if (m->kernel) {
		resolve_kernel(r, ip, info);
		fallback_srcline(r, m, ip, info);
		return;
	}
	f = dso_file_of(r, m);
	off = ip - m->start + m->pgoff;
	if (f->mod && !offset_to_vaddr(f->mod, off, &vaddr))
		fill_from_dwfl(r, f, vaddr, info);
	fallback_srcline(r, m, as_map_ip(m, ip), info);
}

const struct sym_info *sym_resolve(struct sym_resolver *r, const struct as_map *m, uint64_t ip)
{
	uint64_t addr, h;
	struct cached *c, *head;

	if (!m)
		return &r->unknown;
	addr = as_map_ip(m, ip);
	h = hash_u64(addr ^ ((uint64_t)m->dso_id << 48));
	head = hashmap_get(&r->cache, h);
	for (c = head; c; c = c->next)
		if (c->dso_id == m->dso_id && c->addr == addr)
			return &c->info;
	c = xcalloc(1, sizeof(*c));
	c->dso_id = m->dso_id;
	c->addr = addr;
	resolve_uncached(r, m, ip, &c->info);
	c->next = head;
	hashmap_put(&r->cache, h, c);
	return &c->info;
}

const char *sym_resolver_object_path(struct sym_resolver *r, const struct as_map *m)
{
	struct dso_file *f;
	const char *mainfile = NULL;

	if (!m || m->kernel || m->identity)
		return NULL;
	f = dso_file_of(r, m);
	if (!f->mod)
		return NULL;
	/* debuginfod: the file elfutils fetched, not the recorded name */
	dwfl_module_info(f->mod, NULL, NULL, NULL, NULL, NULL, &mainfile, NULL);
	return mainfile ? mainfile : f->path;
}
