/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2csim_thread.c: the tool's threads. Each Valgrind thread gets a slot
 * (never reused: Valgrind reuses its ThreadIds), created on first sight;
 * the running thread's clock lives in c2csim_clock while it runs, which
 * the generated code counts up, with the lead cap in c2csim_limit. Just
 * above c2csim_opts.c: every other file reads the slots, this one uses
 * nothing but the options.
 */
#ifndef C2CSIM_THREAD_H
#define C2CSIM_THREAD_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

struct ev; /* c2csim_sim.h: a buffered access */

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
	ULong thin_rng; /* thinning (c2csim_cfg.hitm_rate): its own stream */
	struct ev *buf;
	UInt head, n, cap;
	/* saved sched_setaffinity mask bytes (rewritten around the syscall) */
	Addr aff_mask;
	UInt aff_len;
	UChar aff_saved[128];
};

extern struct slot *c2csim_slots;
extern UInt c2csim_nr_slots;
/* The merge frontier (c2csim_sim.c moves it): no later event precedes it. */
extern ULong c2csim_merged_upto;
/* The running thread, read by the generated code and its helpers. */
extern ULong c2csim_clock, c2csim_limit;
extern Addr c2csim_stack_lo, c2csim_stack_len;
extern struct slot *c2csim_cur;

/* Seeded streams: one per thread for sampling, one for thinning. */
static inline ULong c2csim_xorshift(ULong *state)
{
	ULong x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

void c2csim_thread_init(void); /* post_clo_init */
/* The thread's slot, created (at the merge frontier) on first sight. */
struct slot *c2csim_thread_slot(ThreadId tid);
/* tid's clock for a record about it: 0 before any thread or for an unknown one. */
ULong c2csim_thread_clock_of(ThreadId tid);
/* Valgrind created child: its slot, or NULL when it had one (the main thread). */
struct slot *c2csim_thread_create(ThreadId parent, ThreadId child);
/* tid exits: its slot, no longer live. */
struct slot *c2csim_thread_exit(ThreadId tid);
/*
 * s runs client code now: the generated code's clock, lead cap (exiting:
 * a cap that yields at its first block) and own stack.
 */
void c2csim_thread_run(struct slot *s, ThreadId tid, ULong limit, Bool exiting);
/* tid stopped running client code: its clock back in its slot. */
void c2csim_thread_stop(ThreadId tid);
/* At the end: the running thread's clock back in its slot. */
void c2csim_thread_stop_all(void);
/*
 * sched_setaffinity by self: the target's virtual cpus and the cpu a
 * balancing scheduler puts it on (its next_cpu); the real call is made
 * with every cpu allowed and the program's mask put back after
 * (c2csim_thread_post_syscall). Returns the target when it moved.
 */
struct slot *c2csim_thread_pre_affinity(struct slot *self, UWord *args);
/* After a syscall of s: its mask put back; a clone's child: the slot that got its tid. */
struct slot *c2csim_thread_post_syscall(struct slot *s, UInt sysno, SysRes res);

#endif
