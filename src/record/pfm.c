// SPDX-License-Identifier: GPL-2.0
/*
 * libpfm4 event names (MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30, ...)
 * through pfm_get_os_event_encoding. LIBPFM_FORCE_PMU=icl (or spr, skx,
 * ...) makes libpfm4 encode for that PMU on any machine.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/record_int.h"

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

static int pfm_ready(void)
{
	static int state; /* 0 not tried, 1 ready, -1 failed */

	if (!state)
		state = pfm_initialize() == PFM_SUCCESS ? 1 : -1;
	return state;
}

int record_pfm_encode(const char *name, struct perf_event_attr *attr, struct strbuf *fstr,
		      struct err_msg *err)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	pfm_perf_encode_arg_t arg = { .attr = &a, .size = sizeof(arg) };
	char *full = NULL;
	int ret;

	if (pfm_ready() < 0)
		return err_set(err, ENODEV, "libpfm4 did not initialize"), -ENOENT;
	arg.fstr = &full;
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret == PFM_ERR_NOTFOUND)
		return -ENOENT;
	if (ret != PFM_SUCCESS) {
		free(full);
		return err_set(err, EINVAL, "-e %s: libpfm4: %s", name, pfm_strerror(ret));
	}
	attr->type = a.type;
	attr->config = a.config;
	attr->config1 = a.config1;
	attr->config2 = a.config2;
	strbuf_addstr(fstr, full ? full : name);
	free(full);
	return 0;
}

const char *record_pfm_core_pmu(void)
{
	static char name[64];
	pfm_pmu_info_t info;
	int pmu;

	if (pfm_ready() < 0)
		return NULL;
	pfm_for_all_pmus(pmu)
	{
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(pmu, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (info.type != PFM_PMU_TYPE_CORE || !strncmp(info.name, "perf", 4))
			continue;
		snprintf(name, sizeof(name), "%s", info.name);
		return name;
	}
	return NULL;
}
#else
int record_pfm_encode(const char *name, struct perf_event_attr *attr, struct strbuf *fstr,
		      struct err_msg *err)
{
	return -ENOENT;
}

const char *record_pfm_core_pmu(void)
{
	return NULL;
}
#endif
