// SPDX-License-Identifier: GPL-2.0
/*
 * The record stream to c2cscope: buffered writes to the fifo (or file)
 * named by --sim-out. The tool cannot use libc; VG_(open)/VG_(write) only.
 * The fd is moved out of the client's range so the program cannot close it.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"

#include "c2csim_opts.h"
#include "c2csim_out.h"

/* Core functions outside the tool API (they link). */
extern Int VG_(safe_fd)(Int oldfd);

ULong c2csim_totals[C2CSIM_NR_STATS];
Bool c2csim_disabled;

static Int out_fd = -1;
static UChar out_buf[1 << 18];
static UInt out_len;

void c2csim_out_open(void)
{
	SysRes r;

	if (!c2csim_cfg.out_path)
		return;
	r = VG_(open)(c2csim_cfg.out_path, VKI_O_WRONLY, 0);
	if (sr_isError(r)) {
		VG_(umsg)("c2csim: cannot open --sim-out=%s\n", c2csim_cfg.out_path);
		VG_(exit)(2);
	}
	out_fd = VG_(safe_fd)(sr_Res(r));
}

static void out_flush(void)
{
	UInt done = 0;

	while (out_fd >= 0 && done < out_len) {
		Int n = VG_(write)(out_fd, out_buf + done, out_len - done);

		if (n <= 0) { /* reader gone: keep simulating, stop writing */
			VG_(close)(out_fd);
			out_fd = -1;
			break;
		}
		done += n;
	}
	out_len = 0;
}

/* Room for a record; zeroed unless the caller sets every byte (samples). */
static void *out_reserve_raw(UInt type, UInt size, UInt tid, Bool zero)
{
	struct c2csim_rec *h;

	size = (size + 7) & ~7u;
	if (out_len + size > sizeof(out_buf))
		out_flush();
	h = (struct c2csim_rec *)(out_buf + out_len);
	if (zero)
		VG_(memset)(h, 0, size);
	h->type = type;
	h->size = size;
	h->tid = tid;
	out_len += size;
	return h;
}

static void *out_reserve(UInt type, UInt size, UInt tid)
{
	return out_reserve_raw(type, size, tid, True);
}

void c2csim_out_header(void)
{
	struct c2csim_header *h = out_reserve(C2CSIM_REC_HEADER, sizeof(*h), 0);

	h->magic = C2CSIM_MAGIC;
	h->version = C2CSIM_VERSION;
	h->pid = VG_(getpid)();
	h->nr_cpus = c2csim_cfg.nr_cpus;
	h->nr_nodes = c2csim_cfg.nr_nodes;
	h->line_size = c2csim_cfg.line_size;
	h->sample_rate = c2csim_cfg.sample_rate;
	h->lead = (UInt)c2csim_cfg.lead;
	h->seed = c2csim_cfg.seed;
	VG_(memcpy)(h->cost, c2csim_cfg.cost, sizeof(h->cost));
	h->hitm_rate = c2csim_cfg.hitm_rate;
}

void c2csim_out_thread(const struct slot *s, ULong time)
{
	struct c2csim_thread *t = out_reserve(C2CSIM_REC_THREAD, sizeof(*t), s->lwpid);

	t->time = time;
	t->cpu = s->cpu;
	t->node = s->node;
}

static void dev_split(ULong dev, UInt *maj, UInt *min)
{
	*maj = (UInt)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffULL));
	*min = (UInt)((dev & 0xff) | ((dev >> 12) & ~0xffULL));
}

void c2csim_out_mmap(ULong time, Addr a, SizeT len, Bool rr, Bool ww, Bool xx, const HChar *name)
{
	NSegment const *seg = VG_(am_find_nsegment)(a);
	const HChar *fname = name;
	struct c2csim_mmap *m;
	UInt flen;

	if (len == 0 || c2csim_disabled)
		return;
	if (!fname && seg && seg->kind == SkFileC)
		fname = VG_(am_get_filename)(seg);
	if (!fname)
		fname = "//anon";
	flen = VG_(strlen)(fname);
	if (flen > 1024)
		flen = 1024;
	m = out_reserve(C2CSIM_REC_MMAP, sizeof(*m) + flen + 1, VG_(getpid)());
	m->time = time;
	m->start = a;
	m->len = len;
	if (seg && seg->kind == SkFileC && !name) {
		m->pgoff = seg->offset + (a - seg->start);
		m->ino = seg->ino;
		dev_split(seg->dev, &m->maj, &m->min);
	}
	m->prot = (rr ? VKI_PROT_READ : 0) | (ww ? VKI_PROT_WRITE : 0) | (xx ? VKI_PROT_EXEC : 0);
	m->flags = VKI_MAP_PRIVATE;
	VG_(memcpy)(m->filename, fname, flen);
	m->filename[flen] = 0;
}

void c2csim_out_sample(const struct slot *s, ULong time, Addr ip, Addr addr, UInt code, UInt size)
{
	c2csim_totals[C2CSIM_ST_SAMPLES]++;
	if (time <= C2CSIM_CSAMPLE_MAX_TIME) {
		struct c2csim_csample *p =
			out_reserve_raw(C2CSIM_REC_CSAMPLE, sizeof(*p), s->lwpid, False);

		p->tcc = time << 16 | (ULong)s->cpu << 8 | code;
		p->ip = ip;
		p->addr = addr;
	} else {
		struct c2csim_sample *p =
			out_reserve_raw(C2CSIM_REC_SAMPLE, sizeof(*p), s->lwpid, False);

		p->time = time;
		p->ip = ip;
		p->addr = addr;
		p->data_src = mem_src_of_code(code);
		p->weight = c2csim_cfg.cost[c2csim_class_cost(code & MEM_SRC_CODE_CLASS)];
		p->period = mem_src_sim_period(code & C2CSIM_CODE_RATE, c2csim_cfg.sample_rate,
					       c2csim_cfg.hitm_rate);
		p->cpu = s->cpu;
		p->flags = c2csim_code_flags(code);
		p->size = size;
	}
}

void c2csim_out_rate(ULong time, UInt rate)
{
	struct c2csim_rate *r = out_reserve(C2CSIM_REC_RATE, sizeof(*r), 0);

	r->time = time;
	r->rate = rate;
}

static UInt lwpid_of(ThreadId tid)
{
	const struct slot *s = c2csim_thread_slot(tid);

	return s->lwpid ? (UInt)s->lwpid : (UInt)VG_(gettid)();
}

void c2csim_out_alloc(ThreadId tid, ULong time, Addr addr, SizeT size, UInt kind,
		      const Addr *frames, UInt nr_frames)
{
	struct c2csim_alloc *a;
	UInt i;

	if (nr_frames > C2CSIM_ALLOC_FRAMES)
		nr_frames = C2CSIM_ALLOC_FRAMES;
	a = out_reserve(C2CSIM_REC_ALLOC, sizeof(*a) + nr_frames * sizeof(a->frames[0]),
			lwpid_of(tid));
	a->time = time;
	a->addr = addr;
	a->size = size;
	a->kind = kind;
	a->nr_frames = nr_frames;
	for (i = 0; i < nr_frames; i++)
		a->frames[i] = frames[i];
}

void c2csim_out_free(ThreadId tid, ULong time, Addr addr)
{
	struct c2csim_free *f = out_reserve(C2CSIM_REC_FREE, sizeof(*f), lwpid_of(tid));

	f->time = time;
	f->addr = addr;
}

void c2csim_out_stats(void)
{
	struct c2csim_stats *st = out_reserve(C2CSIM_REC_STATS, sizeof(*st), 0);
	UInt i;

	c2csim_totals[C2CSIM_ST_THREADS] = c2csim_nr_slots;
	for (i = 0; i < c2csim_nr_slots; i++)
		c2csim_totals[C2CSIM_ST_INSNS] += c2csim_slots[i].insns;
	VG_(memcpy)(st->v, c2csim_totals, sizeof(st->v));
}

void c2csim_out_close(void)
{
	out_flush();
	if (out_fd >= 0)
		VG_(close)(out_fd);
	out_fd = -1;
}

/* In a forked child: the parent owns the stream. */
void c2csim_out_disable(void)
{
	c2csim_disabled = True;
	out_len = 0;
	if (out_fd >= 0)
		VG_(close)(out_fd);
	out_fd = -1;
}
