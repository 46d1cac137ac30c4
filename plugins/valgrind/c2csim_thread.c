// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's threads: a slot per thread Valgrind ever ran, the running
 * thread's clock and lead cap as the generated code sees them, where each
 * thread is placed (virtual cpus, sched_setaffinity) and which slot a
 * clone's child is. Uses only the options (c2csim_opts.c).
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "c2csim_opts.h"
#include "c2csim_thread.h"

struct slot *c2csim_slots;
UInt c2csim_nr_slots;
ULong c2csim_merged_upto;

static UInt slots_cap;
static Int *slot_of_tid; /* Valgrind ThreadId -> slot, -1 when none */

/* Read by the generated code and its helpers. */
ULong c2csim_clock, c2csim_limit = ~0ULL;
Addr c2csim_stack_lo, c2csim_stack_len;
struct slot *c2csim_cur;

void c2csim_thread_init(void)
{
	UInt i;

	slot_of_tid = VG_(malloc)("c2csim.tids", VG_N_THREADS * sizeof(*slot_of_tid));
	for (i = 0; i < VG_N_THREADS; i++)
		slot_of_tid[i] = -1;
}

/*
 * The thread's seeded streams, from the seed and its creation index, so
 * that a few more or fewer accesses in one thread do not shift every other
 * thread's samples.
 */
static void seed_streams(struct slot *s, UInt index)
{
	const struct c2csim_config *cfg = &c2csim_cfg;

	s->rng = (cfg->seed + 1) * 0x9E3779B97F4A7C15ULL + (index + 1) * 0xBF58476D1CE4E5B9ULL;
	if (!s->rng)
		s->rng = 1;
	s->sample_gap =
		1 + (cfg->sample_rate > 1 ? c2csim_xorshift(&s->rng) % cfg->sample_rate : 0);
	s->thin_rng = (cfg->seed + 1) * 0xD6E8FEB86659FD93ULL + (index + 1) * 0x94D049BB133111EBULL;
	if (!s->thin_rng)
		s->thin_rng = 1;
}

static struct slot *slot_new(ThreadId tid, ULong clock)
{
	struct slot *s;

	if (c2csim_nr_slots == slots_cap) {
		slots_cap = slots_cap ? slots_cap * 2 : 16;
		c2csim_slots = VG_(realloc)("c2csim.slots", c2csim_slots,
					    slots_cap * sizeof(*c2csim_slots));
		c2csim_cur = NULL; /* re-pointed by the next start_client_code */
	}
	s = &c2csim_slots[c2csim_nr_slots];
	VG_(memset)(s, 0, sizeof(*s));
	s->vgtid = tid;
	s->cpu = s->next_cpu = c2csim_nr_slots % c2csim_cfg.nr_cpus;
	s->node = s->cpu % c2csim_cfg.nr_nodes;
	s->cpu_mask = c2csim_cfg.nr_cpus == 64 ? ~0ULL : (1ULL << c2csim_cfg.nr_cpus) - 1;
	s->clock = clock;
	s->live = True;
	seed_streams(s, c2csim_nr_slots);
	slot_of_tid[tid] = c2csim_nr_slots++;
	return s;
}

struct slot *c2csim_thread_slot(ThreadId tid)
{
	Int i = slot_of_tid[tid];

	return i >= 0 ? &c2csim_slots[i] : slot_new(tid, c2csim_merged_upto);
}

/* A mapping is stamped with its creator's clock (0 before any thread). */
ULong c2csim_thread_clock_of(ThreadId tid)
{
	if (tid == VG_INVALID_THREADID || tid >= VG_N_THREADS || !slot_of_tid ||
	    slot_of_tid[tid] < 0)
		return 0;
	return c2csim_slots[slot_of_tid[tid]].clock;
}

/*
 * Where a balancing scheduler puts a thread allowed on mask: the cpu of
 * the mask with the fewest other live threads placed on it; on a tie the
 * thread's own cpu (no needless move), else the lowest.
 */
static UInt place(const struct slot *t, ULong mask)
{
	UInt c, i, best = t->next_cpu, best_load = ~0u;

	for (c = 0; c < c2csim_cfg.nr_cpus; c++) {
		UInt load = 0;

		if (!(mask >> c & 1))
			continue;
		for (i = 0; i < c2csim_nr_slots; i++)
			load += &c2csim_slots[i] != t && c2csim_slots[i].live &&
				c2csim_slots[i].next_cpu == c;
		if (load < best_load || (load == best_load && c == t->next_cpu)) {
			best = c;
			best_load = load;
		}
	}
	return best;
}

struct slot *c2csim_thread_create(ThreadId parent, ThreadId child)
{
	ULong clock = c2csim_merged_upto, mask = 0;
	struct slot *s;

	if (slot_of_tid[child] >= 0) /* the main thread, already known */
		return NULL;
	if (parent != VG_INVALID_THREADID && slot_of_tid[parent] >= 0)
		clock = c2csim_slots[slot_of_tid[parent]].clock;
	s = slot_new(child, clock);
	if (parent != VG_INVALID_THREADID && slot_of_tid[parent] >= 0)
		mask = c2csim_slots[slot_of_tid[parent]].cpu_mask; /* the kernel copies it */
	if (mask && mask != s->cpu_mask) { /* a pinned creator: within its mask */
		s->cpu_mask = mask;
		s->cpu = s->next_cpu = place(s, mask);
		s->node = s->cpu % c2csim_cfg.nr_nodes;
	}
	return s;
}

struct slot *c2csim_thread_exit(ThreadId tid)
{
	struct slot *s = c2csim_thread_slot(tid);

	s->live = False;
	s->state = SL_EXITED;
	slot_of_tid[tid] = -1;
	return s;
}

void c2csim_thread_run(struct slot *s, ThreadId tid, ULong limit, Bool exiting)
{
	c2csim_cur = s;
	c2csim_clock = s->clock;
	c2csim_limit = limit;
	if (exiting) { /* no client instruction: back to exit */
		c2csim_limit = 0;
		if (!c2csim_clock)
			c2csim_clock = 1;
	}
	c2csim_stack_len = c2csim_cfg.sim_stack ? 0 : VG_(thread_get_stack_size)(tid);
	c2csim_stack_lo = VG_(thread_get_stack_max)(tid) - c2csim_stack_len;
}

void c2csim_thread_stop(ThreadId tid)
{
	struct slot *s = c2csim_thread_slot(tid);

	if (c2csim_cur == s) {
		s->insns += c2csim_clock - s->clock;
		s->clock = c2csim_clock;
	}
	c2csim_cur = NULL;
}

void c2csim_thread_stop_all(void)
{
	if (c2csim_cur) {
		c2csim_cur->insns += c2csim_clock - c2csim_cur->clock;
		c2csim_cur->clock = c2csim_clock;
	}
}

static struct slot *slot_by_lwpid(Int pid, struct slot *self)
{
	UInt i;

	if (pid == 0 || pid == self->lwpid)
		return self;
	for (i = 0; i < c2csim_nr_slots; i++)
		if (c2csim_slots[i].live && c2csim_slots[i].lwpid == pid)
			return &c2csim_slots[i];
	return NULL;
}

/*
 * The mask's cpus, modulo --sim-cpus, are the thread's virtual cpus; it is
 * placed on one as a balancing scheduler would (place()). The real call is
 * made with every cpu allowed, so that virtual cpus beyond the machine's
 * own do not fail; the program's mask is put back after.
 */
struct slot *c2csim_thread_pre_affinity(struct slot *self, UWord *args)
{
	struct slot *t = slot_by_lwpid((Int)args[0], self);
	const UChar *mask = (const UChar *)args[2];
	UInt len = (UInt)args[1], i;
	ULong vmask = 0;

	if (!t || !mask || len == 0 || len > sizeof(self->aff_saved) ||
	    !VG_(am_is_valid_for_client)((Addr)mask, len, VKI_PROT_READ | VKI_PROT_WRITE))
		return NULL;
	for (i = 0; i < len * 8; i++)
		if (mask[i / 8] & (1u << (i % 8)))
			vmask |= 1ULL << (i % c2csim_cfg.nr_cpus);
	if (!vmask)
		return NULL;
	t->cpu_mask = vmask;
	t->next_cpu = place(t, vmask);
	self->aff_mask = (Addr)mask;
	self->aff_len = len;
	VG_(memcpy)(self->aff_saved, mask, len);
	VG_(memset)((void *)mask, 0xff, len);
	return t;
}

struct slot *c2csim_thread_post_syscall(struct slot *s, UInt sysno, SysRes res)
{
	UInt i;

	if (s->aff_len) {
		VG_(memcpy)((void *)s->aff_mask, s->aff_saved, s->aff_len);
		s->aff_len = 0;
	}
	if (sysno != __NR_clone && sysno != __NR_clone3)
		return NULL;
	if (!sr_isError(res) && sr_Res(res)) {
		for (i = c2csim_nr_slots; i-- > 0;) /* the newest thread without an lwpid */
			if (c2csim_slots[i].live && !c2csim_slots[i].lwpid) {
				c2csim_slots[i].lwpid = (Int)sr_Res(res);
				return &c2csim_slots[i];
			}
	} else if (sr_isError(res)) {
		for (i = c2csim_nr_slots;
		     i-- > 0;) /* no child after all: it must not hold the token */
			if (c2csim_slots[i].live && !c2csim_slots[i].lwpid &&
			    c2csim_slots[i].state == SL_READY && &c2csim_slots[i] != s) {
				c2csim_slots[i].live = False;
				c2csim_slots[i].state = SL_EXITED;
				break;
			}
	}
	return NULL;
}
