/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The type model: one in-memory representation of C types, loaded from DWARF
 * (libdw) or BTF (btf_data.c). Everything above src/types/ works on these
 * structures and never sees a Dwarf_Die or a BTF record.
 *
 * The model is read-only once loaded and owned by its struct type_db; all
 * pointers stay valid until type_db_free().
 */
#ifndef C2C_TYPES_TYPES_H
#define C2C_TYPES_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/strbuf.h"

enum type_kind {
	TYPE_VOID,
	TYPE_BASE, /* integer, char, bool, floating point */
	TYPE_ENUM,
	TYPE_POINTER,
	TYPE_ARRAY,
	TYPE_STRUCT,
	TYPE_UNION,
	TYPE_TYPEDEF,
	TYPE_CONST,
	TYPE_VOLATILE,
	TYPE_RESTRICT,
	TYPE_ATOMIC,
	TYPE_FUNC, /* a function prototype (the target of a function pointer) */
	TYPE_FWD, /* declared only: "struct foo;" */
};

enum base_encoding {
	BASE_SIGNED,
	BASE_UNSIGNED,
	BASE_SIGNED_CHAR,
	BASE_UNSIGNED_CHAR,
	BASE_BOOL,
	BASE_FLOAT,
};

struct type;

struct type_member {
	const char *name; /* NULL for an anonymous struct/union member */
	const struct type *type;
	/*
	 * Byte offset of the member; for a bitfield, the offset of the byte
	 * that holds its first bit (bit_offset / 8).
	 */
	uint64_t offset;
	/* Bit offset from the start of the struct (little-endian numbering). */
	uint64_t bit_offset;
	uint32_t bit_size; /* bitfields only; 0 otherwise */
	/* DW_AT_alignment / inferred forced alignment; 0 when natural. */
	uint32_t alignment;
	/*
	 * Where the member is declared (DW_AT_decl_file/DW_AT_decl_line on
	 * DW_TAG_member), when DWARF says; decl_file NULL and decl_line 0
	 * otherwise (BTF, JSON baselines). decl_file is usually the same
	 * string as the parent struct's decl_file.
	 */
	const char *decl_file;
	uint32_t decl_line;
};

struct type_enumerator {
	const char *name;
	int64_t value;
};

struct type {
	enum type_kind kind;
	const char *name; /* NULL when anonymous; never "struct x", just "x" */
	uint64_t size; /* bytes (arrays: whole array; pointers: 8; FUNC: 0) */
	/*
	 * Alignment the type was forced to (DW_AT_alignment on the type,
	 * __attribute__((aligned)) visible in BTF offsets); 0 when natural.
	 */
	uint32_t alignment;
	bool packed; /* inferred: some member sits below its natural alignment */
	bool fwd_union; /* FWD only: declared as "union x;", not "struct x;" */

	/* POINTER, ARRAY (element), TYPEDEF, qualifiers, FUNC (return; NULL = void) */
	const struct type *target;

	/* STRUCT, UNION */
	uint32_t nr_members;
	struct type_member *members;

	/* ARRAY: one entry per dimension, 0 = flexible / unknown bound */
	uint32_t nr_dims;
	uint64_t *dims;

	/* ENUM */
	uint32_t nr_enumerators;
	struct type_enumerator *enumerators;

	/* FUNC */
	uint32_t nr_params;
	const struct type **params;
	bool variadic;

	/* BASE */
	enum base_encoding encoding;

	/* Declaration site, when DWARF has one (decl_file NULL otherwise). */
	const char *decl_file;
	uint32_t decl_line;

	/*
	 * STRUCT, UNION without a tag: the typedef that names it ("typedef
	 * struct {...} NAME;"), set by the loaders; NULL otherwise. Read it
	 * through type_aggregate_name().
	 */
	const char *typedef_name;
};

enum type_source {
	TYPE_SOURCE_AUTO, /* DWARF when the file has it, else BTF */
	TYPE_SOURCE_DWARF,
	TYPE_SOURCE_BTF,
};

struct type_load_opts {
	enum type_source source;
	/*
	 * When not NULL: a NULL-terminated list of struct/union names or
	 * fnmatch() globs. Loaders may then skip every type not reachable from
	 * a matching struct (that is what makes -C fast); type_db_nr_structs()
	 * still lists only matching ones.
	 */
	const char *const *only;
	/* Worker threads the DWARF loader may use (0: one per online cpu). */
	unsigned int threads;
	/*
	 * Leave decl_file/decl_line unset (NULL/0): reading the line table for
	 * file names is a large part of loading a kernel object, and text
	 * layouts do not print them.
	 */
	bool skip_decl;
};

struct type_db;

/*
 * Load the types of FILE: an ELF file with DWARF (executable, shared object,
 * relocatable object, separate debuginfo) or BTF (.BTF section), or a raw
 * BTF file such as /sys/kernel/btf/vmlinux. Returns 0 or a negative errno
 * with err describing the problem (missing file, not ELF, no debug info,
 * corrupt DWARF/BTF).
 */
int type_db_load(const char *path, const struct type_load_opts *opts, struct type_db **out,
		 struct err_msg *err);
/* The running kernel's BTF (/sys/kernel/btf/vmlinux). */
int type_db_load_kernel(const struct type_load_opts *opts, struct type_db **out,
			struct err_msg *err);
void type_db_free(struct type_db *db);

/* Where the types came from: "DWARF" or "BTF". */
const char *type_db_source(const struct type_db *db);
const char *type_db_path(const struct type_db *db);

/*
 * Named structs and unions, deduplicated: a struct defined identically in
 * many compilation units appears once; differing definitions of one name
 * each appear (type_db_find_all lists them). Sorted by name, then by order
 * of appearance.
 */
size_t type_db_nr_structs(const struct type_db *db);
const struct type *type_db_struct(const struct type_db *db, size_t i);
/* First struct or union with this name, or NULL. */
const struct type *type_db_find(const struct type_db *db, const char *name);
/* All distinct definitions of a name; returns how many, fills up to max. */
size_t type_db_find_all(const struct type_db *db, const char *name, const struct type **out,
			size_t max);
/*
 * The typedef NAME, or NULL. Loaded by name only: the load's only-list
 * must name it exactly (layout -C foo_t), else only typedefs that loaded
 * structs use are there.
 */
const struct type *type_db_find_typedef(const struct type_db *db, const char *name);
/*
 * Closest known struct name for "did you mean" (edit distance), or NULL when
 * nothing is close.
 */
const char *type_db_suggest(const struct type_db *db, const char *name);
/*
 * The one wording for a struct that is not there, appended to sb:
 * "FILE: no struct or union NAME", then "; did you mean NEAR?" when HINTS
 * (a db loaded without an only-list; may be NULL) knows a close name.
 */
void type_db_describe_missing(struct strbuf *sb, const char *file, const char *name,
			      const struct type_db *hints);

/*
 * The type a loader-specific reference names: the DWARF DIE's global offset
 * (dwarf_dieoffset) for DWARF models, the BTF type id for BTF models. Lets
 * src/attrib/ map a variable's type to the model without the model exposing
 * libdw. NULL when unknown (or not loaded because of opts->only).
 */
const struct type *type_db_by_ref(const struct type_db *db, uint64_t ref);

/*
 * The type at a DWARF type DIE, for attribution: REF is the DIE's
 * dwarf_dieoffset in DBG (the file the model came from), with
 * TYPE_DWARF_ALT_REF set for a DIE of its alternate (dwz) file. What MODEL
 * has (the DIE's own conversion, or its named struct or union) comes back
 * as it is; any other type (a variable's "struct pair *", "struct arg [8]",
 * the anonymous struct behind a typedef) is converted by the DWARF loader
 * into SIDE, a db the caller made with type_db_new and frees after MODEL's
 * users are done. NULL when REF is no type DIE.
 */
#define TYPE_DWARF_ALT_REF (1ULL << 63)
struct Dwarf;
const struct type *type_dwarf_type_at(const struct type_db *model, struct type_db *side,
				      struct Dwarf *dbg, uint64_t ref);

/* --- Building a model by hand (JSON baselines, tests) ------------------- */

/* An empty model; source is "DWARF", "BTF" or "JSON". */
struct type_db *type_db_new(const char *source, const char *path);
/* A new zeroed type owned by db; name is copied (NULL for anonymous). */
struct type *type_db_add(struct type_db *db, enum type_kind kind, const char *name);
/* Give t n zeroed members (owned by db); returns them. */
struct type_member *type_db_add_members(struct type_db *db, struct type *t, uint32_t n);
/* Give an ARRAY n zeroed dimensions (owned by db); returns them. */
uint64_t *type_db_add_dims(struct type_db *db, struct type *t, uint32_t n);
/* Give a FUNC n parameter slots (owned by db); returns them. */
const struct type **type_db_add_params(struct type_db *db, struct type *t, uint32_t n);
/* A copy of s that lives as long as db. */
const char *type_db_intern(struct type_db *db, const char *s);
/* Index named structs/unions (dedupe, sort); call once after adding types. */
void type_db_finish(struct type_db *db);

/* --- Helpers every view uses ------------------------------------------- */

/* Skip typedefs and qualifiers. */
const struct type *type_strip(const struct type *t);
/* Skip qualifiers only (keeps typedef names). */
const struct type *type_strip_cv(const struct type *t);
/* Natural alignment in bytes (forced alignment included). */
uint32_t type_alignment(const struct type *t);
/*
 * pahole's natural alignment (tag__natural_alignment): pointers 8, base
 * types and enums their size, arrays their element's, aggregates their
 * members' types' — forced alignments ignored; never 0.
 */
uint32_t type_natural_alignment(const struct type *t);
/* Size in bytes following typedefs and qualifiers. */
uint64_t type_size(const struct type *t);
/* Whether the type is a struct or union (after stripping typedefs/cv). */
bool type_is_aggregate(const struct type *t);
/*
 * The bytes member m covers, [*start, *end) from its parent's start: its
 * type's size, or for a bitfield the bytes that hold its bits (five 1-bit
 * fields in one byte cover that one byte).
 */
void type_member_extent(const struct type_member *m, uint64_t *start, uint64_t *end);
/* The bytes m would cover placed at bit_offset from its parent's start (a re-layout's). */
void type_member_extent_at(const struct type_member *m, uint64_t bit_offset, uint64_t *start,
			   uint64_t *end);
/*
 * The cache lines [*first, *last] of cl bytes that bytes [start, end)
 * touch; an empty extent (a zero-size member, a marker) is on the line it
 * starts on.
 */
void type_extent_lines(uint64_t start, uint64_t end, unsigned int cl, uint64_t *first,
		       uint64_t *last);

/*
 * The members of struct or union t (top level, in declaration order) whose
 * extent holds byte offset off: the first after prev (NULL: the first of
 * all), NULL past the last. A struct has one (or several bitfields sharing
 * a byte), a union one per alternative; a zero-size member holds none.
 * TYPE_AT_FLEX: a trailing flexible array member holds every offset from
 * its start on (the elements past the struct's end).
 */
#define TYPE_AT_FLEX 1u
const struct type_member *type_member_at(const struct type *t, uint64_t off,
					 const struct type_member *prev, unsigned int flags);
/*
 * The member named NAME (len bytes) of t, looking into anonymous structs
 * and unions as C does, in the one search order every view uses: t's own
 * members first, then its anonymous members' in declaration order,
 * recursively. *base gains the offsets of the anonymous members passed
 * through (the found member's own offset is its parent's).
 */
const struct type_member *type_member_named(const struct type *t, const char *name, size_t len,
					    uint64_t *base);

/*
 * A path from a type: names and indexes, "a.b[3].c" (a leading '.' is
 * allowed, ".a", "[2].x"), names found as type_member_named finds them.
 * On success type_member_path returns 0 with the named thing's bytes from
 * the root's start [start, end) (a member's extent: a bitfield's bytes),
 * its type, the member (NULL after an index) and parent, the offset of the
 * struct that holds it. On failure -1, with error, at (where in the path),
 * len (a name's length), in (the type searched or indexed), index.
 */
enum type_path_error {
	TYPE_PATH_OK,
	TYPE_PATH_NO_MEMBER, /* in (an aggregate) has no member at[0..len) */
	TYPE_PATH_NOT_AGGREGATE, /* at[0..len) follows a member that is no struct or union */
	TYPE_PATH_NOT_ARRAY, /* "[" at at on a type that is no one-dimensional array */
	TYPE_PATH_INDEX_RANGE, /* index is past in's dims[0] */
	TYPE_PATH_EXPECTED_INDEX, /* "[" not followed by NUMBER] */
	TYPE_PATH_EXPECTED_NAME, /* "." followed by no name */
	TYPE_PATH_EXPECTED_STEP, /* neither ".name" nor "[N]" at at */
};
struct type_path {
	const struct type_member *member;
	const struct type *type;
	uint64_t start, end, parent;
	enum type_path_error error;
	const char *at;
	size_t len;
	const struct type *in;
	uint64_t index;
};
int type_member_path(const struct type *root, const char *path, struct type_path *p);

/*
 * Kernel cache-line groups: the members between the zero-size markers
 * __cacheline_group_begin__NAME and __cacheline_group_end__NAME.
 */
#define TYPE_GROUP_BEGIN "__cacheline_group_begin__"
#define TYPE_GROUP_END "__cacheline_group_end__"

struct type_group {
	const char *name; /* the markers' suffix (points into the model) */
	int begin, end; /* member index of the first begin/end marker; -1: none */
	int nr_begin, nr_end; /* how many of each (a group has one of each) */
	uint64_t start, stop; /* offsetofend(begin marker), offsetof(end marker) */
};

/* NAME when m is a begin (or, begin false, an end) marker; else NULL. */
const char *type_group_marker(const struct type_member *m, bool begin);
/*
 * Every group name t's top-level markers mention, in order of its first
 * marker, malformed ones included (*out: free() it); returns how many.
 */
size_t type_find_groups(const struct type *t, struct type_group **out);
/* Whether the markers make a group: one begin, then one end. */
bool type_group_ok(const struct type_group *g);
/* Bytes the members declared between g's markers cover (extents merged). */
uint64_t type_group_bytes_used(const struct type *t, const struct type_group *g);

/* Whether PAT is an fnmatch(3) glob rather than a plain name. */
bool type_name_is_glob(const char *pat);
/* Whether NAME (may be NULL: no) matches PAT, a plain name or a glob. */
bool type_name_matches(const char *pat, const char *name);
/* Whether NAME matches one of the NULL-terminated GLOBS; NULL: any name. */
bool type_name_wanted(const char *const *globs, const char *name);

/*
 * The name C code knows a struct or union by, the one every view prints
 * and matches -C against: its tag, else the typedef that names it
 * ("typedef struct {...} args_t;" is args_t); NULL when it has neither.
 */
const char *type_aggregate_name(const struct type *t);
/*
 * How messages name t: "struct " or "union " then its tag, or the
 * typedef's name alone ("args_t"), or "struct (anonymous)" when it has
 * neither. Appends to sb.
 */
void type_format_aggregate(struct strbuf *sb, const struct type *t);
/*
 * The struct or union -C NAME selects: the one tagged NAME, else the one
 * the typedef NAME names (the anonymous body of "typedef struct {...}
 * NAME;", or the struct of "typedef struct x NAME;"); NULL when neither.
 */
const struct type *type_db_find_aggregate(const struct type_db *db, const char *name);

/*
 * C declaration of NAME (may be NULL) with type T, as pahole prints it:
 * "struct list_head *         next", "int (*fn)(void *)", "char name[16]".
 * Appends to sb. Anonymous aggregates print as "struct {...}".
 */
void type_format_decl(struct strbuf *sb, const struct type *t, const char *name);
/* The type's name as C spells it: "struct list_head", "unsigned int", "u64". */
void type_format_name(struct strbuf *sb, const struct type *t);
/*
 * Member I of struct/union PARENT declared as pahole prints it inside the
 * struct (type_format_decl's spelling), except that a zero-length array
 * dimension prints "[]" only for the last member of a struct with more than
 * one member and "[0]" otherwise, as pahole does. Neither the bitfield width
 * nor attributes are included; an anonymous member's name is "".
 */
void type_format_member(struct strbuf *sb, const struct type *parent, uint32_t i);

/*
 * pahole's own spelling of member declarations (the layout printer's):
 * where the member sits decides "[]" or "[0]" for a zero-length array
 * dimension, as in pahole's array_type__fprintf.
 */
struct type_decl_ctx {
	bool first_member, last_member, union_member;
	/* anonymous aggregates as "struct {...}" (pahole prints "struct ") */
	bool anon_braces;
};
/*
 * "TYPE<pad to |type_spacing|> NAME" exactly as pahole 1.24's
 * type__fprintf prints a member whose type is not printed inline
 * (pointers, arrays, function pointers, named types). Returns the length.
 */
size_t type_format_pahole_decl(struct strbuf *sb, const struct type *t, const char *name,
			       int type_spacing, const struct type_decl_ctx *ctx);
/* pahole's tag__name: the type alone ("const char  *", "int"). */
void type_format_pahole_name(struct strbuf *sb, const struct type *t);
/* An array's element type as pahole prints it, and its "[N]..." suffix. */
const struct type *type_array_elem(const struct type *t);
void type_format_dims(struct strbuf *sb, const struct type *t, const struct type_decl_ctx *ctx);

#endif
