/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Field attribution of a c2c session: each row (offset x code address of a
 * line) is attributed once through src/attrib, in the object file its code
 * address maps to (found as the symbol resolver finds it). The c2c model
 * itself knows nothing of DWARF; this is a pass over a finished session.
 *
 * Every sample counts once, under its row's reason: attrib's reasons plus
 * the ones that stop before attrib is asked (no code mapping, kernel code,
 * object or its debug info not found), so the counts add up to the
 * session's sample count.
 */
#ifndef C2C_C2C_ATTRIB_H
#define C2C_C2C_ATTRIB_H

#include <stdint.h>

#include "attrib/attrib.h"
#include "c2c/c2c_heap.h"
#include "c2c/c2c_session.h"
#include "profile/profile.h"

enum {
	C2C_ATTRIB_UNMAPPED = ATTRIB_NR_REASONS, /* the code address is in no mapping */
	C2C_ATTRIB_KERNEL, /* kernel code, and no debug file for the kernel was found */
	C2C_ATTRIB_NO_DEBUGINFO, /* the object file or its DWARF was not found */
	C2C_ATTRIB_KERNEL_NO_SYMBOL, /* kallsyms (or the vmlinux) names no function there */
	C2C_ATTRIB_KERNEL_NOT_IN_DEBUGINFO, /* no kernel debug file has that function */
	C2C_ATTRIB_KERNEL_MISMATCH, /* the debug file is not the kernel's: build-id or size */
	C2C_ATTRIB_KERNEL_UNVERIFIED, /* no build-id and no function size to compare */
	C2C_ATTRIB_NR_REASONS,
};

struct c2c_row_attrib {
	const struct attrib_result *res; /* NULL when attrib was not asked */
	int reason; /* an enum attrib_reason or C2C_ATTRIB_* */
	/*
	 * What the report shows: "counters.a" (a global), "task_group.load_avg"
	 * (through a pointer: the object's type), "[heap]+0x40" (the mapping,
	 * when nothing resolved), "" when nothing is known.
	 */
	const char *label;
	/* The object for line summaries: "counters", "task_group", "[heap]"; or "". */
	const char *object;
	/* The field inside the outermost object ("cfs_bandwidth.period"), or "". */
	const char *outer_field;
	uint64_t bias; /* of the code's object, when biased */
	bool biased;
	/*
	 * The heap block holding the data address (record --sim), when the
	 * label names the address through it: the instruction did not say
	 * (or said only a pointer to a scalar, "bins[]"). NULL otherwise.
	 */
	const struct c2c_heap_ref *heap;
};

/*
 * Whether the row names a field of a struct type (res->outer_name,
 * outer_offset, outer_field): resolved by attrib, or through a heap block
 * whose allocation site typed it (then res is the block's, and reason
 * stays the instruction's).
 */
static inline bool c2c_row_typed(const struct c2c_row_attrib *ra)
{
	return ra->res && ra->res->outer_name && *ra->outer_field &&
	       (ra->reason == ATTRIB_OK || (ra->heap && ra->heap->type));
}

struct c2c_attrib;

/* Attribute every row of s (a finished session). Never fails. */
struct c2c_attrib *c2c_attrib_session(struct c2c_session *s);
void c2c_attrib_free(struct c2c_attrib *ca);

/* The row's attribution; never NULL. */
const struct c2c_row_attrib *c2c_attrib_row(const struct c2c_attrib *ca, const struct c2c_row *r);
/* Whether any row resolved to something to show (a field or a mapping). */
bool c2c_attrib_any(const struct c2c_attrib *ca);
/* "ok", "no-variable", ..., "unmapped", "kernel-no-debuginfo", "no-debuginfo", ... */
const char *c2c_attrib_reason_name(int reason);
/* Samples per reason (weighted by each row's records); they add up to nr_samples. */
void c2c_attrib_counts(const struct c2c_attrib *ca, uint64_t counts[C2C_ATTRIB_NR_REASONS]);
/* Objects opened, objects not found (their paths, one per line, in *missing). */
size_t c2c_attrib_nr_objects(const struct c2c_attrib *ca);
const char *c2c_attrib_missing(const struct c2c_attrib *ca);
/* Why kernel samples were not attributed: kernel debug files that did not open, none found. */
const char *c2c_attrib_kernel_problems(const struct c2c_attrib *ca);
/* The distinct objects of a line's valid rows, hottest first: "cfg, stats". */
void c2c_attrib_line_objects(const struct c2c_attrib *ca, const struct c2c_line *l,
			     struct strbuf *out);

/* The --stats section: samples per attribution reason. */
void c2c_attrib_render_stats(const struct c2c_attrib *ca, uint64_t nr_samples, struct strbuf *out);

/* Samples of the session at one instruction (all rows with that code address). */
struct c2c_insn_counts {
	uint64_t lcl_hitm, rmt_hitm, loads, stores, records;
};

/* A row's function, disassembled, with the session's samples per instruction. */
struct c2c_annotation {
	struct attrib_annotation code; /* binary-relative addresses */
	uint64_t bias; /* runtime address = code address + bias */
	struct c2c_insn_counts *counts; /* one per code.insns */
};

/*
 * Annotate the function of row r's code address in the object it maps
 * to (kernel code: in the kernel debug file that explains it). -ENOTSUP
 * for unmapped code, -ENOENT when the object, its DWARF or the function is
 * not found (err says which).
 */
int c2c_attrib_annotate(struct c2c_attrib *ca, struct c2c_session *s, const struct c2c_row *r,
			struct c2c_annotation *out, struct err_msg *err);
void c2c_annotation_release(struct c2c_annotation *an);

/* A struct named NAME as some attributed row's outermost object, or NULL. */
const struct type *c2c_attrib_find_type(const struct c2c_attrib *ca, const char *name);

/*
 * The access profile of struct T's top-level fields from the session's
 * attributed rows whose outermost object is a struct named like T:
 * loads, stores, HITMs, reader/writer cpus (contexts are cpus, bit
 * cpu % 64) and reader/writer functions; classified with
 * profile_classify(p, 1). Fields nothing touched stay cold.
 */
struct struct_profile *c2c_profile_from_session(struct c2c_session *s, const struct c2c_attrib *ca,
						const struct type *t);

#endif
