// SPDX-License-Identifier: GPL-2.0
/*
 * Event lists: the per-vendor defaults perf c2c records with
 * (tools/perf/arch/{x86,arm64}/util/mem-events.c), the sampling settings
 * every event gets, their perf -vv style description and --list.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"
#include "util/xalloc.h"

#define DEFAULT_FREQ 4000

/* Intel: mem-loads (ldlat) and mem-stores, led by mem-loads-aux where it exists. */
static int intel_sysfs_defaults(struct record_evlist *l, unsigned int ldlat, struct strbuf *notes,
				struct err_msg *err)
{
	static const char *const cores[] = { "cpu", "cpu_core", "cpu_atom" };
	struct strbuf spec = STRBUF_INIT;
	struct record_pmu pmu;
	bool found = false;
	size_t i;
	int ret = 0;

	/* every core type of a hybrid CPU, as perf does */
	for (i = 0; i < sizeof(cores) / sizeof(cores[0]) && !ret; i++) {
		if (record_pmu_load(cores[i], &pmu, NULL))
			continue;
		if (!record_pmu_has_event(&pmu, "mem-loads")) {
			record_pmu_release(&pmu);
			continue;
		}
		if (record_pmu_has_event(&pmu, "mem-loads-aux")) {
			strbuf_addf(&spec, "{%s/mem-loads-aux/,%s/mem-loads,ldlat=%u/}:P", cores[i],
				    cores[i], ldlat);
			strbuf_addf(notes,
				    "%s: mem-loads goes in a group led by mem-loads-aux, "
				    "as this PMU requires\n",
				    cores[i]);
		} else {
			strbuf_addf(&spec, "%s/mem-loads,ldlat=%u/P", cores[i], ldlat);
		}
		if (record_pmu_has_event(&pmu, "mem-stores"))
			strbuf_addf(&spec, ",%s/mem-stores/P", cores[i]);
		strbuf_addf(notes, "%s: Intel memory events from the sysfs aliases\n", cores[i]);
		ret = record_evlist_parse(l, spec.buf, err);
		strbuf_reset(&spec);
		record_pmu_release(&pmu);
		found = true;
	}
	if (!ret && !found)
		ret = -ENOENT;
	strbuf_release(&spec);
	return ret;
}

static char *first_pmu_with_prefix(const char *prefix)
{
	size_t i, nr;
	char **names = record_pmu_names(&nr);
	char *found = NULL;

	for (i = 0; i < nr && !found; i++)
		if (!strncmp(names[i], prefix, strlen(prefix)))
			found = xstrdup(names[i]);
	record_pmu_names_free(names);
	return found;
}

static int amd_arm_defaults(struct record_evlist *l, unsigned int ldlat, struct strbuf *notes,
			    struct err_msg *err)
{
	struct strbuf spec = STRBUF_INIT;
	char *spe;
	int ret;

	if (record_pmu_exists("ibs_op")) {
		strbuf_addstr(notes, "ibs_op: AMD IBS op sampling; IBS counts per cpu only, so a "
				     "run that follows a task records system-wide and keeps the "
				     "task's samples\n");
		return record_evlist_parse(l, "ibs_op//", err);
	}
	spe = first_pmu_with_prefix("arm_spe");
	if (!spe)
		return -ENOENT;
	strbuf_addf(&spec,
		    "%s/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=%u/", spe,
		    ldlat);
	strbuf_addf(notes, "%s: Arm SPE loads and stores of latency >= %u\n", spe, ldlat);
	ret = record_evlist_parse(l, spec.buf, err);
	strbuf_release(&spec);
	free(spe);
	return ret;
}

static bool pfm_needs_aux(const char *core)
{
	return !strcmp(core, "spr") || !strcmp(core, "emr") || !strcmp(core, "adl_glc");
}

/* libpfm4's names for the core PMU it detects (or LIBPFM_FORCE_PMU's). */
static int pfm_defaults(struct record_evlist *l, unsigned int ldlat, struct strbuf *notes,
			struct err_msg *err)
{
	static const char *const stores[] = { "MEM_INST_RETIRED:ALL_STORES",
					      "MEM_UOPS_RETIRED:ALL_STORES" };
	const char *core = record_pfm_core_pmu();
	struct strbuf spec = STRBUF_INIT;
	size_t first = l->nr, i;
	int ret;

	if (!core)
		return -ENOENT;
	if (pfm_needs_aux(core)) {
		/* load latency needs mem-loads-aux (event 0x03, umask 0x82) as its leader */
		struct record_event *aux = record_evlist_new(l, "mem-loads-aux", "cpu");

		aux->attr.type = PERF_TYPE_RAW;
		aux->attr.config = 0x8203;
	}
	strbuf_addf(&spec, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=%u", ldlat);
	ret = record_evlist_parse(l, spec.buf, NULL);
	strbuf_release(&spec);
	if (ret) {
		record_evlist_truncate(l, first);
		return -ENOENT;
	}
	if (pfm_needs_aux(core))
		l->ev[first + 1].leader = (int)first;
	for (i = 0, ret = -ENOENT; i < sizeof(stores) / sizeof(stores[0]) && ret; i++)
		ret = record_evlist_parse(l, stores[i], NULL);
	for (i = first; i < l->nr; i++)
		l->ev[i].flags |= RECORD_EV_MAX_PRECISE;
	strbuf_addf(notes, "%s: no mem-loads alias in sysfs; Intel memory events from libpfm4%s\n",
		    core, pfm_needs_aux(core) ? ", loads led by mem-loads-aux" : "");
	return 0;
}

static void pmu_list(struct strbuf *out)
{
	size_t i, nr;
	char **names = record_pmu_names(&nr);

	for (i = 0; i < nr; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", names[i]);
	if (!nr)
		strbuf_addstr(out, "none");
	record_pmu_names_free(names);
}

int record_evlist_add_defaults(struct record_evlist *l, unsigned int ldlat, struct strbuf *notes,
			       struct err_msg *err)
{
	struct strbuf pmus = STRBUF_INIT;
	int ret = intel_sysfs_defaults(l, ldlat, notes, err);

	if (ret == -ENOENT)
		ret = amd_arm_defaults(l, ldlat, notes, err);
	if (ret == -ENOENT)
		ret = pfm_defaults(l, ldlat, notes, err);
	if (ret != -ENOENT)
		return ret;
	pmu_list(&pmus);
	ret = err_set(err, ENODEV,
		      "this machine has no memory-sampling PMU: no cpu/mem-loads alias, ibs_op "
		      "or arm_spe in %s (PMUs here: %s) and libpfm4 knows no core PMU on "
		      "this CPU (a VM?); use --sim to simulate the caches, --list to see what "
		      "exists, or -e to name other events",
		      record_sysfs_root(), pmus.buf);
	strbuf_release(&pmus);
	return ret;
}

void record_evlist_configure(struct record_evlist *l, const struct record_sampling *s)
{
	const uint64_t base = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			      PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_PERIOD;
	size_t i;

	for (i = 0; i < l->nr; i++) {
		struct perf_event_attr *a = &l->ev[i].attr;
		unsigned int f = l->ev[i].flags;

		a->sample_type = base;
		if (f & RECORD_EV_MEMORY)
			a->sample_type |= PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT |
					  (s->no_phys_addr ? 0 : PERF_SAMPLE_PHYS_ADDR);
		if (f & RECORD_EV_TRACEPOINT)
			a->sample_type |= PERF_SAMPLE_RAW;
		/* an event's own period (period=, freq=, tracepoints, breakpoints) stays */
		if (a->sample_period) {
		} else if (s->period) {
			a->sample_period = s->period;
			a->freq = 0;
		} else {
			a->sample_freq = s->freq ? s->freq : DEFAULT_FREQ;
			a->freq = 1;
		}
		if (s->user_only || s->kernel_only) {
			a->exclude_kernel = s->user_only;
			a->exclude_user = s->kernel_only;
			a->exclude_hv = 1;
		}
		if ((f & RECORD_EV_MAX_PRECISE) && !a->precise_ip)
			a->precise_ip = 3;
		a->sample_id_all = 1;
		a->disabled = 1;
	}
}

static const char *const sample_names[] = {
	"IP",
	"TID",
	"TIME",
	"ADDR",
	"READ",
	"CALLCHAIN",
	"ID",
	"CPU",
	"PERIOD",
	"STREAM_ID",
	"RAW",
	"BRANCH_STACK",
	"REGS_USER",
	"STACK_USER",
	"WEIGHT",
	"DATA_SRC",
	"IDENTIFIER",
	"TRANSACTION",
	"REGS_INTR",
	"PHYS_ADDR",
	"AUX",
	"CGROUP",
	"DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE",
	"WEIGHT_STRUCT",
};

void record_sample_type_str(uint64_t st, struct strbuf *out)
{
	size_t bit;
	bool first = true;

	for (bit = 0; bit < 64; bit++) {
		if (!(st & (1ULL << bit)))
			continue;
		if (bit < sizeof(sample_names) / sizeof(sample_names[0]))
			strbuf_addf(out, "%s%s", first ? "" : "|", sample_names[bit]);
		else
			strbuf_addf(out, "%s0x%llx", first ? "" : "|", 1ULL << bit);
		first = false;
	}
}

static void describe_one(const struct record_event *e, struct strbuf *out)
{
	const struct perf_event_attr *a = &e->attr;

	strbuf_addf(out,
		    "%s: type=%u config=0x%llx config1=0x%llx config2=0x%llx sample_type=", e->name,
		    a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
		    (unsigned long long)a->config2);
	record_sample_type_str(a->sample_type, out);
	strbuf_addf(out, " precise_ip=%u", a->precise_ip);
	if (e->flags & RECORD_EV_MAX_PRECISE)
		strbuf_addstr(out, " (P: the highest the event accepts, tried from 3 down)");
	strbuf_addf(out, " %s=%llu", a->freq ? "sample_freq" : "sample_period",
		    (unsigned long long)a->sample_period);
	if (a->exclude_user || a->exclude_kernel)
		strbuf_addf(out, " exclude_user=%u exclude_kernel=%u", a->exclude_user,
			    a->exclude_kernel);
	if (e->flags & RECORD_EV_CPU_WIDE)
		strbuf_addstr(out, " (per cpu only)");
	strbuf_addch(out, '\n');
}

void record_evlist_describe(const struct record_evlist *l, struct strbuf *out)
{
	size_t i, j;

	for (i = 0; i < l->nr; i++)
		describe_one(&l->ev[i], out);
	for (i = 0; i < l->nr; i++) {
		bool leads = false;

		for (j = i + 1; j < l->nr; j++)
			leads |= l->ev[j].leader == (int)i;
		if (!leads)
			continue;
		strbuf_addf(out, "group: {%s", l->ev[i].name);
		for (j = i + 1; j < l->nr; j++)
			if (l->ev[j].leader == (int)i)
				strbuf_addf(out, ", %s", l->ev[j].name);
		strbuf_addstr(out, "} led by the first\n");
	}
}
