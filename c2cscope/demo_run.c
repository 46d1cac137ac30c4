// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope demo's helpers: run the other commands as a user would (so the
 * demo shows real output), and read the little it needs from that output.
 */
#include "config.h"
#include "demo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/*
 * The declared name of a member line "\tTYPE NAME [attrs]; /x OFF SIZE x/";
 * depth is the number of tabs the line must start with.
 */
static bool member_line_is(const char *line, size_t len, const char *member, size_t depth)
{
	const char *semi = memchr(line, ';', len), *end;
	const char *attr;
	size_t mlen = strlen(member);

	if (!semi || strspn(line, "\t") != depth || line[depth] == '/')
		return false;
	attr = memmem(line, (size_t)(semi - line), " __attribute__", 14);
	end = attr ? attr : semi;
	while (end > line && end[-1] == ' ')
		end--;
	if ((size_t)(end - line) < mlen + 1 || memcmp(end - mlen, member, mlen))
		return false;
	return !(isalnum((unsigned char)end[-(long)mlen - 1]) || end[-(long)mlen - 1] == '_');
}

/* "\tstruct {" or "\tunion {": a top-level anonymous member opens. */
static bool opens_anonymous(const char *line, size_t len)
{
	return (len == 9 && !memcmp(line, "\tstruct {", 9)) ||
	       (len == 8 && !memcmp(line, "\tunion {", 8));
}

/*
 * The offset of a top-level member, or of a member of a top-level anonymous
 * struct or union (struct { atomic_long_t load_avg; } ____cacheline_aligned),
 * which C names as if it were the outer struct's own.
 */
long demo_layout_offset(const char *text, const char *member)
{
	const char *p = text;
	bool anonymous = false;

	while (*p) {
		const char *eol = strchrnul(p, '\n');
		size_t len = (size_t)(eol - p);
		const char *c = memmem(p, len, "/*", 2);
		unsigned long off;

		if (opens_anonymous(p, len))
			anonymous = true;
		else if (len > 1 && p[0] == '\t' && p[1] == '}')
			anonymous = false;
		else if (c && member_line_is(p, len, member, anonymous ? 2 : 1) &&
			 sscanf(c, "/* %lu", &off) == 1)
			return (long)off;
		p = *eol ? eol + 1 : eol;
	}
	return -1;
}

unsigned int demo_layout_size(const char *text)
{
	const char *s = strstr(text, "/* size: ");
	unsigned int size;

	return s && sscanf(s, "/* size: %u", &size) == 1 ? size : 0;
}

void demo_describe_layout(struct strbuf *sb, const char *text)
{
	static const char *const members[] = { "load_avg", "rt_se", "rt_rq", "parent" };
	size_t i;

	strbuf_addf(sb, "%u bytes;", demo_layout_size(text));
	for (i = 0; i < ARRAY_SIZE(members); i++)
		strbuf_addf(sb, " %s @%ld", members[i], demo_layout_offset(text, members[i]));
}
