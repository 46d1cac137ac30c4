// SPDX-License-Identifier: GPL-2.0
/* Tracepoints: their ids from tracefs. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "record/record_int.h"

static const char *mounted_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/events/header_page", roots[i]);
		if (access(path, R_OK) == 0)
			return roots[i];
	}
	return NULL;
}

/*
 * The tracefs in use. When none is mounted, one mount on
 * /sys/kernel/tracing is tried, as perf does (it needs CAP_SYS_ADMIN; a
 * refusal leaves things as they were).
 */
const char *record_tracefs_root(void)
{
	static bool tried;
	const char *root = mounted_root();

	if (root || tried)
		return root;
	tried = true;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) < 0)
		return NULL;
	return mounted_root();
}

static bool plain_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

int record_tracepoint_id(const char *sys, const char *name, uint64_t *id, struct err_msg *err)
{
	const char *root = record_tracefs_root();
	char path[512], buf[32];
	FILE *f;
	char *end;

	if (!plain_name(sys) || !plain_name(name))
		return -ENOENT;
	if (!root)
		return err_set(err, ENODEV,
			       "-e %s:%s: tracefs is not mounted (mount -t tracefs nodev "
			       "/sys/kernel/tracing)",
			       sys, name);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, sys, name);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ?
			       -ENOENT :
			       err_set(err, errno, "%s: cannot read: %s", path, strerror(errno));
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return err_set(err, EIO, "%s: empty", path);
	}
	fclose(f);
	*id = strtoull(buf, &end, 10);
	return 0;
}
