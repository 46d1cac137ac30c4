// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for the type model: prints what a loader produced, or emits a
 * C program that checks every number against offsetof/sizeof/_Alignof.
 *
 *   dump_types [--btf|--dwarf] [-C NAME[,NAME]] [-j N] FILE   dump the model
 *   dump_types --assert SOURCE.c FILE    C checker for FILE (built from SOURCE.c)
 *   dump_types --count FILE              number of structs (benchmarks)
 *   dump_types --kernel [-C NAME]        the running kernel's BTF
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "types/types.h"
#include "util/xalloc.h"

static void dump_members(const struct type *t, int indent);

static void dump_type_line(const struct type *t)
{
	printf("%s %s size %llu align %u forced %u packed %d members %u",
	       t->kind == TYPE_UNION ? "union" : "struct", t->name ? t->name : "{anon}",
	       (unsigned long long)t->size, type_alignment(t), t->alignment, t->packed,
	       t->nr_members);
	if (t->decl_file)
		printf(" decl %s:%u", t->decl_file, t->decl_line);
	printf("\n");
}

static void dump_members(const struct type *t, int indent)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type *mt = type_strip(m->type);
		struct strbuf sb = STRBUF_INIT;

		type_format_member(&sb, t, i);
		printf("%*smember %s offset %llu bit_offset %llu bit_size %u align %u size %llu | %s\n",
		       indent, "", m->name ? m->name : "{anon}", (unsigned long long)m->offset,
		       (unsigned long long)m->bit_offset, m->bit_size, m->alignment,
		       (unsigned long long)type_size(m->type), sb.buf);
		strbuf_release(&sb);
		if (mt && !m->name && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
			dump_members(mt, indent + 2);
	}
}

/* --- the offsetof checker ------------------------------------------------ */

static void assert_members(const struct type *top, const struct type *t, uint64_t base)
{
	const char *kw = top->kind == TYPE_UNION ? "union" : "struct";
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct type *mt = type_strip(m->type);

		if (!m->name) {
			if (mt && (mt->kind == TYPE_STRUCT || mt->kind == TYPE_UNION))
				assert_members(top, mt, base + m->bit_offset);
			continue;
		}
		if (m->bit_size) {
			printf("\tCHECK_BITS(%s %s, %s, %llu, %u);\n", kw, top->name, m->name,
			       (unsigned long long)(base + m->bit_offset), m->bit_size);
			continue;
		}
		printf("\tCHECK(offsetof(%s %s, %s) == %llu);\n", kw, top->name, m->name,
		       (unsigned long long)(base / 8 + m->offset));
		if (mt && mt->kind == TYPE_ARRAY && mt->nr_dims && !mt->dims[0])
			continue; /* flexible: sizeof is not allowed */
		printf("\tCHECK(sizeof(((%s %s *)0)->%s) == %llu);\n", kw, top->name, m->name,
		       (unsigned long long)type_size(m->type));
	}
}

static void emit_checker(const struct type_db *db, const char *source)
{
	size_t i;

	printf("#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n");
	printf("#include \"%s\"\n", source);
	printf("static int failures, checks;\n");
	printf("#define CHECK(c) do { checks++; if (!(c)) { failures++; "
	       "printf(\"FAIL line %%d: %%s\\n\", __LINE__, #c); } } while (0)\n");
	/* A bitfield's position: set all its bits in a zeroed object, find them. */
	printf("#define CHECK_BITS(T, M, OFF, SIZE) do { T v; unsigned char *b = (unsigned char *)&v; "
	       "size_t i, lo = (size_t)-1, n = 0; memset(&v, 0, sizeof(v)); v.M = -1; "
	       "for (i = 0; i < sizeof(v) * 8; i++) if (b[i / 8] >> (i %% 8) & 1) { "
	       "if (lo == (size_t)-1) lo = i; n++; } "
	       "checks++; if (lo != (OFF) || n != (SIZE)) { failures++; "
	       "printf(\"FAIL %%s.%%s: bits at %%zu size %%zu, model says %%llu size %%u\\n\", "
	       "#T, #M, lo, n, (unsigned long long)(OFF), (unsigned)(SIZE)); } } while (0)\n");
	printf("int main(void)\n{\n");
	for (i = 0; i < type_db_nr_structs(db); i++) {
		const struct type *t = type_db_struct(db, i);
		const char *kw = t->kind == TYPE_UNION ? "union" : "struct";

		printf("\tCHECK(sizeof(%s %s) == %llu);\n", kw, t->name,
		       (unsigned long long)t->size);
		printf("\tCHECK(_Alignof(%s %s) == %u);\n", kw, t->name, type_alignment(t));
		assert_members(t, t, 0);
	}
	printf("\tprintf(\"%%d checks, %%d failures\\n\", checks, failures);\n");
	printf("\treturn failures != 0;\n}\n");
}

static const char **split_names(char *arg)
{
	size_t n = 1, i = 0;
	const char **names;
	char *p, *save = NULL;

	for (p = arg; *p; p++)
		n += *p == ',';
	names = xcalloc(n + 1, sizeof(*names));
	for (p = strtok_r(arg, ",", &save); p; p = strtok_r(NULL, ",", &save))
		names[i++] = p;
	return names;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "btf", no_argument, NULL, 'b' },	    { "dwarf", no_argument, NULL, 'd' },
		{ "assert", required_argument, NULL, 'a' }, { "count", no_argument, NULL, 'n' },
		{ "kernel", no_argument, NULL, 'k' },	    { NULL, 0, NULL, 0 },
	};
	struct type_load_opts opts = { 0 };
	const char *assert_source = NULL;
	const char **names = NULL;
	bool count = false, kernel = false;
	struct err_msg err = { 0 };
	struct type_db *db;
	int c, ret;
	size_t i;

	while ((c = getopt_long(argc, argv, "C:j:", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			opts.source = TYPE_SOURCE_BTF;
			break;
		case 'd':
			opts.source = TYPE_SOURCE_DWARF;
			break;
		case 'a':
			assert_source = optarg;
			break;
		case 'n':
			count = true;
			break;
		case 'k':
			kernel = true;
			break;
		case 'C':
			names = split_names(optarg);
			break;
		case 'j':
			opts.threads = (unsigned int)atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (!kernel && optind + 1 != argc) {
		fprintf(stderr, "usage: dump_types [options] FILE\n");
		return 2;
	}
	opts.only = names;
	ret = kernel ? type_db_load_kernel(&opts, &db, &err) :
		       type_db_load(argv[optind], &opts, &db, &err);
	if (ret) {
		fprintf(stderr, "dump_types: %s (%d)\n", err.msg, ret);
		free(names);
		return 2;
	}
	if (assert_source) {
		emit_checker(db, assert_source);
	} else if (count) {
		printf("%zu structs from %s\n", type_db_nr_structs(db), type_db_source(db));
	} else {
		for (i = 0; i < type_db_nr_structs(db); i++) {
			dump_type_line(type_db_struct(db, i));
			dump_members(type_db_struct(db, i), 2);
		}
	}
	type_db_free(db);
	free(names);
	return 0;
}
