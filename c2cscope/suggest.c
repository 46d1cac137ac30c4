// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope suggest: propose re-layouts of a struct that separate write-hot
 * fields from the fields other contexts touch, with the cost of each.
 */
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c2c/c2c_attrib.h"
#include "profile/profile.h"
#include "suggest/suggest.h"
#include "util/strbuf.h"
#include "types/types.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: c2cscope suggest -C STRUCT --hotness FILE|--profile DATA [options] [FILE]\n"
	"\n"
	"Propose member orders for STRUCT (from FILE's DWARF or BTF; without FILE,\n"
	"from the binaries --profile DATA profiled, else the running kernel's BTF)\n"
	"that keep write-hot fields off the cache lines of fields other cpus or\n"
	"code paths touch.\n"
	"\n"
	"  -C, --struct NAME        the struct to re-lay\n"
	"      --hotness FILE       field classes: read_mostly, read_write, cold\n"
	"      --profile DATA       or: measured accesses from a perf.data (record or\n"
	"                           record --sim) whose samples name STRUCT's fields\n"
	"      --pin FIELD          keep FIELD at its offset (repeatable)\n"
	"      --cacheline-size N   cache-line size in bytes (default 64)\n"
	"      --format text|json   output format (default text)\n"
	"      --choose reorder|isolate\n"
	"                           the option --emit-rules locks in (default: reorder\n"
	"                           when it separates everything, else isolate)\n"
	"      --emit-rules FILE    write c2cscope check rules that lock the fix in\n"
	"      --patch              print a unified diff of the struct's source that\n"
	"                           makes the option (reorder, or --choose isolate);\n"
	"                           apply with patch -p1 in the source directory\n"
	"      --source-dir DIR     where the source files DWARF names are (default .)\n"
	"      --btf, --dwarf       choose the type loader\n"
	"  -h, --help               this text\n";

struct suggest_args {
	const char *struct_name;
	const char *hotness;
	const char *profile;
	const char *file;
	const char *emit_rules;
	const char *choose;
	const char **pins;
	size_t nr_pins;
	const char *source_dir;
	bool patch;
	unsigned int cacheline_size;
	bool json;
	enum type_source source;
};

static int parse_args(int argc, char **argv, struct suggest_args *a)
{
	static const struct option longopts[] = {
		{ "struct", required_argument, NULL, 'C' },
		{ "hotness", required_argument, NULL, 'H' },
		{ "profile", required_argument, NULL, 'P' },
		{ "pin", required_argument, NULL, 'p' },
		{ "cacheline-size", required_argument, NULL, 'L' },
		{ "format", required_argument, NULL, 'f' },
		{ "choose", required_argument, NULL, 'c' },
		{ "emit-rules", required_argument, NULL, 'r' },
		{ "patch", no_argument, NULL, 'T' },
		{ "source-dir", required_argument, NULL, 'S' },
		{ "btf", no_argument, NULL, 'B' },
		{ "dwarf", no_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->cacheline_size = 64;
	while ((c = getopt_long(argc, argv, "C:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			a->struct_name = optarg;
			break;
		case 'H':
			a->hotness = optarg;
			break;
		case 'P':
			a->profile = optarg;
			break;
		case 'p':
			cmd_add_arg(&a->pins, &a->nr_pins, optarg);
			break;
		case 'L':
			if (cmd_parse_cacheline_size("suggest", optarg, &a->cacheline_size))
				return EXIT_BAD_INPUT;
			break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return cmd_error("suggest",
						 "--format expects text or json, not '%s'", optarg);
			a->json = !strcmp(optarg, "json");
			break;
		case 'c':
			if (strcmp(optarg, "reorder") && strcmp(optarg, "isolate"))
				return cmd_error("suggest",
						 "--choose expects reorder or isolate, not '%s'",
						 optarg);
			a->choose = optarg;
			break;
		case 'r':
			a->emit_rules = optarg;
			break;
		case 'T':
			a->patch = true;
			break;
		case 'S':
			a->source_dir = optarg;
			break;
		case 'B':
			a->source = TYPE_SOURCE_BTF;
			break;
		case 'D':
			a->source = TYPE_SOURCE_DWARF;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			fputs(usage_text, stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc)
		return cmd_error("suggest", "one FILE at most, not also '%s'", argv[optind]);
	if (!a->struct_name)
		return cmd_error("suggest", "which struct? give -C NAME");
	if (!a->hotness == !a->profile)
		return cmd_error("suggest", "give one profile: --hotness FILE or --profile DATA");
	if (a->patch && a->json)
		return cmd_error("suggest",
				 "--patch prints a diff: it does not take --format json");
	if (a->source_dir && !a->patch)
		return cmd_error("suggest", "--source-dir is for --patch");
	return 0;
}

static int load_struct(const struct suggest_args *a, struct type_db **db, const struct type **t)
{
	const char *only[] = { a->struct_name, NULL };
	struct type_load_opts opts = { .source = a->source, .only = only };
	struct c2c_err err = { 0 };
	struct strbuf sb = STRBUF_INIT;
	struct type_db *all;
	int ret;

	ret = a->file ? type_db_load(a->file, &opts, db, &err) :
			type_db_load_kernel(&opts, db, &err);
	if (ret)
		return cmd_report_err("suggest", &err);
	*t = type_db_find(*db, a->struct_name);
	if (*t)
		return 0;
	/* The filtered load knows no other names: load them all to suggest one. */
	opts.only = NULL;
	if (a->file ? type_db_load(a->file, &opts, &all, &err) :
		      type_db_load_kernel(&opts, &all, &err))
		all = NULL;
	type_db_describe_missing(&sb, type_db_path(*db), a->struct_name, all);
	cmd_error("suggest", "%s", sb.buf);
	strbuf_release(&sb);
	if (all)
		type_db_free(all);
	return EXIT_BAD_INPUT;
}

/* The option the rules lock in: asked for, or the first that separates all. */
static const struct proposal *chosen(const struct proposer *pr, const char *choose)
{
	const struct proposal *reorder = proposer_get(pr, 0), *isolate = proposer_get(pr, 1);

	if (choose)
		return !strcmp(choose, "reorder") ? reorder : isolate;
	return reorder->conflicts_after == 0 ? reorder : isolate;
}

static int emit_rules(const char *path, const struct type *t, const struct struct_profile *prof,
		      const struct proposal *p, unsigned int cl)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int ret = 0;

	if (!f)
		return cmd_error("suggest", "%s: %s", path, strerror(errno));
	propose_format_rules(&sb, t, prof, p, cl);
	if (fputs(sb.buf, f) == EOF)
		ret = cmd_error("suggest", "%s: write failed: %s", path, strerror(errno));
	if (f != stdout && fclose(f))
		ret = cmd_error("suggest", "%s: %s", path, strerror(errno));
	strbuf_release(&sb);
	return ret;
}

/* Each line of the engine's notes as "c2cscope suggest: LINE" on stderr. */
static void print_notes(const struct strbuf *notes)
{
	const char *p = notes->buf;

	while (*p) {
		size_t len = strcspn(p, "\n");

		fprintf(stderr, "c2cscope suggest: %.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/*
 * --patch: the diff on stdout (exit 0), or why not and the moves (1); the
 * rules, if asked, lock in the option patched.
 */
static int run_patch(const struct suggest_args *a, const struct type *t,
		     const struct struct_profile *prof, const struct proposer *pr,
		     const struct propose_opts *popts)
{
	struct suggest_patch sp;
	struct c2c_err err = { 0 };
	struct suggest_patch_args pa = {
		.t = t,
		.prof = prof,
		.pr = pr,
		.opts = popts,
		.source_dir = a->source_dir,
		.cacheline_size = a->cacheline_size,
		.isolate = a->choose && !strcmp(a->choose, "isolate"),
	};
	int ret = suggest_patch_make(&pa, &sp, &err);

	print_notes(&sp.notes);
	fputs(sp.text.buf, stdout);
	if (ret)
		ret = cmd_report_err("suggest", &err);
	else if (sp.outcome == SUGGEST_PATCH_BLOCKED)
		ret = EXIT_CHECK_FAILED;
	else if (a->emit_rules)
		ret = emit_rules(a->emit_rules, t, prof, sp.chosen, a->cacheline_size);
	suggest_patch_release(&sp);
	return ret;
}

static void print_verdict(const struct proposer *pr)
{
	const struct proposal *r = proposer_get(pr, 0), *i = proposer_get(pr, 1);

	if (!proposer_conflicts(pr))
		return;
	printf("\nverdict: reorder only %s (%+lld bytes); isolate %s (%+lld bytes)\n",
	       r->conflicts_after ? "leaves sharing" : "separates all sharing",
	       (long long)r->new_size - (long long)r->old_size,
	       i->conflicts_after ? "leaves sharing" : "separates all sharing",
	       (long long)i->new_size - (long long)i->old_size);
}

/*
 * --profile DATA: the attributed session. Without FILE the struct comes
 * from the profiled binaries (it then lives as long as the session).
 */
static int profile_session(const struct suggest_args *a, struct c2c_session **s,
			   const struct type **t)
{
	struct c2c_err err = { 0 };

	if (c2c_session_load_profile(a->profile, s, &err))
		return cmd_report_err("suggest", &err);
	if (a->file)
		return 0;
	*t = c2c_attrib_find_type((*s)->attrib, a->struct_name);
	if (!*t)
		return cmd_error("suggest",
				 "%s: no sample was attributed to struct %s; give the binary "
				 "that defines it",
				 a->profile, a->struct_name);
	return 0;
}

/* The struct and its profile: measured (--profile) or from --hotness. */
static int load_inputs(const struct suggest_args *a, struct c2c_session **s, struct type_db **db,
		       const struct type **t, struct struct_profile **prof)
{
	struct c2c_err err = { 0 };
	int ret = 0;

	if (a->profile)
		ret = profile_session(a, s, t);
	if (!ret && !*t)
		ret = load_struct(a, db, t);
	if (ret)
		return ret;
	if (a->profile)
		*prof = profile_from_session(*s, (*s)->attrib, *t);
	else if (profile_parse_hotness(a->hotness, *t, prof, &err))
		return cmd_report_err("suggest", &err);
	return 0;
}

int cmd_suggest(int argc, char **argv)
{
	struct suggest_args a = { 0 };
	struct type_db *db = NULL;
	struct struct_profile *prof = NULL;
	struct c2c_session *session = NULL;
	struct proposer *pr = NULL;
	struct propose_opts popts;
	const struct type *t = NULL;
	struct c2c_err err = { 0 };
	struct strbuf out = STRBUF_INIT;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		goto out;
	ret = load_inputs(&a, &session, &db, &t, &prof);
	if (ret)
		goto out;
	popts = (struct propose_opts){ .cacheline_size = a.cacheline_size, .pinned = a.pins };
	if (propose(t, prof, &popts, &pr, &err)) {
		ret = cmd_report_err("suggest", &err);
		goto out;
	}
	if (a.patch) {
		ret = run_patch(&a, t, prof, pr, &popts);
		goto out;
	}
	if (a.json)
		ret = propose_format_json(&out, t, prof, pr, &err);
	else
		propose_format_text(&out, t, prof, pr);
	if (ret) {
		ret = cmd_report_err("suggest", &err);
		goto out;
	}
	fputs(out.buf, stdout);
	if (a.emit_rules)
		ret = emit_rules(a.emit_rules, t, prof, chosen(pr, a.choose), a.cacheline_size);
	if (!ret && !a.json)
		print_verdict(pr);
out:
	strbuf_release(&out);
	proposer_free(pr);
	profile_free(prof);
	if (db)
		type_db_free(db);
	if (session)
		c2c_session_free(session);
	free(a.pins);
	return ret < 0 ? EXIT_OK : ret;
}
