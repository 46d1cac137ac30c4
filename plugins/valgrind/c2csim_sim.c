// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation proper. Each thread buffers its accesses stamped with its
 * own virtual clock; c2csim_sim_merge() takes them out of all buffers in virtual
 * time order (a heap over the threads' oldest events), up to the clock of
 * the slowest thread that can still run, and runs a MESI model of one
 * private cache per virtual cpu on that merged stream. Valgrind's one-thread-
 * at-a-time slices therefore do not decide the interleaving.
 *
 * Classification (per cache line, per access):
 *   load, line valid in my cache              -> L1 hit
 *   load, Modified in another cpu             -> HITM (local: same node)
 *   load, clean copies elsewhere only         -> peer hit (local: same node)
 *   load, no cache holds it                   -> DRAM, local when the page
 *                                                was first touched from my node
 *   store, I own it (M or E)                  -> store L1 hit
 *   store, anything else                      -> store L1 miss (RFO)
 *   locked RMW: classified like a load that then takes ownership, LOCKED.
 * Every HITM and store miss is sampled (period 1); other accesses 1 in
 * sample_rate on average (random gaps from the seed, period sample_rate).
 * Past the budget (c2csim_cfg.max_samples) every such sample is kept with
 * probability 1/hitm_rate, and its period is multiplied by hitm_rate (see
 * struct c2csim_rate): the rate doubles each time the budget fills.
 */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "c2csim_opts.h"
#include "c2csim_out.h"
#include "c2csim_sim.h"

/* ---- pages: an open-addressing table keyed by page number ---------------- */

struct page {
	ULong tag; /* page number + 1; 0 = empty */
	UInt node; /* the node that touched it first */
};

struct table {
	struct page *e;
	ULong mask, used;
};

static struct table pages;

static void table_init(struct table *t, ULong n)
{
	t->e = VG_(calloc)("c2csim.table", n, sizeof(*t->e));
	t->mask = n - 1;
	t->used = 0;
}

static struct page *table_slot(struct table *t, ULong tag)
{
	ULong i = (tag * 0x9E3779B97F4A7C15ULL) >> 20;

	for (;; i++) {
		struct page *p = &t->e[i & t->mask];

		if (p->tag == tag || p->tag == 0)
			return p;
	}
}

static void table_grow(struct table *t)
{
	struct table old = *t;
	ULong i;

	table_init(t, (old.mask + 1) * 2);
	for (i = 0; i <= old.mask; i++) {
		if (old.e[i].tag) {
			*table_slot(t, old.e[i].tag) = old.e[i];
			t->used++;
		}
	}
	VG_(free)(old.e);
}

/* The entry for number k, created (zeroed) when absent. */
static struct page *table_get(struct table *t, ULong k, Bool *created)
{
	struct page *p = table_slot(t, k + 1);

	*created = p->tag == 0;
	if (p->tag == 0) {
		if ((t->used + 1) * 2 > t->mask + 1) {
			table_grow(t);
			p = table_slot(t, k + 1);
		}
		p->tag = k + 1;
		t->used++;
	}
	return p;
}

/*
 * ---- lines: the MESI state of every line touched, in chunks ---------------
 * A chunk holds 4096 consecutive lines (256 KiB of memory), found through a
 * small directory, so that neighbouring lines (a memcpy, a scan) sit side
 * by side, 4 to a host cache line: a hash of the line number put each one
 * in a cache miss of its own.
 */
#define CHUNK_SHIFT 12
#define CHUNK_LINES (1u << CHUNK_SHIFT)
#define DIR_CACHE 64

struct line {
	ULong sharers; /* cpus holding a valid copy */
	signed int owner : 8; /* cpu holding it M or E, or -1 */
	UInt dirty : 1; /* Modified */
	UInt solo : 23; /* sim_fast: the slot (+ 1) that touched it last, 0: none yet */
	UInt epoch; /* sim_fast: virtual time >> EPOCH_SHIFT when solo took it */
};
#define SOLO_MAX 0x7fffffu /* c2csim_slots from here on share this id and no fast path */
#define EPOCH_SHIFT 10

static struct {
	ULong *no; /* chunk number + 1; 0 = empty */
	struct line **chunk;
	ULong mask, used;
	ULong cache_no[DIR_CACHE]; /* chunks found lately (+ 1), by their low bits */
	struct line *cache[DIR_CACHE];
} dir;

static void dir_init(ULong n)
{
	dir.no = VG_(calloc)("c2csim.dir", n, sizeof(*dir.no));
	dir.chunk = VG_(calloc)("c2csim.dir", n, sizeof(*dir.chunk));
	dir.mask = n - 1;
	dir.used = 0;
}

static ULong dir_slot(ULong tag)
{
	ULong i = (tag * 0x9E3779B97F4A7C15ULL) >> 24;

	while (dir.no[i & dir.mask] != tag && dir.no[i & dir.mask])
		i++;
	return i & dir.mask;
}

static void dir_grow(void)
{
	ULong *no = dir.no, n = dir.mask + 1, i, j;
	struct line **chunk = dir.chunk;

	dir_init(n * 2);
	for (i = 0; i < n; i++) {
		if (no[i]) {
			j = dir_slot(no[i]);
			dir.no[j] = no[i];
			dir.chunk[j] = chunk[i];
			dir.used++;
		}
	}
	VG_(free)(no);
	VG_(free)(chunk);
}

static struct line *dir_chunk(ULong tag)
{
	ULong i = dir_slot(tag), k;

	if (dir.no[i])
		return dir.chunk[i];
	if ((dir.used + 1) * 2 > dir.mask + 1) {
		dir_grow();
		i = dir_slot(tag);
	}
	dir.no[i] = tag;
	dir.chunk[i] = VG_(malloc)("c2csim.lines", CHUNK_LINES * sizeof(struct line));
	for (k = 0; k < CHUNK_LINES; k++)
		dir.chunk[i][k] = (struct line){ .owner = -1 };
	dir.used++;
	return dir.chunk[i];
}

/* The state of line number lineno (invalid everywhere when never touched). */
static inline struct line *line_get(ULong lineno)
{
	ULong tag = (lineno >> CHUNK_SHIFT) + 1;
	UInt k = tag & (DIR_CACHE - 1);

	if (tag != dir.cache_no[k]) { /* a program's heap, data and buffers: a few chunks */
		dir.cache[k] = dir_chunk(tag);
		dir.cache_no[k] = tag;
	}
	return &dir.cache[k][lineno & (CHUNK_LINES - 1)];
}

/* ---- optional capacity: a FIFO of line numbers per cpu ------------------- */

static ULong *fifo[C2CSIM_MAX_CPUS];
static ULong fifo_head[C2CSIM_MAX_CPUS], fifo_n[C2CSIM_MAX_CPUS];

static void cache_insert(UInt cpu, ULong lineno)
{
	struct line *old;
	ULong victim;

	if (!c2csim_cfg.cache_lines)
		return;
	fifo[cpu][(fifo_head[cpu] + fifo_n[cpu]++) % c2csim_cfg.cache_lines] = lineno;
	if (fifo_n[cpu] <= c2csim_cfg.cache_lines)
		return;
	/* Full: the oldest insertion leaves this cpu's cache (written back). */
	victim = fifo[cpu][fifo_head[cpu]];
	fifo_head[cpu] = (fifo_head[cpu] + 1) % c2csim_cfg.cache_lines;
	fifo_n[cpu]--;
	if (victim == lineno)
		return;
	old = line_get(victim);
	old->sharers &= ~(1ULL << cpu);
	if (old->owner == (Int)cpu) {
		old->owner = -1;
		old->dirty = 0;
	}
}

/* ---- classification ------------------------------------------------------ */

static const UInt cls_stat[] = {
	[MEM_SRC_CLS_L1] = C2CSIM_ST_L1_HIT,	     [MEM_SRC_CLS_LCL_PEER] = C2CSIM_ST_LCL_PEER,
	[MEM_SRC_CLS_RMT_PEER] = C2CSIM_ST_RMT_PEER, [MEM_SRC_CLS_LCL_HITM] = C2CSIM_ST_LCL_HITM,
	[MEM_SRC_CLS_RMT_HITM] = C2CSIM_ST_RMT_HITM, [MEM_SRC_CLS_LCL_DRAM] = C2CSIM_ST_LCL_DRAM,
	[MEM_SRC_CLS_RMT_DRAM] = C2CSIM_ST_RMT_DRAM,
};

static ULong node_cpus[C2CSIM_MAX_NODES];

static ULong rng_next(struct slot *s)
{
	return c2csim_xorshift(&s->rng);
}

/*
 * Random gaps averaging sample_rate, one stream per thread (seeded from the
 * seed and the thread's creation index), so that a few more or fewer
 * accesses in one thread do not shift every other thread's samples.
 */
static void sample_gap_next(struct slot *s)
{
	s->sample_gap = c2csim_cfg.sample_rate <= 1 ?
				1 :
				1 + rng_next(s) % (2 * c2csim_cfg.sample_rate - 1);
}

static inline Bool sample_this(struct slot *s)
{
	if (LIKELY(--s->sample_gap))
		return False;
	sample_gap_next(s);
	return True;
}

/* Where a load that misses my cache finds the line. */
static enum mem_src_class classify_miss(struct line *l, ULong lineno, UInt node)
{
	Bool created;
	struct page *pg;

	if (l->owner >= 0 && l->dirty)
		return (node_cpus[node] >> l->owner) & 1 ? MEM_SRC_CLS_LCL_HITM :
							   MEM_SRC_CLS_RMT_HITM;
	if (l->sharers)
		return l->sharers & node_cpus[node] ? MEM_SRC_CLS_LCL_PEER : MEM_SRC_CLS_RMT_PEER;
	pg = table_get(&pages, (lineno << c2csim_cfg.line_shift) >> 12, &created);
	if (created)
		pg->node = node;
	return pg->node == node ? MEM_SRC_CLS_LCL_DRAM : MEM_SRC_CLS_RMT_DRAM;
}

static ULong budget_used; /* samples written since the rate last grew, halved then */

/*
 * Thinning: a sample is kept with probability 1/hitm_rate. When the kept
 * ones fill the budget, the rate doubles; the converter keeps each sample
 * already written with probability 1/2, so about half the budget is used.
 */
static void budget_note(ULong time)
{
	if (c2csim_cfg.max_samples && ++budget_used >= c2csim_cfg.max_samples &&
	    c2csim_cfg.hitm_rate <= 1u << 30) {
		c2csim_cfg.hitm_rate *= 2;
		budget_used /= 2;
		c2csim_out_rate(time, c2csim_cfg.hitm_rate);
	}
}

/* Thinned out (kept with probability 1/hitm_rate)? The budget's rates are
 * powers of 2: a mask, the same answer as the remainder, not a division per
 * HITM. */
static inline Bool thin_out(struct slot *s)
{
	ULong x = c2csim_xorshift(&s->thin_rng);

	return c2csim_cfg.hitm_rate & (c2csim_cfg.hitm_rate - 1) ?
		       x % c2csim_cfg.hitm_rate != 0 :
		       (x & (c2csim_cfg.hitm_rate - 1)) != 0;
}

/* A sample of code (C2CSIM_CODE_*): always, or 1 in sample_rate; then thinned. */
static void emit(struct slot *s, ULong time, const struct ev *e, Addr addr, UInt code, Bool always)
{
	if (!always && !(e->key & EV_FORCE) && !sample_this(s))
		return;
	if (c2csim_cfg.hitm_rate > 1 && thin_out(s))
		return;
	c2csim_out_sample(s, time, e->ip, addr, always ? code : code | C2CSIM_CODE_RATE,
			  (e->key >> 2) & EV_SIZE_MASK);
	budget_note(time);
}

static void load_line(struct slot *s, ULong time, const struct ev *e, Addr addr, Bool locked)
{
	ULong lineno = addr >> c2csim_cfg.line_shift, me = 1ULL << s->cpu;
	Bool hitm;
	struct line *l = line_get(lineno);
	enum mem_src_class c;

	if (l->sharers & me && !(locked && l->owner != (Int)s->cpu && (l->sharers & ~me)))
		c = MEM_SRC_CLS_L1;
	else
		c = classify_miss(l, lineno, s->node);
	hitm = c == MEM_SRC_CLS_LCL_HITM || c == MEM_SRC_CLS_RMT_HITM;
	c2csim_totals[cls_stat[c]]++;
	if (!(l->sharers & me))
		cache_insert(s->cpu, lineno);
	if (locked) { /* takes the line Modified */
		l->sharers = me;
		l->owner = s->cpu;
		l->dirty = 1;
	} else if (c == MEM_SRC_CLS_LCL_DRAM || c == MEM_SRC_CLS_RMT_DRAM) {
		l->sharers = me; /* Exclusive */
		l->owner = s->cpu;
		l->dirty = 0;
	} else if (c != MEM_SRC_CLS_L1) { /* the owner (if any) drops to Shared */
		l->sharers |= me;
		l->owner = -1;
		l->dirty = 0;
	}
	emit(s, time, e, addr, c | (locked ? MEM_SRC_CODE_LOCKED : 0), hitm);
}

static void store_line(struct slot *s, ULong time, const struct ev *e, Addr addr)
{
	ULong lineno = addr >> c2csim_cfg.line_shift, me = 1ULL << s->cpu;
	struct line *l = line_get(lineno);
	enum mem_src_class c = MEM_SRC_CLS_L1; /* a hit: I own it */

	if (l->owner == (Int)s->cpu) {
		c2csim_totals[C2CSIM_ST_ST_HIT]++;
	} else {
		c2csim_totals[C2CSIM_ST_ST_MISS]++;
		c = classify_miss(l, lineno, s->node); /* where the RFO finds it: the cost */
		if (!(l->sharers & me))
			cache_insert(s->cpu, lineno);
	}
	l->sharers = me;
	l->owner = s->cpu;
	l->dirty = 1;
	emit(s, time, e, addr, c | MEM_SRC_CODE_STORE, c != MEM_SRC_CLS_L1);
}

/* The most lines one access touches (wide dirty helpers touch more: cut). */
#define ACCESS_LINES_MAX 8

/* The line of an access's last byte. */
static inline ULong access_last_line(Addr addr, UInt size)
{
	return (addr + (size ? size - 1 : 0)) >> c2csim_cfg.line_shift;
}

/* One access: every line it touches (at most ACCESS_LINES_MAX). */
static void sim_access(struct slot *s, const struct ev *e)
{
	ULong time = e->key >> EV_TIME_SHIFT;
	UInt kind = e->key & 3, size = (e->key >> 2) & EV_SIZE_MASK;
	Addr line = e->addr >> c2csim_cfg.line_shift, last, a;
	UInt i;

	if (kind == EV_MIGRATE) {
		s->cpu = (UInt)e->addr;
		s->node = s->cpu % c2csim_cfg.nr_nodes;
		c2csim_out_thread(s, time);
		return;
	}
	c2csim_totals[kind == EV_LOAD  ? C2CSIM_ST_LOADS :
		      kind == EV_STORE ? C2CSIM_ST_STORES :
					 C2CSIM_ST_ATOMICS]++;
	last = access_last_line(e->addr, size);
	for (i = 0; line <= last && i < ACCESS_LINES_MAX; line++, i++) {
		a = i ? line << c2csim_cfg.line_shift : e->addr;
		if (kind == EV_STORE)
			store_line(s, time, e, a);
		else
			load_line(s, time, e, a, kind == EV_ATOMIC);
	}
}

/*
 * The fast path, at push time: an access within one line that only this
 * thread has touched since a lead window before the merge frontier, and
 * that its cpu already holds as the access needs (a copy for a load, M or E
 * for a store or atomic), is an L1 hit whatever the merge's order, so it is
 * counted here and not buffered. Each line remembers the thread that
 * touched it last and when that thread took it over from another (or
 * touched it first): every access another thread made before was pushed
 * earlier, at a virtual time within a lead window of that moment, so once
 * the frontier is a window past it they are all merged and the line's
 * state is final for them. Lines that threads fight over change hands
 * within a window and never qualify, so their accesses are all merged; a
 * buffer that one thread fills and another reads later (a message, a work
 * item, memory the main thread initialised) is fast again a window after
 * each hand-over. What is approximate: when another thread's next access
 * to such a line comes while the owner runs ahead of it, up to a lead
 * window of the owner's accesses after it are counted as hits
 * (tests/sim/fastpath.sh: no HITM differs on the samples and the
 * sched-core model). When the sampling gap picks an access, it is
 * buffered after all, flagged, and the merge classifies and samples it.
 */
static inline Bool fast_owner(struct line *l, UInt me, ULong key)
{
	if (l->solo == me)
		return True;
	l->solo = me;
	l->epoch = (UInt)((key >> EV_TIME_SHIFT) >> EPOCH_SHIFT);
	return False;
}

static inline Bool sim_fast(struct slot *s, ULong *key, Addr addr)
{
	UInt kind = *key & 3, size = (*key >> 2) & EV_SIZE_MASK;
	UInt me = s - c2csim_slots + 1 < SOLO_MAX ? (UInt)(s - c2csim_slots) + 1 : SOLO_MAX;
	ULong first = addr >> c2csim_cfg.line_shift, last = access_last_line(addr, size), lineno;
	struct line *l;

	if (kind == EV_MIGRATE || c2csim_cfg.cache_lines) /* a capacity: never fast */
		return False;
	if (last != first || s->cpu != s->next_cpu || me == SOLO_MAX) {
		for (lineno = first; lineno <= last && lineno - first < ACCESS_LINES_MAX; lineno++)
			fast_owner(line_get(lineno), me, *key); /* they change hands all the same */
		return False;
	}
	l = line_get(first);
	if (!fast_owner(l, me, *key))
		return False;
	/* signed: a thread ahead of the frontier may have taken it later */
	if ((Int)((UInt)(c2csim_merged_upto >> EPOCH_SHIFT) - l->epoch) <=
		    (Int)(c2csim_cfg.lead >> EPOCH_SHIFT) + 1 ||
	    (kind == EV_LOAD ? !(l->sharers >> s->cpu & 1) : l->owner != (Int)s->cpu))
		return False;
	if (sample_this(s)) { /* its gap picked it: the merge samples it */
		*key |= EV_FORCE;
		return False;
	}
	c2csim_totals[kind == EV_LOAD  ? C2CSIM_ST_LOADS :
		      kind == EV_STORE ? C2CSIM_ST_STORES :
					 C2CSIM_ST_ATOMICS]++;
	c2csim_totals[kind == EV_STORE ? C2CSIM_ST_ST_HIT : C2CSIM_ST_L1_HIT]++;
	if (kind != EV_LOAD)
		l->dirty = 1;
	return True;
}

/* ---- per-thread buffers and the merge ------------------------------------ */

void c2csim_sim_init(void)
{
	UInt c;

	dir_init(1 << 8);
	table_init(&pages, 1 << 10);
	for (c = 0; c < c2csim_cfg.nr_cpus; c++) {
		node_cpus[c % c2csim_cfg.nr_nodes] |= 1ULL << c;
		if (c2csim_cfg.cache_lines)
			fifo[c] =
				VG_(malloc)("c2csim.fifo", c2csim_cfg.cache_lines * sizeof(ULong));
	}
}

static void buffer_full(struct slot *s, ULong now);

static inline void push(struct slot *s, ULong key, Addr addr, Addr ip)
{
	struct ev *e;

	if (s->n - s->head == s->cap)
		buffer_full(s, key >> EV_TIME_SHIFT);
	e = &s->buf[s->n++ & (s->cap - 1)];
	e->key = key;
	e->addr = addr;
	e->ip = ip;
}

void c2csim_sim_migrate(struct slot *s, UInt cpu)
{
	push(s, (s->clock << EV_TIME_SHIFT) | EV_MIGRATE, cpu, 0);
}

/*
 * The generated code's one call per access (c2csim_ir.c): the fast path,
 * else the buffer. packed = (instruction index - instructions already
 * counted + 1) << 16 | size << 2 | kind. Here, not there, so that the fast
 * path and the push are inlined into it.
 */
VG_REGPARM(3) void c2csim_sim_on_access(Addr addr, Addr ip, UWord packed)
{
	struct slot *s = c2csim_cur;
	ULong key;

	if (addr - c2csim_stack_lo < c2csim_stack_len) {
		c2csim_totals[C2CSIM_ST_STACK_SKIPPED]++;
		return;
	}
	if (UNLIKELY(!s || c2csim_disabled))
		return;
	key = ((c2csim_clock + (packed >> 16) - 1) << EV_TIME_SHIFT) | (packed & 0xffff);
	if (!c2csim_cfg.fast || !sim_fast(s, &key, addr))
		push(s, key, addr, ip);
}

static ULong head_time(const struct slot *s)
{
	return s->buf[s->head & (s->cap - 1)].key >> EV_TIME_SHIFT;
}

/*
 * Heap of the c2csim_slots with buffered events, ordered by (oldest event time,
 * slot index). Each entry keeps its slot's oldest time, so comparisons do
 * not reach into the buffers: the merge takes one heap step per event
 * when the threads' clocks are close, as they are when they run in step.
 */
struct hent {
	ULong t;
	UInt slot;
};

static struct hent *heap;
static UInt heap_n, heap_cap;

static inline Bool hent_less(const struct hent *a, const struct hent *b)
{
	return a->t < b->t || (a->t == b->t && a->slot < b->slot);
}

static void heap_sift_down(UInt i)
{
	struct hent x = heap[i];

	for (;;) {
		UInt l = 2 * i + 1, m;

		if (l >= heap_n)
			break;
		m = l + 1 < heap_n && hent_less(&heap[l + 1], &heap[l]) ? l + 1 : l;
		if (!hent_less(&heap[m], &x))
			break;
		heap[i] = heap[m];
		i = m;
	}
	heap[i] = x;
}

static void heap_build(void)
{
	UInt i;

	if (heap_cap < c2csim_nr_slots) {
		heap_cap = c2csim_nr_slots * 2;
		heap = VG_(realloc)("c2csim.heap", heap, heap_cap * sizeof(*heap));
	}
	heap_n = 0;
	for (i = 0; i < c2csim_nr_slots; i++)
		if (c2csim_slots[i].head != c2csim_slots[i].n) {
			heap[heap_n].t = head_time(&c2csim_slots[i]);
			heap[heap_n++].slot = i;
		}
	for (i = heap_n / 2; i-- > 0;)
		heap_sift_down(i);
}

/* Runs the top slot's events while they stay before every other slot's. */
static Bool merge_run_top(ULong frontier)
{
	UInt top = heap[0].slot;
	struct slot *s = &c2csim_slots[top];
	struct hent next = { ~0ULL, ~0u }; /* the heap's second: the lesser child */
	struct hent cur = { 0, top };

	if (heap_n > 1)
		next = heap_n > 2 && hent_less(&heap[2], &heap[1]) ? heap[2] : heap[1];
	while (s->head != s->n) {
		cur.t = head_time(s);
		if (cur.t >= frontier) {
			heap[0].t = cur.t;
			return False;
		}
		if (heap_n > 1 && !hent_less(&cur, &next))
			break;
		if (cur.t >= c2csim_merged_upto)
			c2csim_merged_upto = cur.t + 1;
		sim_access(s, &s->buf[s->head++ & (s->cap - 1)]);
	}
	if (s->head == s->n) {
		s->head = s->n = 0;
		heap[0] = heap[--heap_n];
	} else {
		heap[0].t = cur.t;
	}
	if (heap_n)
		heap_sift_down(0);
	return True;
}

static void merge_until(ULong frontier)
{
	heap_build();
	while (heap_n && merge_run_top(frontier))
		;
	if (frontier != ~0ULL && frontier > c2csim_merged_upto)
		c2csim_merged_upto = frontier;
}

void c2csim_sim_merge(struct slot *running, ULong running_clock)
{
	ULong frontier = ~0ULL;
	UInt i;

	if (c2csim_disabled)
		return;
	for (i = 0; i < c2csim_nr_slots; i++) {
		const struct slot *s = &c2csim_slots[i];
		ULong c = s == running ? running_clock : s->clock;

		if (s->live && s->state == SL_READY && c < frontier)
			frontier = c;
	}
	if (frontier != ~0ULL) /* nobody READY: a wake will come at a later clock */
		merge_until(frontier);
}

void c2csim_sim_drain(void)
{
	ULong last = c2csim_merged_upto;
	UInt i;

	merge_until(~0ULL);
	for (i = 0; i < c2csim_nr_slots; i++)
		if (c2csim_slots[i].clock > last)
			last = c2csim_slots[i].clock;
	c2csim_merged_upto = last;
}

/*
 * The buffer is a ring (head and n count events, modulo cap): the merge
 * takes from the head while the thread adds at n, and nothing is moved
 * until it grows (compacting what the merge left cost 8% of the sched-core
 * model's profile: a thread ahead keeps a lead window of events).
 */
static void buffer_full(struct slot *s, ULong now)
{
	UInt used, i;

	c2csim_sim_merge(s, now);
	used = s->n - s->head;
	if (s->cap == 0 || used * 4 > s->cap * 3) { /* what the merge left: in order, in 2x */
		struct ev *buf =
			VG_(malloc)("c2csim.buf", (s->cap ? s->cap * 2 : 1 << 16) * sizeof(*buf));

		for (i = 0; i < used; i++)
			buf[i] = s->buf[(s->head + i) & (s->cap - 1)];
		VG_(free)(s->buf);
		s->buf = buf;
		s->head = 0;
		s->n = used;
		s->cap = s->cap ? s->cap * 2 : 1 << 16;
	}
}
