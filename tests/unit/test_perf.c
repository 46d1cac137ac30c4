// SPDX-License-Identifier: GPL-2.0
/* perf.data writer -> reader round trip through the public API. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perf/perf_data.h"

#define ALL_FIELDS                                                                                 \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |    \
	 PERF_SAMPLE_RAW | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |                      \
	 PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |                    \
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

static const uint64_t chain[] = { PERF_CONTEXT_USER, 0x401000, 0x402000, 0x403000 };

static struct perf_sample make_sample(uint32_t i)
{
	return (struct perf_sample){
		.attr_index = i % 2,
		.cpumode = PERF_RECORD_MISC_USER,
		.ip = 0x400000 + i,
		.pid = 7,
		.tid = 8 + i,
		.time = 1000 + i,
		.addr = 0xdead0000 + i * 8,
		.stream_id = 99,
		.cpu = i % 4,
		.period = 10 + i,
		.weight = 300 + i,
		.weight_var2 = 20,
		.weight_var3 = 3,
		.data_src = 0x1234 + i,
		.transaction = 5,
		.phys_addr = 0x10000 + i,
		.cgroup = 77,
		.data_page_size = 4096,
		.code_page_size = 2 << 20,
		.nr_callchain = 4,
		.callchain = chain,
		.raw_size = 3,
		.raw = "xyz",
	};
}

static void check_sample(const struct perf_sample *got, uint32_t i)
{
	struct perf_sample want = make_sample(i);

	assert_int_equal(got->attr_index, want.attr_index);
	assert_int_equal(got->cpumode, want.cpumode);
	assert_int_equal(got->ip, want.ip);
	assert_int_equal(got->pid, want.pid);
	assert_int_equal(got->tid, want.tid);
	assert_int_equal(got->time, want.time);
	assert_int_equal(got->addr, want.addr);
	assert_int_equal(got->stream_id, want.stream_id);
	assert_int_equal(got->cpu, want.cpu);
	assert_int_equal(got->period, want.period);
	assert_int_equal(got->weight, want.weight);
	assert_int_equal(got->weight_var2, want.weight_var2);
	assert_int_equal(got->weight_var3, want.weight_var3);
	assert_int_equal(got->data_src, want.data_src);
	assert_int_equal(got->transaction, want.transaction);
	assert_int_equal(got->phys_addr, want.phys_addr);
	assert_int_equal(got->cgroup, want.cgroup);
	assert_int_equal(got->data_page_size, want.data_page_size);
	assert_int_equal(got->code_page_size, want.code_page_size);
	assert_int_equal(got->nr_callchain, 4);
	assert_memory_equal(got->callchain, chain, sizeof(chain));
	assert_true(got->raw_size >= 3);
	assert_memory_equal(got->raw, "xyz", 3);
	assert_true(got->id != 0);
}

static void write_file(const char *path)
{
	struct perf_writer_event ev[2] = {
		{ .type = PERF_TYPE_SOFTWARE,
		  .sample_type = ALL_FIELDS,
		  .sample_period = 1,
		  .name = "first" },
		{ .type = PERF_TYPE_RAW,
		  .config = 0x1cd,
		  .config1 = 30,
		  .sample_type = ALL_FIELDS,
		  .sample_period = 2,
		  .precise_ip = true,
		  .name = "second" },
	};
	static const struct perf_numa_node nodes[] = { { 0, 1024, 512, "0-1" },
						       { 1, 2048, 1024, "2-3" } };
	static const char *const argv[] = { "c2cscope", "record", NULL };
	struct perf_writer_info info = { .hostname = "h",
					 .osrelease = "r",
					 .arch = "a",
					 .cmdline = argv,
					 .nr_cpus_avail = 4,
					 .nr_cpus_online = 4,
					 .nr_numa_nodes = 2,
					 .numa_nodes = nodes };
	struct perf_comm comm = { .pid = 7, .tid = 8, .comm = "prog", .exec = true };
	struct perf_mmap mm = { .pid = 7,
				.tid = 7,
				.start = 0x400000,
				.len = 0x1000,
				.prot = 5,
				.build_id_size = 20,
				.filename = "/bin/prog" };
	struct perf_build_id bid = { .size = 20, .filename = "/bin/prog" };
	struct perf_writer *w;
	struct err_msg err;
	uint32_t i;

	memset(mm.build_id, 0xab, 20);
	memset(bid.id, 0xab, 20);
	assert_int_equal(perf_writer_open(path, ev, 2, &w, &err), 0);
	assert_int_equal(perf_writer_comm(w, &comm, 5), 0);
	assert_int_equal(perf_writer_mmap2(w, &mm, 6), 0);
	assert_int_equal(perf_writer_build_id(w, &bid), 0);
	for (i = 0; i < 10; i++) {
		struct perf_sample s = make_sample(i);

		assert_int_equal(perf_writer_sample(w, &s), 0);
	}
	assert_int_equal(perf_writer_close(w, &info, &err), 0);
}

static void check_header(const struct perf_reader *r)
{
	const struct perf_header_info *h = perf_reader_header(r);

	assert_string_equal(h->hostname, "h");
	assert_string_equal(h->osrelease, "r");
	assert_string_equal(h->arch, "a");
	assert_string_equal(h->cmdline, "c2cscope record");
	assert_int_equal(h->nr_cpus_avail, 4);
	assert_int_equal(h->nr_numa_nodes, 2);
	assert_string_equal(h->numa_nodes[1].cpus, "2-3");
	assert_int_equal(h->numa_nodes[1].mem_total, 2048);
	assert_int_equal(h->nr_build_ids, 1);
	assert_string_equal(h->build_ids[0].filename, "/bin/prog");
	assert_int_equal(h->build_ids[0].size, 20);
	assert_int_equal(h->first_sample_time, 1000);
	assert_int_equal(h->last_sample_time, 1009);
	/* node 1's memory follows node 0's 1024 kB, in 128 MiB blocks */
	assert_int_equal(h->nr_mem_ranges, 2);
	assert_int_equal(h->mem_ranges[1].node, 1);
	assert_int_equal(h->mem_ranges[1].start, 128ULL << 20);
	assert_int_equal(perf_reader_nr_attrs(r), 2);
	assert_string_equal(perf_reader_attr(r, 1)->name, "second");
	assert_int_equal(perf_reader_attr(r, 1)->config1, 30);
	assert_true(perf_reader_attr(r, 1)->precise_ip);
	assert_true(perf_reader_attr(r, 0)->sample_id_all);
}

static void round_trip(void **state)
{
	char path[] = "/tmp/test_perf.XXXXXX";
	struct perf_event_rec ev;
	struct perf_reader *r;
	struct err_msg err;
	uint32_t samples = 0, comms = 0, mmaps = 0;
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	close(fd);
	write_file(path);
	assert_int_equal(perf_reader_open(path, &r, &err), 0);
	check_header(r);
	while ((ret = perf_reader_next(r, &ev, &err)) > 0) {
		if (ev.kind == PERF_REC_SAMPLE)
			check_sample(&ev.sample, samples++);
		if (ev.kind == PERF_REC_COMM) {
			assert_string_equal(ev.comm.comm, "prog");
			assert_true(ev.comm.exec);
			assert_int_equal(ev.time, 5); /* sample_id_all trailer */
			comms++;
		}
		if (ev.kind == PERF_REC_MMAP && ev.mmap.is_mmap2) {
			assert_string_equal(ev.mmap.filename, "/bin/prog");
			assert_int_equal(ev.mmap.build_id_size, 20);
			assert_int_equal(ev.mmap.build_id[19], 0xab);
			assert_int_equal(ev.time, 6);
			mmaps++;
		}
	}
	assert_int_equal(ret, 0);
	assert_int_equal(samples, 10);
	assert_int_equal(comms, 1);
	assert_int_equal(mmaps, 1);
	assert_int_equal(perf_reader_stats(r)->samples, 10);
	assert_string_equal(perf_reader_warnings(r), "");
	perf_reader_close(r);
	unlink(path);
}

static void writer_rejects(void **state)
{
	struct perf_writer_event ev = { .sample_type = PERF_SAMPLE_AUX, .name = "x" };
	struct perf_writer *w;
	struct err_msg err;

	assert_int_equal(perf_writer_open("/tmp/never", &ev, 1, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "sample_type 0x100000 not supported"));
	assert_int_equal(perf_writer_open("/tmp/never", &ev, 0, &w, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no events"));
}

static void build_id_of_self(void **state)
{
	uint8_t id[20], size = 0;
	struct err_msg err;

	assert_int_equal(perf_build_id_of_file("/proc/self/exe", id, &size, &err), 0);
	assert_int_equal(size, 20);
	assert_int_equal(perf_build_id_of_file("/etc/hostname", id, &size, &err), -ENOEXEC);
	assert_non_null(strstr(err.msg, "not an ELF file"));
}

/*
 * perf_ring_drain on a hand-made ring of 256 data bytes: a record that
 * wraps the end arrives contiguous, tail moves to head, and a damaged
 * record (size 0) drops the rest of the batch.
 */
struct ring_seen {
	int n;
	uint16_t sizes[8];
	uint8_t first[8], last[8];
};

static int ring_seen(void *ctx, const struct perf_event_header *h)
{
	struct ring_seen *s = ctx;
	const uint8_t *b = (const uint8_t *)h;

	s->sizes[s->n] = h->size;
	s->first[s->n] = b[sizeof(*h)];
	s->last[s->n] = b[h->size - 1];
	s->n++;
	return 0;
}

static void ring_put(uint8_t *data, uint64_t at, uint16_t size, uint8_t fill)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = size };
	uint8_t rec[64];
	uint16_t i;

	memcpy(rec, &h, sizeof(h));
	memset(rec + sizeof(h), fill, size - sizeof(h));
	for (i = 0; i < size; i++)
		data[(at + i) % 256] = rec[i];
}

static void ring_drain_wraps(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *mem = calloc(1, page + 256);
	struct perf_event_mmap_page *pg = (void *)mem;
	struct perf_ring r = { .base = mem, .data_size = 256 };
	struct ring_seen seen = { 0 };
	uint64_t bytes = 0;

	(void)state;
	pg->data_offset = page;
	pg->data_tail = 1000 * 256 + 216; /* 40 bytes before the end */
	ring_put(mem + page, pg->data_tail, 24, 0xa1);
	ring_put(mem + page, pg->data_tail + 24, 40, 0xb2); /* 16 + 24: wraps */
	ring_put(mem + page, pg->data_tail + 64, 32, 0xc3);
	pg->data_head = pg->data_tail + 96;
	assert_int_equal(perf_ring_drain(&r, ring_seen, &seen, &bytes), 0);
	assert_int_equal(seen.n, 3);
	assert_int_equal(seen.sizes[1], 40);
	assert_int_equal(seen.first[1], 0xb2);
	assert_int_equal(seen.last[1], 0xb2);
	assert_int_equal(seen.last[2], 0xc3);
	assert_int_equal(pg->data_tail, pg->data_head);
	assert_int_equal(bytes, 96);

	/* a record of size 0: the rest of this batch is dropped, tail still moves */
	memset(&seen, 0, sizeof(seen));
	ring_put(mem + page, pg->data_tail, 16, 0xd4);
	memset(mem + page + (pg->data_tail + 16) % 256, 0, 8);
	ring_put(mem + page, pg->data_tail + 24, 16, 0xe5);
	pg->data_head = pg->data_tail + 40;
	assert_int_equal(perf_ring_drain(&r, ring_seen, &seen, &bytes), 0);
	assert_int_equal(seen.n, 1);
	assert_int_equal(pg->data_tail, pg->data_head);
	assert_int_equal(bytes, 136);
	free(r.copy);
	free(mem);
}

/* A native record of type with body (len bytes) after its header. */
static size_t put_record(uint8_t *buf, uint32_t type, uint16_t misc, const void *body, size_t len)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)(8 + len) };

	memcpy(buf, &h, 8);
	memcpy(buf + 8, body, len);
	return 8 + len;
}

/*
 * The ring-side decoders (the reader's own parsers): an MMAP2 and a COMM
 * with a sample_id_all trailer after them, a FORK, a sample by its
 * sample_type; too short or unterminated is -EINVAL, a layout that needs
 * the attr -ENOTSUP.
 */
static void ring_records_decode(void **state)
{
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, gen;
		uint32_t prot, flags;
		char name[16];
		uint64_t trailer[4];
	} mm = { 7, 8, 0x400000, 0x1000, 0, 8, 1, 42, 0, 5, 2, "/bin/prog", { 9, 9, 9, 9 } };
	struct {
		uint32_t pid, tid;
		char comm[8];
		uint64_t trailer[4];
	} cm = { 7, 8, "prog", { 1, 2, 3, 4 } };
	uint32_t fork[6] = { 7, 1, 8, 1, 1000, 0 };
	uint64_t smp[5] = { 99, 0x401000, 8ULL << 32 | 7, 123456, 0x1008 };
	struct perf_event_rec ev;
	struct perf_sample s;
	uint8_t buf[256];
	size_t n;

	n = put_record(buf, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &mm, sizeof(mm));
	assert_int_equal(perf_decode_record(buf, n, &ev), 0);
	assert_int_equal(ev.kind, PERF_REC_MMAP);
	assert_true(ev.mmap.is_mmap2);
	assert_int_equal(ev.mmap.start, 0x400000);
	assert_int_equal(ev.mmap.ino, 42);
	assert_int_equal(ev.mmap.prot, 5);
	assert_string_equal(ev.mmap.filename, "/bin/prog");
	assert_int_equal(perf_decode_record(buf, 8 + 40, &ev), -EINVAL); /* cut before the name */
	n = put_record(buf, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, &cm, sizeof(cm));
	assert_int_equal(perf_decode_record(buf, n, &ev), 0);
	assert_int_equal(ev.kind, PERF_REC_COMM);
	assert_string_equal(ev.comm.comm, "prog");
	assert_true(ev.comm.exec);
	memset(cm.comm, 'x', sizeof(cm.comm));
	n = put_record(buf, PERF_RECORD_COMM, 0, &cm, 16); /* no NUL in the record */
	assert_int_equal(perf_decode_record(buf, n, &ev), -EINVAL);
	n = put_record(buf, PERF_RECORD_FORK, 0, fork, sizeof(fork));
	assert_int_equal(perf_decode_record(buf, n, &ev), 0);
	assert_int_equal(ev.kind, PERF_REC_FORK);
	assert_int_equal(ev.task.ppid, 1);
	assert_int_equal(ev.task.time, 1000);
	n = put_record(buf, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, smp, sizeof(smp));
	assert_int_equal(perf_decode_record(buf, n, &ev), 0);
	assert_int_equal(ev.kind, PERF_REC_OTHER); /* a sample's layout is its event's */
	assert_int_equal(perf_decode_sample(buf, n,
					    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
						    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						    PERF_SAMPLE_ADDR,
					    &s),
			 0);
	assert_int_equal(s.id, 99);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 7);
	assert_int_equal(s.tid, 8);
	assert_int_equal(s.time, 123456);
	assert_int_equal(s.addr, 0x1008);
	assert_int_equal(s.cpumode, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(perf_decode_sample(buf, n,
					    PERF_SAMPLE_IP | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
						    PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
						    PERF_SAMPLE_PHYS_ADDR,
					    &s),
			 -EINVAL); /* 48 bytes asked, 40 there */
	assert_int_equal(perf_decode_sample(buf, n, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN, &s),
			 -ENOTSUP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),	       cmocka_unit_test(writer_rejects),
		cmocka_unit_test(build_id_of_self),    cmocka_unit_test(ring_drain_wraps),
		cmocka_unit_test(ring_records_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
