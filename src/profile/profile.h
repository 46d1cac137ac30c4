/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Access profiles of a struct's top-level fields: who reads and writes each
 * field, how often, and how many HITMs land on it. A profile comes from an
 * attributed perf.data (PMU, simulator or stock perf) or, without one, from a
 * hotness file that marks each field read_mostly, read_write or cold.
 *
 * Readers and writers are sets of "contexts": cpus, threads, or named code
 * paths from a hotness file (rx, tx, ...), at most 64, as a bit mask.
 */
#ifndef C2C_PROFILE_PROFILE_H
#define C2C_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "types/types.h"
#include "util/err.h"

#define PROFILE_MAX_CONTEXTS 64
#define PROFILE_ALL_CONTEXTS UINT64_MAX

enum field_class {
	FIELD_COLD,
	FIELD_READ_MOSTLY, /* hot, and written rarely or never */
	FIELD_WRITE_HOT, /* written often enough to ping-pong its line */
};

struct field_profile {
	const char *name; /* top-level member's name, see profile_field() (owned) */
	enum field_class cls;
	uint64_t loads, stores;
	uint64_t locked; /* of stores, locked read-modify-writes (measured profiles) */
	uint64_t hitm_local, hitm_remote;
	uint64_t readers, writers; /* context masks */
	char *reader_funcs, *writer_funcs; /* "a, b" or NULL */
	/*
	 * Measured profiles: the most contexts that wrote this field of one
	 * object (several objects of the struct count apart); 0 when unknown
	 * (hotness files), then writers alone tells.
	 */
	uint32_t object_writers;
	/*
	 * Measured profiles: the HITMs on this field that no layout removes
	 * (a second cpu writes the same field of the same object, or a cpu
	 * that does not write it reads what another wrote). Without it
	 * (hotness files) a multi-context write-hot field keeps them all.
	 */
	bool hitm_true_known;
	uint64_t hitm_true;
	/*
	 * Measured profiles: the HITMs on this field of objects that no cpu
	 * but the accessing one writes (any field of it): the line moved
	 * because of a neighbouring object, as in an array of per-thread
	 * structs. Aligning the element to the cache line removes them; no
	 * order of its members does. Known when hitm_true_known.
	 */
	uint64_t hitm_between;
	/*
	 * Measured profiles, an array member: the HITMs that other cpus'
	 * stores to its other elements explain (per-thread counters side by
	 * side). Giving each element a line of its own removes them.
	 */
	uint64_t hitm_elements;
};

struct struct_profile {
	char *struct_name;
	uint32_t nr_fields;
	struct field_profile *fields;
	/* Names of the contexts behind the mask bits (NULL where unnamed). */
	char *contexts[PROFILE_MAX_CONTEXTS];
	uint32_t nr_contexts;
	/* Where the profile came from, for messages: "hotness file F". */
	char *origin;
	/* Measured profiles: distinct objects of the struct seen (0: unknown). */
	uint64_t nr_objects;
};

/*
 * Parse a hotness file for STRUCT_NAME. The format (doc/c2cscope-suggest.1):
 *
 *   # comment
 *   struct task_group            # the following lines describe this struct
 *   load_avg   read_write  ctx=all
 *   rt_se      read_mostly
 *   rcu        cold
 *   *          cold                 # default for fields not listed
 *
 * A class is read_mostly, read_write or cold; ctx= lists the contexts (cpus
 * or named code paths) that touch the field ("all" when omitted, meaning
 * many cpus). A file without "struct" lines applies to any struct. Unknown
 * fields are errors naming file:line. Fields not listed get the "*" class,
 * or cold.
 */
int profile_parse_hotness(const char *path, const struct type *t, struct struct_profile **out,
			  struct err_msg *err);

/* An empty profile (all fields cold) for T, to be filled by a caller. */
struct struct_profile *profile_new(const struct type *t);
/*
 * The field named NAME, or NULL. Each top-level member is one field; an
 * anonymous struct or union member is one field too, named after the
 * members it holds ("load_avg", or "{a, b}"), and found by each of them.
 */
struct field_profile *profile_field(struct struct_profile *p, const char *name);
const struct field_profile *profile_field_const(const struct struct_profile *p, const char *name);
/* The field of top-level member m of the profiled struct, or NULL. */
const struct field_profile *profile_member_field(const struct struct_profile *p,
						 const struct type_member *m);
/*
 * Classify fields from counts: write-hot when stores are at least 1% of
 * accesses and at least min_stores, or when it has HITMs and any store;
 * read-mostly when it has loads; cold otherwise.
 */
void profile_classify(struct struct_profile *p, uint64_t min_stores);
void profile_free(struct struct_profile *p);

/* Every context that touches f. */
static inline uint64_t field_accessors(const struct field_profile *f)
{
	return f->readers | f->writers;
}

/*
 * Whether a write to A and an access to B on the same cache line make the
 * line move between caches: A is write-hot, B is not cold, and some context
 * that writes A differs from some context that touches B. Same field: no
 * (that is true sharing, which no layout fixes).
 */
bool profile_field_conflict(const struct field_profile *a, const struct field_profile *b);

/*
 * Whether objects of the profiled struct share lines with what lies
 * outside them: a measured profile of two or more objects with HITMs
 * between objects (field_profile.hitm_between). The field masks then mix
 * the objects' contexts, so a field pair conflicts only by the HITMs
 * profile_hitm_inside() leaves.
 */
bool profile_objects_share_lines(const struct struct_profile *p);
/*
 * The HITMs on f that other fields of its own object explain: all of
 * them, unless p sorted them (neither true sharing nor between objects).
 */
uint64_t profile_hitm_inside(const struct struct_profile *p, const struct field_profile *f);
/*
 * Whether f can be half of a falsely shared pair inside one object: yes,
 * unless objects share lines (profile_objects_share_lines) and the HITMs
 * its own object explains are none or under 1% of f's (one init store by
 * main before the threads start explains one). Layout and suggest ask this.
 */
bool profile_pairs_inside(const struct struct_profile *p, const struct field_profile *f);

#endif
