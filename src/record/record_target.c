// SPDX-License-Identifier: GPL-2.0
/*
 * What to follow: cpus (-a, -C), processes (-p, with all their threads),
 * threads (-t) or a command started once its counters are armed. Events
 * that count per cpu only (AMD IBS) follow a task by recording on every
 * cpu and keeping the task's samples.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/session_int.h"
#include "util/intlist.h"
#include "util/xalloc.h"

static void add_int(int **v, size_t *nr, size_t *alloc, int x)
{
	*v = xgrow(*v, alloc, *nr + 1, sizeof(**v));
	(*v)[(*nr)++] = x;
}

static int online_cpus(struct record_session *s, struct err_msg *err)
{
	return cpu_list_read(CPU_LIST_ONLINE, sysconf(_SC_NPROCESSORS_ONLN), &s->cpus, &s->nr_cpus,
			     err);
}

/* Every thread of each process in pids. */
static int threads_of(struct record_session *s, const int *pids, size_t nr, struct err_msg *err)
{
	size_t i, alloc = 0;

	for (i = 0; i < nr; i++) {
		char dir[64];
		struct dirent *d;
		DIR *td;

		snprintf(dir, sizeof(dir), "/proc/%d/task", pids[i]);
		td = opendir(dir);
		if (!td)
			return err_set(err, ESRCH, "-p %d: no such process", pids[i]);
		while ((d = readdir(td)))
			if (d->d_name[0] != '.')
				add_int(&s->tasks, &s->nr_tasks, &alloc, atoi(d->d_name));
		closedir(td);
	}
	return 0;
}

static bool any_cpu_wide(const struct record_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_events; i++)
		if (s->events[i].flags & RECORD_EV_CPU_WIDE)
			return true;
	return false;
}

static const char *first_cpu_wide(const struct record_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_events; i++)
		if (s->events[i].flags & RECORD_EV_CPU_WIDE)
			return s->events[i].name;
	return "";
}

/* Per-cpu-only events: record everywhere, keep the samples of these pids. */
static int follow_by_filter(struct record_session *s, const int *pids, size_t nr,
			    struct err_msg *err)
{
	size_t i;

	s->filter = true;
	for (i = 0; i < nr; i++)
		hashmap_put(&s->keep_pids, (uint64_t)pids[i], (void *)1);
	free(s->tasks);
	s->tasks = xcalloc(1, sizeof(*s->tasks));
	s->tasks[0] = -1; /* every task, on every cpu */
	s->nr_tasks = 1;
	s->per_task = false;
	s->st.note = "IBS counts per cpu only: recording system-wide and keeping the target's "
		     "samples";
	return online_cpus(s, err);
}

static int task_targets(struct record_session *s, const struct record_opts *o, struct err_msg *err)
{
	int *ids = NULL;
	size_t nr = 0;
	int ret = 0;

	s->per_task = true;
	s->inherit = true;
	if (o->target.argv) {
		ret = record_session_fork_child(s, o->target.argv, err);
		if (!ret)
			add_int(&ids, &nr, &(size_t){ 0 }, s->child);
	} else if (o->target.pids) {
		ret = int_list_parse(o->target.pids, "-p", &ids, &nr, err);
	} else {
		ret = int_list_parse(o->target.tids, "-t", &ids, &nr, err);
	}
	if (!ret && any_cpu_wide(s) && o->target.tids) {
		ret = err_set(err, EINVAL,
			      "-t: %s counts per cpu only and cannot follow one thread; use -p "
			      "with its process (its samples are kept) or -a",
			      first_cpu_wide(s));
	} else if (!ret && any_cpu_wide(s)) {
		ret = follow_by_filter(s, ids, nr, err);
	} else if (!ret && o->target.pids) {
		ret = threads_of(s, ids, nr, err);
	} else if (!ret) {
		s->tasks = ids;
		s->nr_tasks = nr;
		ids = NULL;
	}
	free(ids);
	/*
	 * A task's counters go on every cpu: the kernel maps no ring of an
	 * inherited counter that follows a task across cpus (cpu -1).
	 */
	if (!ret && s->per_task)
		ret = online_cpus(s, err);
	return ret;
}

int record_session_targets(struct record_session *s, const struct record_opts *o,
			   struct err_msg *err)
{
	const struct record_target *t = &o->target;
	int ret;

	if (t->system_wide || t->cpus || (!t->argv && !t->pids && !t->tids)) {
		/* with -- CMD too: every task on these cpus while CMD runs */
		ret = t->cpus ? int_list_parse(t->cpus, "-C", &s->cpus, &s->nr_cpus, err) :
				online_cpus(s, err);
		if (!ret && t->argv)
			ret = record_session_fork_child(s, t->argv, err);
		if (ret)
			return ret;
		s->tasks = xcalloc(1, sizeof(*s->tasks));
		s->tasks[0] = -1;
		s->nr_tasks = 1;
		return 0;
	}
	return task_targets(s, o, err);
}

int record_session_fork_child(struct record_session *s, char *const *argv, struct err_msg *err)
{
	int go[2], ex[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0)
		return err_set(err, errno, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return err_set(err, errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		ssize_t n;
		char c;
		int e;

		close(go[1]);
		close(ex[0]);
		while ((n = read(go[0], &c, 1)) < 0 && errno == EINTR)
			; /* a Ctrl-C meant for the recorder */
		if (n != 1)
			_exit(127); /* the recorder gave up before starting us */
		execvp(argv[0], argv);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	s->child = pid;
	s->child_name = argv[0];
	s->go_fd = go[1];
	s->exec_err_fd = ex[0];
	return 0;
}

int record_session_start_child(struct record_session *s, struct err_msg *err)
{
	char c = 1;
	int e = 0;
	ssize_t n;

	if (write(s->go_fd, &c, 1) != 1)
		return err_set(err, errno, "cannot start the command: %s", strerror(errno));
	close(s->go_fd);
	s->go_fd = -1;
	s->st.child_started = true;
	n = read(s->exec_err_fd, &e, sizeof(e));
	close(s->exec_err_fd);
	s->exec_err_fd = -1;
	if (n == sizeof(e))
		return err_set(err, e, "%s: cannot run: %s", s->child_name, strerror(e));
	return 0;
}

void record_session_kill_child(struct record_session *s)
{
	int status;

	if (s->child <= 0 || s->st.child_exited)
		return;
	if (s->go_fd >= 0)
		close(s->go_fd); /* the held child reads EOF and exits */
	s->go_fd = -1;
	if (s->st.child_started)
		kill(s->child, SIGTERM);
	waitpid(s->child, &status, 0);
	s->st.child_exited = true;
	s->st.wait_status = status;
}
