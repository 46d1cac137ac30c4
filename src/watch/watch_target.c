// SPDX-License-Identifier: GPL-2.0
/*
 * The watched process: started by us and held at its exec by ptrace until
 * the breakpoints are armed (a PIE's addresses are known only once it is
 * mapped), or attached by pid. Its mappings come from /proc/PID/maps at
 * arming time and from MMAP2 records afterwards.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/record.h"
#include "util/xalloc.h"
#include "watch/watch_int.h"

void watch_add_map(struct watch *w, const struct perf_mmap *m)
{
	struct perf_mmap *dst;

	w->maps = xgrow(w->maps, &w->alloc_maps, w->nr_maps + 1, sizeof(*w->maps));
	dst = &w->maps[w->nr_maps++];
	*dst = *m;
	dst->filename = strpool_intern(&w->strings, m->filename ? m->filename : "");
	dst->is_mmap2 = true;
	addr_spaces_mmap(w->as, dst);
}

void watch_add_comm(struct watch *w, uint32_t pid, uint32_t tid, const char *comm)
{
	struct perf_comm *c;

	w->comms = xgrow(w->comms, &w->alloc_comms, w->nr_comms + 1, sizeof(*w->comms));
	c = &w->comms[w->nr_comms++];
	*c = (struct perf_comm){ .pid = pid,
				 .tid = tid,
				 .comm = strpool_intern(&w->strings, comm) };
	addr_spaces_comm(w->as, tid, c->comm);
}

/* Every map of the process, data maps too: perf c2c rejects data addresses outside them. */
static void add_map_line(struct watch *w, char *line)
{
	struct perf_mmap m = { .pid = w->pid, .tid = w->pid, .cpumode = AS_CPUMODE_USER };

	if (record_maps_line(line, &m))
		watch_add_map(w, &m);
}

/* The load bias of the executable: from its mapping at file offset 0 (1: not this line). */
static int exe_bias(struct watch *w, const char *line, struct err_msg *err)
{
	char copy[PATH_MAX + 128];
	struct perf_mmap m = { 0 };

	snprintf(copy, sizeof(copy), "%s", line);
	if (!record_maps_line(copy, &m) || strcmp(m.filename, w->exe) || m.pgoff)
		return 1;
	if (attrib_load_bias(w->attrib, m.start, m.pgoff, &w->bias))
		return err_set(err, ENOEXEC, "%s: no load segment maps file offset 0", w->exe);
	return 0;
}

/* The process's name, as perf record synthesizes it for a running task. */
static void target_comm(struct watch *w)
{
	char path[64], comm[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/comm", w->pid);
	fp = fopen(path, "r");
	if (!fp)
		return;
	if (fgets(comm, sizeof(comm), fp)) {
		comm[strcspn(comm, "\n")] = '\0';
		watch_add_comm(w, w->pid, w->pid, comm);
	}
	fclose(fp);
}

int watch_target_maps(struct watch *w, struct err_msg *err)
{
	char path[64], line[PATH_MAX + 128];
	bool have_bias = false;
	FILE *fp;

	target_comm(w);
	snprintf(path, sizeof(path), "/proc/%d/maps", w->pid);
	fp = fopen(path, "r");
	if (!fp)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		if (w->attrib && !have_bias) {
			int r = exe_bias(w, line, err);

			if (r < 0) {
				fclose(fp);
				return r;
			}
			have_bias = r == 0;
		}
		add_map_line(w, line);
	}
	fclose(fp);
	if (w->attrib && !have_bias)
		return err_set(err, ENOENT, "%s: %s is not mapped in process %d", path, w->exe,
			       w->pid);
	return 0;
}

static void child_exec(const char *const *argv, int fd)
{
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		_exit(126);
	execvp(argv[0], (char *const *)argv);
	if (write(fd, &errno, sizeof(errno)) < 0)
		_exit(127);
	_exit(127);
}

/* Fork, exec under ptrace and wait for the stop at exec. */
int watch_target_start(struct watch *w, struct err_msg *err)
{
	int pfd[2], status, child_errno = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return err_set(err, errno, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return err_set(err, errno, "fork: %s", strerror(errno));
	if (!pid) {
		close(pfd[0]);
		child_exec(w->opts.argv, pfd[1]);
	}
	close(pfd[1]);
	if (read(pfd[0], &child_errno, sizeof(child_errno)) != sizeof(child_errno))
		child_errno = 0;
	close(pfd[0]);
	w->pid = pid;
	w->started = true;
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		w->started = false;
		if (child_errno)
			return err_set(err, child_errno, "%s: %s", w->opts.argv[0],
				       strerror(child_errno));
		return err_set(err, ECHILD, "%s: did not start", w->opts.argv[0]);
	}
	w->stopped = true;
	return 0;
}

#ifdef __x86_64__
static int auxv_entry(pid_t pid, uint64_t *entry)
{
	char path[64];
	uint64_t av[2];
	FILE *fp;
	int ret = -ENOENT;

	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	while (ret && fread(av, sizeof(av), 1, fp) == 1 && av[0] != AT_NULL)
		if (av[0] == AT_ENTRY) {
			*entry = av[1];
			ret = 0;
		}
	fclose(fp);
	return ret;
}

/* An int3 at the entry point, run there, put the instruction back. */
static int run_to(struct watch *w, uint64_t entry, struct err_msg *err)
{
	struct user_regs_struct regs;
	int status;
	long orig;

	errno = 0;
	orig = ptrace(PTRACE_PEEKTEXT, w->pid, entry, NULL);
	if (errno || ptrace(PTRACE_POKETEXT, w->pid, entry, (orig & ~0xffL) | 0xcc) < 0)
		return err_set(err, errno, "process %d: ptrace at its entry point: %s", w->pid,
			       strerror(errno));
	if (ptrace(PTRACE_CONT, w->pid, NULL, NULL) < 0 || waitpid(w->pid, &status, 0) != w->pid ||
	    !WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP)
		return err_set(err, ECHILD, "process %d did not reach its entry point", w->pid);
	if (ptrace(PTRACE_GETREGS, w->pid, NULL, &regs) < 0)
		return err_set(err, errno, "PTRACE_GETREGS: %s", strerror(errno));
	regs.rip = entry;
	if (ptrace(PTRACE_SETREGS, w->pid, NULL, &regs) < 0 ||
	    ptrace(PTRACE_POKETEXT, w->pid, entry, orig) < 0)
		return err_set(err, errno, "process %d: ptrace: %s", w->pid, strerror(errno));
	return 0;
}
#endif

/*
 * A started target held at exec has only itself and the dynamic loader
 * mapped. For a library's variable, run it to its entry point (the
 * loader has mapped the libraries then) and read the mappings again.
 * Accesses before the entry point (the libraries' constructors) are not
 * seen then.
 */
int watch_target_to_entry(struct watch *w, struct err_msg *err)
{
#ifdef __x86_64__
	uint64_t entry = 0;
	int ret;

	if (!w->stopped || w->at_entry)
		return 0;
	ret = auxv_entry(w->pid, &entry);
	if (ret)
		return err_set(err, -ret, "process %d: no entry point in its auxv", w->pid);
	ret = run_to(w, entry, err);
	if (ret)
		return ret;
	w->at_entry = true;
	w->nr_maps = 0;
	w->nr_comms = 0;
	return watch_target_maps(w, err);
#else
	(void)err;
	return w->stopped ? -ENOTSUP : 0;
#endif
}

void watch_target_release(struct watch *w)
{
	if (w->stopped)
		ptrace(PTRACE_DETACH, w->pid, NULL, NULL);
	w->stopped = false;
}

/* A process that exited but is not reaped yet (its parent is not us). */
static bool is_zombie(pid_t pid)
{
	char path[64], buf[512];
	const char *paren;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fp = fopen(path, "r");
	if (!fp)
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	paren = strrchr(buf, ')');
	return paren && (paren[2] == 'Z' || paren[2] == 'X');
}

bool watch_target_alive(struct watch *w)
{
	int status;

	if (w->opts.kernel)
		return true;
	if (w->started) {
		pid_t r = waitpid(w->pid, &status, WNOHANG);

		if (r == w->pid && (WIFEXITED(status) || WIFSIGNALED(status))) {
			w->started = false;
			w->sum.exited = true;
			w->sum.exit_status = status;
			return false;
		}
		return r == 0 || r == w->pid;
	}
	if ((kill(w->pid, 0) < 0 && errno == ESRCH) || is_zombie(w->pid)) {
		w->sum.exited = true;
		return false;
	}
	return true;
}
