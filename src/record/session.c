// SPDX-License-Identifier: GPL-2.0
/*
 * A recording: targets, counters, rings and the output, in that order, so
 * that a refusal (privileges, no PMU, no such task) leaves no file behind.
 * Then the metadata of existing tasks, the counters armed (or the command
 * let go to exec, which arms them), and the rings drained on poll until the
 * command exits or the caller's stop flag is raised.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/session_int.h"
#include "util/progress.h"
#include "util/xalloc.h"

#define DEFAULT_MMAP_PAGES 128

static struct record_session *session_new(const struct record_evlist *l,
					  const struct record_opts *o)
{
	struct record_session *s = xcalloc(1, sizeof(*s));
	size_t i;

	s->nr_events = l->nr;
	s->events = xcalloc(l->nr, sizeof(*s->events));
	for (i = 0; i < l->nr; i++) {
		s->events[i] = l->ev[i];
		s->events[i].name = xstrdup(l->ev[i].name);
		s->events[i].pmu = xstrdup(l->ev[i].pmu);
	}
	s->path = xstrdup(o->path);
	s->cmdline = o->cmdline;
	s->mmap_pages = o->mmap_pages ? o->mmap_pages : DEFAULT_MMAP_PAGES;
	s->progress = o->progress;
	s->go_fd = s->exec_err_fd = -1;
	hashmap_init(&s->keep_pids);
	hashmap_init(&s->ids);
	hashmap_init(&s->dsos);
	strbuf_init(&s->tracing_data, 0);
	return s;
}

static void session_free(struct record_session *s)
{
	size_t i;

	record_session_unmap_rings(s);
	record_session_close_counters(s);
	if (s->go_fd >= 0)
		close(s->go_fd);
	if (s->exec_err_fd >= 0)
		close(s->exec_err_fd);
	hashmap_free_values(&s->dsos, NULL);
	hashmap_release(&s->keep_pids);
	hashmap_release(&s->ids);
	for (i = 0; i < s->nr_events; i++)
		record_event_release(&s->events[i]);
	free(s->events);
	free(s->counters);
	free(s->rings);
	free(s->cpus);
	free(s->tasks);
	strbuf_release(&s->tracing_data);
	free(s->path);
	free(s);
}

static int open_writer(struct record_session *s, struct err_msg *err)
{
	struct perf_writer_event *wev = xcalloc(s->nr_events, sizeof(*wev));
	size_t i;
	int ret;

	for (i = 0; i < s->nr_events; i++) {
		const struct perf_event_attr *a = &s->events[i].attr;

		wev[i] = (struct perf_writer_event){
			.type = a->type,
			.config = a->config,
			.config1 = a->config1,
			.config2 = a->config2,
			.sample_type = a->sample_type & ~(uint64_t)PERF_SAMPLE_IDENTIFIER,
			.sample_period = a->sample_period,
			.precise_ip = a->precise_ip > 0,
			.precise_level = (uint8_t)a->precise_ip,
			.freq = a->freq,
			.name = s->events[i].name,
		};
	}
	ret = perf_writer_open(s->path, wev, s->nr_events, &s->w, err);
	free(wev);
	return ret;
}

int record_session_open(const struct record_evlist *l, const struct record_opts *o,
			struct record_session **out, struct err_msg *err)
{
	struct record_session *s;
	size_t i;
	int ret;

	if (!l->nr)
		return err_set(err, EINVAL, "no events to record");
	for (i = 0; i < l->nr; i++)
		if (l->ev[i].flags & RECORD_EV_AUX)
			return err_set(err, EOPNOTSUPP,
				       "%s: Arm SPE delivers its samples in an AUX area, which "
				       "this recorder does not decode yet; use perf c2c record "
				       "(c2cscope report reads its file)",
				       l->ev[i].name);
	s = session_new(l, o);
	ret = 0;
	for (i = 0; i < l->nr && !ret; i++)
		if (l->ev[i].flags & RECORD_EV_TRACEPOINT)
			ret = record_tracing_data_build(l->ev, l->nr, &s->tracing_data, err);
	if (!ret)
		ret = record_session_targets(s, o, err);
	if (!ret)
		ret = record_session_open_counters(s, err);
	if (!ret && !s->nr_rings)
		ret = err_set(err, ESRCH, "nothing to follow: no task or cpu to open counters on");
	if (!ret)
		ret = record_session_map_rings(s, err);
	if (!ret)
		ret = open_writer(s, err);
	if (!ret)
		ret = record_session_synthesize(s, err);
	if (ret) {
		record_session_abort(s);
		return ret;
	}
	*out = s;
	return 0;
}

static bool child_done(struct record_session *s)
{
	int status;

	if (s->child <= 0)
		return false;
	if (s->st.child_exited)
		return true;
	if (waitpid(s->child, &status, WNOHANG) != s->child)
		return false;
	s->st.child_exited = true;
	s->st.wait_status = status;
	return true;
}

/* 0, 1 when every ring's task is gone (-p, -t: nothing more will come), or -errno. */
static int poll_rings(struct record_session *s, struct pollfd *pfd)
{
	size_t i, hup = 0;

	for (i = 0; i < s->nr_rings; i++)
		pfd[i] = (struct pollfd){ .fd = s->rings[i].fd, .events = POLLIN };
	if (poll(pfd, s->nr_rings, 100) < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < s->nr_rings; i++)
		hup += !!(pfd[i].revents & POLLHUP);
	return s->per_task && s->child <= 0 && hup == s->nr_rings;
}

int record_session_run(struct record_session *s, volatile sig_atomic_t *stop, struct err_msg *err)
{
	struct pollfd *pfd = xcalloc(s->nr_rings, sizeof(*pfd));
	ssize_t n = 0;
	int ret = 0;

	if (!s->per_task || s->child <= 0)
		ret = record_session_enable(s, err);
	if (!ret && s->child > 0)
		ret = record_session_start_child(s, err); /* per task: enable_on_exec arms them */
	while (!ret && !*stop && !child_done(s)) {
		int gone = poll_rings(s, pfd);

		if (gone < 0)
			ret = err_set(err, -gone, "poll: %s", strerror(-gone));
		else if ((n = record_session_drain(s, err)) < 0)
			ret = (int)n;
		else if (gone)
			break;
		progress_update(s->progress, s->st.samples);
	}
	record_session_disable(s);
	if (!ret && (n = record_session_drain(s, err)) < 0)
		ret = (int)n;
	free(pfd);
	/* the output filled up: stop here, close cuts the file back (perf_writer_finish) */
	if (ret == -EFBIG || ret == -ENOSPC || ret == -EDQUOT)
		ret = 0;
	return ret;
}

int record_session_close(struct record_session *s, struct record_stats *st, struct err_msg *err)
{
	struct perf_writer_info info = { .cmdline = s->cmdline,
					 .tracing_data = s->tracing_data.buf,
					 .tracing_data_size = s->tracing_data.len };
	struct perf_writer_result res;
	struct host_topology topo;
	int ret;

	record_session_kill_child(s);
	record_session_write_build_ids(s);
	record_host_topology_load(&topo);
	info.numa_nodes = topo.nodes;
	info.nr_numa_nodes = topo.nr_nodes;
	info.cpu_topology = topo.cpu_topology.buf;
	info.cpu_topology_size = topo.cpu_topology.len;
	ret = perf_writer_finish(s->w, &info, &res, err);
	record_host_topology_release(&topo);
	s->w = NULL;
	s->st.cut = res.cut;
	s->st.kept_samples = res.samples;
	if (ret && !res.cut) /* a cut file is readable: keep it */
		unlink(s->path);
	if (st)
		*st = s->st;
	session_free(s);
	return ret;
}

void record_session_abort(struct record_session *s)
{
	record_session_kill_child(s);
	if (s->w) {
		perf_writer_abort(s->w);
		unlink(s->path);
	}
	session_free(s);
}
