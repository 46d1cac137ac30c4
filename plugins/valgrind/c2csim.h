/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2csim internals, shared by the tool's files:
 *   c2csim_main.c  options, thread and mapping hooks
 *   c2csim_sched.c which thread may run: the virtual-time token, the futex,
 *                  sleep and thread-exit model for blocked threads
 *   c2csim_sim.c   per-thread event buffers, the merge by virtual time, MESI
 *   c2csim_out.c   the record stream to c2cscope (c2csim_proto.h)
 *   c2csim_heap.c  the program's allocator, replaced: heap blocks
 */
#ifndef C2CSIM_H
#define C2CSIM_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "c2csim_proto.h"

/* Event kinds in the low 2 bits of a buffered event's key. */
enum ev_kind {
	EV_LOAD = 0,
	EV_STORE = 1,
	EV_ATOMIC = 2, /* locked read-modify-write, CAS, LL/SC */
	EV_MIGRATE = 3, /* the thread moved to cpu ev.addr (sched_setaffinity) */
};

/* key = time << 16 | force << 15 | size << 2 | kind  (size capped at 8191) */
#define EV_TIME_SHIFT 16
#define EV_SIZE_MASK 0x1fff
#define EV_FORCE (1u << 15) /* sample it: the fast path's gap chose it (sim_fast) */

struct ev {
	ULong key;
	Addr addr;
	Addr ip;
};

/*
 * A thread's state in the scheduling model (c2csim_sched.c). Only READY
 * threads hold the merge back and may be given the token.
 */
enum slot_state {
	SL_READY,
	SL_BLOCKED, /* in a futex wait that only another thread's wake ends */
	SL_LOST, /* blocked where the model cannot see the waker: real time */
	SL_EXITED,
};

struct slot {
	ThreadId vgtid;
	Int lwpid;
	UInt cpu, node; /* where the merge places the thread now */
	UInt next_cpu; /* cpu for events buffered from now on (placement) */
	ULong cpu_mask; /* virtual cpus it may run on (sched_setaffinity; inherited) */
	ULong clock; /* virtual time: instructions + time spent blocked */
	ULong insns;
	Bool live;
	UInt state; /* enum slot_state */
	Bool in_kernel; /* really inside a syscall now */
	Bool asleep; /* BLOCKED and seen asleep in that syscall */
	UInt sysno; /* the syscall it is in, and its first argument */
	ULong arg0;
	UInt kernel_since, hang_ms; /* when it entered; when to stop waiting */
	Addr futex; /* BLOCKED: the word; READY: the word it was woken on */
	ULong wait_seq; /* FIFO order of the futex waiters */
	ULong block_clock; /* clock when it blocked */
	Addr ctid; /* CLONE_CHILD_CLEARTID word (the kernel wakes it at exit) */
	Bool exit_cleared; /* EXITED, and the kernel has cleared ctid */
	ULong rng, sample_gap; /* sampling: each thread its own stream */
	ULong thin_rng; /* thinning (cfg.hitm_rate): its own stream */
	struct ev *buf;
	UInt head, n, cap;
	/* saved sched_setaffinity mask bytes (rewritten around the syscall) */
	Addr aff_mask;
	UInt aff_len;
	UChar aff_saved[128];
};

struct sim_config {
	UInt nr_cpus, nr_nodes, line_size, line_shift;
	UInt sample_rate;
	UInt hitm_rate; /* thinning now: 1 in N of the samples (grows past the budget) */
	ULong max_samples; /* the budget: samples written before the rate doubles; 0: none */
	ULong seed;
	ULong lead;
	ULong cache_lines; /* per-cpu capacity; 0 = unbounded */
	Bool sim_stack;
	Bool fast; /* sim_fast: lines only one thread touched skip the merge */
	UInt cost[C2CSIM_NR_COSTS];
	const HChar *out_path;
};

extern struct sim_config cfg;
extern struct slot *slots;
extern UInt nr_slots;
extern ULong stats[C2CSIM_NR_STATS];
extern ULong merged_upto;
extern Bool sim_disabled;
/* The running thread, read by the generated code and its helpers. */
extern ULong g_clock, g_limit;
extern Addr g_stack_lo, g_stack_len;
extern struct slot *g_cur;

/* c2csim_ir.c */
IRSB *c2c_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
		     const VexGuestExtents *vge, const VexArchInfo *archinfo, IRType gwt,
		     IRType hwt);

/* c2csim_sched.c */
/* Wait until this thread holds the token (the least clock of the READY). */
void sched_wait_turn(ThreadId tid);
ULong sched_lead_limit(const struct slot *me);
/* Wake the thread whose turn it is now, unless it is from (the caller). */
void sched_pass_token(const struct slot *from);
/* Valgrind told tid to exit: it must yield at its first block (see there). */
Bool sched_exiting(ThreadId tid);
/* Called from stop_client: undoes what sched_exiting borrowed. */
void sched_stopped(void);
void sched_pre_syscall(struct slot *s, UInt sysno, const UWord *args);
void sched_post_syscall(struct slot *s, UInt sysno, SysRes res);
void sched_thread_created(struct slot *s);
struct slot *sched_slot(ThreadId tid); /* c2csim_main.c: the thread's slot */

/* c2csim_sim.c */
void sim_init(void);
void sim_slot_init(struct slot *s, UInt index);
void sim_buffer_full(struct slot *s, ULong now);
void sim_push(struct slot *s, ULong key, Addr addr, Addr ip);
/* An access of the running thread: counted at once (sim_fast) or buffered. */
VG_REGPARM(3) void sim_on_access(Addr addr, Addr ip, UWord packed);
/* Process every buffered event earlier than the slowest ready thread. */
void sim_merge(struct slot *running, ULong running_clock);
/* Process everything (at exit). */
void sim_drain(void);

/* c2csim_heap.c */
void heap_init(void); /* pre_clo_init: the malloc replacement */
void heap_start(void); /* post_clo_init */

/* c2csim_out.c */
void out_open(void);
void out_header(void);
void out_thread(const struct slot *s, ULong time);
void out_mmap(ULong time, Addr a, SizeT len, Bool rr, Bool ww, Bool xx, const HChar *name);
/* code: C2CSIM_CODE_* (c2csim_proto.h); size: of the access */
void out_sample(const struct slot *s, ULong time, Addr ip, Addr addr, UInt code, UInt size);
void out_rate(ULong time, UInt rate);
void out_alloc(ThreadId tid, ULong time, Addr addr, SizeT size, UInt kind, const Addr *frames,
	       UInt nr_frames);
void out_free(ThreadId tid, ULong time, Addr addr);
void out_stats(void);
void out_close(void);
void out_disable(void);

#endif
