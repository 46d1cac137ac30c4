// SPDX-License-Identifier: GPL-2.0
/*
 * --record FILE: the hits as perf.data through src/perf's writer, one
 * breakpoint event per field (perf's "mem:ADDR/LEN:rw" names), with the
 * target's names and code mappings, so perf script and c2cscope report
 * read it. Each sample's data source is the MESI replay's verdict (a load
 * that found the line Modified elsewhere is a local HITM), encoded as
 * c2csim encodes its own.
 */
#include "config.h"

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>

#include "perf/mem_src.h"
#include "util/xalloc.h"
#include "watch/watch_int.h"

static struct perf_writer_event *record_events(const struct watch *w)
{
	struct perf_writer_event *ev = xcalloc(w->nr_fields ? w->nr_fields : 1, sizeof(*ev));
	size_t i;

	for (i = 0; i < w->nr_fields; i++) {
		const struct watch_field *f = &w->fields[i].pub;
		char name[64];

		snprintf(name, sizeof(name), "mem:%#llx/%u:%s", (unsigned long long)f->bp_addr,
			 f->bp_len, w->opts.write_only ? "w" : "rw");
		ev[i] = (struct perf_writer_event){ .type = PERF_TYPE_BREAKPOINT,
						    .config1 = f->bp_addr,
						    .config2 = f->bp_len,
						    .sample_type = WATCH_SAMPLE_TYPE |
								   PERF_SAMPLE_DATA_SRC,
						    .sample_period = 1,
						    .name = xstrdup(name) };
	}
	return ev;
}

static int write_body(struct watch *w, struct perf_writer *pw)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < w->nr_comms && !ret; i++)
		ret = perf_writer_comm(pw, &w->comms[i], 0);
	for (i = 0; i < w->nr_maps && !ret; i++)
		ret = perf_writer_mmap2(pw, &w->maps[i], 0);
	for (i = 0; i < w->nr_forks && !ret; i++)
		ret = perf_writer_task(pw, true, &w->forks[i]);
	for (i = 0; i < w->nr_acc && !ret; i++) {
		const struct watch_access *a = &w->acc[i];
		struct perf_sample s = {
			.attr_index = a->field,
			.cpumode = a->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
			.ip = a->ip,
			.pid = a->pid,
			.tid = a->tid,
			.time = a->time,
			.addr = w->fields[a->field].pub.bp_addr,
			.cpu = a->cpu,
			.period = 1,
			.data_src = mem_src_of_code(a->code),
		};

		ret = perf_writer_sample(pw, &s);
		if (!ret && i % 4096 == 4095)
			ret = perf_writer_finished_round(pw);
	}
	return ret;
}

int watch_write_record(struct watch *w, struct err_msg *err)
{
	struct perf_writer_event *ev = record_events(w);
	struct perf_writer_info info = { .cmdline = w->opts.record_argv };
	struct perf_writer *pw;
	size_t i;
	int ret;

	ret = perf_writer_open(w->opts.record, ev, w->nr_fields, &pw, err);
	if (!ret) {
		ret = write_body(w, pw);
		if (ret && ret != -EFBIG && ret != -ENOSPC && ret != -EDQUOT) {
			perf_writer_abort(pw);
			err_set(err, -ret, "%s: writing the samples failed", w->opts.record);
		} else { /* a full output is cut back to a readable file */
			struct perf_writer_result res;

			ret = perf_writer_finish(pw, &info, &res, err);
			w->sum.record_cut = res.cut;
			w->sum.record_kept = res.samples;
		}
	}
	for (i = 0; i < w->nr_fields; i++)
		free((char *)ev[i].name);
	free(ev);
	return ret;
}
