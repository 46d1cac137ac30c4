// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope demo's helpers: run the other commands as a user would (so the
 * demo shows real output), and read the little it needs from that output.
 */
#include "config.h"
#include "demo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "types/types.h"
#include "util/xalloc.h"

const char *const demo_builds[3] = { "upstream", "reordered", "aligned" };
const char *const demo_runs[4] = { "upstream", "reordered", "aligned", "ratelimited" };
const char *const demo_fn_names[DEMO_NR_FNS] = { "set_task_cpu", "update_cfs_group" };

double demo_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void demo_step(struct demo *d, const char *title)
{
	d->step++;
	printf("\n[%d/%d] %s  (%.0f s)\n", d->step, d->nr_steps, title, demo_now() - d->started);
	fflush(stdout);
}

void demo_skip(const char *fmt, ...)
{
	va_list ap;

	fputs("    skipped: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

static void child_exec(int out_fd, const char *const argv[])
{
	int null_fd = open("/dev/null", O_RDONLY);

	if (null_fd >= 0)
		dup2(null_fd, STDIN_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	dup2(out_fd, STDERR_FILENO);
	execvp(argv[0], (char *const *)argv);
	fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Copy the child's output to the log (and indented to stdout) as it comes. */
static void pump_output(int fd, FILE *log, bool echo)
{
	FILE *in = fdopen(fd, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!in) {
		close(fd);
		return;
	}
	while (getline(&line, &cap, in) > 0) {
		if (log)
			fputs(line, log);
		if (echo) {
			printf("    %s", line);
			fflush(stdout);
		}
	}
	free(line);
	fclose(in);
}

int demo_run(const char *log, bool echo, const char *const argv[])
{
	FILE *logf = fopen(log, "w");
	int fds[2], status;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds)) {
		if (logf)
			fclose(logf);
		return 127;
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child_exec(fds[1], argv);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		if (logf)
			fclose(logf);
		return 127;
	}
	pump_output(fds[0], logf, echo);
	if (logf)
		fclose(logf);
	if (waitpid(pid, &status, 0) < 0)
		return 127;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int demo_c2c(struct demo *d, const char *log, bool echo, const char *const args[])
{
	const char *argv[24];
	size_t i;

	argv[0] = d->self;
	for (i = 0; args[i] && i + 2 < ARRAY_SIZE(argv); i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	return demo_run(log, echo, argv);
}

bool demo_have(struct demo *d, const char *command)
{
	const char *args[] = { command, "--help", NULL };

	return demo_c2c(d, "/dev/null", false, args) == 0;
}

int demo_slurp(const char *path, struct strbuf *sb)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	size_t n;

	strbuf_reset(sb);
	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, n);
	fclose(f);
	return 0;
}

int demo_print_matching(const char *text, const char *needle, int max)
{
	const char *p = text;
	int shown = 0;

	while (*p && shown < max) {
		const char *eol = strchrnul(p, '\n');

		if (memmem(p, (size_t)(eol - p), needle, strlen(needle))) {
			printf("    %.*s\n", (int)(eol - p), p);
			shown++;
		}
		p = *eol ? eol + 1 : eol;
	}
	return shown;
}

void demo_print_each(const char *text, const struct demo_match *matches)
{
	for (; matches->needle; matches++)
		demo_print_matching(text, matches->needle, matches->max);
}

int demo_describe_task_group(struct strbuf *sb, const char *file, unsigned int *size,
			     long *load_avg)
{
	static const char *const members[] = { "load_avg", "rt_se", "rt_rq", "parent" };
	static const char *const only[] = { "task_group", NULL };
	const struct type_load_opts opts = { .only = only };
	struct type_db *db = NULL;
	const struct type *t;
	struct err_msg err;
	size_t i;
	int ret = file ? type_db_load(file, &opts, &db, &err) :
			 type_db_load_kernel(&opts, &db, &err);

	t = ret ? NULL : type_db_find_aggregate(db, "task_group");
	if (t) {
		strbuf_addf(sb, "%llu bytes;", (unsigned long long)type_size(t));
		for (i = 0; i < ARRAY_SIZE(members); i++) {
			struct type_path p;
			long off = type_member_path(t, members[i], &p) ? -1 : (long)p.start;

			strbuf_addf(sb, " %s @%ld", members[i], off);
			if (!i && load_avg)
				*load_avg = off;
		}
		if (size)
			*size = (unsigned int)type_size(t);
	}
	type_db_free(db);
	return t ? 0 : -1;
}
