/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2csim_sim.c: the simulation proper, per-thread event buffers merged in
 * virtual time and a MESI model of one private cache per virtual cpu.
 * Writes through c2csim_out.c; calls no other file above it.
 */
#ifndef C2CSIM_SIM_H
#define C2CSIM_SIM_H

#include "pub_tool_basics.h"
#include "c2csim_thread.h"

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

void c2csim_sim_init(void);
/* s moved to cpu (sched_setaffinity): from its clock on, its events are there. */
void c2csim_sim_migrate(struct slot *s, UInt cpu);
/* An access of the running thread: counted at once (sim_fast) or buffered. */
VG_REGPARM(3) void c2csim_sim_on_access(Addr addr, Addr ip, UWord packed);
/* Process every buffered event earlier than the slowest ready thread. */
void c2csim_sim_merge(struct slot *running, ULong running_clock);
/* Process everything (at exit). */
void c2csim_sim_drain(void);

#endif
