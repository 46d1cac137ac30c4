// SPDX-License-Identifier: GPL-2.0
/*
 * perf_dump: prints what our reader sees, in `perf script`'s formats, so
 * the tests can compare field by field.
 *   perf_dump -F FIELDS FILE   samples; FIELDS from pid,tid,cpu,time,period,
 *                              event,addr,data_src,weight,ins_lat,ip,
 *                              phys_addr,data_page_size,code_page_size,
 *                              iregs,uregs,brstack (as perf script prints
 *                              them), read,ustack,raw,cgroup (our own form)
 *   perf_dump -s FILE          side records as perf script --show-mmap-events
 *                              --show-task-events prints them (after PERF_RECORD_)
 *   perf_dump -H FILE          header, attrs and counts
 *   perf_dump -r FILE          every record: offset, type, kind
 *   perf_dump -m ...           also print the peak RSS ("peak_rss_kb N") on stderr
 * Exit 2 when the file cannot be opened or damage leaves no sample.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perf/perf_data.h"

enum {
	F_PID,
	F_TID,
	F_CPU,
	F_TIME,
	F_PERIOD,
	F_EVENT,
	F_ADDR,
	F_DATA_SRC,
	F_WEIGHT,
	F_INS_LAT,
	F_IP,
	F_PHYS,
	F_DPS,
	F_CPS,
	F_IREGS,
	F_UREGS,
	F_BRSTACK,
	F_READ,
	F_USTACK,
	F_RAW,
	F_CGROUP,
	F_MAX
};
static const char *const field_names[F_MAX] = {
	"pid",
	"tid",
	"cpu",
	"time",
	"period",
	"event",
	"addr",
	"data_src",
	"weight",
	"ins_lat",
	"ip",
	"phys_addr",
	"data_page_size",
	"code_page_size",
	"iregs",
	"uregs",
	"brstack",
	"read",
	"ustack",
	"raw",
	"cgroup",
};

/* perf's x86 register names, by PERF_REG_X86_* number. */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP",  "SP",  "IP",	 "FLAGS", "CS",	 "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13",	  "R14", "R15",
};

/* As perf script's -F iregs/uregs: nothing without values. */
static void print_regs(uint64_t abi, const uint64_t *regs, uint64_t mask)
{
	int bit, k = 0;

	if (!abi || !regs)
		return;
	printf(" ABI:%" PRIu64, abi);
	for (bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		printf(" %s:0x%" PRIx64,
		       bit < (int)(sizeof(x86_regs) / sizeof(x86_regs[0])) ? x86_regs[bit] : "?",
		       regs[k++]);
	}
}

/* As perf script's -F brstack: from/to/pred/tx/abort/cycles/ per entry. */
static void print_brstack(const struct perf_sample *s)
{
	uint64_t i;

	for (i = 0; i < s->nr_branches; i++) {
		uint64_t f = s->branches[3 * i + 2];

		printf(" 0x%" PRIx64 "/0x%" PRIx64 "/%c/%c/%c/%u/", s->branches[3 * i],
		       s->branches[3 * i + 1],
		       f & 1 ? 'M' :
		       f & 2 ? 'P' :
			       '-',
		       f & 4 ? 'X' : '-', f & 8 ? 'A' : '-', (unsigned int)(f >> 4 & 0xffff));
	}
}

/* READ as "enabled=E running=R id:value ..." in hex, for any read_format. */
static void print_read(const struct perf_attr_info *a, const struct perf_sample *s)
{
	uint64_t rf = a->read_format, nr = 1, i, k = 0;
	const uint64_t *w = s->read_words;
	uint64_t value = 0;

	if (!w)
		return;
	if (rf & PERF_FORMAT_GROUP)
		nr = w[k++];
	else
		value = w[k++];
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		printf(" enabled=0x%" PRIx64, w[k++]);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		printf(" running=0x%" PRIx64, w[k++]);
	for (i = 0; i < nr; i++) {
		if (rf & PERF_FORMAT_GROUP)
			value = w[k++];
		printf(" 0x%" PRIx64 ":0x%" PRIx64, rf & PERF_FORMAT_ID ? w[k++] : 0, value);
		if (rf & PERF_FORMAT_LOST)
			printf(":lost=0x%" PRIx64, w[k++]);
	}
}

static void print_extra(const struct perf_attr_info *a, const struct perf_sample *s, const bool *on)
{
	uint32_t i;

	if (on[F_IREGS])
		print_regs(s->regs_intr_abi, s->regs_intr, a->sample_regs_intr);
	if (on[F_UREGS])
		print_regs(s->regs_user_abi, s->regs_user, a->sample_regs_user);
	if (on[F_BRSTACK])
		print_brstack(s);
	if (on[F_READ])
		print_read(a, s);
	if (on[F_USTACK])
		printf(" ustack=%" PRIu64 "/%" PRIu64 "/%02x", s->stack_user_size,
		       s->stack_user_dyn_size,
		       s->stack_user_size ? ((const uint8_t *)s->stack_user)[0] : 0);
	if (on[F_RAW]) {
		printf(" raw=%u:", s->raw_size);
		for (i = 0; i < s->raw_size; i++)
			printf("%02x", ((const uint8_t *)s->raw)[i]);
	}
	if (on[F_CGROUP])
		printf(" cgroup=%" PRIu64, s->cgroup);
}

static int parse_fields(char *list, bool *on)
{
	char *tok;
	int i;

	for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		for (i = 0; i < F_MAX && strcmp(tok, field_names[i]); i++)
			;
		if (i == F_MAX) {
			fprintf(stderr, "perf_dump: unknown field %s\n", tok);
			return -1;
		}
		on[i] = true;
	}
	return 0;
}

/* perf's get_page_size_name() */
static void print_page_size(uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	if (!n) {
		printf(" N/A");
		return;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	printf(" %" PRIu64 "%c", n, unit[i]);
}

static void print_sample(const struct perf_reader *r, const struct perf_sample *s, const bool *on)
{
	const struct perf_attr_info *a = perf_reader_attr(r, s->attr_index);
	uint64_t i;

	if (on[F_PID] && on[F_TID])
		printf("%d/%d", (int)s->pid, (int)s->tid);
	else if (on[F_PID] || on[F_TID])
		printf("%d", (int)(on[F_PID] ? s->pid : s->tid));
	if (on[F_CPU])
		printf(" [%03u]", s->cpu);
	if (on[F_TIME])
		printf(" %" PRIu64 ".%06" PRIu64 ":", s->time / 1000000000,
		       s->time % 1000000000 / 1000);
	if (on[F_PERIOD])
		printf(" %" PRIu64, s->period);
	if (on[F_EVENT])
		printf(" %s:", a->name ? a->name : "unknown");
	if (on[F_ADDR])
		printf(" %" PRIx64, s->addr);
	if (on[F_DATA_SRC])
		printf(" %" PRIx64, s->data_src);
	if (on[F_WEIGHT])
		printf(" %" PRIu64, s->weight);
	if (on[F_INS_LAT])
		printf(" %u", s->weight_var2);
	if (on[F_IP] && (s->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		for (i = 0; i < s->nr_callchain; i++)
			if (s->callchain[i] < PERF_CONTEXT_MAX)
				printf(" %" PRIx64, s->callchain[i]);
	} else if (on[F_IP]) {
		printf(" %" PRIx64, s->ip);
	}
	print_extra(a, s, on);
	if (on[F_PHYS])
		printf(" %" PRIx64, s->phys_addr);
	if (on[F_DPS])
		print_page_size(s->data_page_size);
	if (on[F_CPS])
		print_page_size(s->code_page_size);
	printf("\n");
}

static void print_mmap(const struct perf_event_rec *ev)
{
	const struct perf_mmap *m = &ev->mmap;
	int i;

	if (!m->is_mmap2) {
		printf("MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
		       (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff,
		       m->prot & PROT_EXEC || !m->prot ? 'x' : 'r', m->filename);
		return;
	}
	printf("MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid, (int)m->tid,
	       m->start, m->len, m->pgoff);
	if (m->build_id_size) {
		printf(" <");
		for (i = 0; i < m->build_id_size; i++)
			printf("%02x", m->build_id[i]);
		printf(">");
	} else {
		printf(" %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
		       m->ino_generation);
	}
	printf("]: %c%c%c%c %s\n", m->prot & PROT_READ ? 'r' : '-',
	       m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
	       m->flags & MAP_SHARED ? 's' : 'p', m->filename);
}

static void print_side(const struct perf_event_rec *ev)
{
	switch (ev->kind) {
	case PERF_REC_MMAP:
		print_mmap(ev);
		break;
	case PERF_REC_COMM:
		printf("COMM%s: %s:%d/%d\n", ev->comm.exec ? " exec" : "", ev->comm.comm,
		       (int)ev->comm.pid, (int)ev->comm.tid);
		break;
	case PERF_REC_FORK:
	case PERF_REC_EXIT:
		printf("%s(%d:%d):(%d:%d)\n", ev->kind == PERF_REC_FORK ? "FORK" : "EXIT",
		       (int)ev->task.pid, (int)ev->task.tid, (int)ev->task.ppid,
		       (int)ev->task.ptid);
		break;
	default:
		break;
	}
}

/* VmHWM, or -1 under AddressSanitizer, whose shadow memory says nothing. */
static long peak_rss_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f;

#if defined(__SANITIZE_ADDRESS__)
	return -1;
#endif
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void print_strs(const char *what, const char *s)
{
	if (s)
		printf("%s: %s\n", what, s);
}

static void print_header(const struct perf_reader *r)
{
	const struct perf_header_info *h = perf_reader_header(r);
	const struct perf_reader_stats *st = perf_reader_stats(r);
	size_t i, j;

	printf("pipe_mode: %d\nneeds_swap: %d\n", h->pipe_mode, h->needs_swap);
	print_strs("hostname", h->hostname);
	print_strs("os release", h->osrelease);
	print_strs("perf version", h->version);
	print_strs("arch", h->arch);
	printf("nrcpus online: %u\nnrcpus avail: %u\n", h->nr_cpus_online, h->nr_cpus_avail);
	print_strs("cpudesc", h->cpudesc);
	print_strs("cpuid", h->cpuid);
	printf("total memory: %" PRIu64 " kB\n", h->total_mem);
	print_strs("cmdline", h->cmdline);
	for (i = 0; i < h->nr_numa_nodes; i++)
		printf("node%u meminfo: total = %" PRIu64 " kB, free = %" PRIu64 " kB\n"
		       "node%u cpu list: %s\n",
		       h->numa_nodes[i].node, h->numa_nodes[i].mem_total, h->numa_nodes[i].mem_free,
		       h->numa_nodes[i].node, h->numa_nodes[i].cpus);
	for (i = 0; i < h->nr_core_siblings; i++)
		printf("sibling sockets: %s\n", h->core_siblings[i]);
	for (i = 0; i < h->nr_thread_siblings; i++)
		printf("sibling threads: %s\n", h->thread_siblings[i]);
	for (i = 0; i < h->nr_mem_ranges; i++)
		printf("memory: node %u [0x%" PRIx64 "-0x%" PRIx64 ")\n", h->mem_ranges[i].node,
		       h->mem_ranges[i].start, h->mem_ranges[i].end);
	if (h->clockid_set)
		printf("clockid: %" PRIu64 "\n", h->clockid);
	for (i = 0; i < h->nr_build_ids; i++) {
		printf("build id %d: ", (int)h->build_ids[i].pid);
		for (j = 0; j < h->build_ids[i].size; j++)
			printf("%02x", h->build_ids[i].id[j]);
		printf(" %s\n", h->build_ids[i].filename);
	}
	for (i = 0; i < perf_reader_nr_attrs(r); i++) {
		const struct perf_attr_info *a = perf_reader_attr(r, i);

		printf("event %zu: name = %s, type = %u, config = %#" PRIx64 ", config1 = %#" PRIx64
		       ", sample_type = %#" PRIx64 ", read_format = %#" PRIx64 ", period = %" PRIu64
		       ", freq = %d, sample_id_all = %d, ids =",
		       i, a->name ? a->name : "(none)", a->type, a->config, a->config1,
		       a->sample_type, a->read_format, a->sample_period, a->freq, a->sample_id_all);
		for (j = 0; j < a->nr_ids; j++)
			printf(" %" PRIu64, a->ids[j]);
		printf("\n");
	}
	printf("records: %" PRIu64 "\nsamples: %" PRIu64 "\nunknown records: %" PRIu64
	       "\nlost: %" PRIu64 "\nlost samples: %" PRIu64 "\nunknown ids: %" PRIu64
	       "\ncompressed: %" PRIu64 "\n",
	       st->records, st->samples, st->unknown_records, st->lost, st->lost_samples,
	       st->unknown_ids, st->compressed);
}

int main(int argc, char **argv)
{
	bool on[F_MAX] = { false }, side = false, header = false, records = false, rss = false;
	struct perf_event_rec ev;
	struct perf_reader *r;
	struct err_msg err;
	int opt, ret;

	while ((opt = getopt(argc, argv, "F:sHrm")) != -1) {
		if (opt == 'F' && parse_fields(optarg, on))
			return 2;
		side |= opt == 's';
		header |= opt == 'H';
		records |= opt == 'r';
		rss |= opt == 'm';
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: perf_dump [-F FIELDS | -s | -H | -r] FILE\n");
		return 2;
	}
	if (perf_reader_open(argv[optind], &r, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 2;
	}
	while ((ret = perf_reader_next(r, &ev, &err)) > 0) {
		if (records)
			printf("%#" PRIx64 " %u %d\n", ev.file_offset, ev.type, ev.kind);
		else if (ev.kind == PERF_REC_SAMPLE && !side && !header)
			print_sample(r, &ev.sample, on);
		else if (side)
			print_side(&ev);
	}
	if (header)
		print_header(r);
	fputs(perf_reader_warnings(r), stderr);
	if (rss)
		fprintf(stderr, "peak_rss_kb %ld\n", peak_rss_kb());
	ret = ret < 0 && perf_reader_stats(r)->samples == 0 ? 2 : 0;
	perf_reader_close(r);
	return ret;
}
