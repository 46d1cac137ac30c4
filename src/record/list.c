// SPDX-License-Identifier: GPL-2.0
/* --list: what this machine offers to sample, and why a default is missing. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "record/record_int.h"

static const char *const memory_aliases[] = { "mem-loads", "mem-stores", "mem-loads-aux" };

static void list_pmu(const char *name, struct strbuf *out)
{
	struct strbuf terms = STRBUF_INIT;
	struct record_pmu pmu;
	size_t i;

	if (record_pmu_load(name, &pmu, NULL)) {
		strbuf_addf(out, "  %-16s (unreadable)\n", name);
		return;
	}
	strbuf_addf(out, "  %-16s type=%u, %zu format terms, %zu event aliases%s\n", name, pmu.type,
		    pmu.nr_formats, pmu.nr_events,
		    !strcmp(name, "ibs_op")	 ? "; AMD IBS op: memory sampling" :
		    !strncmp(name, "arm_spe", 7) ? "; Arm SPE: memory sampling" :
						   "");
	for (i = 0; i < sizeof(memory_aliases) / sizeof(memory_aliases[0]); i++) {
		if (!record_pmu_has_event(&pmu, memory_aliases[i]) ||
		    record_pmu_alias_terms(&pmu, memory_aliases[i], &terms, NULL))
			continue;
		strbuf_addf(out, "    %s/%s/ = %s\n", name, memory_aliases[i], terms.buf);
	}
	strbuf_release(&terms);
	record_pmu_release(&pmu);
}

int record_list(struct strbuf *out, struct err_msg *err)
{
	struct record_evlist l = { 0 };
	struct strbuf notes = STRBUF_INIT, desc = STRBUF_INIT;
	struct err_msg why = { 0 };
	const char *core = record_pfm_core_pmu();
	size_t i, nr;
	char **names = record_pmu_names(&nr);
	int ret;

	strbuf_addf(out, "PMUs in %s:\n", record_sysfs_root());
	for (i = 0; i < nr; i++)
		list_pmu(names[i], out);
	if (!nr)
		strbuf_addstr(out, "  none\n");
	record_pmu_names_free(names);
	strbuf_addf(out, "libpfm4 core PMU: %s\n",
		    core ? core :
			   "none (not an Intel/AMD/Arm PMU "
			   "libpfm4 knows, or a VM)");
	strbuf_addf(out, "tracefs: %s\n",
		    record_tracefs_root() ? record_tracefs_root() : "not mounted");
	strbuf_addstr(out, "Generic events: cycles, instructions, cache-misses, cpu-clock, "
			   "task-clock, page-faults, minor-faults, major-faults, context-switches, "
			   "cpu-migrations; breakpoints mem:ADDR[/LEN][:rwx]\n");
	ret = record_evlist_add_defaults(&l, 30, &notes, &why);
	if (ret) {
		strbuf_addf(out, "Default memory events: none: %s\n", why.msg);
	} else {
		record_evlist_describe(&l, &desc);
		strbuf_addf(out, "Default memory events (ldlat 30):\n%s%s", notes.buf, desc.buf);
	}
	record_evlist_release(&l);
	strbuf_release(&notes);
	strbuf_release(&desc);
	return 0;
}
