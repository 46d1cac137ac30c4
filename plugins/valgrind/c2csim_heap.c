// SPDX-License-Identifier: GPL-2.0
/*
 * The program's allocator, replaced the way Massif and DHAT replace it:
 * vgpreload_c2csim-amd64-linux.so (Valgrind's own replacement functions,
 * libreplacemalloc_toolpreload, linked whole) redirects malloc, calloc,
 * realloc, free, memalign, posix_memalign, aligned_alloc, valloc and C++
 * new/delete to the functions below, which run on the tool's side of the
 * client request. Blocks come from Valgrind's client arena
 * (VG_(cli_malloc)); each one given out or back is an ALLOC or FREE record
 * (c2csim_proto.h), with the allocating stack.
 *
 * The allocator's own instructions are not client code any more: they are
 * neither simulated nor counted in the virtual clock (glibc's arena
 * locks and chunk headers no longer show up as sharing). The cost is per
 * call; the per-access path is unchanged.
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"

#include "c2csim_heap.h"
#include "c2csim_out.h"

struct block {
	struct block *next; /* VgHashNode's layout: next, then key */
	UWord addr;
	SizeT size;
};

static VgHashTable *blocks;
/* Client-arena segments already announced as [heap] mappings. */
static Addr *heap_segs;
static UInt nr_heap_segs, heap_segs_cap;

/* The clock of tid: the running thread's lives in c2csim_clock. */
static ULong heap_clock(ThreadId tid)
{
	struct slot *s = c2csim_thread_slot(tid);

	return c2csim_cur == s ? c2csim_clock : s->clock;
}

/* The arena segment holding a, as a mapping perf can see, once. */
static void announce_segment(ULong time, Addr a)
{
	NSegment const *seg = VG_(am_find_nsegment)(a);
	UInt i;

	if (!seg)
		return;
	for (i = 0; i < nr_heap_segs; i++)
		if (heap_segs[i] == seg->start)
			return;
	if (nr_heap_segs == heap_segs_cap) {
		heap_segs_cap = heap_segs_cap ? heap_segs_cap * 2 : 16;
		heap_segs = VG_(realloc)("c2csim.heapsegs", heap_segs,
					 heap_segs_cap * sizeof(*heap_segs));
	}
	heap_segs[nr_heap_segs++] = seg->start;
	c2csim_out_mmap(time, seg->start, seg->end + 1 - seg->start, True, True, False, "[heap]");
}

static void *block_new(ThreadId tid, SizeT align, SizeT n, UInt kind, Bool zero)
{
	Addr frames[C2CSIM_ALLOC_FRAMES + 1];
	struct block *b;
	void *p;
	UInt nr;
	ULong time;

	p = VG_(cli_malloc)(align, n);
	if (!p)
		return NULL;
	if (zero)
		VG_(memset)(p, 0, n);
	b = VG_(malloc)("c2csim.block", sizeof(*b));
	b->addr = (UWord)p;
	b->size = n;
	VG_(HT_add_node)(blocks, b);
	c2csim_totals[C2CSIM_ST_ALLOCS]++;
	if (c2csim_disabled)
		return p;
	/* frame 0 is the replacement function in the preload: skip it */
	nr = VG_(get_StackTrace)(tid, frames, C2CSIM_ALLOC_FRAMES + 1, NULL, NULL, 0);
	time = heap_clock(tid);
	announce_segment(time, (Addr)p);
	c2csim_out_alloc(tid, time, (Addr)p, n, kind, nr > 1 ? frames + 1 : frames,
			 nr > 1 ? nr - 1 : 0);
	return p;
}

static void block_free(ThreadId tid, void *p)
{
	struct block *b = VG_(HT_remove)(blocks, (UWord)p);

	if (!b) /* not ours (or a double free): leave it to the arena's checks */
		return;
	c2csim_totals[C2CSIM_ST_FREES]++;
	if (!c2csim_disabled)
		c2csim_out_free(tid, heap_clock(tid), (Addr)p);
	VG_(free)(b);
	VG_(cli_free)(p);
}

static void *c2c_malloc(ThreadId tid, SizeT n)
{
	return block_new(tid, VG_(clo_alignment), n, C2CSIM_ALLOC_MALLOC, False);
}

static void *c2c_new(ThreadId tid, SizeT n)
{
	return block_new(tid, VG_(clo_alignment), n, C2CSIM_ALLOC_NEW, False);
}

static void *c2c_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
	return block_new(tid, align, n, C2CSIM_ALLOC_NEW, False);
}

static void *c2c_vec_new(ThreadId tid, SizeT n)
{
	return block_new(tid, VG_(clo_alignment), n, C2CSIM_ALLOC_NEW_ARRAY, False);
}

static void *c2c_vec_new_aligned(ThreadId tid, SizeT n, SizeT align)
{
	return block_new(tid, align, n, C2CSIM_ALLOC_NEW_ARRAY, False);
}

static void *c2c_memalign(ThreadId tid, SizeT align, SizeT n)
{
	return block_new(tid, align, n, C2CSIM_ALLOC_MALLOC, False);
}

static void *c2c_calloc(ThreadId tid, SizeT nmemb, SizeT size)
{
	if (size && nmemb > (SizeT)-1 / size) /* the preload checks too */
		return NULL;
	return block_new(tid, VG_(clo_alignment), nmemb * size, C2CSIM_ALLOC_CALLOC, True);
}

static void c2c_free(ThreadId tid, void *p)
{
	block_free(tid, p);
}

static void c2c_free_aligned(ThreadId tid, void *p, SizeT align)
{
	block_free(tid, p);
}

/* A new block, the old contents copied, the old block freed: as memcheck does. */
static void *c2c_realloc(ThreadId tid, void *p, SizeT n)
{
	struct block *old;
	void *q;

	if (!p)
		return block_new(tid, VG_(clo_alignment), n, C2CSIM_ALLOC_REALLOC, False);
	old = VG_(HT_lookup)(blocks, (UWord)p);
	if (!old)
		return NULL;
	q = block_new(tid, VG_(clo_alignment), n, C2CSIM_ALLOC_REALLOC, False);
	if (!q)
		return NULL;
	VG_(memcpy)(q, p, old->size < n ? old->size : n);
	block_free(tid, p);
	return q;
}

static SizeT c2c_usable_size(ThreadId tid, void *p)
{
	struct block *b = VG_(HT_lookup)(blocks, (UWord)p);

	return b ? b->size : 0;
}

void c2csim_heap_start(void)
{
	blocks = VG_(HT_construct)("c2csim.blocks");
}

void c2csim_heap_init(void)
{
	VG_(needs_malloc_replacement)
	(c2c_malloc, c2c_new, c2c_new_aligned, c2c_vec_new, c2c_vec_new_aligned, c2c_memalign,
	 c2c_calloc, c2c_free, c2c_free, c2c_free_aligned, c2c_free, c2c_free_aligned, c2c_realloc,
	 c2c_usable_size, 0);
}
