// SPDX-License-Identifier: GPL-2.0
/*
 * perf's TRACING_DATA feature: the tracefs format files of the recorded
 * tracepoints, so that perf script can decode their raw samples. Layout as
 * perf's trace-event-read.c reads it: "\027\010\104tracing", version "0.6",
 * endianness, sizeof(long), page size, header_page and header_event, the
 * ftrace formats (none), the event formats by system, kallsyms (none),
 * printk formats (none) and saved cmdlines (none). Each format is parsed
 * with libtraceevent first: one it cannot read is refused here, not later.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#endif

#include "record/record_int.h"
#include "util/xalloc.h"

static void put_le(struct strbuf *out, uint64_t v, size_t bytes)
{
	strbuf_add(out, &v, bytes); /* written in host order, flagged little-endian */
}

static int put_file(struct strbuf *out, const char *root, const char *rel, const char *tag,
		    struct err_msg *err)
{
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", root, rel);
	ret = record_read_file(path.buf, &body);
	if (ret)
		err_set(err, -ret, "%s: cannot read: %s", path.buf, strerror(-ret));
	if (!ret && tag)
		strbuf_add(out, tag, strlen(tag) + 1);
	if (!ret) {
		put_le(out, body.len, 8);
		strbuf_add(out, body.buf, body.len);
	}
	strbuf_release(&path);
	strbuf_release(&body);
	return ret;
}

/* "sched:sched_switch" -> "sched", "sched_switch" */
static bool split_tp(const char *name, char *sys, size_t size, const char **event)
{
	const char *colon = strchr(name, ':');

	if (!colon || (size_t)(colon - name) >= size)
		return false;
	memcpy(sys, name, colon - name);
	sys[colon - name] = 0;
	*event = colon + 1;
	return true;
}

static int check_format(void *tep, const char *root, const char *sys, const char *event,
			struct err_msg *err)
{
#ifdef HAVE_LIBTRACEEVENT
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/events/%s/%s/format", root, sys, event);
	ret = record_read_file(path.buf, &body);
	if (!ret && tep_parse_event(tep, body.buf, body.len, sys) != 0)
		ret = err_set(err, EINVAL, "%s: libtraceevent cannot parse this format", path.buf);
	strbuf_release(&path);
	strbuf_release(&body);
	return ret;
#else
	return 0;
#endif
}

/* The systems in first-seen order, each with its events. */
static int put_systems(const struct record_event *ev, size_t nr, const char *root,
		       struct strbuf *out, struct err_msg *err)
{
	char sys[128], other[128];
	const char *event, *e2;
	size_t i, j, nr_sys = 0, at = out->len;
	void *tep = NULL;
	int ret = 0;

#ifdef HAVE_LIBTRACEEVENT
	tep = tep_alloc();
#endif
	put_le(out, 0, 4);
	for (i = 0; i < nr && !ret; i++) {
		bool seen = false;
		uint32_t count = 0;
		size_t count_at;

		if (!(ev[i].flags & RECORD_EV_TRACEPOINT) ||
		    !split_tp(ev[i].name, sys, sizeof(sys), &event))
			continue;
		for (j = 0; j < i; j++)
			seen |= (ev[j].flags & RECORD_EV_TRACEPOINT) &&
				split_tp(ev[j].name, other, sizeof(other), &e2) &&
				!strcmp(sys, other);
		if (seen)
			continue;
		strbuf_add(out, sys, strlen(sys) + 1);
		count_at = out->len;
		put_le(out, 0, 4);
		for (j = i; j < nr && !ret; j++) {
			struct strbuf rel = STRBUF_INIT;

			if (!(ev[j].flags & RECORD_EV_TRACEPOINT) ||
			    !split_tp(ev[j].name, other, sizeof(other), &e2) || strcmp(sys, other))
				continue;
			strbuf_addf(&rel, "events/%s/%s/format", sys, e2);
			ret = check_format(tep, root, sys, e2, err);
			if (!ret)
				ret = put_file(out, root, rel.buf, NULL, err);
			count++;
			strbuf_release(&rel);
		}
		memcpy(out->buf + count_at, &count, 4);
		nr_sys++;
	}
	memcpy(out->buf + at, &(uint32_t){ (uint32_t)nr_sys }, 4);
#ifdef HAVE_LIBTRACEEVENT
	tep_free(tep);
#endif
	return ret;
}

int record_tracing_data_build(const struct record_event *ev, size_t nr, struct strbuf *out,
			      struct err_msg *err)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *root = record_tracefs_root();
	int ret;

	if (!root)
		return err_set(err, ENODEV,
			       "tracefs is not mounted: mount -t tracefs nodev "
			       "/sys/kernel/tracing");
	strbuf_reset(out);
	strbuf_add(out, magic, sizeof(magic));
	strbuf_add(out, "0.6", 4);
	strbuf_addch(out, 0); /* little-endian */
	strbuf_addch(out, (char)sizeof(long));
	put_le(out, (uint64_t)sysconf(_SC_PAGESIZE), 4);
	ret = put_file(out, root, "events/header_page", "header_page", err);
	if (!ret)
		ret = put_file(out, root, "events/header_event", "header_event", err);
	if (ret)
		return ret;
	put_le(out, 0, 4); /* ftrace formats */
	ret = put_systems(ev, nr, root, out, err);
	put_le(out, 0, 4); /* kallsyms: perf resolves with its own */
	put_le(out, 0, 4); /* printk formats */
	put_le(out, 0, 8); /* saved cmdlines */
	return ret;
}
