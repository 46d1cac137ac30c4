/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2csim_ir.c: the instrumentation, one helper call per access into
 * c2csim_sim.c, the clock counted inline, the lead cap checked per block.
 */
#ifndef C2CSIM_IR_H
#define C2CSIM_IR_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

IRSB *c2csim_ir_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			   const VexGuestExtents *vge, const VexArchInfo *archinfo, IRType gwt,
			   IRType hwt);

#endif
