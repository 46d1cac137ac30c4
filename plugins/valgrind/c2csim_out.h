/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2csim_out.c: the record stream to c2cscope (c2csim_proto.h), and the
 * run's totals it ends with. Above the threads and options, below every
 * file that has something to say.
 */
#ifndef C2CSIM_OUT_H
#define C2CSIM_OUT_H

#include "pub_tool_basics.h"
#include "c2csim_proto.h"
#include "c2csim_thread.h"

/* Totals over every simulated access (enum c2csim_stat), written last. */
extern ULong c2csim_totals[C2CSIM_NR_STATS];
/* A forked child's tool: it simulates and writes nothing (c2csim_out_disable). */
extern Bool c2csim_disabled;

void c2csim_out_open(void);
void c2csim_out_header(void);
void c2csim_out_thread(const struct slot *s, ULong time);
void c2csim_out_mmap(ULong time, Addr a, SizeT len, Bool rr, Bool ww, Bool xx, const HChar *name);
/* code: MEM_SRC_CODE_* and C2CSIM_CODE_RATE (c2csim_proto.h); size: of the access */
void c2csim_out_sample(const struct slot *s, ULong time, Addr ip, Addr addr, UInt code, UInt size);
void c2csim_out_rate(ULong time, UInt rate);
void c2csim_out_alloc(ThreadId tid, ULong time, Addr addr, SizeT size, UInt kind,
		      const Addr *frames, UInt nr_frames);
void c2csim_out_free(ThreadId tid, ULong time, Addr addr);
/* The totals (with the threads and their instructions), last. */
void c2csim_out_stats(void);
void c2csim_out_close(void);
/* In a forked child: the parent owns the stream; stop simulating too. */
void c2csim_out_disable(void);

#endif
