// SPDX-License-Identifier: GPL-2.0
#include "util/progress.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct progress {
	char *title;
	uint64_t total;
	uint64_t done;
	uint64_t next_check; /* do not look at the clock before this many units */
	double last_draw;
	int drawn;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int progress_enabled(void)
{
	const char *env = getenv("C2CSCOPE_PROGRESS");

	if (env && !strcmp(env, "0"))
		return 0;
	if (env && !strcmp(env, "1"))
		return 1;
	return isatty(STDERR_FILENO);
}

struct progress *progress_new(const char *title, uint64_t total)
{
	struct progress *p;

	if (!progress_enabled())
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->title = xstrdup(title);
	p->total = total;
	p->last_draw = now();
	return p;
}

static void draw(struct progress *p)
{
	if (p->total)
		fprintf(stderr, "\r%s: %3u%%", p->title,
			(unsigned)(p->done * 100 / (p->total ? p->total : 1)));
	else
		fprintf(stderr, "\r%s: %llu", p->title, (unsigned long long)p->done);
	fflush(stderr);
	p->drawn = 1;
}

void progress_update(struct progress *p, uint64_t done)
{
	double t;

	if (!p)
		return;
	p->done = done;
	if (done < p->next_check)
		return;
	/* Look at the clock about every 1/1000 of the work (or 4096 units). */
	p->next_check = done + (p->total ? p->total / 1000 + 1 : 4096);
	t = now();
	if (t - p->last_draw < 0.1)
		return;
	p->last_draw = t;
	draw(p);
}

void progress_free(struct progress *p)
{
	if (!p)
		return;
	if (p->drawn)
		fprintf(stderr, "\r%*s\r", (int)strlen(p->title) + 24, "");
	free(p->title);
	free(p);
}
