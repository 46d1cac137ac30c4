// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE and the sample_id_all trailer of other records,
 * in the field order of include/uapi/linux/perf_event.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "perf/perf_format.h"
#include "perf/reader_int.h"
#include "util/xalloc.h"

static int field_err(struct perf_reader *r, const struct cursor *c, const char *field,
		     struct err_msg *err)
{
	char need[48];

	if (c->need == UINT64_MAX)
		snprintf(need, sizeof(need), "more than %llu bytes", (unsigned long long)c->len);
	else
		snprintf(need, sizeof(need), "%llu bytes", (unsigned long long)c->need);
	return err_set(err, EINVAL,
		       "%s: at 0x%llx: sample field %s runs past the end of its record: "
		       "%s needed, %llu left (record data ends at 0x%llx)",
		       r->path, (unsigned long long)reader_cursor_offset(c), field, need,
		       (unsigned long long)(c->len - c->pos),
		       (unsigned long long)(c->off + c->len));
}

/*
 * The few ids seen last: files interleave the samples of a handful of
 * events (perf c2c: loads and stores), so most lookups end here.
 */
static bool id_cached(const struct perf_reader *r, uint64_t id, size_t *idx)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(r->last_id); i++) {
		if (r->last_id[i] == id) {
			*idx = r->last_idx[i];
			return true;
		}
	}
	return false;
}

/* The attr a record belongs to, from its id at word pos (from the end when tail). */
static int record_attr(struct perf_reader *r, const struct cursor *c, bool tail, size_t *idx,
		       struct err_msg *err)
{
	int pos = tail ? r->is_pos : r->id_pos;
	uint64_t id;
	size_t at;
	void *v;

	*idx = 0;
	if (r->nr_attrs <= 1 || pos < 0)
		return 0;
	if (tail) {
		if ((size_t)pos * 8 > c->len)
			return err_set(err, EINVAL, "%s: at 0x%llx: record too short for its id",
				       r->path, (unsigned long long)c->off);
		at = c->len - pos * 8;
	} else {
		at = pos * 8;
		if (at + 8 > c->len)
			return err_set(err, EINVAL, "%s: at 0x%llx: sample too short for its id",
				       r->path, (unsigned long long)c->off);
	}
	id = rd64(c->p + at, r->swap);
	if (id == 0)
		return 0; /* records perf synthesized carry id 0: the first event */
	if (id_cached(r, id, idx))
		return 0;
	v = hashmap_get(&r->ids, id);
	if (!v) {
		r->nr_unknown_ids++;
		return err_set(err, ENOENT, "%s: at 0x%llx: id %llu matches no event", r->path,
			       (unsigned long long)(c->off + at), (unsigned long long)id);
	}
	*idx = (uintptr_t)v - 1;
	memmove(r->last_id + 1, r->last_id, sizeof(r->last_id) - sizeof(r->last_id[0]));
	memmove(r->last_idx + 1, r->last_idx, sizeof(r->last_idx) - sizeof(r->last_idx[0]));
	r->last_id[0] = id;
	r->last_idx[0] = *idx;
	return 0;
}

/* The next n bytes, already known to be there: no check. */
static inline __attribute__((always_inline)) const uint8_t *take_unchecked(struct cursor *c,
									   size_t n)
{
	const uint8_t *p = c->p + c->pos;

	c->pos += n;
	return p;
}

/*
 * The fixed-size fields are read through take64/take32 with checked
 * constant: checked, each read is bounds-checked (the general path);
 * unchecked, the caller has checked once that the record holds them all
 * (the fast path for samples without variable-size fields). Inlined, the
 * compiler makes one copy of each parser per path.
 */
static inline __attribute__((always_inline)) uint64_t take64(struct cursor *c, bool checked)
{
	return checked ? cursor_u64(c) : rd64(take_unchecked(c, 8), c->swap);
}

static inline __attribute__((always_inline)) uint32_t take32(struct cursor *c, bool checked)
{
	return checked ? cursor_u32(c) : rd32(take_unchecked(c, 4), c->swap);
}

static inline __attribute__((always_inline)) void parse_head(struct cursor *c, uint64_t st,
							     struct perf_sample *s, bool checked)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take64(c, checked);
	if (st & PERF_SAMPLE_IP)
		s->ip = take64(c, checked);
	if (st & PERF_SAMPLE_TID) {
		s->pid = take32(c, checked);
		s->tid = take32(c, checked);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = take64(c, checked);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = take64(c, checked);
	if (st & PERF_SAMPLE_ID)
		s->id = take64(c, checked);
	if (st & PERF_SAMPLE_STREAM_ID)
		s->stream_id = take64(c, checked);
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = take32(c, checked);
		take32(c, checked); /* res */
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take64(c, checked);
}

#define SAMPLE_WEIGHT_TYPE (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/* WEIGHT or WEIGHT_STRUCT, DATA_SRC, TRANSACTION. */
static inline __attribute__((always_inline)) void parse_weights(struct cursor *c, uint64_t st,
								struct perf_sample *s, bool checked)
{
	if (st & SAMPLE_WEIGHT_TYPE) {
		uint64_t w = take64(c, checked);

		if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
			s->weight = w & 0xffffffff;
			s->weight_var2 = w >> 32;
			s->weight_var3 = w >> 48;
		} else {
			s->weight = w;
		}
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		s->data_src = take64(c, checked);
	if (st & PERF_SAMPLE_TRANSACTION)
		s->transaction = take64(c, checked);
}

/* PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE. */
static inline __attribute__((always_inline)) void parse_addrs(struct cursor *c, uint64_t st,
							      struct perf_sample *s, bool checked)
{
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = take64(c, checked);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = take64(c, checked);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = take64(c, checked);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = take64(c, checked);
}

/* Fields of variable size: samples without them have a fixed layout. */
#define SAMPLE_VARIABLE                                                                          \
	(PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | \
	 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX)

/* A sample of fixed layout has one u64 for each field (one for the weight). */
size_t reader_sample_fixed_size(uint64_t st)
{
	if (st & SAMPLE_VARIABLE)
		return SIZE_MAX;
	return (__builtin_popcountll(st & ~SAMPLE_WEIGHT_TYPE) + !!(st & SAMPLE_WEIGHT_TYPE)) * 8;
}

/* The fast path: c holds every field (checked once by the caller). */
static void parse_fixed(struct cursor *c, uint64_t st, struct perf_sample *s)
{
	parse_head(c, st, s, false);
	parse_weights(c, st, s, false);
	parse_addrs(c, st, s, false);
}

/* nr u64 words in host order: in place, or copied into the reader's slot. */
static const uint64_t *read_words(struct perf_reader *r, struct cursor *c, uint64_t nr,
				  enum reader_words_slot slot)
{
	struct reader_words *w = &r->words[slot];
	const uint8_t *p;
	uint64_t i;

	if (nr > (c->len - c->pos) / 8) {
		cursor_short(c, mul_sat(nr, 8));
		return NULL;
	}
	p = cursor_bytes(c, nr * 8);
	if (!p || nr == 0)
		return NULL;
	if (!r->swap && ((uintptr_t)p & 7) == 0)
		return (const uint64_t *)p;
	w->v = xgrow(w->v, &w->alloc, nr, sizeof(*w->v));
	for (i = 0; i < nr; i++)
		w->v[i] = rd64(p + i * 8, r->swap);
	return w->v;
}

/* perf_event_read_format: [nr] [time_enabled] [time_running] values. */
static void parse_read(struct perf_reader *r, struct cursor *c, uint64_t rf, struct perf_sample *s)
{
	size_t per_value = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t head =
		!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr = 1;

	if (rf & PERF_FORMAT_GROUP) {
		if (!cursor_has(c, 8))
			return;
		nr = rd64(c->p + c->pos, r->swap);
		head++;
	}
	if (nr > c->len / 8 / per_value) {
		uint64_t words = mul_sat(nr, per_value);

		cursor_short(c, words > UINT64_MAX - head ? UINT64_MAX : mul_sat(words + head, 8));
		return;
	}
	s->nr_read_words = head + nr * per_value;
	s->read_words = read_words(r, c, s->nr_read_words, RW_READ);
}

static void parse_regs(struct perf_reader *r, struct cursor *c, uint64_t mask, uint64_t *abi,
		       const uint64_t **regs, enum reader_words_slot slot)
{
	*abi = cursor_u64(c);
	if (*abi != 0) /* PERF_SAMPLE_REGS_ABI_NONE has no values */
		*regs = read_words(r, c, __builtin_popcountll(mask), slot);
}

static void parse_branches(struct perf_reader *r, struct cursor *c, const struct reader_attr *a,
			   struct perf_sample *s)
{
	uint64_t nr = cursor_u64(c);

	if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		s->branch_hw_idx = cursor_u64(c);
	if (nr > c->len / 24) {
		cursor_short(c, mul_sat(nr, 24));
		return;
	}
	s->nr_branches = nr;
	s->branches = read_words(r, c, nr * 3, RW_BRANCH);
}

/* Fields between PERIOD and REGS_USER; NULL when all are there, else the bad one. */
static const char *parse_middle(struct perf_reader *r, struct cursor *c,
				const struct reader_attr *a, struct perf_sample *s)
{
	uint64_t st = a->info.sample_type;

	if (st & PERF_SAMPLE_READ) {
		parse_read(r, c, a->info.read_format, s);
		if (c->bad)
			return "READ";
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->nr_callchain = cursor_u64(c);
		s->callchain = read_words(r, c, s->nr_callchain, RW_CHAIN);
		if (c->bad)
			return "CALLCHAIN";
	}
	if (st & PERF_SAMPLE_RAW) {
		s->raw_size = cursor_u32(c);
		s->raw = cursor_bytes(c, s->raw_size);
		if (c->bad)
			return "RAW";
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		parse_branches(r, c, a, s);
		if (c->bad)
			return "BRANCH_STACK";
	}
	return NULL;
}

static const char *parse_tail(struct perf_reader *r, struct cursor *c, const struct reader_attr *a,
			      struct perf_sample *s)
{
	uint64_t st = a->info.sample_type;

	if (st & PERF_SAMPLE_REGS_USER) {
		parse_regs(r, c, a->info.sample_regs_user, &s->regs_user_abi, &s->regs_user,
			   RW_REGS_USER);
		if (c->bad)
			return "REGS_USER";
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t size = cursor_u64(c);

		if (size > c->len)
			cursor_short(c, size);
		s->stack_user_size = size;
		s->stack_user = cursor_bytes(c, size);
		if (size)
			s->stack_user_dyn_size = cursor_u64(c);
		if (c->bad)
			return "STACK_USER";
	}
	parse_weights(c, st, s, true);
	if (c->bad)
		return "WEIGHT/DATA_SRC/TRANSACTION";
	if (st & PERF_SAMPLE_REGS_INTR) {
		parse_regs(r, c, a->info.sample_regs_intr, &s->regs_intr_abi, &s->regs_intr,
			   RW_REGS_INTR);
		if (c->bad)
			return "REGS_INTR";
	}
	parse_addrs(c, st, s, true);
	if (c->bad)
		return "PHYS_ADDR/CGROUP/PAGE_SIZE";
	if (st & PERF_SAMPLE_AUX) {
		uint64_t size = cursor_u64(c);

		if (size > c->len)
			cursor_short(c, size);
		cursor_bytes(c, size);
		if (c->bad)
			return "AUX";
	}
	return NULL;
}

int perf_decode_sample(const void *rec, size_t size, uint64_t sample_type, struct perf_sample *s)
{
	struct cursor c;

	if (sample_type & (SAMPLE_VARIABLE & ~(uint64_t)PERF_SAMPLE_RAW))
		return -ENOTSUP;
	if (size < 8)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->sample_type = sample_type;
	s->cpumode = rd16((const uint8_t *)rec + 4, false) & PERF_RECORD_MISC_CPUMODE_MASK;
	cursor_init(&c, (const uint8_t *)rec + 8, size - 8, 8, false);
	parse_head(&c, sample_type, s, true);
	if (sample_type & PERF_SAMPLE_RAW) {
		s->raw_size = cursor_u32(&c);
		s->raw = cursor_bytes(&c, s->raw_size);
	}
	parse_weights(&c, sample_type, s, true);
	parse_addrs(&c, sample_type, s, true);
	return c.bad ? -EINVAL : 0;
}

int reader_parse_sample(struct perf_reader *r, struct cursor *c, struct perf_event_rec *ev,
			struct err_msg *err)
{
	struct perf_sample *s = &ev->sample;
	const struct reader_attr *a;
	const char *bad;
	size_t idx;
	int ret;

	if (!r->nr_attrs)
		return err_set(err, EINVAL, "%s: at 0x%llx: sample before any event attr", r->path,
			       (unsigned long long)ev->file_offset);
	ret = record_attr(r, c, false, &idx, err);
	if (ret)
		return ret;
	a = &r->attrs[idx];
	/* *s is zero: reader_decode cleared ev */
	s->attr_index = idx;
	s->sample_type = a->info.sample_type;
	if (!a->info.freq)
		s->period = a->info.sample_period; /* as perf: PERIOD overrides */
	if (c->len >= a->fixed_size) {
		parse_fixed(c, a->info.sample_type, s);
		return 0;
	}
	parse_head(c, a->info.sample_type, s, true);
	if (c->bad)
		return field_err(r, c, "IP/TID/TIME/ADDR/ID/CPU/PERIOD", err);
	bad = parse_middle(r, c, a, s);
	if (!bad)
		bad = parse_tail(r, c, a, s);
	if (bad)
		return field_err(r, c, bad, err);
	return 0;
}

int reader_parse_trailer(struct perf_reader *r, struct cursor *c, struct perf_event_rec *ev,
			 struct err_msg *err)
{
	const struct reader_attr *a;
	const uint8_t *end;
	uint64_t st;
	size_t idx, need;
	int ret;

	if (!r->nr_attrs || !r->attrs[0].info.sample_id_all)
		return 0;
	ret = record_attr(r, c, true, &idx, err);
	if (ret)
		return ret;
	a = &r->attrs[idx];
	st = a->info.sample_type & PERF_SAMPLE_ID_ALL_MASK;
	need = __builtin_popcountll(st) * 8;
	if (need > c->len)
		return err_set(err, EINVAL,
			       "%s: at 0x%llx: record of %zu bytes too short for "
			       "its %zu-byte sample_id_all trailer",
			       r->path, (unsigned long long)c->off, c->len + 8, need);
	c->len -= need;
	end = c->p + c->len;
	if (st & PERF_SAMPLE_TID) {
		ev->pid = rd32(end, r->swap);
		ev->tid = rd32(end + 4, r->swap);
		end += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		ev->time = rd64(end, r->swap);
		end += 8;
	}
	end += 8 * (!!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID));
	if (st & PERF_SAMPLE_CPU)
		ev->cpu = rd32(end, r->swap);
	return 0;
}
