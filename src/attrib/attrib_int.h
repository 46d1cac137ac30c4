/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of src/attrib/: instruction decoding, DWARF locations, tracking. */
#ifndef C2C_ATTRIB_ATTRIB_INT_H
#define C2C_ATTRIB_ATTRIB_INT_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attrib/attrib.h"
#include "util/hashmap.h"
#include "util/strpool.h"

/* The kind after typedefs and qualifiers; TYPE_VOID for none (a typedef of void). */
static inline enum type_kind stripped_kind(const struct type *t)
{
	t = t ? type_strip(t) : NULL;
	return t ? t->kind : TYPE_VOID;
}

static inline enum base_encoding stripped_encoding(const struct type *t)
{
	t = t ? type_strip(t) : NULL;
	return t ? t->encoding : BASE_SIGNED;
}

/* ---- field paths ------------------------------------------------------ */

struct field_walk {
	struct strbuf *sb;
	uint32_t access_size; /* 0: unknown; picks between union members */
	uint64_t access_bits; /* the bits of the access it touches (0: all), for bitfields */
	/* An index register scales by this (0: none): its array shows "[]". */
	uint64_t index_scale;
	/* Out: the innermost named struct/union crossed and where its field starts. */
	const struct type *container;
	uint64_t container_offset;
	size_t field_pos;
};

int attrib_field_walk(struct field_walk *w, const struct type *t, uint64_t offset);

/* ---- instructions ----------------------------------------------------- */

#define REG_NONE (-1)
#define INSN_MEM_READ 1
#define INSN_MEM_WRITE 2
#define NR_DWARF_REGS 64

enum insn_op {
	INSN_OTHER,
	INSN_MOV_REG, /* dst = src (full width) */
	INSN_LOAD, /* dst = 8 bytes at the memory operand */
	INSN_LEA, /* dst = address of the memory operand */
	INSN_ADD_IMM, /* dst += imm (in disp) */
	INSN_SCALE_IMM, /* dst = src * imm (in disp): shl, imul */
	INSN_CALL,
	INSN_JUMP, /* any branch; target when direct */
	INSN_RET,
};

struct insn {
	uint64_t pc;
	uint8_t len;
	uint8_t op; /* enum insn_op */
	bool mem_access; /* reads or writes memory through its memory operand */
	uint8_t mem_rw; /* INSN_MEM_READ | INSN_MEM_WRITE, as capstone says */
	bool segment; /* fs:/gs: override (x86): thread-local or per-cpu */
	bool nop;
	int8_t base, index; /* DWARF register numbers, REG_NONE */
	int8_t dst, src;
	uint8_t scale;
	uint8_t mem_size;
	bool pc_relative; /* base is the program counter: disp is an address */
	bool unconditional; /* INSN_JUMP only */
	bool leader; /* starts a basic block (set once the function is decoded) */
	int64_t disp;
	uint64_t writes; /* bitmask of DWARF registers written */
	uint64_t target; /* a direct jump or call */
	/* The memory operand's bits an immediate picks (test, or, and, bt): 0 for all. */
	uint64_t bits;
};

struct decoder;

int attrib_decoder_open(struct decoder **out, unsigned int machine);
void attrib_decoder_close(struct decoder *d);
/* Decode the instruction at pc from code[len]; returns its length or 0. */
size_t attrib_decoder_decode(struct decoder *d, const uint8_t *code, size_t len, uint64_t pc,
			     struct insn *out);
/* The instruction at pc as text ("mov rax, qword ptr [rbx + 8]"); its length, 0 if none. */
size_t attrib_decoder_text(struct decoder *d, const uint8_t *code, size_t len, uint64_t pc,
			   struct strbuf *out);
/* DWARF numbers of the stack and frame pointer registers. */
int attrib_decoder_sp(const struct decoder *d);
int attrib_decoder_fp(const struct decoder *d);

/* ---- DWARF: globals and the variables of a function ---------------------- */

struct global_var {
	uint64_t addr;
	uint64_t size;
	const char *name;
	const struct type *type; /* NULL when unknown */
};

/*
 * One pc range of a variable: in f->locs, its value is reg + off; in
 * f->slots, it lives in memory at reg + off, or, with reg REG_FRAME_BASE,
 * at the function's frame base + off (DW_OP_fbreg). An -O0 build keeps
 * every local in a slot.
 */
#define REG_FRAME_BASE (-2)
struct var_loc {
	uint64_t lo, hi;
	int reg;
	int64_t off;
	uint32_t depth; /* scope nesting: deeper = more specific */
	const char *name;
	const struct type *type; /* the variable's type (a pointer, we hope, in f->locs) */
};

/* DW_AT_frame_base: the CFA (from the call frame information) or reg + off. */
enum frame_base_kind { FRAME_BASE_NONE, FRAME_BASE_CFA, FRAME_BASE_REG };

/* A direct call: instruction insn of func calls the function. */
struct call_site {
	struct func *func;
	size_t insn;
};

/* A function: one contiguous code range of a DWARF subprogram. */
struct func {
	uint64_t lo, hi;
	const char *name;
	struct insn *insns;
	size_t nr_insns;
	struct var_loc *locs;
	size_t nr_locs;
	struct var_loc *slots;
	size_t nr_slots;
	struct {
		enum frame_base_kind kind;
		int reg;
		int64_t off;
	} frame_base;
	struct {
		int reg;
		const struct type *type;
		const char *name;
	} args[8]; /* parameters in their ABI registers at entry (f->lo) */
	size_t nr_args;
	bool indirect_jumps; /* a jump table: block predecessors are unknown */
	unsigned int budget; /* tracking steps spent on the current query */
	/*
	 * A static function (DW_AT_external absent): all its direct callers
	 * are in its unit, and the compiler may have changed its signature
	 * (foo.isra.0, or clang passing p->member for p with the same name),
	 * so what arrives in a register is what the callers pass.
	 */
	bool local;
	const struct type *ret_type; /* DW_AT_type: what it returns, NULL for void */
	uint64_t cu_offset; /* its unit's DIE */
	struct call_site *callers; /* found on first use (callers_found) */
	size_t nr_callers;
	bool callers_found;
	uint64_t clobbers; /* registers a call of it may change (clobbers_found) */
	bool clobbers_found;
};

/* ---- the attrib object ------------------------------------------------- */

struct code_section {
	uint64_t addr, size;
	const uint8_t *data;
};

struct elf_section {
	uint64_t addr, size;
	const char *name;
};

/*
 * The image layer (image.c), below dwarf.c, func.c and attrib.c: the
 * binary's file descriptors and ELF handles, its separate debug file, its
 * sections, code bytes and load segments, and the strings every layer
 * above interns.
 */
struct attrib_image {
	char *path;
	int fd;
	Elf *elf;
	/* Separate debug info, when the binary has none (else NULL / -1). */
	char *debug_path;
	int debug_fd;
	Elf *debug_elf;
	Elf *sym_elf; /* the one with the full symbol table */
	Dwarf *dwarf;
	unsigned int machine;
	/*
	 * A relocatable object (a kernel .o or .ko) is opened through
	 * libdwfl's offline reporting, which lays its sections out at
	 * distinct addresses and relocates the DWARF: elf and dwarf are then
	 * the module's, owned by dwfl.
	 */
	Dwfl *dwfl;
	Dwfl_Module *mod;

	struct code_section *code;
	size_t nr_code;
	struct elf_section *sections; /* allocated sections, for mapping names */
	size_t nr_sections;
	GElf_Phdr *loads;
	size_t nr_loads;

	struct strpool strings; /* what every layer interns */
};

/* Open PATH (and its debug file, found under DEBUG_DIR or by build id). */
int attrib_image_open(struct attrib_image *img, const char *path, const char *debug_dir,
		      struct err_msg *err);
void attrib_image_close(struct attrib_image *img);
/* One copy of S for the image's lifetime. */
const char *attrib_image_intern(struct attrib_image *img, const char *s);
/* The code bytes at PC, *avail of them, or NULL outside the code. */
const uint8_t *attrib_image_code(const struct attrib_image *img, uint64_t pc, size_t *avail);
/*
 * Call fn for each defined symbol of the image's symbol table (name not
 * NULL) until it returns nonzero; returns that, or 0.
 */
int attrib_image_symbols(const struct attrib_image *img,
			 int (*fn)(void *ctx, const GElf_Sym *sym, const char *name), void *ctx);
/* Whether the allocated section NAME holds ADDR. */
bool attrib_image_section_holds(const struct attrib_image *img, const char *name, uint64_t addr);
/* A symbol's address in the image's layout (a relocatable's are section-relative). */
uint64_t attrib_image_sym_addr(const struct attrib_image *img, const GElf_Sym *sym);

struct attrib {
	struct attrib_image img;
	struct type_db *types;
	bool own_types;
	struct type_db *extra; /* types the model lacks (type_dwarf_type_at) */
	struct decoder *dec;
	/* Call frame information, opened on first use (cfi_eh: dwarf_cfi_end). */
	Dwarf_CFI *cfi_debug, *cfi_eh;
	bool cfi_opened;

	struct global_var *globals; /* sorted by addr */
	size_t nr_globals;

	struct func **funcs; /* sorted by lo */
	struct hashmap no_func; /* pcs no DWARF subprogram holds (value: a) */
	size_t nr_funcs, alloc_funcs;
	struct hashmap by_pc; /* pc → struct attrib_result (pointer path) */
	struct hashmap by_addr; /* data address → struct attrib_result (globals) */
	const struct attrib_result *last; /* one-entry cache before the maps */
	uint64_t last_pc, last_addr;

	uint64_t stats[ATTRIB_NR_REASONS];
	uint64_t nr_pcs;

	/* kernel.c: function symbols sorted by name, built on first use. */
	struct func_sym *func_syms;
	size_t nr_func_syms;
	bool func_syms_read;
};

struct func_sym {
	const char *name;
	uint64_t addr, size;
};

/* kernel.c */
void attrib_func_syms_free(struct attrib *a);

/* debuginfo.c */
bool attrib_debuginfo_has_dwarf(Elf *elf);
char *attrib_debuginfo_find(Elf *elf, const char *path, const char *debug_dir);
/* The GNU build-id note's bytes: their number, 0 when there is none. */
size_t attrib_debuginfo_build_id(Elf *elf, const uint8_t **bits);

/* dwarf.c */
int attrib_globals_load(struct attrib *a, struct err_msg *err);
const struct global_var *attrib_globals_find(const struct attrib *a, uint64_t addr);
const struct global_var *attrib_globals_find_name(const struct attrib *a, const char *name);
const struct type *attrib_die_type(struct attrib *a, Dwarf_Die *die);
const char *attrib_die_name(struct attrib *a, Dwarf_Die *die);
ptrdiff_t attrib_func_insn_index(const struct func *f, uint64_t pc);
struct func *attrib_func_get(struct attrib *a, uint64_t pc);
/*
 * The registers instruction k of f writes: for a direct call, only those
 * the callee's code (and its callees') can change, not the whole ABI set.
 */
uint64_t attrib_insn_writes(struct attrib *a, const struct func *f, size_t k);
/* The direct calls of f in its unit (a static function's callers), f->callers. */
void attrib_func_callers(struct attrib *a, struct func *f);
/* The unit holding pc: .debug_aranges, else every unit's ranges (clang emits no aranges). */
bool attrib_find_cu(struct attrib *a, uint64_t pc, Dwarf_Die *cu);
/* f's code bytes (*len of them, at most its size), or NULL: none, or no decoder. */
const uint8_t *attrib_func_code(const struct attrib *a, const struct func *f, size_t *len);
void attrib_func_free(struct func *f);
/* The CFA at pc as reg + *off (from .debug_frame or .eh_frame): 0, or -ENOENT. */
int attrib_cfa_at(struct attrib *a, uint64_t pc, int *reg, int64_t *off);
void attrib_cfi_release(struct attrib *a);

/* track.c: the type a register holds before the instruction at index i. */
struct reg_type {
	const struct type *type; /* the object pointed to */
	int64_t offset; /* the register points this far inside it */
	const char *var; /* the variable that names it, or NULL */
	bool global; /* the object is the global var */
	/* The offset is known modulo this (an index or a loop step); 0: exact. */
	uint64_t index_scale;
};
int attrib_track_reg(struct attrib *a, struct func *f, size_t i, int reg, int64_t disp,
		     struct reg_type *out, int depth);

static inline uint64_t gcd_u64(uint64_t x, uint64_t y)
{
	while (y) {
		uint64_t t = x % y;

		x = y;
		y = t;
	}
	return x;
}
/*
 * The factor an index register is known to be a multiple of (shl, imul), or
 * 1; *bias (when not NULL): the constant added to it after (add imm, lea),
 * so that index = stride * x + *bias (only a positive one; else 0).
 */
uint64_t attrib_track_index_stride(const struct func *f, size_t i, int reg, int64_t *bias);

#endif
