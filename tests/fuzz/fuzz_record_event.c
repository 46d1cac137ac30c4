// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the PMU recorder's -e parser (src/record) and the sysfs
 * files it reads. The input's first line is the -e argument; its second
 * line becomes a format file (cpu/format/fz, as "config1:0-15") and its
 * third an event alias (cpu/events/fz-ev, as "event=0xcd,umask=0x1"),
 * beside the Sapphire Rapids files of tests/record/sysfs/spr, in a sysfs
 * tree of our own (C2CSCOPE_SYSFS_ROOT).
 */
#include <sys/stat.h>

#include "fuzz_common.h"
#include "record/record.h"
#include "util/xalloc.h"

static const char *const spr_files[][2] = {
	{ "cpu/type", "4\n" },
	{ "cpu/format/event", "config:0-7\n" },
	{ "cpu/format/umask", "config:8-15\n" },
	{ "cpu/format/ldlat", "config1:0-15\n" },
	{ "cpu/format/cmask", "config:24-31\n" },
	{ "cpu/format/frontend", "config1:0-23\n" },
	{ "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
	{ "cpu/events/mem-loads-aux", "event=0x03,umask=0x82\n" },
	{ "cpu/events/mem-stores", "event=0xd0,umask=0x82\n" },
	{ "software/type", "1\n" },
	{ "tracepoint/type", "2\n" },
	{ "breakpoint/type", "5\n" },
};

static char root[512];

static void put(const char *rel, const char *text, size_t len)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (!f || (len && fwrite(text, 1, len, f) != len) || fclose(f))
		abort();
}

static void make_sysfs(void)
{
	static const char *const dirs[] = {
		"", "/cpu", "/cpu/format", "/cpu/events", "/software", "/tracepoint", "/breakpoint"
	};
	char path[1024];
	size_t i;

	snprintf(root, sizeof(root), "%s/sysfs", fuzz_dir());
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		mkdir(path, 0755);
	}
	for (i = 0; i < ARRAY_SIZE(spr_files); i++)
		put(spr_files[i][0], spr_files[i][1], strlen(spr_files[i][1]));
	setenv("C2CSCOPE_SYSFS_ROOT", root, 1);
}

/* The next line of text (up to a newline or the end); *text moves past it. */
static size_t next_line(const char **text, const char *end, const char **line)
{
	const char *nl = memchr(*text, '\n', end - *text);
	size_t len = (nl ? nl : end) - *text;

	*line = *text;
	*text = nl ? nl + 1 : end;
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *line;
	struct record_evlist l = { 0 };
	struct err_msg err;
	char *spec;
	size_t len;

	if (!root[0])
		make_sysfs();
	len = next_line(&p, end, &line);
	spec = fuzz_string((const uint8_t *)line, len);
	len = next_line(&p, end, &line);
	put("cpu/format/fz", line, len);
	len = next_line(&p, end, &line);
	put("cpu/events/fz-ev", line, len);
	record_evlist_parse(&l, spec, &err);
	record_evlist_release(&l);
	free(spec);
	return 0;
}
