/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the re-layout proposer, shared by propose*.c only. */
#ifndef C2C_SUGGEST_PROPOSE_INT_H
#define C2C_SUGGEST_PROPOSE_INT_H

#include "suggest/suggest.h"
#include "util/arena.h"

#include <stddef.h>

/* Members that move together: one member, a bitfield run, a kernel group. */
struct block {
	uint32_t first, last; /* member index range, inclusive */
	uint64_t start; /* original byte offset of its first member */
	uint64_t size; /* bytes it covered */
	bool pinned;
	bool fixed_last; /* flexible array: stays last */
};

struct member_info {
	uint32_t block;
	int32_t field; /* index into fields[], -1 when not profiled */
};

/* Where a candidate order puts things. */
struct placement {
	uint64_t *mbit; /* per member: bit offset from the struct's start */
	uint64_t *boff; /* per block: byte offset (its wrapper's, when isolated) */
};

struct score {
	bool pinned_ok;
	uint64_t conflicts;
	uint64_t size;
	uint32_t displaced; /* members whose offset changed */
	uint32_t hot_lines;
	uint32_t moves;
};

struct proposer {
	const struct type *t;
	unsigned int cl;
	uint32_t struct_align;
	struct type_db *db; /* holds the proposed types */
	/* the tables and the proposals' arrays: sized once, freed with pr */
	struct arena arena;
	struct member_info *members; /* per original member */
	struct block *blocks;
	uint32_t nr_blocks;
	size_t blocks_alloc;
	const struct propose_range *glue; /* member ranges, from the options */
	uint32_t nr_glue;
	struct propose_range *groups; /* block ranges that stay contiguous */
	uint32_t nr_groups;
	/*
	 * Isolate's wrappers: per block, the first block of the wrapper it
	 * goes in (write-hot blocks with the same writers and readers share
	 * one), UINT32_MAX for none. propose_place reads it for isolated
	 * blocks that follow a block of the same wrapper.
	 */
	uint32_t *wrap_with;
	const struct struct_profile *profile;
	const struct field_profile *fields; /* the profile's fields */
	uint32_t nr_fields;
	uint64_t *weight; /* nr_fields^2: conflict weight of (writer, other) */
	void *scratch_lf; /* room for every (line, field) pair */
	uint64_t input_conflicts;
	/*
	 * HITMs between objects (field_profile.hitm_between): when some, the
	 * field weights count only the sharing inside one object, and every
	 * layout that does not align the struct to the line keeps these.
	 */
	uint64_t between_hitm;
	uint64_t between_conflicts; /* their weight, while objects share lines */
	uint32_t nr_proposals;
	struct proposal proposals[3];
};

/* n zeroed elements of size bytes from pr's arena. */
void *propose_alloc(struct proposer *pr, size_t n, size_t size);
uint32_t propose_count_moves(const uint32_t *order, uint32_t n);
void propose_evaluate(const struct proposer *pr, const uint32_t *order, const bool *isolated,
		      struct score *sc, struct placement *pl);
bool propose_joins_wrapper(const struct proposer *pr, const uint32_t *order, const bool *isolated,
			   uint32_t k);
uint64_t propose_place(const struct proposer *pr, const uint32_t *order, const bool *isolated,
		       struct placement *pl);
void propose_member_span(const struct proposer *pr, const struct placement *pl, uint32_t i,
			 uint64_t *start, uint64_t *end);
struct placement *propose_placement_new(const struct proposer *pr);
void propose_placement_free(struct placement *pl);
void propose_search_reorder(struct proposer *pr, uint32_t *order, uint64_t max_size);
void propose_build_blocks(struct proposer *pr);
void propose_build_groups(struct proposer *pr, const struct propose_range *groups, uint32_t n);
bool propose_groups_ok(const struct proposer *pr, const uint32_t *order, uint32_t *pos);

/* --- True sharing (propose_advice.c) ---------------------------------- */

/* "  true sharing: F is written by N cpus ... Remedies:" and one line each. */
void propose_format_true_sharing(struct strbuf *sb, const struct struct_profile *p);
/* "  elements of F share lines: ..." for array members cpus write per element. */
void propose_format_elements(struct strbuf *sb, const struct type *t,
			     const struct struct_profile *p, unsigned int cl);
/* The same as a JSON array (a json_t *, for propose_print.c). */
void *propose_true_sharing_json(const struct struct_profile *p);

#endif
