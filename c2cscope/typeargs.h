/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options of every command that reads types (layout, check, diff,
 * suggest), declared once so that each means the same in all of them:
 *
 *   -C, --struct NAME[,NAME]  structs and unions by name or fnmatch glob
 *   -k, --kernel              the running kernel's BTF
 *       --btf, --dwarf        read types from BTF, or from DWARF, only
 *   -f, --format FMT          the output format (each command has its list)
 *   -l, --cacheline-size N    a power of two from 8 to 4096
 *       --profile DATA        measured accesses from a perf.data
 *
 * and the loading they share: a FILE's or the kernel's types, the one
 * message for a struct that is not there, and "load, attribute, profile"
 * for --profile.
 */
#ifndef C2C_TYPEARGS_H
#define C2C_TYPEARGS_H

#include "options.h"
#include "profile/profile.h"
#include "types/types.h"

struct c2c_session;

struct type_args {
	const char *cmd; /* the command, for messages: set when declared */
	struct cmd_strlist structs; /* -C, split at commas, NULL-terminated */
	bool kernel;
	enum type_source source; /* --btf, --dwarf */
	const char *format; /* NULL: text */
	unsigned int cacheline_size; /* 0: not given (type_args_cacheline) */
	const char *profile; /* --profile DATA */
	/* with --profile: kernel samples through --vmlinux, --kernel-debug, --kallsyms */
	const char *vmlinux, *kallsyms;
	struct cmd_strlist kernel_debug;
};

int type_opt_struct(const struct cmd_option *opt, const char *arg, void *ctx);
int type_opt_source(const struct cmd_option *opt, const char *arg, void *ctx);
int type_opt_cacheline(const struct cmd_option *opt, const char *arg, void *ctx);

#define TYPE_OPT_CB(s, l, a, h, fn, ta)                                                     \
	{                                                                                   \
		.type = CMD_OPT_CALLBACK, .short_name = (s), .long_name = (l), .argh = (a), \
		.help = (h), .callback = (fn), .data = (ta)                                 \
	}

/* The group, in every type-reading command's table; FORMATS: "text or json". */
#define TYPE_OPTIONS(ta, formats)                                                               \
	OPT_GROUP("Reading types"),                                                             \
		TYPE_OPT_CB('C', "struct", "NAME[,NAME]",                                       \
			    "only these structs/unions (fnmatch globs); repeatable",            \
			    type_opt_struct, (ta)),                                             \
		OPT_FLAG('k', "kernel", &(ta)->kernel,                                          \
			 "the running kernel's BTF (" TYPE_ARGS_KERNEL_BTF ")"),                \
		TYPE_OPT_CB(0, "btf", NULL, "read types from BTF only", type_opt_source, (ta)), \
		TYPE_OPT_CB(0, "dwarf", NULL, "read types from DWARF only", type_opt_source,    \
			    (ta)),                                                              \
		OPT_STRING('f', "format", &(ta)->format, "FMT", "output format: " formats),     \
		TYPE_OPT_CB('l', "cacheline-size", "N",                                         \
			    "cache-line size in bytes, a power of two from 8 to 4096",          \
			    type_opt_cacheline, (ta))

/* --profile DATA, for the commands that read measured accesses. */
#define TYPE_OPT_PROFILE(ta)                                                        \
	OPT_STRING(0, "profile", &(ta)->profile, "DATA",                            \
		   "measured accesses from a perf.data (record or record --sim)\n"  \
		   "whose samples name the struct's fields; the struct from FILE\n" \
		   "or --kernel, else from the binaries DATA profiled"),            \
		KERNEL_DEBUG_OPTIONS(&(ta)->vmlinux, &(ta)->kernel_debug, &(ta)->kallsyms)

/*
 * Where kernel samples are attributed from: report's and --profile's.
 * (report's --vmlinux also has -k, which means --kernel elsewhere.)
 */
#define KERNEL_OPT_VMLINUX_HELP "the kernel's vmlinux with DWARF (symbols and fields)"
#define KERNEL_OPT_DEBUG(debug)                                                       \
	OPT_STRING_LIST(0, "kernel-debug", (debug), "FILE",                           \
			"kernel code's DWARF from this module or object (.ko, .o);\n" \
			"repeatable; matched by function name + offset")
#define KERNEL_OPT_KALLSYMS(kallsyms)                 \
	OPT_STRING(0, "kallsyms", (kallsyms), "FILE", \
		   "the recorded kernel's symbols (default /proc/kallsyms)")
#define KERNEL_DEBUG_OPTIONS(vmlinux, debug, kallsyms)                        \
	OPT_STRING(0, "vmlinux", (vmlinux), "FILE", KERNEL_OPT_VMLINUX_HELP), \
		KERNEL_OPT_DEBUG(debug), KERNEL_OPT_KALLSYMS(kallsyms)

#define TYPE_ARGS_KERNEL_BTF "/sys/kernel/btf/vmlinux"

/*
 * After parsing: --kernel with a FILE, or --kernel with --dwarf, is an
 * error (printed; returns EXIT_BAD_INPUT); nr_files is how many FILE
 * arguments the command took as types.
 */
int type_args_check(const char *cmd, const struct type_args *ta, int nr_files);

/*
 * The index of --format in NAMES (NULL-terminated; 0 when not given), or
 * -1 after "--format expects a, b or c, not 'x'".
 */
int type_args_format(const char *cmd, const struct type_args *ta, const char *const *names);

/* --cacheline-size, or DEFAULT_SIZE when not given. */
unsigned int type_args_cacheline(const struct type_args *ta, unsigned int default_size);

/* What messages call FILE: itself, or the kernel's BTF when NULL. */
const char *type_args_file(const char *file);

/*
 * The types of FILE (ELF with DWARF or BTF, raw BTF, or a JSON baseline),
 * or of the running kernel when FILE is NULL; OPTS (may be NULL) gives the
 * only-list and the like, ta its source. 0, or an exit code after the
 * message.
 */
int type_args_load(const char *cmd, const struct type_args *ta, const char *file,
		   const struct type_load_opts *opts, struct type_db **out);

/*
 * Say that PATTERN (a -C name or glob) names nothing in FILE: a loaded
 * model knows only what its only-list named, so FILE is loaded whole for
 * a close name. Returns EXIT_BAD_INPUT.
 */
int type_args_missing(const char *cmd, const struct type_args *ta, const char *file,
		      const char *pattern);

/* Struct NAME from FILE (or the kernel): loaded for it alone. */
int type_args_load_struct(const char *cmd, const struct type_args *ta, const char *file,
			  const char *name, struct type_db **db, const struct type **t);

/* --profile: one place composes "load, attribute, profile". */
struct profiled {
	struct c2c_session *session;
	struct type_db *db; /* NULL when the struct came from the session */
	const struct type *type;
	struct struct_profile *profile;
};

/*
 * The attributed session of ta->profile, struct NAME from FILE or --kernel
 * when given, else from the binaries the session attributed to, and its
 * measured profile. 0, or an exit code after the message.
 */
int type_args_load_profile(const char *cmd, const struct type_args *ta, const char *file,
			   const char *name, struct profiled *out);
void profiled_release(struct profiled *p);

void type_args_release(struct type_args *ta);

#endif
