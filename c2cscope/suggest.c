// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope suggest: propose re-layouts of a struct that separate write-hot
 * fields from the fields other contexts touch, with the cost of each.
 */
#include "cmd.h"
#include "typeargs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest/suggest.h"
#include "types/types.h"
#include "util/strbuf.h"

#define CMD "suggest"

static const struct cmd_usage usage = {
	.synopsis = "c2cscope suggest -C STRUCT --hotness FILE|--profile DATA [options] [FILE]",
	.description =
		"Propose member orders for STRUCT (from FILE's DWARF or BTF, or --kernel;\n"
		"without either, from the binaries --profile DATA profiled, else the running\n"
		"kernel's BTF) that keep write-hot fields off the cache lines of fields other\n"
		"cpus or code paths touch. The cache-line size defaults to 64.",
};

struct suggest_args {
	struct type_args ta; /* -C STRUCT, --kernel, --profile DATA, ... */
	const char *struct_name;
	const char *hotness;
	const char *file;
	const char *emit_rules;
	const char *html; /* --html FILE */
	const char *choose;
	struct cmd_strlist pins;
	const char *source_dir;
	bool patch;
	unsigned int cacheline_size;
	bool json;
};

static int opt_choose(const struct cmd_option *opt, const char *arg, void *ctx)
{
	struct suggest_args *a = ctx;

	if (!propose_kind_known(arg))
		return cmd_error(CMD, "--choose expects reorder, isolate or align, not '%s'", arg);
	a->choose = arg;
	return 0;
}

static int check_args(struct suggest_args *a, int nr, char **files)
{
	static const char *const formats[] = { "text", "json", NULL };
	const struct type_args *ta = &a->ta;
	int fmt = type_args_format(CMD, ta, formats);

	if (fmt < 0 || type_args_check(CMD, ta, nr))
		return EXIT_BAD_INPUT;
	a->json = fmt == 1;
	a->cacheline_size = type_args_cacheline(ta, 64);
	a->file = nr ? files[0] : NULL;
	if (nr > 1)
		return cmd_error(CMD, "one FILE at most, not also '%s'", files[1]);
	if (ta->structs.nr != 1 || type_name_is_glob(ta->structs.items[0]))
		return cmd_error(CMD, "which struct? give -C NAME (one, no glob)");
	a->struct_name = ta->structs.items[0];
	if (!a->hotness == !ta->profile)
		return cmd_error(CMD, "give one profile: --hotness FILE or --profile DATA");
	if (a->patch && a->json)
		return cmd_error(CMD, "--patch prints a diff: it does not take --format json");
	if (a->source_dir && !a->patch)
		return cmd_error(CMD, "--source-dir is for --patch");
	return 0;
}

/* 0 to go on, CMD_PARSE_HELP/CMD_PARSE_ERROR, or an exit code after a message. */
static int parse_args(int argc, char **argv, struct suggest_args *a)
{
	const struct cmd_option opts[] = {
		TYPE_OPTIONS(&a->ta, "text (default) or json"),
		OPT_GROUP("Suggest"),
		OPT_STRING(0, "hotness", &a->hotness, "FILE",
			   "field classes: read_mostly, read_write, cold"),
		TYPE_OPT_PROFILE(&a->ta),
		OPT_STRING_LIST(0, "pin", &a->pins, "FIELD",
				"keep FIELD at its offset (repeatable)"),
		OPT_CALLBACK(0, "choose", "reorder|isolate|align",
			     "the option --emit-rules, --html and --patch lock in\n"
			     "(default: the smallest that separates everything)",
			     opt_choose),
		OPT_STRING(0, "emit-rules", &a->emit_rules, "FILE",
			   "write c2cscope check rules that lock the fix in"),
		OPT_FLAG(0, "patch", &a->patch,
			 "print a unified diff of the struct's source that makes\n"
			 "the option; apply with patch -p1 in the source directory"),
		OPT_STRING(0, "source-dir", &a->source_dir, "DIR",
			   "where the source files DWARF names are (default .)"),
		OPT_STRING(0, "html", &a->html, "FILE",
			   "also draw the struct and the chosen option (--choose)\n"
			   "as one self-contained HTML page"),
		OPT_END(),
	};
	int argi = cmd_parse_options(CMD, &usage, opts, a, argc, argv, 0);

	return argi < 0 ? argi : check_args(a, argc - argi, argv + argi);
}

static int emit_rules(const char *path, const struct type *t, const struct struct_profile *prof,
		      const struct proposal *p, unsigned int cl)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	int ret = 0;

	if (!f)
		return cmd_error(CMD, "%s: %s", path, strerror(errno));
	propose_format_rules(&sb, t, prof, p, cl);
	if (fputs(sb.buf, f) == EOF)
		ret = cmd_error(CMD, "%s: write failed: %s", path, strerror(errno));
	if (f != stdout && fclose(f))
		ret = cmd_error(CMD, "%s: %s", path, strerror(errno));
	strbuf_release(&sb);
	return ret;
}

/* Each line of msgs as "c2cscope suggest: LINE" on stderr. */
static void print_notes(const struct strbuf *msgs)
{
	const char *p = msgs->buf;

	while (*p) {
		size_t len = strcspn(p, "\n");

		fprintf(stderr, "c2cscope %s: %.*s\n", CMD, (int)len, p);
		p += len + (p[len] == '\n');
	}
}

/* --patch: the diff on stdout; the rules, if asked, lock in the option patched. */
static int run_patch(const struct suggest_args *a, const struct type *t,
		     const struct struct_profile *prof, const struct proposer *pr,
		     const struct propose_opts *popts)
{
	const struct suggest_patch_req req = {
		.t = t,
		.prof = prof,
		.pr = pr,
		.opts = popts,
		.source_dir = a->source_dir,
		.cacheline_size = a->cacheline_size,
		.choose = a->choose,
	};
	struct strbuf before = STRBUF_INIT, out = STRBUF_INIT, after = STRBUF_INIT;
	struct suggest_patch sp;
	struct err_msg err = { 0 };
	const struct proposal *p;
	int ret = EXIT_OK;

	if (suggest_patch_make(&req, &sp, &err)) {
		suggest_patch_release(&sp);
		return cmd_report_err(CMD, &err);
	}
	p = sp.chosen;
	suggest_patch_format(&sp, t, a->struct_name, &before, &out, &after);
	print_notes(&before);
	fputs(out.buf, stdout);
	print_notes(&after);
	strbuf_release(&before);
	strbuf_release(&out);
	strbuf_release(&after);
	if (sp.status == SUGGEST_PATCH_REFUSED)
		ret = EXIT_CHECK_FAILED;
	if (ret == EXIT_OK && a->emit_rules)
		ret = emit_rules(a->emit_rules, t, prof, p, a->cacheline_size);
	suggest_patch_release(&sp);
	return ret;
}

static void print_verdict(const struct proposer *pr, const struct struct_profile *prof,
			  const char *pr_name)
{
	static const char *const label[] = { "reorder only", "isolate", "align the element" };
	const struct proposal *best = proposer_choose(pr, NULL);
	uint32_t i;

	if (!proposer_conflicts(pr)) {
		if (propose_true_sharing_hitm(prof))
			printf("\nverdict: no re-layout helps struct %s: its HITMs are true sharing "
			       "(remedies above)\n",
			       pr_name);
		return;
	}
	printf("\nverdict:");
	for (i = 0; i < proposer_nr(pr); i++) {
		const struct proposal *p = proposer_get(pr, i);

		printf("%s %s %s (%+lld bytes)", i ? ";" : "", label[p->kind],
		       p->conflicts_after ? "leaves sharing" : "separates all sharing",
		       (long long)p->new_size - (long long)p->old_size);
	}
	printf("\ndefault (--patch, --emit-rules, --html): %s\n", propose_kind_name(best->kind));
}

/* The struct and its profile: measured (--profile) or from --hotness. */
static int load_inputs(const struct suggest_args *a, struct profiled *in)
{
	struct err_msg err = { 0 };
	int ret;

	if (a->ta.profile)
		return type_args_load_profile(CMD, &a->ta, a->file, a->struct_name, in);
	memset(in, 0, sizeof(*in));
	ret = type_args_load_struct(CMD, &a->ta, a->file, a->struct_name, &in->db, &in->type);
	if (!ret && profile_parse_hotness(a->hotness, in->type, &in->profile, &err))
		ret = cmd_report_err(CMD, &err);
	return ret;
}

/* Every option as text or JSON, the rules if asked, and the verdict. */
static int run_propose(const struct suggest_args *a, const struct profiled *in,
		       const struct proposer *pr)
{
	struct strbuf out = STRBUF_INIT;
	struct err_msg err = { 0 };
	int ret = 0;

	if (a->json)
		ret = propose_format_json(&out, in->type, in->profile, pr, &err);
	else
		propose_format_text(&out, in->type, in->profile, pr);
	if (ret) {
		strbuf_release(&out);
		return cmd_report_err(CMD, &err);
	}
	fputs(out.buf, stdout);
	strbuf_release(&out);
	if (a->emit_rules)
		ret = emit_rules(a->emit_rules, in->type, in->profile,
				 proposer_choose(pr, a->choose), a->cacheline_size);
	if (!ret && a->html)
		ret = suggest_html_page_write(a->html, in->type, in->profile,
					      proposer_choose(pr, a->choose), a->cacheline_size,
					      &err) ?
			      cmd_report_err(CMD, &err) :
			      0;
	if (!ret && !a->json)
		print_verdict(pr, in->profile, a->struct_name);
	return ret;
}

int cmd_suggest(int argc, char **argv)
{
	struct suggest_args a = { .ta.cmd = CMD };
	struct profiled in = { 0 };
	struct proposer *pr = NULL;
	struct propose_opts popts;
	struct err_msg err = { 0 };
	int ret = parse_args(argc, argv, &a);

	if (ret < 0) {
		type_args_release(&a.ta);
		free(a.pins.items);
		return cmd_options_exit(ret);
	}
	if (!ret)
		ret = load_inputs(&a, &in);
	if (!ret) {
		popts = (struct propose_opts){ .cacheline_size = a.cacheline_size,
					       .pinned = a.pins.items };
		if (suggest_propose(in.type, in.profile, &popts, &pr, &err))
			ret = cmd_report_err(CMD, &err);
		else if (a.choose && !proposer_choose(pr, a.choose))
			ret = cmd_error(CMD,
					"--choose %s: no such option for struct %s (align needs "
					"HITMs between objects in a measured profile)",
					a.choose, a.struct_name);
		else if (a.patch)
			ret = run_patch(&a, in.type, in.profile, pr, &popts);
		else
			ret = run_propose(&a, &in, pr);
	}
	proposer_free(pr);
	profiled_release(&in);
	free(a.pins.items);
	type_args_release(&a.ta);
	return ret;
}
