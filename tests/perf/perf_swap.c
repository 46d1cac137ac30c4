// SPDX-License-Identifier: GPL-2.0
/*
 * perf_swap IN OUT: rewrites a perf.data from our writer (perf_gen) in the
 * other byte order, as a big-endian machine would have written it, for the
 * reader's cross-endian tests. It knows only what the writer writes: the
 * header, ids and attrs, MMAP/MMAP2/COMM/FORK/EXIT/SAMPLE/FINISHED_ROUND
 * records and the HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, TOTAL_MEM,
 * CMDLINE, EVENT_DESC, NUMA_TOPOLOGY and SAMPLE_TIME features (others are
 * dropped).
 */
#include <byteswap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf_data.h"
#include "perf/perf_format.h"

static uint8_t *buf;
static uint64_t sample_type;

static uint64_t get64(size_t off)
{
	uint64_t v;

	memcpy(&v, buf + off, 8);
	return v;
}

static void s16(size_t off)
{
	uint16_t v;

	memcpy(&v, buf + off, 2);
	v = bswap_16(v);
	memcpy(buf + off, &v, 2);
}

static void s32(size_t off)
{
	uint32_t v;

	memcpy(&v, buf + off, 4);
	v = bswap_32(v);
	memcpy(buf + off, &v, 4);
}

static void s64(size_t off)
{
	uint64_t v = bswap_64(get64(off));

	memcpy(buf + off, &v, 8);
}

static void s64n(size_t off, size_t n)
{
	while (n--)
		s64(off + n * 8);
}

/* of the first attr: what sizes READ, BRANCH_STACK and REGS_* have */
static uint64_t read_format, branch_sample_type, regs_user, regs_intr;

static void swap_attr(size_t off, uint32_t size)
{
	uint64_t flags = get64(off + ATTR_OFF_FLAGS), rev = 0;
	int i;

	if (!read_format && !branch_sample_type && !regs_user && !regs_intr) {
		read_format = get64(off + ATTR_OFF_READ_FORMAT);
		branch_sample_type = get64(off + ATTR_OFF_BRANCH_SAMPLE_TYPE);
		regs_user = get64(off + ATTR_OFF_REGS_USER);
		regs_intr = get64(off + ATTR_OFF_REGS_INTR);
	}

	for (i = 0; i < 64; i++)
		rev |= ((flags >> i) & 1) << (63 - i);
	memcpy(buf + off + ATTR_OFF_FLAGS, &rev, 8);
	s32(off);
	s32(off + 4);
	s64n(off + 8, 5); /* config .. flags */
	s32(off + 48);
	s32(off + 52);
	s64n(off + 56, 4); /* config1, config2, branch_sample_type, regs_user */
	s32(off + 88);
	s32(off + 92);
	s64(off + 96);
	if (size >= 128) {
		s32(off + 104);
		s16(off + 108);
		s32(off + 112);
		s64(off + 120);
	}
}

/* swap a string (u32 len + bytes); returns the offset after it */
static size_t swap_string(size_t off)
{
	uint32_t len;

	memcpy(&len, buf + off, 4);
	s32(off);
	return off + 4 + len;
}

static void swap_trailer(size_t end)
{
	static const uint64_t order[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
					  PERF_SAMPLE_ID,  PERF_SAMPLE_STREAM_ID,
					  PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER };
	uint64_t st = sample_type & PERF_SAMPLE_ID_ALL_MASK;
	size_t off = end - __builtin_popcountll(st) * 8, i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(st & order[i]))
			continue;
		if (order[i] == PERF_SAMPLE_TID || order[i] == PERF_SAMPLE_CPU) {
			s32(off);
			s32(off + 4);
		} else {
			s64(off);
		}
		off += 8;
	}
}

/* READ: its words (nr first when a group) */
static size_t swap_read(size_t off)
{
	size_t per = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);
	size_t head = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		      !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr = 1;

	if (read_format & PERF_FORMAT_GROUP) {
		nr = get64(off);
		head++;
	}
	s64n(off, head + nr * per);
	return off + (head + nr * per) * 8;
}

/* The variable-size fields; returns the offset after the field. */
static size_t swap_variable(size_t off, uint64_t bit)
{
	uint64_t n;

	switch (bit) {
	case PERF_SAMPLE_READ:
		return swap_read(off);
	case PERF_SAMPLE_BRANCH_STACK:
		n = get64(off) * 3 + 1 + !!(branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX);
		break;
	case PERF_SAMPLE_REGS_USER:
	case PERF_SAMPLE_REGS_INTR:
		n = 1 + (get64(off) ?
				 __builtin_popcountll(bit == PERF_SAMPLE_REGS_USER ? regs_user :
										     regs_intr) :
				 0);
		break;
	case PERF_SAMPLE_STACK_USER: /* size, bytes (not swapped), dyn_size */
		n = get64(off);
		s64(off);
		if (n)
			s64(off + 8 + n);
		return off + 8 + n + (n ? 8 : 0);
	default:
		return off;
	}
	s64n(off, n);
	return off + n * 8;
}

static void swap_sample(size_t off)
{
	static const uint64_t order[] = {
		PERF_SAMPLE_IDENTIFIER,
		PERF_SAMPLE_IP,
		PERF_SAMPLE_TID,
		PERF_SAMPLE_TIME,
		PERF_SAMPLE_ADDR,
		PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID,
		PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD,
		PERF_SAMPLE_READ,
		PERF_SAMPLE_CALLCHAIN,
		PERF_SAMPLE_RAW,
		PERF_SAMPLE_BRANCH_STACK,
		PERF_SAMPLE_REGS_USER,
		PERF_SAMPLE_STACK_USER,
		PERF_SAMPLE_WEIGHT_TYPE,
		PERF_SAMPLE_DATA_SRC,
		PERF_SAMPLE_TRANSACTION,
		PERF_SAMPLE_REGS_INTR,
		PERF_SAMPLE_PHYS_ADDR,
		PERF_SAMPLE_CGROUP,
		PERF_SAMPLE_DATA_PAGE_SIZE,
		PERF_SAMPLE_CODE_PAGE_SIZE,
	};
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint64_t bit = order[i];

		if (!(sample_type & bit))
			continue;
		if (bit == PERF_SAMPLE_TID || bit == PERF_SAMPLE_CPU) {
			s32(off);
			s32(off + 4);
			off += 8;
		} else if (bit == PERF_SAMPLE_CALLCHAIN) {
			uint64_t nr = get64(off);

			s64n(off, nr + 1);
			off += (nr + 1) * 8;
		} else if (bit &
			   (PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR)) {
			off = swap_variable(off, bit);
		} else if (bit == PERF_SAMPLE_RAW) {
			uint32_t size;

			memcpy(&size, buf + off, 4);
			s32(off);
			off += 4 + size;
		} else {
			s64(off);
			off += 8;
		}
	}
}

static void swap_record(size_t off)
{
	uint32_t type;
	uint16_t size;
	size_t body = off + 8;

	memcpy(&type, buf + off, 4);
	memcpy(&size, buf + off + 6, 2);
	s32(off);
	s16(off + 4);
	s16(off + 6);
	switch (type) {
	case PERF_RECORD_SAMPLE:
		swap_sample(body);
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		s32(body);
		s32(body + 4);
		s64n(body + 8, 3);
		if (type == PERF_RECORD_MMAP2) {
			uint16_t misc;

			memcpy(&misc, buf + off + 4, 2);
			if (!(bswap_16(misc) & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
				s32(body + 32);
				s32(body + 36);
				s64n(body + 40, 2);
			}
			s32(body + 56);
			s32(body + 60);
		}
		break;
	case PERF_RECORD_COMM:
		s32(body);
		s32(body + 4);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		s32(body);
		s32(body + 4);
		s32(body + 8);
		s32(body + 12);
		s64(body + 16);
		break;
	default:
		return;
	}
	swap_trailer(off + size);
}

static int swap_feature(int feat, size_t off, size_t size)
{
	size_t end = off + size;
	uint32_t n, i, sz;

	switch (feat) {
	case PERF_FEAT_HOSTNAME:
	case PERF_FEAT_OSRELEASE:
	case PERF_FEAT_VERSION:
	case PERF_FEAT_ARCH:
		swap_string(off);
		return 1;
	case PERF_FEAT_NRCPUS:
		s32(off);
		s32(off + 4);
		return 1;
	case PERF_FEAT_TOTAL_MEM:
		s64(off);
		return 1;
	case PERF_FEAT_SAMPLE_TIME:
		s64n(off, 2);
		return 1;
	case PERF_FEAT_CMDLINE:
		memcpy(&n, buf + off, 4);
		s32(off);
		for (off += 4, i = 0; i < n; i++)
			off = swap_string(off);
		return off == end;
	case PERF_FEAT_NUMA_TOPOLOGY:
		memcpy(&n, buf + off, 4);
		s32(off);
		for (off += 4, i = 0; i < n; i++) {
			s32(off);
			s64n(off + 4, 2);
			off = swap_string(off + 20);
		}
		return off == end;
	case PERF_FEAT_EVENT_DESC:
		memcpy(&n, buf + off, 4);
		memcpy(&sz, buf + off + 4, 4);
		s32(off);
		s32(off + 4);
		for (off += 8, i = 0; i < n; i++) {
			uint32_t nr_ids;

			swap_attr(off, sz);
			memcpy(&nr_ids, buf + off + sz, 4);
			s32(off + sz);
			off = swap_string(off + sz + 4);
			s64n(off, nr_ids);
			off += nr_ids * 8;
		}
		return off == end;
	default:
		return 0;
	}
}

/* Swap the features we know; the table keeps only those, in bit order. */
static void swap_features(uint64_t table, uint64_t *bits)
{
	uint64_t out_bits[4] = { 0 }, entries[64][2], kept = 0, at = table;
	int feat;

	for (feat = 0; feat < 256; feat++) {
		uint64_t off, size;

		if (!(bits[feat / 64] & (1ULL << (feat % 64))))
			continue;
		off = get64(at);
		size = get64(at + 8);
		at += 16;
		if (kept == 64 || !swap_feature(feat, off, size))
			continue;
		entries[kept][0] = bswap_64(off);
		entries[kept][1] = bswap_64(size);
		kept++;
		out_bits[feat / 64] |= 1ULL << (feat % 64);
	}
	memcpy(buf + table, entries, kept * 16);
	memcpy(bits, out_bits, sizeof(out_bits));
}

int main(int argc, char **argv)
{
	FILE *f;
	long size;
	uint64_t attrs_off, attrs_size, attr_size, data_off, data_size, bits[4], i;
	size_t pos;

	if (argc != 3 || !(f = fopen(argv[1], "rb")))
		return 2;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc(size);
	if (!buf || fread(buf, 1, size, f) != (size_t)size)
		return 2;
	fclose(f);
	attr_size = get64(16);
	attrs_off = get64(24);
	attrs_size = get64(32);
	data_off = get64(40);
	data_size = get64(48);
	memcpy(bits, buf + 72, 32);
	for (i = 0; i < attrs_size / attr_size; i++) {
		size_t a = attrs_off + i * attr_size;
		uint64_t ids = get64(a + attr_size - 16), nr = get64(a + attr_size - 8) / 8;

		if (i == 0)
			sample_type = get64(a + ATTR_OFF_SAMPLE_TYPE);
		s64n(ids, nr);
		swap_attr(a, attr_size - 16);
		s64n(a + attr_size - 16, 2);
	}
	for (pos = data_off; pos < data_off + data_size;) {
		uint16_t rsize;

		memcpy(&rsize, buf + pos + 6, 2);
		swap_record(pos);
		pos += rsize;
	}
	swap_features(data_off + data_size, bits);
	s64n(0, 9);
	memcpy(buf + 72, bits, 32);
	s64n(72, 4);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, size, f) != (size_t)size || fclose(f))
		return 2;
	return 0;
}
