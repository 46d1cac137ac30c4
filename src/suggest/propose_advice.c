// SPDX-License-Identifier: GPL-2.0
/*
 * Advice for true sharing: a field several cpus write (a counter, a
 * refcount, task_group.load_avg) ping-pongs its line whatever the layout,
 * so suggest names the remedies the kernel uses instead, each with the
 * measured numbers that make it worth doing or not.
 */
#include "config.h"
#include "suggest/propose_int.h"

#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

/* What the profile measured of one truly shared field. */
struct shared_field {
	const struct field_profile *f;
	uint32_t cpus; /* writers: of one object when known */
	uint64_t hitm; /* the HITMs no layout removes */
	uint64_t reads; /* loads that are not part of a locked read-modify-write */
	bool measured; /* counts from perf.data, not a hotness file */
};

/* The remedies, and when each is worth it: ADVICE_* index them. */
enum { ADVICE_SHARD, ADVICE_BATCH, ADVICE_REFFREE, NR_ADVICE };

static const struct {
	const char *name, *what, *when;
} advice[NR_ADVICE] = {
	[ADVICE_SHARD] = { "shard",
			   "per-cpu or sharded counter (one slot per cpu, summed when read)",
			   "from 2 writing cpus, when writes outnumber plain reads" },
	[ADVICE_BATCH] = { "ratelimit",
			   "batch or ratelimit the writes (a cpu-local delta published at most once "
			   "per interval, as upstream's \"sched/fair: Ratelimit update to "
			   "tg->load_avg\" does)",
			   "when 10 or more of every 100 writes move the line and readers can use a "
			   "slightly stale value" },
	[ADVICE_REFFREE] = { "reference-free",
			     "reference-free scheme for a reference count (hazard pointers or RCU "
			     "instead of get/put on a shared count, as for lazy mm refcounts)",
			     "when most writes are locked read-modify-writes from 2 or more cpus" },
};

static uint32_t popcount64(uint64_t m)
{
	return (uint32_t)__builtin_popcountll(m);
}

/* Whether f is truly shared, and what the profile says of it. */
static bool shared_field_of(const struct field_profile *f, struct shared_field *sf)
{
	memset(sf, 0, sizeof(*sf));
	sf->f = f;
	sf->cpus = f->object_writers ? f->object_writers : popcount64(f->writers);
	sf->measured = f->hitm_true_known;
	sf->hitm = f->hitm_true_known ? f->hitm_true : f->hitm_local + f->hitm_remote;
	sf->reads = f->loads > f->locked ? f->loads - f->locked : 0;
	if (f->cls != FIELD_WRITE_HOT || sf->cpus < 2)
		return false;
	return !sf->measured || sf->hitm;
}

/* Whether the measured numbers make remedy A worth doing. */
static bool worth_it(const struct shared_field *sf, int a)
{
	const struct field_profile *f = sf->f;

	switch (a) {
	case ADVICE_SHARD:
		return f->stores > sf->reads;
	case ADVICE_BATCH:
		return f->stores && sf->hitm * 100 >= f->stores * 10;
	default:
		return f->stores && f->locked * 2 > f->stores;
	}
}

/* "here 4 cpus, 11498 writes to 0 plain reads" */
static void format_measured(struct strbuf *sb, const struct shared_field *sf, int a)
{
	const struct field_profile *f = sf->f;

	switch (a) {
	case ADVICE_SHARD:
		strbuf_addf(sb, "%u cpus, %llu writes to %llu plain reads", sf->cpus,
			    (unsigned long long)f->stores, (unsigned long long)sf->reads);
		break;
	case ADVICE_BATCH:
		strbuf_addf(sb, "%llu HITMs per 100 writes",
			    (unsigned long long)(f->stores ? sf->hitm * 100 / f->stores : 0));
		break;
	default:
		strbuf_addf(sb, "%llu%% of the writes locked, from %u cpus",
			    (unsigned long long)(f->stores ? f->locked * 100 / f->stores : 0),
			    sf->cpus);
	}
}

static void format_field(struct strbuf *sb, const struct shared_field *sf)
{
	const struct field_profile *f = sf->f;
	int a;

	if (sf->measured)
		strbuf_addf(
			sb,
			"  true sharing: %s is written by %u cpus%s: %llu stores (%llu locked), "
			"%llu plain reads; %llu HITMs no layout removes. Remedies:\n",
			f->name, sf->cpus, f->object_writers ? " of one object" : "",
			(unsigned long long)f->stores, (unsigned long long)f->locked,
			(unsigned long long)sf->reads, (unsigned long long)sf->hitm);
	else
		strbuf_addf(sb,
			    "  true sharing: %s is written by many contexts (a hotness file has no "
			    "counts: record a profile to size the remedies); no layout removes "
			    "its HITMs. Remedies:\n",
			    f->name);
	for (a = 0; a < NR_ADVICE; a++) {
		strbuf_addf(sb, "    %s: worth it %s", advice[a].what, advice[a].when);
		if (!sf->measured) {
			strbuf_addstr(sb, "\n");
			continue;
		}
		strbuf_addstr(sb, "; here ");
		format_measured(sb, sf, a);
		strbuf_addstr(sb, worth_it(sf, a) ? ": worth it\n" : ": not indicated\n");
	}
}

void propose_format_true_sharing(struct strbuf *sb, const struct struct_profile *p)
{
	struct shared_field sf;
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++)
		if (shared_field_of(&p->fields[i], &sf))
			format_field(sb, &sf);
}

/*
 * An array member whose elements different cpus write (per-thread
 * counters side by side): no member order helps; each element needs a
 * line of its own.
 */
void propose_format_elements(struct strbuf *sb, const struct type *t,
			     const struct struct_profile *p, unsigned int cl)
{
	uint32_t i;

	for (i = 0; i < t->nr_members; i++) {
		const struct type_member *m = &t->members[i];
		const struct field_profile *f = profile_member_field(p, m);
		const struct type *at = type_strip(m->type);
		uint64_t esize, n;

		if (!f || !f->hitm_elements || !at || at->kind != TYPE_ARRAY)
			continue;
		esize = type_size(type_array_elem(at));
		n = esize ? type_size(at) / esize : 0;
		strbuf_addf(
			sb,
			"  elements of %s share lines: %llu HITMs from cpus writing neighbouring "
			"elements; no order of the members removes them. Give each element a "
			"line of its own: %s[%llu] as an array of struct { ... } "
			"__attribute__((aligned(%u))) (%llu -> %llu bytes), or per-cpu data\n",
			f->name, (unsigned long long)f->hitm_elements, f->name,
			(unsigned long long)n, cl, (unsigned long long)type_size(at),
			(unsigned long long)(n * ((esize + cl - 1) / cl * cl)));
	}
}

uint64_t propose_true_sharing_hitm(const struct struct_profile *p)
{
	struct shared_field sf;
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++)
		if (shared_field_of(&p->fields[i], &sf))
			sum += sf.hitm ? sf.hitm : 1;
	return sum;
}

#ifdef HAVE_JANSSON
static json_t *remedies_json(const struct shared_field *sf)
{
	json_t *arr = json_array();
	int a;

	for (a = 0; a < NR_ADVICE; a++) {
		json_t *r = json_pack("{s:s, s:s, s:s}", "remedy", advice[a].name, "what",
				      advice[a].what, "when", advice[a].when);

		json_object_set_new(r, "worth_it",
				    sf->measured ? json_boolean(worth_it(sf, a)) : json_null());
		json_array_append_new(arr, r);
	}
	return arr;
}

void *propose_true_sharing_json(const struct struct_profile *p)
{
	json_t *arr = json_array();
	struct shared_field sf;
	uint32_t i;

	for (i = 0; i < p->nr_fields; i++) {
		const struct field_profile *f = &p->fields[i];

		if (!shared_field_of(f, &sf))
			continue;
		json_array_append_new(
			arr, json_pack("{s:s, s:i, s:b, s:I, s:I, s:I, s:I, s:o}", "field", f->name,
				       "cpus", (int)sf.cpus, "measured", sf.measured, "stores",
				       (json_int_t)f->stores, "locked", (json_int_t)f->locked,
				       "plain_reads", (json_int_t)sf.reads, "hitm",
				       (json_int_t)sf.hitm, "remedies", remedies_json(&sf)));
	}
	return arr;
}
#endif
