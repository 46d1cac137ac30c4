// SPDX-License-Identifier: GPL-2.0
/*
 * attrib_tool: drives src/attrib/ for the tests and the benchmark.
 *   attrib_tool resolve BIN PC[:ADDR]...   print one line per query
 *   attrib_tool corpus BIN [-v] [--min P]  check every memory access of the
 *       functions that have an expectation in BIN's c2c_expect section
 *   attrib_tool bench BIN SAMPLES UNIQUE   time SAMPLES queries over UNIQUE
 *       memory-access instructions of BIN
 * The instructions are found here with capstone directly, independently of
 * the engine under test.
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attrib/attrib.h"
#include "util/xalloc.h"

struct access {
	uint64_t pc, addr;
	const char *func;
	const char *expect; /* tokens, or NULL */
	char text[192];
};

struct accesses {
	struct access *v;
	size_t nr, alloc;
};

static void print_result(FILE *f, const struct attrib_result *r)
{
	fprintf(f, "%s", attrib_reason_name(r->reason));
	if (r->type)
		fprintf(f, " type=%s offset=%" PRIu64, r->type_name ? r->type_name : "?",
			r->offset);
	if (r->field && *r->field)
		fprintf(f, " field=%s", r->field);
	if (r->path && *r->path)
		fprintf(f, " path=%s", r->path);
	if (r->var)
		fprintf(f, " var=%s", r->var);
	/* the outermost object, for per-top-level-field profiles */
	if (getenv("ATTRIB_TOOL_OUTER") && r->outer_type)
		fprintf(f, " outer=%s+%" PRIu64, r->outer_name ? r->outer_name : "?",
			r->outer_offset);
}

static int open_or_die(const char *path, struct attrib **a)
{
	struct err_msg err = { 0 };

	if (attrib_open(path, NULL, a, &err) < 0) {
		fprintf(stderr, "attrib_tool: %s\n", err.msg);
		/* The DWARF type loader is not there yet: the tests skip. */
		exit(err.code == ENOSYS ? 77 : 2);
	}
	return 0;
}

static int cmd_resolve(int argc, char **argv)
{
	struct attrib *a;
	int i;

	open_or_die(argv[0], &a);
	for (i = 1; i < argc; i++) {
		char *colon;
		uint64_t pc = strtoull(argv[i], &colon, 0), addr = 0;

		if (*colon == ':')
			addr = strtoull(colon + 1, NULL, 0);
		printf("%s: ", argv[i]);
		print_result(stdout, attrib_resolve(a, pc, addr));
		printf("\n");
	}
	attrib_close(a);
	return 0;
}

/* Where an unattributed address lies: in a mapping, in a section of BIN. */
static int cmd_format(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t vaddr = strtoull(argv[1], NULL, 0), bias = 0;
	struct attrib *a;

	open_or_die(argv[0], &a);
	attrib_format_mapping(&sb, NULL, "[heap]", 0x40, 0);
	strbuf_addch(&sb, '\n');
	attrib_format_mapping(&sb, a, argv[0], 0, vaddr);
	strbuf_addch(&sb, '\n');
	/* A PIE mapped at 0x555555554000 from file offset 0. */
	if (!attrib_load_bias(a, 0x555555554000ULL, 0, &bias))
		strbuf_addf(&sb, "bias %#llx\n", (unsigned long long)bias);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	attrib_close(a);
	return 0;
}

/* ---- finding the memory accesses of a binary ----------------------------- */

static const char *find_expect(Elf *elf, const char *func)
{
	size_t shstrndx, n = strlen(func), off;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, "c2c_expect"))
			continue;
		d = elf_getdata(scn, NULL);
		for (off = 0; d && off < d->d_size; off++) {
			const char *s = (const char *)d->d_buf + off;

			if (!strncmp(s, func, n) && s[n] == ':')
				return s + n + 1;
			off += strnlen(s, d->d_size - off);
		}
	}
	return NULL;
}

static const uint8_t *code_of(Elf *elf, uint64_t addr, uint64_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || addr < sh.sh_addr ||
		    addr + size > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		return d && d->d_buf ? (const uint8_t *)d->d_buf + (addr - sh.sh_addr) : NULL;
	}
	return NULL;
}

static void add_access(struct accesses *acc, csh cs, cs_insn *insn, const char *func,
		       const char *expect)
{
	const cs_x86 *x = &insn->detail->x86;
	struct access *ac;
	uint8_t i;

	if (insn->id == X86_INS_LEA || insn->id == X86_INS_NOP)
		return;
	for (i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (op->type != X86_OP_MEM)
			continue;
		acc->v = xgrow(acc->v, &acc->alloc, acc->nr + 1, sizeof(*acc->v));
		ac = &acc->v[acc->nr++];
		ac->pc = insn->address;
		/* A sampler would see the real address; for rip-relative we know it. */
		ac->addr = op->mem.base == X86_REG_RIP ? insn->address + insn->size + op->mem.disp :
							 0;
		ac->func = func;
		ac->expect = expect;
		snprintf(ac->text, sizeof(ac->text), "%.31s %.159s", insn->mnemonic, insn->op_str);
		return;
	}
}

static void scan_func(struct accesses *acc, csh cs, Elf *elf, const GElf_Sym *sym, const char *name,
		      const char *expect)
{
	const uint8_t *code = code_of(elf, sym->st_value, sym->st_size);
	uint64_t addr = sym->st_value;
	size_t size = sym->st_size;
	cs_insn *insn = cs_malloc(cs);

	while (code && cs_disasm_iter(cs, &code, &size, &addr, insn))
		add_access(acc, cs, insn, name, expect);
	cs_free(insn, 1);
}

/* Every memory access of the functions of elf (only expected ones if asked). */
static void scan(Elf *elf, bool only_expected, struct accesses *acc)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	csh cs;

	cs_open(CS_ARCH_X86, CS_MODE_64, &cs);
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *name, *expect;
			GElf_Sym sym;

			if (!gelf_getsym(d, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_size || sym.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			expect = name ? find_expect(elf, name) : NULL;
			if (name && (expect || !only_expected))
				scan_func(acc, cs, elf, &sym, name, expect);
		}
	}
	cs_close(&cs);
}

static Elf *elf_open_or_die(const char *path, int *fd)
{
	Elf *elf;

	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY);
	elf = *fd >= 0 ? elf_begin(*fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (!elf) {
		fprintf(stderr, "attrib_tool: %s: cannot open as ELF\n", path);
		exit(2);
	}
	return elf;
}

/* ---- corpus -------------------------------------------------------------- */

/* Copy s, dropping the digits between brackets: "arr[2].x" → "arr[].x". */
static void drop_indexes(char *dst, size_t n, const char *s)
{
	bool in = false;
	size_t j = 0;

	for (; *s && j + 1 < n; s++) {
		if (*s == '[')
			in = true;
		else if (*s == ']')
			in = false;
		else if (in)
			continue;
		dst[j++] = *s;
	}
	dst[j] = 0;
}

static bool token_matches(const char *tok, size_t len, const char *cand)
{
	char t[256], c[256];

	if (len >= sizeof(t))
		return false;
	memcpy(t, tok, len);
	t[len] = 0;
	if (strstr(t, "[]")) {
		drop_indexes(c, sizeof(c), cand);
		return !strcmp(t, c);
	}
	return !strcmp(t, cand);
}

static bool expected(const char *expect, const struct attrib_result *r)
{
	char by_type[512], by_path[512];
	const char *p = expect;

	snprintf(by_type, sizeof(by_type), "%s.%s", r->type_name ? r->type_name : "?", r->field);
	snprintf(by_path, sizeof(by_path), "=%s", r->path);
	while (*p) {
		size_t len = strcspn(p, " ");

		if (len && (token_matches(p, len, by_type) || token_matches(p, len, by_path)))
			return true;
		p += len;
		p += strspn(p, " ");
	}
	return false;
}

static int cmd_corpus(int argc, char **argv)
{
	uint64_t stats[ATTRIB_NR_REASONS], sum = 0;
	size_t i, right = 0, wrong = 0;
	bool verbose = false;
	unsigned long min_pct = 90;
	int arg;
	struct accesses acc = { 0 };
	struct attrib *a;
	int fd;
	Elf *elf = elf_open_or_die(argv[0], &fd);

	for (arg = 1; arg < argc; arg++) {
		if (!strcmp(argv[arg], "-v"))
			verbose = true;
		else if (!strcmp(argv[arg], "--min") && arg + 1 < argc)
			min_pct = strtoul(argv[++arg], NULL, 10);
	}
	scan(elf, true, &acc);
	open_or_die(argv[0], &a);
	for (i = 0; i < acc.nr; i++) {
		const struct access *ac = &acc.v[i];
		const struct attrib_result *r = attrib_resolve(a, ac->pc, ac->addr);
		const char *verdict = "unresolved";

		if (r->reason == ATTRIB_OK && expected(ac->expect, r)) {
			verdict = "right";
			right++;
		} else if (r->reason == ATTRIB_OK) {
			verdict = "WRONG";
			wrong++;
		}
		if (verbose || !strcmp(verdict, "WRONG")) {
			printf("%-10s %s %#" PRIx64 " %-36s ", verdict, ac->func, ac->pc, ac->text);
			print_result(stdout, r);
			printf("  (expect %s)\n", ac->expect);
		}
	}
	attrib_stats(a, stats);
	printf("corpus: %zu accesses, %zu right, %zu wrong, %zu unresolved\n", acc.nr, right, wrong,
	       acc.nr - right - wrong);
	printf("stats:");
	for (i = 0; i < ATTRIB_NR_REASONS; i++) {
		printf(" %s=%" PRIu64, attrib_reason_name(i), stats[i]);
		sum += stats[i];
	}
	printf(" total=%" PRIu64 "\n", sum);
	attrib_close(a);
	elf_end(elf);
	close(fd);
	free(acc.v);
	if (sum != acc.nr || stats[ATTRIB_OK] != right + wrong) {
		printf("stats do not add up to the queries\n");
		return 1;
	}
	if (wrong || right * 100 < acc.nr * min_pct || !acc.nr) {
		printf("FAILED: %zu wrong, %zu of %zu right (at least %lu%% needed)\n", wrong,
		       right, acc.nr, min_pct);
		return 1;
	}
	return 0;
}

/* Every memory access of BIN with its attribution, for looking around. */
static int cmd_list(int argc, char **argv)
{
	struct accesses acc = { 0 };
	struct attrib *a;
	size_t i;
	int fd;
	Elf *elf = elf_open_or_die(argv[0], &fd);

	scan(elf, false, &acc);
	open_or_die(argv[0], &a);
	for (i = 0; i < acc.nr; i++) {
		printf("%s %#" PRIx64 " %-36s ", acc.v[i].func, acc.v[i].pc, acc.v[i].text);
		print_result(stdout, attrib_resolve(a, acc.v[i].pc, acc.v[i].addr));
		printf("\n");
	}
	attrib_close(a);
	elf_end(elf);
	close(fd);
	free(acc.v);
	return 0;
}

/* ---- bench --------------------------------------------------------------- */

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static int cmd_bench(int argc, char **argv)
{
	uint64_t samples = strtoull(argv[1], NULL, 0), unique = strtoull(argv[2], NULL, 0);
	uint64_t stats[ATTRIB_NR_REASONS], i, seed = 88172645463325252ULL, sum = 0;
	struct accesses acc = { 0 };
	struct access *pick;
	struct attrib *a;
	double t0, t1, t2, c0, c1, c2;
	int fd;
	Elf *elf = elf_open_or_die(argv[0], &fd);

	scan(elf, false, &acc);
	if (acc.nr < unique) {
		fprintf(stderr, "attrib_tool: %s has only %zu memory accesses\n", argv[0], acc.nr);
		return 2;
	}
	pick = xcalloc(unique, sizeof(*pick));
	for (i = 0; i < unique; i++)
		pick[i] = acc.v[i * acc.nr / unique];
	t0 = now();
	c0 = cpu();
	open_or_die(argv[0], &a);
	t1 = now();
	c1 = cpu();
	for (i = 0; i < samples; i++) {
		const struct access *ac;

		seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
		ac = &pick[seed % unique];
		/* Heap-like data addresses unless the instruction names a global. */
		attrib_resolve(a, ac->pc,
			       ac->addr ? ac->addr : 0x7f0000000000ULL + (seed & 0xfff8));
	}
	t2 = now();
	c2 = cpu();
	attrib_stats(a, stats);
	printf("bench: %s: %" PRIu64 " samples, %" PRIu64
	       " unique pcs (%zu accesses in the binary)\n",
	       argv[0], samples, unique, acc.nr);
	printf("open %.3f s, resolve %.3f s, total %.3f s (wall)\n", t1 - t0, t2 - t1, t2 - t0);
	printf("open %.3f s, resolve %.3f s, total %.3f s (cpu, all threads)\n", c1 - c0, c2 - c1,
	       c2 - c0);
	printf("stats:");
	for (i = 0; i < ATTRIB_NR_REASONS; i++) {
		printf(" %s=%" PRIu64, attrib_reason_name(i), stats[i]);
		sum += stats[i];
	}
	printf(" total=%" PRIu64 "\n", sum);
	attrib_close(a);
	elf_end(elf);
	close(fd);
	free(pick);
	free(acc.v);
	return sum == samples ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "resolve"))
		return cmd_resolve(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "corpus"))
		return cmd_corpus(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "list"))
		return cmd_list(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "format"))
		return cmd_format(argc - 2, argv + 2);
	if (argc == 5 && !strcmp(argv[1], "bench"))
		return cmd_bench(argc - 2, argv + 2);
	fprintf(stderr, "usage: attrib_tool resolve BIN PC[:ADDR]...\n"
			"       attrib_tool corpus BIN [-v] [--min PERCENT]\n"
			"       attrib_tool format BIN VADDR\n"
			"       attrib_tool list BIN\n"
			"       attrib_tool bench BIN SAMPLES UNIQUE\n");
	return 2;
}
