// SPDX-License-Identifier: GPL-2.0
/*
 * c2csim: a Valgrind tool that simulates cache coherence between threads
 * and streams HITM-style memory samples to `c2cscope record --sim`.
 *
 * Virtual time. Each thread's clock counts its retired guest instructions:
 * the instrumentation adds the number of instructions executed to a global
 * counter inline (before each side exit and at the end of a block), and each
 * access's helper call carries its instruction index within the block, so
 * no per-instruction call is needed. The running thread's clock lives in
 * g_clock and is swapped in and out at start/stop of client code.
 *
 * Scheduling (c2csim_sched.c). Only the READY thread with the least clock
 * runs; each block starts with a check that exits with Ijk_Yield when
 * g_clock passes g_limit (the next READY thread + --sim-lead), and
 * start_client_code waits for the token. Blocked threads wake at the clock
 * of the thread that woke them, so the run does not depend on real time.
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_replacemalloc.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "libvex_guest_offsets.h"

#include "c2csim.h"

extern void VG_(vg_yield)(void); /* core, outside the tool API; it links */

struct sim_config cfg = {
	.nr_cpus = C2CSIM_DEFAULT_CPUS,
	.nr_nodes = C2CSIM_DEFAULT_NODES,
	.line_size = C2CSIM_DEFAULT_LINE_SIZE,
	.sample_rate = C2CSIM_DEFAULT_SAMPLE_RATE,
	.hitm_rate = 1,
	.seed = C2CSIM_DEFAULT_SEED,
	.lead = C2CSIM_DEFAULT_LEAD,
	.fast = True,
	.cost = { 4, 40, 75, 150, 220, 200, 330 },
};
struct slot *slots;
UInt nr_slots;
ULong stats[C2CSIM_NR_STATS];
ULong merged_upto;
Bool sim_disabled;

static UInt slots_cap;
static Int *slot_of_tid; /* Valgrind ThreadId -> slot, -1 when none */

/* Read by the generated code and its helpers. */
ULong g_clock, g_limit = ~0ULL;
Addr g_stack_lo, g_stack_len;
struct slot *g_cur;

/* ---- options --------------------------------------------------------------- */

static Bool parse_costs(const HChar *arg)
{
	UInt i;
	const HChar *p = arg;
	HChar *end;

	for (i = 0; i < C2CSIM_NR_COSTS; i++) {
		Long v = VG_(strtoll10)(p, &end);

		if (end == p || v < 0 || v > 100000)
			return False;
		cfg.cost[i] = (UInt)v;
		if (i + 1 < C2CSIM_NR_COSTS) {
			if (*end != ',')
				return False;
			p = end + 1;
		} else if (*end) {
			return False;
		}
	}
	return True;
}

static Bool c2c_option(const HChar *arg)
{
	const HChar *s;
	Long v;

	if VG_STR_CLO (arg, "--sim-out", cfg.out_path) {
	} else if VG_BINT_CLO (arg, "--sim-cpus", v, 1, C2CSIM_MAX_CPUS) {
		cfg.nr_cpus = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-nodes", v, 1, C2CSIM_MAX_NODES) {
		cfg.nr_nodes = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-line-size", v, 64, 128) {
		if (v != 64 && v != 128)
			VG_(fmsg_bad_option)(arg, "the line size is 64 or 128\n");
		cfg.line_size = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-sample-rate", v, 1, 1000000000) {
		cfg.sample_rate = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-hitm-rate", v, 1, 1000000) {
		cfg.hitm_rate = (UInt)v;
	} else if VG_BINT_CLO (arg, "--sim-max-samples", v, 0, 0x7fffffffffffffffLL) {
		cfg.max_samples = (ULong)v;
	} else if VG_BINT_CLO (arg, "--sim-seed", v, 0, 0x7fffffffffffffffLL) {
		cfg.seed = (ULong)v;
	} else if VG_BINT_CLO (arg, "--sim-lead", v, 1000, 1000000000) {
		cfg.lead = (ULong)v;
	} else if VG_BINT_CLO (arg, "--sim-cache-lines", v, 0, 1LL << 32) {
		cfg.cache_lines = (ULong)v;
	} else if VG_BOOL_CLO (arg, "--sim-stack", cfg.sim_stack) {
	} else if VG_BOOL_CLO (arg, "--sim-fast", cfg.fast) {
	} else if VG_STR_CLO (arg, "--sim-cycles", s) {
		if (!parse_costs(s))
			VG_(fmsg_bad_option)
		(arg, "expected 7 numbers: L1,LLC,LHITM,RPEER,RHITM,LDRAM,RDRAM\n");
	} else {
		return VG_(replacement_malloc_process_cmd_line_option)(arg);
	}
	return True;
}

static void c2c_usage(void)
{
	VG_(printf)
	("    --sim-out=PATH            write the event stream to PATH (a fifo) [none]\n"
	 "    --sim-cpus=N              virtual cpus, 1..64; thread i on cpu i%%N, or\n"
	 "                              the least-loaded of its affinity mask [8]\n"
	 "    --sim-nodes=N             virtual NUMA nodes, cpu c on node c%%N [1]\n"
	 "    --sim-line-size=64|128    cache line size [64]\n"
	 "    --sim-sample-rate=N       sample 1 in N accesses besides HITMs and\n"
	 "                              store misses, which are all sampled [1000]\n"
	 "    --sim-hitm-rate=N         keep 1 in N of those samples too (period N) [1]\n"
	 "    --sim-max-samples=N       past N samples, double that rate and thin the\n"
	 "                              samples written so far to match [0: never]\n"
	 "    --sim-seed=N              seed of the sampling [1]\n"
	 "    --sim-lead=N              max instructions a thread may run ahead [100000]\n"
	 "    --sim-cache-lines=N       per-cpu capacity in lines, FIFO [0: unbounded]\n"
	 "    --sim-stack=yes|no        simulate a thread's accesses to its own stack [no]\n"
	 "    --sim-fast=yes|no         count hits on lines only one thread touched\n"
	 "                              without merging them (exact: no) [yes]\n"
	 "    --sim-cycles=L1,LLC,LHITM,RPEER,RHITM,LDRAM,RDRAM\n"
	 "                              simulated cycles per class [4,40,75,150,220,200,330]\n");
}

static void c2c_debug_usage(void)
{
}

/* ---- threads ------------------------------------------------------------- */

static struct slot *slot_new(ThreadId tid, ULong clock)
{
	struct slot *s;

	if (nr_slots == slots_cap) {
		slots_cap = slots_cap ? slots_cap * 2 : 16;
		slots = VG_(realloc)("c2csim.slots", slots, slots_cap * sizeof(*slots));
		g_cur = NULL; /* re-pointed by the next start_client_code */
	}
	s = &slots[nr_slots];
	VG_(memset)(s, 0, sizeof(*s));
	s->vgtid = tid;
	s->cpu = s->next_cpu = nr_slots % cfg.nr_cpus;
	s->node = s->cpu % cfg.nr_nodes;
	s->cpu_mask = cfg.nr_cpus == 64 ? ~0ULL : (1ULL << cfg.nr_cpus) - 1;
	s->clock = clock;
	s->live = True;
	sim_slot_init(s, nr_slots);
	slot_of_tid[tid] = nr_slots++;
	stats[C2CSIM_ST_THREADS]++;
	return s;
}

static struct slot *slot_get(ThreadId tid)
{
	Int i = slot_of_tid[tid];

	return i >= 0 ? &slots[i] : slot_new(tid, merged_upto);
}

struct slot *sched_slot(ThreadId tid)
{
	return slot_get(tid);
}

/*
 * Where a balancing scheduler puts a thread allowed on mask: the cpu of
 * the mask with the fewest other live threads placed on it; on a tie the
 * thread's own cpu (no needless move), else the lowest.
 */
static UInt place(const struct slot *t, ULong mask)
{
	UInt c, i, best = t->next_cpu, best_load = ~0u;

	for (c = 0; c < cfg.nr_cpus; c++) {
		UInt load = 0;

		if (!(mask >> c & 1))
			continue;
		for (i = 0; i < nr_slots; i++)
			load += &slots[i] != t && slots[i].live && slots[i].next_cpu == c;
		if (load < best_load || (load == best_load && c == t->next_cpu)) {
			best = c;
			best_load = load;
		}
	}
	return best;
}

static void thread_create(ThreadId parent, ThreadId child)
{
	ULong clock = merged_upto, mask = 0;
	struct slot *s;

	if (slot_of_tid[child] >= 0) /* the main thread, already known */
		return;
	if (parent != VG_INVALID_THREADID && slot_of_tid[parent] >= 0)
		clock = slots[slot_of_tid[parent]].clock;
	s = slot_new(child, clock);
	if (parent != VG_INVALID_THREADID && slot_of_tid[parent] >= 0)
		mask = slots[slot_of_tid[parent]].cpu_mask; /* the kernel copies it */
	if (mask && mask != s->cpu_mask) { /* a pinned creator: within its mask */
		s->cpu_mask = mask;
		s->cpu = s->next_cpu = place(s, mask);
		s->node = s->cpu % cfg.nr_nodes;
	}
	sched_thread_created(s);
}

static void thread_exit(ThreadId tid)
{
	struct slot *s = slot_get(tid);

	s->live = False;
	s->state = SL_EXITED;
	slot_of_tid[tid] = -1;
	sim_merge(NULL, 0);
	sched_pass_token(s);
}

static void start_client(ThreadId tid, ULong blocks)
{
	struct slot *s = slot_get(tid);

	if (sim_disabled)
		return;
	if (!s->lwpid) {
		s->lwpid = VG_(gettid)();
		out_thread(s, s->clock);
	}
	sched_wait_turn(tid); /* the token, and with it the lead cap */
	s = slot_get(tid); /* slots may have moved while others ran */
	sim_merge(NULL, 0);
	g_cur = s;
	g_clock = s->clock;
	g_limit = sched_lead_limit(s);
	if (sched_exiting(tid)) { /* no client instruction: back to exit */
		g_limit = 0;
		if (!g_clock)
			g_clock = 1;
	}
	g_stack_len = cfg.sim_stack ? 0 : VG_(thread_get_stack_size)(tid);
	g_stack_lo = VG_(thread_get_stack_max)(tid) - g_stack_len;
}

static void stop_client(ThreadId tid, ULong blocks)
{
	struct slot *s = slot_get(tid);

	if (g_cur == s) {
		s->insns += g_clock - s->clock;
		s->clock = g_clock;
	}
	g_cur = NULL;
	sched_stopped();
}

/* ---- syscalls: blocked threads, clone, sched_setaffinity ----------------- */

static struct slot *slot_by_lwpid(Int pid, struct slot *self)
{
	UInt i;

	if (pid == 0 || pid == self->lwpid)
		return self;
	for (i = 0; i < nr_slots; i++)
		if (slots[i].live && slots[i].lwpid == pid)
			return &slots[i];
	return NULL;
}

/*
 * The mask's cpus, modulo --sim-cpus, are the thread's virtual cpus; it is
 * placed on one as a balancing scheduler would (place()). The real call is
 * made with every cpu allowed, so that virtual cpus beyond the machine's
 * own do not fail; the program's mask is put back after.
 */
static void pre_affinity(struct slot *self, UWord *args)
{
	struct slot *t = slot_by_lwpid((Int)args[0], self);
	const UChar *mask = (const UChar *)args[2];
	UInt len = (UInt)args[1], i;
	ULong vmask = 0;

	if (!t || !mask || len == 0 || len > sizeof(self->aff_saved) ||
	    !VG_(am_is_valid_for_client)((Addr)mask, len, VKI_PROT_READ | VKI_PROT_WRITE))
		return;
	for (i = 0; i < len * 8; i++)
		if (mask[i / 8] & (1u << (i % 8)))
			vmask |= 1ULL << (i % cfg.nr_cpus);
	if (!vmask)
		return;
	t->cpu_mask = vmask;
	t->next_cpu = place(t, vmask);
	sim_push(t, (t->clock << EV_TIME_SHIFT) | EV_MIGRATE, t->next_cpu, 0);
	self->aff_mask = (Addr)mask;
	self->aff_len = len;
	VG_(memcpy)(self->aff_saved, mask, len);
	VG_(memset)((void *)mask, 0xff, len);
}

static void pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	struct slot *s = slot_get(tid);

	if (sim_disabled)
		return;
	if (sysno == __NR_sched_setaffinity)
		pre_affinity(s, args);
	sched_pre_syscall(s, sysno, args);
}

static void post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
	struct slot *s = slot_get(tid);

	if (sim_disabled)
		return;
	sched_post_syscall(s, sysno, res);
	if (s->aff_len) {
		VG_(memcpy)((void *)s->aff_mask, s->aff_saved, s->aff_len);
		s->aff_len = 0;
	}
	if ((sysno == __NR_clone || sysno == __NR_clone3) && !sr_isError(res) && sr_Res(res)) {
		UInt i; /* the newest thread without an lwpid is the child */

		for (i = nr_slots; i-- > 0;)
			if (slots[i].live && !slots[i].lwpid) {
				slots[i].lwpid = (Int)sr_Res(res);
				out_thread(&slots[i], slots[i].clock);
				break;
			}
	} else if ((sysno == __NR_clone || sysno == __NR_clone3) && sr_isError(res)) {
		UInt i; /* no child after all: it must not hold the token */

		for (i = nr_slots; i-- > 0;)
			if (slots[i].live && !slots[i].lwpid && slots[i].state == SL_READY &&
			    &slots[i] != s) {
				slots[i].live = False;
				slots[i].state = SL_EXITED;
				break;
			}
	}
}

static void fork_child(ThreadId tid)
{
	sim_disabled = True;
	out_disable();
}

/* ---- mappings ------------------------------------------------------------- */

/* A mapping is stamped with its creator's clock (0 before any thread). */
static ULong clock_of(ThreadId tid)
{
	if (tid == VG_INVALID_THREADID || tid >= VG_N_THREADS || !slot_of_tid ||
	    slot_of_tid[tid] < 0)
		return 0;
	return slots[slot_of_tid[tid]].clock;
}

static void new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	out_mmap(clock_of(VG_(get_running_tid)()), a, len, rr, ww, xx, NULL);
}

static void new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
	out_mmap(clock_of(tid), a, len, True, True, False, "[heap]");
}

/* ---- set-up and the end ---------------------------------------------------- */

static void c2c_post_clo_init(void)
{
	UInt i;

	cfg.line_shift = cfg.line_size == 128 ? 7 : 6;
	slot_of_tid = VG_(malloc)("c2csim.tids", VG_N_THREADS * sizeof(*slot_of_tid));
	for (i = 0; i < VG_N_THREADS; i++)
		slot_of_tid[i] = -1;
	sim_init();
	heap_start();
	out_open();
	out_header();
}

static void c2c_fini(Int exitcode)
{
	UInt i;

	if (sim_disabled)
		return;
	if (g_cur) {
		g_cur->insns += g_clock - g_cur->clock;
		g_cur->clock = g_clock;
	}
	sim_drain();
	for (i = 0; i < nr_slots; i++)
		stats[C2CSIM_ST_INSNS] += slots[i].insns;
	out_stats();
	out_close();
}

static void c2c_pre_clo_init(void)
{
	VG_(details_name)("c2csim");
	VG_(details_version)("0.1");
	VG_(details_description)("simulated cache coherence for c2cscope");
	VG_(details_copyright_author)("c2cscope authors; GPL-2.0");
	VG_(details_bug_reports_to)("the c2cscope project");
	VG_(details_avg_translation_sizeB)(300);

	VG_(basic_tool_funcs)(c2c_post_clo_init, c2c_instrument, c2c_fini);
	VG_(needs_command_line_options)(c2c_option, c2c_usage, c2c_debug_usage);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
	heap_init();
	VG_(track_start_client_code)(start_client);
	VG_(track_stop_client_code)(stop_client);
	VG_(track_pre_thread_ll_create)(thread_create);
	VG_(track_pre_thread_ll_exit)(thread_exit);
	VG_(track_new_mem_startup)(new_mem_startup);
	VG_(track_new_mem_mmap)(new_mem_startup);
	VG_(track_new_mem_brk)(new_mem_brk);
	VG_(atfork)(NULL, NULL, fork_child);
}

VG_DETERMINE_INTERFACE_VERSION(c2c_pre_clo_init)
