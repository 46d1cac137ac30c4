// SPDX-License-Identifier: GPL-2.0
/*
 * -e as perf record -e reads it (tools/perf/util/parse-events.c):
 *   pmu/term=val,alias,.../mods    sysfs PMU, format/ fields, events/ aliases
 *   cycles, page-faults, ...[:mods] generic hardware and software events
 *   sys:name                       tracepoints (tracefs events/sys/name/id)
 *   mem:ADDR[/LEN][:rwx]           hardware breakpoints
 *   {ev,ev}[:mods]                 a group led by its first event
 *   NAME[:umask...]                libpfm4 names (or an alias any PMU has)
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "record/record_int.h"
#include "util/xalloc.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
};

struct record_event *record_evlist_new(struct record_evlist *l, const char *name, const char *pmu)
{
	struct record_event *e;

	l->ev = xgrow(l->ev, &l->alloc, l->nr + 1, sizeof(*l->ev));
	e = &l->ev[l->nr++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	e->pmu = xstrdup(pmu);
	e->leader = -1;
	e->attr.size = sizeof(e->attr);
	return e;
}

void record_event_release(struct record_event *e)
{
	free(e->name);
	free(e->pmu);
}

void record_evlist_truncate(struct record_evlist *l, size_t nr)
{
	while (l->nr > nr)
		record_event_release(&l->ev[--l->nr]);
}

void record_evlist_release(struct record_evlist *l)
{
	record_evlist_truncate(l, 0);
	free(l->ev);
	memset(l, 0, sizeof(*l));
}

/* u, k, h, p (repeatable), P: perf's modifiers that matter for sampling. */
static int apply_mods(struct record_event *e, const char *mods, const char *spec,
		      struct err_msg *err)
{
	bool u = false, k = false, h = false;
	const char *m;

	for (m = mods; *m; m++) {
		if (*m == 'u')
			u = true;
		else if (*m == 'k')
			k = true;
		else if (*m == 'h')
			h = true;
		else if (*m == 'p' && e->attr.precise_ip < 3)
			e->attr.precise_ip++;
		else if (*m == 'P')
			e->flags |= RECORD_EV_MAX_PRECISE;
		else
			return err_set(err, EINVAL,
				       "-e %s: modifier '%c' in ':%s': expected u, k, h, p or P",
				       spec, *m, mods);
	}
	if (u || k || h) {
		e->attr.exclude_user = !u;
		e->attr.exclude_kernel = !k;
		e->attr.exclude_hv = !h;
	}
	return 0;
}

static int parse_generic(struct record_evlist *l, const char *name, const char *mods,
			 const char *spec, struct err_msg *err)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(generic_events); i++) {
		struct record_event *e;

		if (strcmp(name, generic_events[i].name))
			continue;
		e = record_evlist_new(
			l, spec, generic_events[i].type == PERF_TYPE_HARDWARE ? "cpu" : "software");
		e->attr.type = generic_events[i].type;
		e->attr.config = generic_events[i].config;
		return mods ? apply_mods(e, mods, spec, err) : 0;
	}
	return -ENOENT;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/* config=, config1=, config2=, period=, freq=, name=: perf's own terms. */
static int builtin_term(struct record_event *e, const char *term, const char *val, uint64_t v)
{
	if (!strcmp(term, "config"))
		e->attr.config = v;
	else if (!strcmp(term, "config1"))
		e->attr.config1 = v;
	else if (!strcmp(term, "config2"))
		e->attr.config2 = v;
	else if (!strcmp(term, "period"))
		e->attr.sample_period = v, e->attr.freq = 0;
	else if (!strcmp(term, "freq"))
		e->attr.sample_freq = v, e->attr.freq = 1;
	else
		return -ENOENT;
	return 0;
}

static int bad_term(const struct record_pmu *pmu, const char *spec, const char *term,
		    const char *why, struct err_msg *err)
{
	struct strbuf acc = STRBUF_INIT;
	int ret;

	record_pmu_accepted_terms(pmu, &acc);
	ret = err_set(err, EINVAL, "-e %s: term '%s' %s; %s accepts: %s", spec, term, why,
		      pmu->name, acc.buf);
	strbuf_release(&acc);
	return ret;
}

static int apply_terms(struct record_event *e, const struct record_pmu *pmu, char *terms,
		       const char *spec, int depth, struct err_msg *err);

static int apply_term(struct record_event *e, const struct record_pmu *pmu, char *term,
		      const char *spec, int depth, struct err_msg *err)
{
	char *val = strchr(term, '=');
	const struct record_pmu_format *f;
	uint64_t v = 1;
	int ret;

	if (val)
		*val++ = 0;
	if (!val && record_pmu_has_event(pmu, term) && depth == 0) {
		struct strbuf alias = STRBUF_INIT;

		ret = record_pmu_alias_terms(pmu, term, &alias, err);
		if (!ret)
			ret = apply_terms(e, pmu, alias.buf, spec, depth + 1, err);
		if (!ret && (!strcmp(term, "mem-loads") || !strcmp(term, "mem-stores")))
			e->flags |= RECORD_EV_MEMORY;
		strbuf_release(&alias);
		return ret;
	}
	if (val && !strcmp(term, "name")) {
		free(e->name);
		e->name = xstrdup(val);
		return 0;
	}
	if (val && !strcmp(val, "?"))
		return 0; /* an alias parameter the user did not give */
	if (val && parse_u64(val, &v) < 0)
		return bad_term(pmu, spec, term, "needs a number", err);
	if (!builtin_term(e, term, val, v))
		return 0;
	f = record_pmu_format(pmu, term);
	if (!f)
		return bad_term(pmu, spec, term, "is not in format/ or events/", err);
	ret = record_pmu_format_apply(f, &e->attr, v);
	if (ret == -ERANGE)
		return bad_term(pmu, spec, term, "has a value too big for its bits", err);
	if (ret)
		return bad_term(pmu, spec, term, "fills config3, which this build cannot set", err);
	return 0;
}

static int apply_terms(struct record_event *e, const struct record_pmu *pmu, char *terms,
		       const char *spec, int depth, struct err_msg *err)
{
	char *save = NULL, *t;
	int ret = 0;

	for (t = strtok_r(terms, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save))
		ret = apply_term(e, pmu, t, spec, depth, err);
	return ret;
}

static unsigned int memory_pmu_flags(const char *pmu)
{
	if (!strcmp(pmu, "ibs_op"))
		return RECORD_EV_MEMORY | RECORD_EV_CPU_WIDE;
	if (!strncmp(pmu, "arm_spe", 7))
		return RECORD_EV_MEMORY | RECORD_EV_AUX | RECORD_EV_CPU_WIDE;
	return 0;
}

/* pmu/terms/mods */
static int parse_pmu_event(struct record_evlist *l, char *item, const char *spec,
			   struct err_msg *err)
{
	char *slash = strchr(item, '/'), *close, *mods;
	struct record_pmu pmu;
	struct record_event *e;
	int ret;

	*slash = 0;
	close = strrchr(slash + 1, '/');
	if (!close)
		return err_set(err, EINVAL, "-e %s: expected PMU/TERMS/[MODS], no closing '/'",
			       spec);
	*close = 0;
	mods = close + 1;
	ret = record_pmu_load(item, &pmu, err);
	if (ret == -ENOENT) {
		struct strbuf names = STRBUF_INIT;
		size_t i, nr;
		char **all = record_pmu_names(&nr);

		for (i = 0; i < nr; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", all[i]);
		record_pmu_names_free(all);
		ret = err_set(err, ENOENT, "-e %s: no PMU '%s' in %s; PMUs here: %s", spec, item,
			      record_sysfs_root(), nr ? names.buf : "none");
		strbuf_release(&names);
	}
	if (ret)
		return ret;
	e = record_evlist_new(l, spec, item);
	e->attr.type = pmu.type;
	e->flags |= memory_pmu_flags(item);
	ret = apply_terms(e, &pmu, slash + 1, spec, 0, err);
	if (!ret && *mods)
		ret = apply_mods(e, mods, spec, err);
	record_pmu_release(&pmu);
	return ret;
}

/* mem:ADDR[/LEN][:rwx] */
static int parse_breakpoint(struct record_evlist *l, char *item, const char *spec,
			    struct err_msg *err)
{
	char *addr = item + 4, *colon = strchr(addr, ':'), *slash = strchr(addr, '/');
	struct record_event *e;
	uint64_t a, len = 0;
	const char *m;
	unsigned int bp = 0;

	if (colon)
		*colon = 0;
	if (slash)
		*slash = 0;
	if (parse_u64(addr, &a) < 0 ||
	    (slash && (parse_u64(slash + 1, &len) < 0 || !len || len > 8)))
		return err_set(err, EINVAL, "-e %s: expected mem:ADDR[/LEN][:rwx], LEN 1-8", spec);
	for (m = colon ? colon + 1 : "rw"; *m; m++) {
		if (*m == 'r')
			bp |= HW_BREAKPOINT_R;
		else if (*m == 'w')
			bp |= HW_BREAKPOINT_W;
		else if (*m == 'x')
			bp |= HW_BREAKPOINT_X;
		else
			return err_set(err, EINVAL, "-e %s: access '%c': expected r, w or x", spec,
				       *m);
	}
	e = record_evlist_new(l, spec, "breakpoint");
	e->attr.type = PERF_TYPE_BREAKPOINT;
	e->attr.bp_type = bp;
	e->attr.bp_addr = a;
	e->attr.bp_len = len ? len : (bp & HW_BREAKPOINT_X) ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	e->attr.sample_period = 1;
	return 0;
}

static int parse_tracepoint(struct record_evlist *l, char *item, const char *spec,
			    struct err_msg *err)
{
	char *colon = strchr(item, ':');
	struct record_event *e;
	uint64_t id;
	int ret;

	*colon = 0;
	ret = record_tracepoint_id(item, colon + 1, &id, err);
	*colon = ':';
	if (ret)
		return ret;
	e = record_evlist_new(l, spec, "tracepoint");
	e->attr.type = PERF_TYPE_TRACEPOINT;
	e->attr.config = id;
	e->attr.sample_period = 1;
	e->flags |= RECORD_EV_TRACEPOINT;
	return 0;
}

/* An alias of some PMU (cpu first): perf takes -e mem-loads for cpu/mem-loads/. */
static int parse_alias_anywhere(struct record_evlist *l, const char *name, const char *mods,
				const char *spec, struct err_msg *err)
{
	static const char *const first[] = { "cpu", "cpu_core", "cpu_atom" };
	struct strbuf item = STRBUF_INIT;
	struct record_pmu pmu;
	size_t i;
	int ret = -ENOENT;

	for (i = 0; i < ARRAY_LEN(first) && ret == -ENOENT; i++) {
		if (record_pmu_load(first[i], &pmu, NULL))
			continue;
		if (record_pmu_has_event(&pmu, name)) {
			strbuf_addf(&item, "%s/%s/%s", first[i], name, mods ? mods : "");
			ret = parse_pmu_event(l, item.buf, spec, err);
		}
		record_pmu_release(&pmu);
	}
	strbuf_release(&item);
	return ret;
}

static int parse_pfm(struct record_evlist *l, const char *name, const char *spec,
		     struct err_msg *err)
{
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct strbuf fstr = STRBUF_INIT;
	struct record_event *e;
	int ret = record_pfm_encode(name, &attr, &fstr, err);

	if (ret)
		return ret;
	e = record_evlist_new(l, spec, "cpu");
	e->attr.type = attr.type;
	e->attr.config = attr.config;
	e->attr.config1 = attr.config1;
	e->attr.config2 = attr.config2;
	if (strstr(fstr.buf, "::MEM_") &&
	    (strstr(fstr.buf, "LOAD_LATENCY") || strstr(fstr.buf, "STORES")))
		e->flags |= RECORD_EV_MEMORY;
	strbuf_release(&fstr);
	return 0;
}

static int parse_item(struct record_evlist *l, char *item, const char *spec, struct err_msg *err)
{
	char *colon = strchr(item, ':');
	int ret;

	if (!*item)
		return err_set(err, EINVAL, "-e '%s': an empty event name", spec);
	if (!strncmp(item, "mem:", 4))
		return parse_breakpoint(l, item, spec, err);
	if (strchr(item, '/'))
		return parse_pmu_event(l, item, spec, err);
	if (colon)
		*colon = 0;
	ret = parse_generic(l, item, colon ? colon + 1 : NULL, spec, err);
	if (ret == -ENOENT)
		ret = parse_alias_anywhere(l, item, colon ? colon + 1 : NULL, spec, err);
	if (colon)
		*colon = ':';
	if (ret == -ENOENT && colon && colon[1] != ':' && !strchr(colon + 1, ':'))
		ret = parse_tracepoint(l, item, spec, err);
	if (ret == -ENOENT)
		ret = parse_pfm(l, item, spec, err);
	if (ret == -ENOENT)
		ret = err_set(err, ENOENT,
			      "-e %s: unknown event: not a generic name, PMU alias, tracepoint "
			      "or libpfm4 name (c2cscope record --list shows what exists)",
			      spec);
	return ret;
}

/* Parses one event; it is named by its own text unless name= said otherwise. */
static int parse_one(struct record_evlist *l, char *item, const char *spec, struct err_msg *err)
{
	char *text = xstrdup(item);
	size_t first = l->nr, i;
	int ret = parse_item(l, item, spec, err);

	for (i = first; i < l->nr && !ret; i++) {
		if (!strcmp(l->ev[i].name, spec)) {
			free(l->ev[i].name);
			l->ev[i].name = xstrdup(text);
		}
	}
	free(text);
	return ret;
}

/* The end of one top-level item: a ',' outside {} and outside PMU/terms/. */
static size_t item_end(const char *s, bool *braces)
{
	bool in_terms = false, bp = !strncmp(s, "mem:", 4);
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] == '/' && !bp)
			in_terms = !in_terms;
		else if (s[i] == '{' && i == 0)
			*braces = true;
		else if (s[i] == '}')
			*braces = false;
		else if (s[i] == ',' && !in_terms && !*braces)
			break;
		else if (s[i] == ',' && !in_terms && *braces)
			bp = !strncmp(s + i + 1, "mem:", 4);
	}
	return i;
}

/* {a,b}:mods: the first event leads; the group's modifiers apply to all. */
static int parse_group(struct record_evlist *l, char *item, const char *spec, struct err_msg *err)
{
	char *close = strrchr(item, '}'), *mods, *p;
	size_t first = l->nr, i;
	int ret = 0;

	if (!close)
		return err_set(err, EINVAL, "-e %s: a group without its closing '}'", spec);
	*close = 0;
	mods = close[1] == ':' ? close + 2 : close + 1;
	if (*mods && close[1] != ':')
		return err_set(err, EINVAL, "-e %s: expected ':' after '}'", spec);
	for (p = item + 1; *p && !ret;) {
		bool braces = false;
		size_t n = item_end(p, &braces);
		char save = p[n];

		p[n] = 0;
		ret = parse_one(l, p, spec, err);
		p[n] = save;
		p += n + (save ? 1 : 0);
	}
	for (i = first; i < l->nr && !ret; i++) {
		l->ev[i].leader = i == first ? -1 : (int)first;
		if (*mods)
			ret = apply_mods(&l->ev[i], mods, spec, err);
	}
	if (!ret && l->nr == first)
		ret = err_set(err, EINVAL, "-e %s: an empty group", spec);
	return ret;
}

int record_evlist_parse(struct record_evlist *l, const char *spec, struct err_msg *err)
{
	char *copy = xstrdup(spec), *p = copy;
	size_t first = l->nr;
	int ret = 0;

	while (!ret) {
		bool braces = false;
		size_t n = item_end(p, &braces);
		char save = p[n];

		p[n] = 0;
		ret = *p == '{' ? parse_group(l, p, spec, err) : parse_one(l, p, spec, err);
		if (!save)
			break;
		p += n + 1;
	}
	if (ret)
		record_evlist_truncate(l, first);
	free(copy);
	return ret;
}
