// SPDX-License-Identifier: GPL-2.0
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/sim_run.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SIM_READ_SIZE (1 << 20)
#define SIM_PIPE_SIZE (1 << 20)

static volatile sig_atomic_t child_pid;
static const int passed_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void pass_signal(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

static void set_handlers(struct sigaction *old)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = pass_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(passed_signals); i++)
		sigaction(passed_signals[i], &sa, &old[i]);
}

static void restore_handlers(const struct sigaction *old)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(passed_signals); i++)
		sigaction(passed_signals[i], &old[i], NULL);
}

/* In the child: exec Valgrind; on failure report errno through errfd. */
static void exec_tool(const struct sim_run_opts *o, const char *fifo, int errfd)
{
	size_t n = 0, i;
	char **args;
	struct strbuf out = STRBUF_INIT;
	struct rlimit nocore = { 0, 0 };
	int e;

	for (i = 0; o->tool_args[i]; i++)
		n++;
	for (i = 0; o->argv[i]; i++)
		n++;
	args = xcalloc(n + 6, sizeof(*args));
	n = 0;
	args[n++] = (char *)(o->valgrind ? o->valgrind : "valgrind");
	args[n++] = "--tool=c2csim";
	args[n++] = "-q";
	strbuf_addf(&out, "--sim-out=%s", fifo);
	args[n++] = out.buf;
	for (i = 0; o->tool_args[i]; i++)
		args[n++] = (char *)o->tool_args[i];
	args[n++] = "--";
	for (i = 0; o->argv[i]; i++)
		args[n++] = o->argv[i];
	setenv("VALGRIND_LIB", o->lib_dir, 1);
	setrlimit(RLIMIT_CORE, &nocore); /* no vgcore.PID files when it crashes */
	for (i = 0; i < ARRAY_SIZE(passed_signals); i++)
		signal(passed_signals[i], SIG_DFL);
	execvp(args[0], args);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void feed(struct sim_record *rec, struct sim_run_result *res, const char *buf, size_t n)
{
	if (!res->convert_error)
		res->convert_error = sim_record_feed(rec, buf, n, &res->convert_err);
}

enum { PUMP_NONE, PUMP_DATA, PUMP_EOF };

/* Reads what is there: PUMP_NONE or PUMP_DATA at EAGAIN, PUMP_EOF, -errno. */
static int pump(int fd, struct sim_record *rec, struct sim_run_result *res)
{
	static uint64_t buf[SIM_READ_SIZE / 8]; /* u64s: records stay aligned */
	int got = PUMP_NONE;

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n > 0) {
			feed(rec, res, (const char *)buf, (size_t)n);
			got = PUMP_DATA;
			continue;
		}
		if (n == 0)
			return PUMP_EOF;
		if (errno == EAGAIN || errno == EINTR)
			return got;
		return -errno;
	}
}

/* The tool closed the stream: it is exiting; wait for it without a timeout. */
static int reap(pid_t pid, struct sim_run_result *res)
{
	while (waitpid(pid, &res->wait_status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/*
 * Our own writer end (*wfd) keeps the stream from reading as ended before
 * the tool opens it; once the tool's data flows it is closed, so the end
 * of the stream tells at once that the tool is exiting.
 */
static int wait_and_pump(pid_t pid, int fd, int *wfd, struct sim_record *rec,
			 struct sim_run_result *res)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int ret;

	for (;;) {
		pid_t w;

		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			return -errno;
		ret = pump(fd, rec, res);
		if (ret < 0)
			return ret;
		if (ret == PUMP_DATA && *wfd >= 0) {
			close(*wfd);
			*wfd = -1;
		}
		if (ret == PUMP_EOF)
			return reap(pid, res);
		w = waitpid(pid, &res->wait_status, WNOHANG);
		if (w == pid) { /* what the tool wrote last */
			ret = pump(fd, rec, res);
			return ret < 0 ? ret : 0;
		}
		if (w < 0 && errno != EINTR)
			return -errno;
	}
}

static int make_fifo(struct strbuf *dir, struct strbuf *fifo, struct err_msg *err)
{
	const char *tmp = getenv("TMPDIR");

	strbuf_addf(dir, "%s/c2csim.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir->buf))
		return err_set(err, errno, "%s: cannot create: %s", dir->buf, strerror(errno));
	strbuf_addf(fifo, "%s/stream", dir->buf);
	if (mkfifo(fifo->buf, 0600) < 0) {
		int e = errno;

		rmdir(dir->buf);
		return err_set(err, e, "%s: cannot create fifo: %s", fifo->buf, strerror(e));
	}
	return 0;
}

static int spawn(const struct sim_run_opts *o, const char *fifo, pid_t *pid, bool *exec_failed,
		 struct err_msg *err)
{
	int ep[2], e = 0;
	ssize_t n;

	if (pipe2(ep, O_CLOEXEC) < 0)
		return err_set(err, errno, "pipe: %s", strerror(errno));
	*pid = fork();
	if (*pid < 0) {
		e = errno;
		close(ep[0]);
		close(ep[1]);
		return err_set(err, e, "fork: %s", strerror(e));
	}
	if (*pid == 0) {
		close(ep[0]);
		exec_tool(o, fifo, ep[1]);
	}
	close(ep[1]);
	n = read(ep[0], &e, sizeof(e));
	close(ep[0]);
	if (n == sizeof(e)) {
		*exec_failed = true;
		waitpid(*pid, NULL, 0);
		return err_set(err, e, "%s: cannot run: %s", o->valgrind ? o->valgrind : "valgrind",
			       strerror(e));
	}
	return 0;
}

int sim_run(const struct sim_run_opts *opts, const struct sim_record_opts *ro,
	    struct sim_record **rec, struct sim_run_result *res, struct err_msg *err)
{
	struct strbuf dir = STRBUF_INIT, fifo = STRBUF_INIT;
	struct sigaction old[ARRAY_SIZE(passed_signals)];
	int rfd = -1, wfd = -1, ret;
	pid_t pid = 0;

	memset(res, 0, sizeof(*res));
	*rec = NULL;
	ret = make_fifo(&dir, &fifo, err);
	if (ret < 0)
		goto out;
	/* Our own writer end keeps reads from seeing EOF before the tool opens it. */
	rfd = open(fifo.buf, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	wfd = rfd < 0 ? -1 : open(fifo.buf, O_WRONLY | O_CLOEXEC);
	if (rfd < 0 || wfd < 0) {
		ret = err_set(err, errno, "%s: cannot open: %s", fifo.buf, strerror(errno));
		goto out_fifo;
	}
	/* a larger pipe: fewer wake-ups of the tool and of us (best effort) */
	fcntl(rfd, F_SETPIPE_SZ, SIM_PIPE_SIZE);
	set_handlers(old);
	ret = spawn(opts, fifo.buf, &pid, &res->exec_failed, err);
	if (ret == 0) {
		ret = sim_record_open(ro, rec, err);
		if (ret < 0) { /* Valgrind is still starting: the program has not run */
			kill(pid, SIGKILL);
			waitpid(pid, &res->wait_status, 0);
		}
	}
	if (ret == 0) {
		child_pid = pid;
		ret = wait_and_pump(pid, rfd, &wfd, *rec, res);
		child_pid = 0;
		if (ret < 0)
			err_set(err, -ret, "%s: reading the stream: %s", fifo.buf, strerror(-ret));
	}
	restore_handlers(old);
out_fifo:
	if (rfd >= 0)
		close(rfd);
	if (wfd >= 0)
		close(wfd);
	unlink(fifo.buf);
	rmdir(dir.buf);
out:
	strbuf_release(&dir);
	strbuf_release(&fifo);
	return ret;
}
