// SPDX-License-Identifier: GPL-2.0
/*
 * The breakpoints and their ring buffers: one perf event per field, thread
 * and cpu (inherited by new threads; per cpu alone for kernel addresses);
 * the events of one cpu share one mmap ring, read while the target runs,
 * with a dummy event beside them for the mappings, names and new threads.
 *
 * The rings are read through src/perf's ring reader and their side-band
 * records (mappings, names, forks, losses) through src/perf's record
 * decoder, the ones the recorder and the file reader use; opening the
 * breakpoints is still watch's own (src/record's session layer opens PMU
 * events for a recording).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "record/record.h"
#include "util/hashmap.h"
#include "util/intlist.h"
#include "util/xalloc.h"
#include "watch/watch_int.h"

unsigned int watch_debug_registers(void)
{
	return WATCH_X86_64_DEBUG_REGS;
}

/*
 * PERF_FORMAT_LOST (Linux 6.0): read() also gives the samples the kernel
 * could not write. Exact where the LOST records are not: the kernel writes
 * one only before its next record, so what is lost at the end is never told.
 */
static void bp_attr(const struct watch *w, const struct watch_field *f, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_BREAKPOINT;
	a->size = sizeof(*a);
	a->bp_type = w->opts.write_only ? HW_BREAKPOINT_W : HW_BREAKPOINT_RW;
	a->bp_addr = f->bp_addr;
	a->bp_len = f->bp_len;
	a->sample_period = 1;
	a->sample_type = WATCH_SAMPLE_TYPE | PERF_SAMPLE_IDENTIFIER;
	a->exclude_kernel = !w->opts.all && !w->opts.kernel;
	a->exclude_hv = 1;
	a->inherit = !w->opts.kernel;
	a->sample_id_all = 1;
	a->watermark = 1;
	a->read_format = w->no_fmt_lost ? 0 : PERF_FORMAT_LOST;
}

/*
 * The mappings, names and new threads come from a dummy event beside the
 * breakpoints (as perf record does), so that a breakpoint's lost count is
 * samples only.
 */
static void sideband_attr(const struct watch *w, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->size = sizeof(*a);
	a->sample_type = WATCH_SAMPLE_TYPE | PERF_SAMPLE_IDENTIFIER;
	a->exclude_kernel = !w->opts.all;
	a->exclude_hv = 1;
	a->inherit = 1;
	a->sample_id_all = 1;
	a->mmap = a->mmap2 = a->mmap_data = a->comm = a->task = 1;
}

static int open_error(const struct watch *w, const struct watch_field *f, int e, int target,
		      struct err_msg *err)
{
	if (e == ENOSPC)
		return err_set(err, ENOSPC,
			       "%s: no free debug register: this cpu has %u for data "
			       "breakpoints, shared by all watchers and debuggers of the thread",
			       f->name, watch_debug_registers());
	if (e == EACCES || e == EPERM) {
		/* perf_event_paranoid: 1 allows kernel samples of own tasks, 0 cpu-wide events */
		int level = w->opts.kernel ? 0 : w->opts.all ? 1 : 2;

		return err_set(err, e,
			       "%s: perf_event_open: %s: watching %s needs CAP_PERFMON (or root), "
			       "or kernel.perf_event_paranoid <= %d (sysctl -w "
			       "kernel.perf_event_paranoid=%d)",
			       f->name, strerror(e),
			       w->opts.kernel ? "kernel data on every cpu" :
			       w->opts.all    ? "kernel accesses (--all)" :
						"this process",
			       level, level);
	}
	if (e == ENOENT || e == ENODEV || e == EOPNOTSUPP)
		return err_set(err, e, "%s: no hardware breakpoints here (perf_event_open: %s)",
			       f->name, strerror(e));
	if (e == ESRCH)
		return err_set(err, e, "%s: no process or thread %d", f->name, target);
	return err_set(err, e, "%s: perf_event_open(breakpoint %#llx/%u): %s", f->name,
		       (unsigned long long)f->bp_addr, f->bp_len, strerror(e));
}

/* Map a ring; halve it while the locked-memory limit refuses. */
static int map_ring(struct watch *w, struct watch_ring *r, struct err_msg *err)
{
	return perf_ring_map(&r->ring, r->fd, w->opts.ring_pages ? w->opts.ring_pages : 1024, true,
			     err);
}

/*
 * One event of field fi for pid on cpu. The kernel maps no ring of an
 * inherited per-task event (all children would write to one buffer from
 * every cpu), so events are per cpu; all events on one cpu share the first
 * one's ring (PERF_EVENT_IOC_SET_OUTPUT), their samples told apart by id.
 */
static int open_bp(struct watch *w, const struct watch_field *f, int pid, int cpu)
{
	struct perf_event_attr a;
	int fd;

	bp_attr(w, f, &a);
	fd = record_event_open(&a, pid, cpu, -1, 0);
	if (fd < 0 && errno == EINVAL && !w->no_fmt_lost) {
		w->no_fmt_lost = true;
		bp_attr(w, f, &a);
		fd = record_event_open(&a, pid, cpu, -1, 0);
	}
	return fd;
}

/* The ring of cpu: SET_OUTPUT to it, else map one on r. */
static int share_ring(struct watch *w, struct watch_ring *r, struct err_msg *err)
{
	size_t i;

	for (i = 0; i + 1 < w->nr_rings; i++) {
		const struct watch_ring *o = &w->rings[i];

		if (o->ring.base && o->cpu == r->cpu &&
		    !ioctl(r->fd, PERF_EVENT_IOC_SET_OUTPUT, o->fd))
			return 0;
	}
	return map_ring(w, r, err);
}

static struct watch_ring *add_ring(struct watch *w, int fd, size_t fi, int cpu)
{
	struct watch_ring *r;

	w->rings = xgrow(w->rings, &w->alloc_rings, w->nr_rings + 1, sizeof(*w->rings));
	r = &w->rings[w->nr_rings++];
	*r = (struct watch_ring){ .fd = fd, .field = fi, .cpu = cpu };
	return r;
}

/* With the first field's event of a task on cpu: its side-band event. */
static int open_sideband(struct watch *w, int pid, int cpu, struct err_msg *err)
{
	struct perf_event_attr a;
	int fd;

	sideband_attr(w, &a);
	fd = record_event_open(&a, pid, cpu, -1, 0);
	if (fd < 0)
		return err_set(err, errno, "perf_event_open(dummy side-band event): %s",
			       strerror(errno));
	add_ring(w, fd, 0, cpu)->sideband = true;
	return share_ring(w, &w->rings[w->nr_rings - 1], err);
}

static int open_one(struct watch *w, size_t fi, int pid, int cpu, struct err_msg *err)
{
	struct watch_field *f = &w->fields[fi].pub;
	struct watch_ring *r;
	uint64_t id;
	int fd, ret;

	fd = open_bp(w, f, pid, cpu);
	if (fd < 0)
		return open_error(w, f, errno, pid, err);
	r = add_ring(w, fd, fi, cpu);
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return err_set(err, errno, "%s: PERF_EVENT_IOC_ID: %s", f->name, strerror(errno));
	hashmap_put(&w->ids, id, (void *)(uintptr_t)(fi + 1));
	ret = share_ring(w, r, err);
	if (!ret && fi == 0 && !w->opts.kernel)
		ret = open_sideband(w, pid, cpu, err);
	return ret;
}

/* The online cpus ("0-3,6" in sysfs), else all configured ones. */
static size_t online_cpus(int **out)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	char all[32];
	size_t nr = 0;

	if (!cpu_list_read(CPU_LIST_ONLINE, conf, out, &nr, NULL))
		return nr;
	snprintf(all, sizeof(all), "0-%ld", conf - 1);
	int_list_parse(all, "cpus", out, &nr, NULL);
	return nr;
}

/* Events of field fi for one thread (or, inherited, a started process). */
static int open_task(struct watch *w, size_t fi, int pid, struct err_msg *err)
{
	int *cpus, ret = 0;
	size_t i, nr = online_cpus(&cpus);

	for (i = 0; i < nr && !ret; i++)
		ret = open_one(w, fi, pid, cpus[i], err);
	free(cpus);
	return ret;
}

/* One event per field for each thread of the target (or each cpu). */
static int open_field(struct watch *w, size_t fi, struct err_msg *err)
{
	char path[64];
	struct dirent *de;
	int ret = 0;
	DIR *dir;

	if (w->opts.kernel || w->stopped)
		return open_task(w, fi, w->opts.kernel ? -1 : w->pid, err);
	snprintf(path, sizeof(path), "/proc/%d/task", w->pid);
	dir = opendir(path);
	if (!dir)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	while (!ret && (de = readdir(dir)))
		if (de->d_name[0] != '.')
			ret = open_task(w, fi, atoi(de->d_name), err);
	closedir(dir);
	return ret;
}

int watch_arm(struct watch *w, struct err_msg *err)
{
	size_t i;
	int ret;

	for (i = 0; i < w->nr_fields; i++) {
		ret = open_field(w, i, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* p: the sample after its IDENTIFIER word. */
static void add_access(struct watch *w, size_t field, const struct perf_sample *smp)
{
	struct watch_access *a;

	w->acc = xgrow(w->acc, &w->alloc_acc, w->nr_acc + 1, sizeof(*w->acc));
	a = &w->acc[w->nr_acc++];
	*a = (struct watch_access){ .ip = smp->ip,
				    .pid = smp->pid,
				    .tid = smp->tid,
				    .time = smp->time,
				    .cpu = smp->cpu,
				    .field = field,
				    .site_ip = smp->ip };
	a->kernel = smp->cpumode == PERF_RECORD_MISC_KERNEL;
}

static void add_fork(struct watch *w, const struct perf_task *t)
{
	w->forks = xgrow(w->forks, &w->alloc_forks, w->nr_forks + 1, sizeof(*w->forks));
	w->forks[w->nr_forks++] = *t;
	addr_spaces_fork(w->as, t->pid, t->ppid);
}

/* The process's mappings, names and forks, through src/perf's decoder (the reader's). */
static void add_side_band(struct watch *w, const uint8_t *rec, size_t size)
{
	struct perf_event_rec ev;

	if (perf_decode_record(rec, size, &ev))
		return;
	switch (ev.kind) {
	case PERF_REC_MMAP:
		if (ev.mmap.is_mmap2) {
			ev.mmap.cpumode = AS_CPUMODE_USER;
			watch_add_map(w, &ev.mmap);
		}
		break;
	case PERF_REC_COMM:
		watch_add_comm(w, ev.comm.pid, ev.comm.tid, ev.comm.comm);
		break;
	case PERF_REC_FORK:
		add_fork(w, &ev.task);
		break;
	case PERF_REC_LOST:
		w->lost_records += ev.lost.lost;
		break;
	default:
		break;
	}
}

/* A sample: IDENTIFIER names the event (an inherited one its parent's). */
static void add_sample(struct watch *w, const uint8_t *rec, size_t size)
{
	struct perf_sample smp;
	uintptr_t field;

	if (perf_decode_sample(rec, size, WATCH_SAMPLE_TYPE | PERF_SAMPLE_IDENTIFIER, &smp))
		return;
	field = (uintptr_t)hashmap_get(&w->ids, smp.id);
	if (field)
		add_access(w, field - 1, &smp);
}

static void parse_record(struct watch *w, const uint8_t *rec, size_t size)
{
	const struct perf_event_header *h = (const void *)rec;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		add_sample(w, rec, size);
		break;
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_LOST:
		add_side_band(w, rec, size);
		break;
	case PERF_RECORD_THROTTLE:
		w->sum.throttles++;
		break;
	}
}

struct drain_ctx {
	struct watch *w;
	int records;
};

static int on_ring_record(void *ctx, const struct perf_event_header *h)
{
	struct drain_ctx *d = ctx;

	parse_record(d->w, (const uint8_t *)h, h->size);
	d->records++;
	return 0;
}

int watch_drain(struct watch *w)
{
	struct drain_ctx d = { w, 0 };
	size_t i;

	for (i = 0; i < w->nr_rings; i++)
		if (w->rings[i].ring.base)
			perf_ring_drain(&w->rings[i].ring, on_ring_record, &d, NULL);
	return d.records;
}

/* One breakpoint's counter (every hit) and its lost samples. */
static void read_counter(struct watch *w, const struct watch_ring *r)
{
	struct watch_field *f = &w->fields[r->field].pub;
	uint64_t v[2] = { 0, 0 };
	ssize_t want = w->no_fmt_lost ? 8 : 16;

	ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
	if (r->sideband || read(r->fd, v, want) != want)
		return;
	f->count += v[0];
	f->lost += v[1];
}

/* Read the counters (every hit, lost samples included), then close all. */
void watch_disarm(struct watch *w)
{
	size_t i;

	for (i = 0; i < w->nr_rings; i++)
		read_counter(w, &w->rings[i]);
	watch_drain(w);
	w->sum.lost_exact = !w->no_fmt_lost;
	w->sum.lost = 0;
	for (i = 0; i < w->nr_fields; i++)
		w->sum.lost += w->fields[i].pub.lost;
	if (!w->sum.lost_exact)
		w->sum.lost = w->lost_records;
	for (i = 0; i < w->nr_rings; i++) {
		struct watch_ring *r = &w->rings[i];

		perf_ring_unmap(&r->ring);
		close(r->fd);
	}
	free(w->rings);
	w->rings = NULL;
	w->nr_rings = w->alloc_rings = 0;
}

/* This thread's cpu time: the trap's cost, not the time others ran. */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t time_writes(volatile long *x, int n)
{
	uint64_t t0 = now_ns();
	int i;

	for (i = 0; i < n; i++)
		*x = i;
	return now_ns() - t0;
}

/*
 * The cost of one hit here and now: 2,000 writes to a watched variable of
 * our own (a sampling breakpoint, as the watch uses) against the same
 * writes unwatched.
 */
int watch_calibrate(double *ns_per_hit)
{
	static volatile long target;
	struct perf_event_attr a;
	uint64_t plain, watched;
	struct perf_ring ring;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof(a);
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uintptr_t)&target;
	a.bp_len = sizeof(target);
	a.sample_period = 1;
	a.sample_type = WATCH_SAMPLE_TYPE;
	a.exclude_kernel = a.exclude_hv = 1;
	a.disabled = 1;
	fd = record_event_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	perf_ring_map(&ring, fd, 64, false, NULL); /* unmapped: the hits still trap */
	plain = time_writes(&target, 2000);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	watched = time_writes(&target, 2000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	perf_ring_unmap(&ring);
	close(fd);
	*ns_per_hit = watched > plain ? (double)(watched - plain) / 2000 : 0;
	return 0;
}
