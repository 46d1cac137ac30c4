// SPDX-License-Identifier: GPL-2.0
/*
 * c2cscope demo, the watch step: hardware breakpoints on task_group's
 * load_avg, rt_se and rt_rq in the upstream and the reordered build, and
 * the MESI replay's transfers: rt_se's and rt_rq's reads land between
 * load_avg's writes upstream, and no longer share its line once reordered.
 */
#include "config.h"
#include "demo.h"

#include <stdio.h>

/* Few wakeups per cpu: every hit costs a debug exception (about 9 us). */
#define WATCH_ITERATIONS 5000

/* What watch's output says about the watched fields. */
static const struct demo_match watched[] = {
	{ " bytes at ", 3 },	{ "  hits ", 3 }, { "found the line dirty", 4 },
	{ "replayed_hitm", 3 }, { NULL, 0 },
};

static void watch_build(struct demo *d, int build)
{
	struct strbuf bin = STRBUF_INIT, threads = STRBUF_INIT, iters = STRBUF_INIT;
	struct strbuf log = STRBUF_INIT, out = STRBUF_INIT;
	const char *args[] = { "watch",
			       "-e",
			       "pipe_task_group.load_avg",
			       "-e",
			       "pipe_task_group.rt_se",
			       "-e",
			       "pipe_task_group.rt_rq",
			       "--",
			       NULL,
			       "--threads",
			       NULL,
			       "--iterations",
			       NULL,
			       NULL };
	int rc;

	strbuf_addf(&bin, "%s/sched-core-%s", d->samples, demo_builds[build]);
	strbuf_addf(&threads, "%u", d->threads);
	strbuf_addf(&iters, "%u",
		    d->iterations < WATCH_ITERATIONS ? d->iterations : WATCH_ITERATIONS);
	strbuf_addf(&log, "%s/watch-%s.txt", d->workdir, demo_builds[build]);
	args[8] = bin.buf;
	args[10] = threads.buf;
	args[12] = iters.buf;
	rc = demo_c2c(d, log.buf, false, args);
	demo_slurp(log.buf, &out);
	printf("  %s (%s wakeups per cpu):\n", demo_builds[build], iters.buf);
	if (rc) {
		demo_print_matching(out.buf, "c2cscope watch:", 2);
		demo_skip("no hardware breakpoints to watch with (exit %d)", rc);
	} else {
		demo_print_each(out.buf, watched);
	}
	strbuf_release(&bin);
	strbuf_release(&threads);
	strbuf_release(&iters);
	strbuf_release(&log);
	strbuf_release(&out);
}

void demo_watch_step(struct demo *d)
{
	demo_step(d, "Watch load_avg, rt_se and rt_rq with hardware breakpoints (c2cscope watch)");
	if (!demo_have(d, "watch")) {
		demo_skip("c2cscope watch is not built yet");
		return;
	}
	watch_build(d, 0);
	watch_build(d, 1);
}
