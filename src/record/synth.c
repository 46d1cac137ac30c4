// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel will not tell us about tasks that existed before the
 * counters did: COMM, FORK (threads) and MMAP2 records from /proc, as perf
 * record synthesizes them; kernel modules from /proc/modules; build ids
 * of the files the samples' maps name.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "record/session_int.h"
#include "util/xalloc.h"

static int synth_modules(struct record_session *s)
{
	char line[512], name[128];
	unsigned long long size, addr;
	FILE *f = fopen("/proc/modules", "re");
	int ret = 0;

	while (f && !ret && fgets(line, sizeof(line), f)) {
		struct perf_mmap m = { .pid = (uint32_t)-1,
				       .cpumode = PERF_RECORD_MISC_KERNEL,
				       .is_mmap2 = true,
				       .prot = PROT_READ | PROT_EXEC };
		char file[160];

		if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size, &addr) != 3)
			continue;
		if (!addr) {
			s->st.note =
				"kernel.kptr_restrict hides kernel addresses: kernel samples "
				"will not resolve (sysctl kernel.kptr_restrict=0, or run as root)";
			break;
		}
		snprintf(file, sizeof(file), "[%s]", name);
		m.start = addr;
		m.len = size;
		m.filename = file;
		ret = perf_writer_mmap2(s->w, &m, 0);
	}
	if (f)
		fclose(f);
	return ret;
}

static int read_comm(int pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)size, f)) {
		if (f)
			fclose(f);
		return -ENOENT;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

bool record_maps_line(char *line, struct perf_mmap *m)
{
	unsigned long long start, end, off, ino;
	unsigned int maj, min;
	char perms[8];
	int name_at = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj, &min,
		   &ino, &name_at) < 7)
		return false;
	line[strcspn(line, "\n")] = 0;
	m->start = start;
	m->len = end - start;
	m->pgoff = off;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  (perms[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	m->filename = name_at && line[name_at] ? line + name_at : "//anon";
	return true;
}

static int synth_maps(struct record_session *s, int pid)
{
	char path[64], line[4096 + 128];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	while (f && !ret && fgets(line, sizeof(line), f)) {
		struct perf_mmap m = { .pid = (uint32_t)pid,
				       .tid = (uint32_t)pid,
				       .is_mmap2 = true,
				       .cpumode = PERF_RECORD_MISC_USER };

		if (!record_maps_line(line, &m) || !strcmp(m.filename, "[vsyscall]"))
			continue;
		record_session_note_dso(s, m.filename);
		ret = perf_writer_mmap2(s->w, &m, 0);
		s->st.mmaps += !ret;
	}
	if (f)
		fclose(f);
	return ret;
}

/* COMM for every thread, FORK for threads other than the leader, then the maps. */
static int synth_process(struct record_session *s, int pid)
{
	char dir[64], comm[64];
	struct dirent *d;
	DIR *td;
	int ret = 0;

	if (read_comm(pid, comm, sizeof(comm)))
		return 0; /* gone meanwhile */
	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	td = opendir(dir);
	while (td && !ret && (d = readdir(td))) {
		int tid = atoi(d->d_name);
		struct perf_comm c = { .pid = (uint32_t)pid, .tid = (uint32_t)tid, .comm = comm };
		struct perf_task t = { .pid = (uint32_t)pid,
				       .ppid = (uint32_t)pid,
				       .tid = (uint32_t)tid,
				       .ptid = (uint32_t)pid };

		if (tid <= 0)
			continue;
		ret = perf_writer_comm(s->w, &c, 0);
		if (!ret && tid != pid)
			ret = perf_writer_task(s->w, true, &t);
	}
	if (td)
		closedir(td);
	return ret ? ret : synth_maps(s, pid);
}

/* The process a thread belongs to (its Tgid), or the tid itself. */
static int tgid_of(int tid)
{
	char path[64], line[256];
	int tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	if (f)
		fclose(f);
	return tgid;
}

static int synth_all(struct record_session *s)
{
	struct dirent *d;
	DIR *proc = opendir("/proc");
	int ret = 0;

	while (proc && !ret && (d = readdir(proc)))
		if (isdigit((unsigned char)d->d_name[0]))
			ret = synth_process(s, atoi(d->d_name));
	if (proc)
		closedir(proc);
	return ret;
}

static int synth_tasks(struct record_session *s)
{
	struct hashmap done;
	size_t i;
	int ret = 0;

	hashmap_init(&done);
	for (i = 0; !ret && i < s->nr_tasks; i++) {
		int pid = tgid_of(s->tasks[i]);

		if (hashmap_get(&done, (uint64_t)pid))
			continue;
		hashmap_put(&done, (uint64_t)pid, (void *)1);
		ret = synth_process(s, pid);
	}
	hashmap_release(&done);
	return ret;
}

static int synth_kept(struct record_session *s)
{
	size_t iter = 0;
	uint64_t pid;
	void *val;
	int ret = 0;

	while (!ret && hashmap_next(&s->keep_pids, &iter, &pid, &val))
		ret = synth_process(s, (int)pid);
	return ret;
}

int record_session_synthesize(struct record_session *s, struct err_msg *err)
{
	int ret = synth_modules(s);

	if (ret || (s->child > 0 && s->per_task))
		; /* a command's COMM and MMAP2 come from the kernel as it execs */
	else if (s->filter)
		ret = synth_kept(s);
	else if (s->per_task)
		ret = synth_tasks(s);
	else
		ret = synth_all(s);
	if (ret)
		return err_set(err, -ret, "%s: cannot write: %s", s->path, strerror(-ret));
	return 0;
}

void record_session_note_dso(struct record_session *s, const char *filename)
{
	uint64_t key;

	if (filename[0] != '/')
		return;
	key = hash_str(filename);
	if (!hashmap_get(&s->dsos, key))
		hashmap_put(&s->dsos, key, xstrdup(filename));
}

void record_session_write_build_ids(struct record_session *s)
{
	size_t iter = 0;
	uint64_t key;
	void *val;

	while (hashmap_next(&s->dsos, &iter, &key, &val)) {
		struct perf_build_id bid = { .pid = -1, .filename = val };

		if (!perf_build_id_of_file(val, bid.id, &bid.size, NULL))
			perf_writer_build_id(s->w, &bid);
		free(val);
	}
	hashmap_release(&s->dsos);
}
