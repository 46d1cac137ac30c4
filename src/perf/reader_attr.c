// SPDX-License-Identifier: GPL-2.0
/* perf_event_attr of any size and byte order, and the ids of each event. */
#include <errno.h>
#include <stdlib.h>

#include "perf/perf_format.h"
#include "perf/reader_int.h"
#include "util/xalloc.h"

/*
 * The flag word is a bitfield: a big-endian compiler numbers its bits from
 * the most significant end, so once the u64 is in host order the bits of a
 * swapped file come reversed (perf's swap_bitfield).
 */
static uint64_t bit_reverse64(uint64_t v)
{
	uint64_t r = 0;
	int i;

	for (i = 0; i < 64; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

static uint64_t attr_u64(const uint8_t *attr, size_t size, size_t off, bool swap)
{
	return off + 8 <= size ? rd64(attr + off, swap) : 0;
}

int reader_add_attr(struct perf_reader *r, const uint8_t *attr, size_t avail, uint64_t off,
		    struct err_msg *err)
{
	struct reader_attr *a;
	struct perf_attr_info *info;
	uint32_t size;
	uint64_t flags;

	if (avail < PERF_ATTR_SIZE_VER0)
		return err_set(err, EINVAL,
			       "%s: at 0x%llx: perf_event_attr of %zu bytes, "
			       "expected at least %d",
			       r->path, (unsigned long long)off, avail, PERF_ATTR_SIZE_VER0);
	size = rd32(attr + ATTR_OFF_SIZE, r->swap);
	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > avail)
		return err_set(err, EINVAL,
			       "%s: at 0x%llx: perf_event_attr size %u, expected "
			       "%d..%zu",
			       r->path, (unsigned long long)off, size, PERF_ATTR_SIZE_VER0, avail);
	r->attrs = xgrow(r->attrs, &r->alloc_attrs, r->nr_attrs + 1, sizeof(*r->attrs));
	a = &r->attrs[r->nr_attrs++];
	memset(a, 0, sizeof(*a));
	info = &a->info;
	info->type = rd32(attr + ATTR_OFF_TYPE, r->swap);
	info->config = attr_u64(attr, size, ATTR_OFF_CONFIG, r->swap);
	info->sample_period = attr_u64(attr, size, ATTR_OFF_PERIOD, r->swap);
	info->sample_type = attr_u64(attr, size, ATTR_OFF_SAMPLE_TYPE, r->swap);
	a->fixed_size = reader_sample_fixed_size(info->sample_type);
	info->read_format = attr_u64(attr, size, ATTR_OFF_READ_FORMAT, r->swap);
	flags = attr_u64(attr, size, ATTR_OFF_FLAGS, r->swap);
	if (r->swap)
		flags = bit_reverse64(flags);
	info->freq = flags & ATTR_FLAG_FREQ;
	info->sample_id_all = flags & ATTR_FLAG_SAMPLE_ID_ALL;
	info->precise_ip = (flags >> ATTR_FLAG_PRECISE_SHIFT) & 3;
	info->config1 = attr_u64(attr, size, ATTR_OFF_CONFIG1, r->swap);
	info->config2 = attr_u64(attr, size, ATTR_OFF_CONFIG2, r->swap);
	a->branch_sample_type = attr_u64(attr, size, ATTR_OFF_BRANCH_SAMPLE_TYPE, r->swap);
	info->sample_regs_user = attr_u64(attr, size, ATTR_OFF_REGS_USER, r->swap);
	if (ATTR_OFF_STACK_USER + 4 <= size)
		info->sample_stack_user = rd32(attr + ATTR_OFF_STACK_USER, r->swap);
	info->sample_regs_intr = attr_u64(attr, size, ATTR_OFF_REGS_INTR, r->swap);
	return 0;
}

void reader_add_id(struct perf_reader *r, size_t attr_index, uint64_t id)
{
	struct reader_attr *a = &r->attrs[attr_index];

	if (hashmap_get(&r->ids, id))
		return;
	a->ids = xgrow(a->ids, &a->alloc_ids, a->info.nr_ids + 1, sizeof(*a->ids));
	a->ids[a->info.nr_ids++] = id;
	a->info.ids = a->ids;
	hashmap_put(&r->ids, id, (void *)(uintptr_t)(attr_index + 1));
}

/* Where the id sits in samples (from the start) and trailers (from the end). */
void reader_attrs_done(struct perf_reader *r)
{
	uint64_t st;

	r->id_pos = r->is_pos = -1;
	if (!r->nr_attrs)
		return;
	st = r->attrs[0].info.sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		r->id_pos = 0;
		r->is_pos = 1;
	} else if (st & PERF_SAMPLE_ID) {
		r->id_pos = !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			    !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
		r->is_pos = 1 + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_STREAM_ID);
	}
}

void reader_free_attrs(struct perf_reader *r)
{
	size_t i;

	for (i = 0; i < r->nr_attrs; i++) {
		free(r->attrs[i].name);
		free(r->attrs[i].ids);
	}
	free(r->attrs);
	hashmap_release(&r->ids);
}
