// SPDX-License-Identifier: GPL-2.0
/*
 * PMUs as sysfs describes them: /sys/bus/event_source/devices/NAME/ holds
 * type (the perf_event_attr.type to open it with), format/ (one file per
 * term: which attr word and bits it fills) and events/ (aliases: a list of
 * terms). perf reads the same files (tools/perf/util/pmu.c).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"
#include "util/xalloc.h"

const char *record_sysfs_root(void)
{
	const char *env = getenv("C2CSCOPE_SYSFS_ROOT");

	return env && *env ? env : "/sys/bus/event_source/devices";
}

int record_read_file(const char *path, struct strbuf *out)
{
	char buf[4096];
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	strbuf_reset(out);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(out, buf, n);
	fclose(f);
	return 0;
}

int record_sysfs_read(const char *rel, struct strbuf *out)
{
	struct strbuf path = STRBUF_INIT;
	int ret;

	strbuf_addf(&path, "%s/%s", record_sysfs_root(), rel);
	ret = record_read_file(path.buf, out);
	strbuf_release(&path);
	if (ret)
		return ret;
	while (out->len && isspace((unsigned char)out->buf[out->len - 1]))
		strbuf_setlen(out, out->len - 1);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names in a folder under the root (not starting with '.'), sorted. */
static char **list_dir(const char *rel, size_t *nr)
{
	struct strbuf path = STRBUF_INIT;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *d;
	DIR *dir;

	strbuf_addf(&path, "%s%s%s", record_sysfs_root(), *rel ? "/" : "", rel);
	dir = opendir(path.buf);
	strbuf_release(&path);
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		names = xgrow(names, &alloc, n + 2, sizeof(*names));
		names[n++] = xstrdup(d->d_name);
	}
	if (dir)
		closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	else
		names = xcalloc(1, sizeof(*names));
	names[n] = NULL;
	*nr = n;
	return names;
}

char **record_pmu_names(size_t *nr)
{
	return list_dir("", nr);
}

void record_pmu_names_free(char **names)
{
	size_t i;

	for (i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

bool record_pmu_exists(const char *name)
{
	struct strbuf rel = STRBUF_INIT, val = STRBUF_INIT;
	bool yes;

	strbuf_addf(&rel, "%s/type", name);
	yes = record_sysfs_read(rel.buf, &val) == 0;
	strbuf_release(&rel);
	strbuf_release(&val);
	return yes;
}

/* "config1:0-15", "config:0-7,32-35", "config:19" */
static int parse_format(const char *text, struct record_pmu_format *f)
{
	const char *p = text;
	char *end;

	if (strncmp(p, "config", 6))
		return -EINVAL;
	p += 6;
	f->word = 0;
	if (*p >= '1' && *p <= '3')
		f->word = *p++ - '0';
	if (*p++ != ':')
		return -EINVAL;
	f->nr_ranges = 0;
	while (*p) {
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p || f->nr_ranges == 8)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return -EINVAL;
			p = end;
		}
		if (hi < lo || hi > 63)
			return -EINVAL;
		f->lo[f->nr_ranges] = (uint8_t)lo;
		f->hi[f->nr_ranges++] = (uint8_t)hi;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return f->nr_ranges ? 0 : -EINVAL;
}

static int load_formats(const char *name, struct record_pmu *pmu, struct err_msg *err)
{
	struct strbuf rel = STRBUF_INIT, val = STRBUF_INIT;
	size_t i, nr;
	char **names;
	int ret = 0;

	strbuf_addf(&rel, "%s/format", name);
	names = list_dir(rel.buf, &nr);
	pmu->formats = xcalloc(nr ? nr : 1, sizeof(*pmu->formats));
	for (i = 0; i < nr && !ret; i++) {
		struct record_pmu_format *f = &pmu->formats[pmu->nr_formats];

		strbuf_reset(&rel);
		strbuf_addf(&rel, "%s/format/%s", name, names[i]);
		if (record_sysfs_read(rel.buf, &val) < 0)
			continue;
		if (parse_format(val.buf, f) < 0) {
			ret = err_set(err, EINVAL,
				      "%s/%s: expected configN:LO-HI[,LO-HI...], found '%s'",
				      record_sysfs_root(), rel.buf, val.buf);
			break;
		}
		f->name = xstrdup(names[i]);
		pmu->nr_formats++;
	}
	record_pmu_names_free(names);
	strbuf_release(&rel);
	strbuf_release(&val);
	return ret;
}

static bool alias_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	return !dot || (strcmp(dot, ".scale") && strcmp(dot, ".unit") && strcmp(dot, ".per-pkg") &&
			strcmp(dot, ".snapshot"));
}

static void load_events(const char *name, struct record_pmu *pmu)
{
	struct strbuf rel = STRBUF_INIT;
	size_t i, nr;
	char **names;

	strbuf_addf(&rel, "%s/events", name);
	names = list_dir(rel.buf, &nr);
	pmu->events = xcalloc(nr + 1, sizeof(*pmu->events));
	for (i = 0; i < nr; i++) {
		if (alias_file(names[i]))
			pmu->events[pmu->nr_events++] = names[i];
		else
			free(names[i]);
	}
	free(names);
	strbuf_release(&rel);
}

int record_pmu_load(const char *name, struct record_pmu *pmu, struct err_msg *err)
{
	struct strbuf rel = STRBUF_INIT, val = STRBUF_INIT;
	char *end;
	int ret;

	memset(pmu, 0, sizeof(*pmu));
	strbuf_addf(&rel, "%s/type", name);
	ret = record_sysfs_read(rel.buf, &val);
	if (ret < 0) {
		err_set(err, -ret, "no PMU '%s' in %s", name, record_sysfs_root());
		goto out;
	}
	pmu->type = (uint32_t)strtoul(val.buf, &end, 0);
	if (end == val.buf || *end) {
		ret = err_set(err, EINVAL, "%s/%s: expected a number, found '%s'",
			      record_sysfs_root(), rel.buf, val.buf);
		goto out;
	}
	pmu->name = xstrdup(name);
	ret = load_formats(name, pmu, err);
	if (!ret)
		load_events(name, pmu);
	else
		record_pmu_release(pmu);
out:
	strbuf_release(&rel);
	strbuf_release(&val);
	return ret;
}

void record_pmu_release(struct record_pmu *pmu)
{
	size_t i;

	for (i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	free(pmu->formats);
	for (i = 0; i < pmu->nr_events; i++)
		free(pmu->events[i]);
	free(pmu->events);
	free(pmu->name);
	memset(pmu, 0, sizeof(*pmu));
}

bool record_pmu_has_event(const struct record_pmu *pmu, const char *event)
{
	size_t i;

	for (i = 0; i < pmu->nr_events; i++)
		if (!strcmp(pmu->events[i], event))
			return true;
	return false;
}

const struct record_pmu_format *record_pmu_format(const struct record_pmu *pmu, const char *name)
{
	size_t i;

	for (i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

int record_pmu_alias_terms(const struct record_pmu *pmu, const char *event, struct strbuf *terms,
			   struct err_msg *err)
{
	struct strbuf rel = STRBUF_INIT;
	int ret;

	strbuf_addf(&rel, "%s/events/%s", pmu->name, event);
	ret = record_sysfs_read(rel.buf, terms);
	if (ret < 0)
		err_set(err, -ret, "%s/%s: cannot read: %s", record_sysfs_root(), rel.buf,
			strerror(-ret));
	strbuf_release(&rel);
	return ret;
}

int record_pmu_format_apply(const struct record_pmu_format *f, struct perf_event_attr *attr,
			    uint64_t value)
{
	__u64 *word[] = { &attr->config, &attr->config1, &attr->config2, &attr->config2 };
	__u64 *dst = word[f->word];
	unsigned int used = 0;
	int r;

	if (f->word == 3)
		return -EOPNOTSUPP; /* config3 is newer than the headers we build with */
	for (r = 0; r < f->nr_ranges; r++) {
		unsigned int width = f->hi[r] - f->lo[r] + 1;
		uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
		uint64_t part = used < 64 ? (value >> used) & mask : 0;

		*dst = (*dst & ~(mask << f->lo[r])) | (part << f->lo[r]);
		used += width;
	}
	if (used < 64 && value >> used)
		return -ERANGE;
	return 0;
}

void record_pmu_accepted_terms(const struct record_pmu *pmu, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < pmu->nr_formats; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", pmu->formats[i].name);
	strbuf_addf(out, "%sconfig, config1, config2, period, freq, name (format/ and perf's own)",
		    pmu->nr_formats ? ", " : "");
	if (pmu->nr_events) {
		strbuf_addstr(out, "; aliases in events/: ");
		for (i = 0; i < pmu->nr_events; i++)
			strbuf_addf(out, "%s%s", i ? ", " : "", pmu->events[i]);
	}
}
