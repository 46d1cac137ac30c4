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
 * c2csim_clock and is swapped in and out at start/stop of client code.
 *
 * Scheduling (c2csim_sched.c). Only the READY thread with the least clock
 * runs; each block starts with a check that exits with Ijk_Yield when
 * c2csim_clock passes c2csim_limit (the next READY thread + --sim-lead), and
 * start_client_code waits for the token. Blocked threads wake at the clock
 * of the thread that woke them, so the run does not depend on real time.
 *
 * The files, bottom to top (each calls only those below it, as Valgrind's
 * own tools are layered; tests/cli/layers.sh checks the objects):
 *   c2csim_opts.c    the options and the configuration (c2csim_cfg)
 *   c2csim_thread.c  the threads' slots, the running thread's clock
 *   c2csim_out.c     the record stream to c2cscope (c2csim_proto.h)
 *   c2csim_sim.c     per-thread event buffers, the merge by virtual time, MESI
 *   c2csim_heap.c    the program's allocator, replaced: heap blocks
 *   c2csim_sched.c   which thread may run: the virtual-time token, the futex,
 *                    sleep and thread-exit model for blocked threads
 *   c2csim_ir.c      the instrumentation
 *   c2csim_main.c    this file: Valgrind's callbacks, each a few calls down
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vkiscnums.h"

#include "c2csim_heap.h"
#include "c2csim_ir.h"
#include "c2csim_opts.h"
#include "c2csim_out.h"
#include "c2csim_sched.h"
#include "c2csim_sim.h"
#include "c2csim_thread.h"

/* ---- threads ------------------------------------------------------------- */

static void thread_create(ThreadId parent, ThreadId child)
{
	struct slot *s = c2csim_thread_create(parent, child);

	if (s)
		c2csim_sched_thread_created(s);
}

static void thread_exit(ThreadId tid)
{
	struct slot *s = c2csim_thread_exit(tid);

	c2csim_sim_merge(NULL, 0);
	c2csim_sched_pass_token(s);
}

static void start_client(ThreadId tid, ULong blocks)
{
	struct slot *s = c2csim_thread_slot(tid);

	if (c2csim_disabled)
		return;
	if (!s->lwpid) {
		s->lwpid = VG_(gettid)();
		c2csim_out_thread(s, s->clock);
	}
	c2csim_sched_wait_turn(tid); /* the token, and with it the lead cap */
	s = c2csim_thread_slot(tid); /* slots may have moved while others ran */
	c2csim_sim_merge(NULL, 0);
	c2csim_thread_run(s, tid, c2csim_sched_lead_limit(s), c2csim_sched_exiting(tid));
}

static void stop_client(ThreadId tid, ULong blocks)
{
	c2csim_thread_stop(tid);
	c2csim_sched_stopped();
}

/* ---- syscalls: blocked threads, clone, sched_setaffinity ----------------- */

static void pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	struct slot *s = c2csim_thread_slot(tid), *moved;

	if (c2csim_disabled)
		return;
	if (sysno == __NR_sched_setaffinity && (moved = c2csim_thread_pre_affinity(s, args)))
		c2csim_sim_migrate(moved, moved->next_cpu);
	c2csim_sched_pre_syscall(s, sysno, args);
}

static void post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
	struct slot *s = c2csim_thread_slot(tid), *child;

	if (c2csim_disabled)
		return;
	c2csim_sched_post_syscall(s, sysno, res);
	child = c2csim_thread_post_syscall(s, sysno, res);
	if (child)
		c2csim_out_thread(child, child->clock);
}

static void fork_child(ThreadId tid)
{
	c2csim_out_disable();
}

/* ---- mappings ------------------------------------------------------------- */

static void new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	c2csim_out_mmap(c2csim_thread_clock_of(VG_(get_running_tid)()), a, len, rr, ww, xx, NULL);
}

static void new_mem_brk(Addr a, SizeT len, ThreadId tid)
{
	c2csim_out_mmap(c2csim_thread_clock_of(tid), a, len, True, True, False, "[heap]");
}

/* ---- set-up and the end ---------------------------------------------------- */

static void post_clo_init(void)
{
	c2csim_opts_done();
	c2csim_thread_init();
	c2csim_sim_init();
	c2csim_heap_start();
	c2csim_out_open();
	c2csim_out_header();
}

static void fini(Int exitcode)
{
	if (c2csim_disabled)
		return;
	c2csim_thread_stop_all();
	c2csim_sim_drain();
	c2csim_out_stats();
	c2csim_out_close();
}

static void pre_clo_init(void)
{
	VG_(details_name)("c2csim");
	VG_(details_version)("0.1");
	VG_(details_description)("simulated cache coherence for c2cscope");
	VG_(details_copyright_author)("c2cscope authors; GPL-2.0");
	VG_(details_bug_reports_to)("the c2cscope project");
	VG_(details_avg_translation_sizeB)(300);

	VG_(basic_tool_funcs)(post_clo_init, c2csim_ir_instrument, fini);
	VG_(needs_command_line_options)
	(c2csim_opts_parse, c2csim_opts_usage, c2csim_opts_debug_usage);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
	c2csim_heap_init();
	VG_(track_start_client_code)(start_client);
	VG_(track_stop_client_code)(stop_client);
	VG_(track_pre_thread_ll_create)(thread_create);
	VG_(track_pre_thread_ll_exit)(thread_exit);
	VG_(track_new_mem_startup)(new_mem_startup);
	VG_(track_new_mem_mmap)(new_mem_startup);
	VG_(track_new_mem_brk)(new_mem_brk);
	VG_(atfork)(NULL, NULL, fork_child);
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
