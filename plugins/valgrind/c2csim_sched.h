/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2csim_sched.c: which thread may run, a deterministic schedule in
 * virtual time (the token, the futex, sleep and exit model of blocked
 * threads). Reads the threads; calls no file above them.
 */
#ifndef C2CSIM_SCHED_H
#define C2CSIM_SCHED_H

#include "pub_tool_basics.h"
#include "c2csim_thread.h"

/* Wait until this thread holds the token (the least clock of the READY). */
void c2csim_sched_wait_turn(ThreadId tid);
/* The clock me may run to: the next READY thread's plus --sim-lead. */
ULong c2csim_sched_lead_limit(const struct slot *me);
/* Wake the thread whose turn it is now, unless it is from (the caller). */
void c2csim_sched_pass_token(const struct slot *from);
/* Valgrind told tid to exit: it must yield at its first block (see there). */
Bool c2csim_sched_exiting(ThreadId tid);
/* Called from stop_client: undoes what c2csim_sched_exiting borrowed. */
void c2csim_sched_stopped(void);
void c2csim_sched_pre_syscall(struct slot *s, UInt sysno, const UWord *args);
void c2csim_sched_post_syscall(struct slot *s, UInt sysno, SysRes res);
void c2csim_sched_thread_created(struct slot *s);

#endif
