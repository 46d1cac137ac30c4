// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open for every event on every (task, cpu): the first event of
 * each pair carries the side-band records (mmap, comm, task) and owns the
 * ring buffer the others are redirected to. P events try precise_ip from 3
 * down; PHYS_ADDR is dropped where the kernel refuses it. A refusal is
 * explained by its cause: privileges, a missing PMU, a gone task.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record/session_int.h"
#include "util/xalloc.h"

static int read_sysctl(const char *path, int fallback)
{
	FILE *f = fopen(path, "re");
	int v = fallback;

	if (f && fscanf(f, "%d", &v) != 1)
		v = fallback;
	if (f)
		fclose(f);
	return v;
}

static int explain_access(const struct record_session *s, const struct record_event *e,
			  struct err_msg *err)
{
	int paranoid = read_sysctl("/proc/sys/kernel/perf_event_paranoid", 2);
	bool cpu_wide = !s->per_task;
	int need = cpu_wide ? 0 : !e->attr.exclude_kernel ? 1 : 2;

	return err_set(err, EACCES,
		       "%s: permission denied: kernel.perf_event_paranoid is %d and %s needs "
		       "%d or less; run as root, grant CAP_PERFMON (CAP_SYS_ADMIN before Linux "
		       "5.8), or sysctl kernel.perf_event_paranoid=%d",
		       e->name, paranoid,
		       cpu_wide	 ? "recording every task on a cpu" :
		       need == 1 ? "sampling the kernel (try -u)" :
				   "following a task",
		       need, need);
}

static int explain_open(const struct record_session *s, const struct record_event *e, int pid,
			int cpu, int code, struct err_msg *err)
{
	switch (code) {
	case EACCES:
	case EPERM:
		return explain_access(s, e, err);
	case ESRCH:
		return err_set(err, ESRCH, "%s: no such process or thread %d", e->name, pid);
	case EMFILE:
	case ENFILE:
		return err_set(err, code,
			       "%s: too many open files (%zu counters so far); "
			       "raise ulimit -n",
			       e->name, s->nr_counters);
	case EBUSY:
		return err_set(err, EBUSY,
			       "%s: the PMU is busy (another perf user or the "
			       "NMI watchdog holds it)",
			       e->name);
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		if (e->flags & RECORD_EV_MEMORY)
			return err_set(err, code,
				       "%s: not supported on this CPU or VM: there is no "
				       "memory-sampling PMU; use --sim to simulate the caches "
				       "and --list to see what exists",
				       e->name);
		return err_set(err, code,
			       "%s: not supported on this CPU or VM (type %u config 0x%llx); "
			       "--list shows what exists",
			       e->name, e->attr.type, (unsigned long long)e->attr.config);
	default:
		return err_set(err, code, "%s: perf_event_open on %s %d: %s", e->name,
			       cpu >= 0 ? "cpu" : "task", cpu >= 0 ? cpu : pid, strerror(code));
	}
}

long record_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
		       unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
}

/* Opens one counter, stepping precise_ip down and PHYS_ADDR off as the kernel asks. */
static int open_one(struct record_session *s, size_t ev, int pid, int cpu, int group_fd,
		    struct err_msg *err)
{
	struct record_event *e = &s->events[ev];
	struct perf_event_attr attr = e->attr;
	long fd;

	if (e->leader >= 0) {
		attr.disabled = 0; /* members follow their leader */
		attr.enable_on_exec = 0;
	}
	for (;;) {
		fd = record_event_open(&attr, pid, cpu, group_fd, 0);
		if (fd >= 0)
			break;
		if ((errno == EINVAL || errno == EOPNOTSUPP) && attr.precise_ip &&
		    (e->flags & RECORD_EV_MAX_PRECISE)) {
			attr.precise_ip--;
		} else if ((errno == EINVAL || errno == EACCES) &&
			   (attr.sample_type & PERF_SAMPLE_PHYS_ADDR)) {
			attr.sample_type &= ~(uint64_t)PERF_SAMPLE_PHYS_ADDR;
		} else {
			return explain_open(s, e, pid, cpu, errno, err);
		}
	}
	e->attr.precise_ip = attr.precise_ip;
	e->attr.sample_type = attr.sample_type;
	return (int)fd;
}

static int add_counter(struct record_session *s, int fd, size_t ev, int output_fd,
		       struct err_msg *err)
{
	struct counter *c;
	uint64_t id;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0) {
		int code = errno;

		close(fd);
		return err_set(err, code, "%s: cannot read the event id: %s", s->events[ev].name,
			       strerror(code));
	}
	s->counters =
		xgrow(s->counters, &s->alloc_counters, s->nr_counters + 1, sizeof(*s->counters));
	c = &s->counters[s->nr_counters++];
	c->fd = fd;
	c->id = id;
	c->event = (uint32_t)ev;
	c->output_fd = output_fd;
	return 0;
}

/*
 * All events on one (task, cpu): the first one's ring takes the others'
 * output (redirected in record_session_map_rings: the kernel redirects only to a
 * mapped ring).
 */
static int open_pair(struct record_session *s, int pid, int cpu, struct err_msg *err)
{
	int *fds = xcalloc(s->nr_events, sizeof(*fds));
	size_t ev;
	int ret = 0;

	for (ev = 0; ev < s->nr_events && !ret; ev++) {
		int leader = s->events[ev].leader;
		int fd = open_one(s, ev, pid, cpu, leader >= 0 ? fds[leader] : -1, err);

		if (fd < 0) {
			ret = fd;
			break;
		}
		fds[ev] = fd;
		ret = add_counter(s, fd, ev, ev ? fds[0] : -1, err);
		if (!ret && ev == 0) {
			s->rings = xgrow(s->rings, &s->alloc_rings, s->nr_rings + 1,
					 sizeof(*s->rings));
			s->rings[s->nr_rings++] = (struct ring){ .fd = fd };
		}
	}
	free(fds);
	return ret;
}

int record_session_open_counters(struct record_session *s, struct err_msg *err)
{
	struct perf_event_attr *first = &s->events[0].attr;
	size_t t, c, ev;
	int ret = 0;

	first->mmap = first->comm = first->task = first->mmap2 = 1;
	first->comm_exec = first->mmap_data = 1;
	for (ev = 0; ev < s->nr_events; ev++) {
		struct perf_event_attr *a = &s->events[ev].attr;

		a->inherit = s->per_task && s->inherit;
		a->enable_on_exec = s->per_task && s->child > 0;
		/* wake at a quarter full: room for three more quarters while we drain */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(s->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 4);
	}
	for (t = 0; t < s->nr_tasks && !ret; t++)
		for (c = 0; c < s->nr_cpus && !ret; c++)
			ret = open_pair(s, s->tasks[t], s->cpus[c], err);
	return ret;
}

void record_session_close_counters(struct record_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_counters; i++)
		close(s->counters[i].fd);
	s->nr_counters = 0;
}

static int ioctl_leaders(struct record_session *s, unsigned long req)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < s->nr_counters; i++)
		if (s->events[s->counters[i].event].leader < 0 &&
		    ioctl(s->counters[i].fd, req, 0) < 0 && !ret)
			ret = -errno;
	return ret;
}

int record_session_enable(struct record_session *s, struct err_msg *err)
{
	int ret = ioctl_leaders(s, PERF_EVENT_IOC_ENABLE);

	return ret ? err_set(err, -ret, "cannot enable the counters: %s", strerror(-ret)) : 0;
}

void record_session_disable(struct record_session *s)
{
	ioctl_leaders(s, PERF_EVENT_IOC_DISABLE);
}
