/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Field attribution: from a sampled (code address, data address) pair to the
 * variable, struct type and field the instruction touched.
 *
 * Addresses are binary-relative: the ELF virtual addresses of the file opened
 * with attrib_open(). Callers holding runtime addresses map them first with
 * attrib_load_bias() (from one mmap of the file) and subtract the bias.
 *
 * Resolution order for one query:
 *   1. the data address falls inside a global or static variable
 *      (DWARF DW_OP_addr, else the ELF symbol table): the variable's type
 *      and the offset inside it name the field ("buf1.reader2");
 *   2. otherwise the instruction at pc is decoded (capstone), its memory
 *      operand's base register is matched against the DWARF variables and
 *      parameters living in that register at pc (location lists, inlined
 *      scopes), or tracked back through the basic blocks (register moves,
 *      loads of a typed pointer's member, lea, rip-relative globals, loads
 *      from a variable's stack slot as -O0 code does, calls that leave the
 *      register alone, a call's typed return value, a static function's
 *      callers);
 *      the pointee type and the displacement name the field
 *      ("p->cfs.period").
 * A query that does not resolve says why (enum attrib_reason); every query
 * counts exactly once in the per-reason statistics.
 */
#ifndef C2C_ATTRIB_ATTRIB_H
#define C2C_ATTRIB_ATTRIB_H

#include <stdbool.h>
#include <stdint.h>

#include "types/types.h"
#include "util/err.h"
#include "util/strbuf.h"

enum attrib_reason {
	ATTRIB_OK,
	ATTRIB_NO_SYMBOL, /* pc outside every function the debug info knows */
	ATTRIB_NO_INSN, /* no code bytes at pc, or they do not decode */
	ATTRIB_NO_MEM_OPERAND, /* the instruction does not access memory */
	ATTRIB_STACK, /* a stack access (frame/stack pointer based) */
	ATTRIB_SEGMENT, /* fs:/gs: based: thread-local or per-cpu data */
	ATTRIB_NO_VARIABLE, /* nothing typed is known to live in the base register */
	ATTRIB_NO_TYPE, /* the variable's type is unknown or not a pointer to data */
	ATTRIB_OUTSIDE_TYPE, /* the offset falls outside the type (or in padding) */
	ATTRIB_UNKNOWN_INDEX, /* an index register no array of the type explains */
	ATTRIB_BITFIELDS, /* the access spans several bitfields: which one is not said */
	ATTRIB_NR_REASONS,
};

enum attrib_kind {
	ATTRIB_KIND_NONE,
	ATTRIB_KIND_GLOBAL, /* a global or static variable, from the data address */
	ATTRIB_KIND_POINTER, /* through a typed pointer, from the instruction */
};

struct attrib_result {
	enum attrib_reason reason;
	enum attrib_kind kind;
	/*
	 * The variable: the global ("args"), or the pointer variable or
	 * parameter ("tg"); NULL when the pointer was tracked through
	 * registers without a named variable, or when nothing resolved.
	 */
	const char *var;
	/*
	 * The innermost struct or union that holds the accessed field (for
	 * "args[3].SX" the element struct of args); NULL when the object is
	 * not an aggregate or nothing resolved.
	 */
	const struct type *type;
	/*
	 * The name of *type as C code spells it: its tag ("task_group"), or
	 * for an anonymous struct the typedef naming it ("pthread_mutex_t").
	 */
	const char *type_name;
	/* Byte offset of the access inside *type. */
	uint64_t offset;
	/*
	 * The field inside *type: "reader2", "cfs_bandwidth.period",
	 * "hist[]" (index unknown), "x+2" (inside a scalar); "" for none.
	 */
	const char *field;
	/* Everything together for display: "args[3].SX", "tg->cfs_bandwidth.period". */
	const char *path;
	/* The function the pc is in (DWARF name), NULL when unknown. */
	const char *func;
	/*
	 * The outermost object the access lands in: the global's type, or the
	 * pointer's pointee, typedefs stripped and arrays reduced to one
	 * element ("args[3].SX": struct thread_arg), for per-top-level-field
	 * profiles. NULL when that is not a struct or union. outer_offset is
	 * the byte offset inside one such object; outer_name is its C name
	 * (tag, or the typedef naming an anonymous struct).
	 */
	const struct type *outer_type;
	const char *outer_name;
	uint64_t outer_offset;
};

struct attrib_opts {
	/*
	 * A type model of the same file, loaded by the caller (borrowed, must
	 * outlive the attrib). NULL: attrib_open loads the full DWARF model.
	 */
	struct type_db *types;
	/*
	 * Where separate debug info lives (build-id and debuglink lookups);
	 * NULL: /usr/lib/debug. Used when the binary itself has no DWARF.
	 */
	const char *debug_dir;
};

struct attrib;

/*
 * Open an ELF file (executable or shared object) with DWARF, in the file or
 * in a separate debug file found by build-id or .gnu_debuglink. Fails when
 * the file is missing, not ELF, or no DWARF is found.
 */
int attrib_open(const char *path, const struct attrib_opts *opts, struct attrib **out,
		struct err_msg *err);
void attrib_close(struct attrib *a);

/*
 * Attribute one sample. pc and addr are binary-relative; addr 0 means
 * unknown. The result lives as long as the attrib (results are cached per
 * unique pc and per global data address). Never NULL.
 */
const struct attrib_result *attrib_resolve(struct attrib *a, uint64_t pc, uint64_t addr);

/* The reason as a short word for --stats: "ok", "no-symbol", ... */
const char *attrib_reason_name(enum attrib_reason reason);
/* Queries per reason since attrib_open; they add up to the query count. */
void attrib_stats(const struct attrib *a, uint64_t counts[ATTRIB_NR_REASONS]);
/* Distinct pcs and instructions decoded so far (for --stats). */
uint64_t attrib_nr_unique_pcs(const struct attrib *a);

/* One instruction of an annotation. */
struct attrib_insn_text {
	uint64_t pc; /* binary-relative */
	char *text; /* "mov rax, qword ptr [rbx + 8]" */
	int line; /* its source line in the annotation's file, 0 when unknown or another file */
};

/* A function's code around a sampled address (attrib_annotate). */
struct attrib_annotation {
	const char *func; /* DWARF name */
	uint64_t lo, hi; /* its range holding the address */
	const char *file; /* the address's source file as the line table names it, or NULL */
	char *path; /* file to open: a relative file joined to its CU's DW_AT_comp_dir */
	int line; /* and its line, 0 when unknown */
	struct attrib_insn_text *insns;
	size_t nr_insns;
	size_t sampled; /* the index of the address's instruction; nr_insns when none starts there */
};

/*
 * Disassemble the function holding pc (binary-relative), each instruction
 * with its source line; the text's addresses (jump targets, rip-relative
 * operands) are those of the code loaded at bias. -ENOENT when no DWARF
 * function holds pc or its bytes do not decode.
 */
int attrib_annotate(struct attrib *a, uint64_t pc, uint64_t bias, struct attrib_annotation *out,
		    struct err_msg *err);
void attrib_annotation_release(struct attrib_annotation *an);

/* "x86_64" or "aarch64". */
const char *attrib_arch(const struct attrib *a);

/*
 * The load bias of the file from one of its mmaps (start address and file
 * offset of the mapping): runtime address - bias = binary-relative address,
 * for every segment (.bss included). -ENOENT when no PT_LOAD segment covers
 * pgoff.
 */
int attrib_load_bias(const struct attrib *a, uint64_t map_start, uint64_t pgoff, uint64_t *bias);

/*
 * Where an address that no variable claims lies: appends "[heap]+0x40" for
 * an anonymous or special mapping (name, offset from its start), or, when a
 * is the opened file, "libfoo.so .bss+0x18" from the section holding vaddr
 * (the binary-relative address). a may be NULL.
 */
void attrib_format_mapping(struct strbuf *sb, const struct attrib *a, const char *map_name,
			   uint64_t map_offset, uint64_t vaddr);

/*
 * The path of the field at OFFSET inside type t, appended to sb: "b.c",
 * "[3].SX", "arr[2]", "x+2" (inside a scalar member at offset 2). Anonymous
 * struct/union members add no name, as in C. Returns 0, or -ERANGE when the
 * offset is outside the type or falls in padding (sb then holds what was
 * walked).
 */
int attrib_field_path(const struct type *t, uint64_t offset, struct strbuf *sb);

/* ---- kernel code: symbol + offset (kernel.c) ------------------------ */

struct attrib_function {
	uint64_t addr; /* binary-relative start */
	uint64_t size; /* the symbol's size, 0 when unknown */
};

/*
 * The functions named NAME in the file's symbol table (static ones share
 * names), the first MAX of them in OUT; returns how many there are.
 */
size_t attrib_find_functions(struct attrib *a, const char *name, struct attrib_function *out,
			     size_t max);
/* The file's GNU build-id: the number of its bytes, 0 when it has none. */
size_t attrib_build_id(const struct attrib *a, const uint8_t **bits);
/* Any defined symbol NAME's address (_text, a section marker); -ENOENT. */
int attrib_find_symbol(const struct attrib *a, const char *name, uint64_t *addr);
/* A relocatable object (.o, .ko): its sections were laid out by libdwfl. */
bool attrib_is_relocatable(const struct attrib *a);

/* ---- heap blocks: what an allocation site says the block holds ------- */

struct attrib_alloc_site {
	const char *var; /* the pointer variable the block was stored in ("args") */
	const struct type *type; /* its pointee, typedefs stripped: what the block holds */
	const char *type_name; /* its C name: tag, or the typedef naming an anonymous struct */
};

/*
 * ret: the return address of a call to the allocator (binary-relative).
 * The variable the result is stored in within a few instructions (a
 * register location, or at -O0 the stack slot the first instruction
 * stores it to) and its pointee type. -ENOENT when no typed pointer takes
 * the result there.
 */
int attrib_alloc_site(struct attrib *a, uint64_t ret, struct attrib_alloc_site *out);

/* ---- the other direction (watch) ------------------------------------ */

struct attrib_global {
	const char *name;
	uint64_t addr; /* binary-relative */
	uint64_t size;
	const struct type *type; /* NULL when only the symbol table knows it */
};

/* The global or static variable NAME (DWARF, else the symbol table); -ENOENT. */
int attrib_find_global(const struct attrib *a, const char *name, struct attrib_global *out);
/* The known variable name closest to NAME, for "did you mean", or NULL. */
const char *attrib_suggest_global(const struct attrib *a, const char *name);

enum attrib_access {
	ATTRIB_ACCESS_NONE, /* no memory operand, or unknown */
	ATTRIB_ACCESS_READ,
	ATTRIB_ACCESS_WRITE,
	ATTRIB_ACCESS_RMW, /* read and written: lock add, xchg, inc */
};

/*
 * The instruction that ends at pc_after (binary-relative): a data
 * breakpoint reports the pc after the access on x86. Decoded from its
 * function's start when DWARF knows the function, else the shortest memory
 * access that ends there. *pc is its start, *access how it used memory.
 * -ENOENT when no instruction ends there.
 */
int attrib_insn_before(struct attrib *a, uint64_t pc_after, uint64_t *pc,
		       enum attrib_access *access);
/* "read", "write", "rmw", "none". */
const char *attrib_access_name(enum attrib_access access);

#endif
