// SPDX-License-Identifier: GPL-2.0
/*
 * Instrumentation: one helper call per memory access (loads, stores,
 * guarded loads/stores, CAS, LL/SC, dirty helpers with memory effects),
 * inline instruction counting for the virtual clock, and the lead-cap
 * check at the top of each block.
 *
 * A `lock xadd` (and other locked read-modify-writes) arrives as a load
 * and a CAS on the same address in the same instruction; the load's call
 * is dropped so the access counts once, as an atomic.
 *
 * Accesses whose address is the stack pointer plus a constant are not
 * instrumented (unless --sim-stack=yes): a thread's own stack is private.
 * Nor are the accesses of the allocator's replacement functions
 * (vgpreload_c2csim: reading their table of the tool's functions), whose
 * instructions still count in the clock: the allocator is the tool's, not
 * the program's (c2csim_heap.c).
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "libvex_guest_offsets.h"

#include "c2csim_ir.h"
#include "c2csim_opts.h"
#include "c2csim_sim.h"

struct ir_state {
	IRSB *out;
	const IRTypeEnv *tyenv;
	Bool *sp_tmp; /* tmps holding the stack pointer plus a constant */
	UInt n_imarks, counted;
	Addr ip;
	Int load_stmt; /* the call emitted for this instruction's last load */
	IRExpr *load_addr;
	Bool no_accesses; /* the block is the allocator replacement's */
};

static IRExpr *u64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

static IRTemp load_global(struct ir_state *st, void *p)
{
	IRTemp t = newIRTemp(st->out->tyenv, Ity_I64);

	addStmtToIRSB(st->out,
		      IRStmt_WrTmp(t, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)p))));
	return t;
}

/* c2csim_clock += instructions since the last count (before exits and at the end). */
static void add_count(struct ir_state *st)
{
	IRTemp t, sum;

	if (st->n_imarks == st->counted)
		return;
	t = load_global(st, &c2csim_clock);
	sum = newIRTemp(st->out->tyenv, Ity_I64);
	addStmtToIRSB(st->out, IRStmt_WrTmp(sum, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(t),
							      u64(st->n_imarks - st->counted))));
	addStmtToIRSB(st->out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&c2csim_clock),
					    IRExpr_RdTmp(sum)));
	st->counted = st->n_imarks;
}

/* if (c2csim_limit < c2csim_clock) yield, restarting this block */
static void add_lead_check(struct ir_state *st, const VexGuestLayout *layout)
{
	IRTemp clock = load_global(st, &c2csim_clock), limit = load_global(st, &c2csim_limit);
	IRTemp over = newIRTemp(st->out->tyenv, Ity_I1);

	addStmtToIRSB(st->out, IRStmt_WrTmp(over, IRExpr_Binop(Iop_CmpLT64U, IRExpr_RdTmp(limit),
							       IRExpr_RdTmp(clock))));
	addStmtToIRSB(st->out, IRStmt_Exit(IRExpr_RdTmp(over), Ijk_Yield, IRConst_U64(st->ip),
					   layout->offset_IP));
}

static Bool is_stack_addr(const struct ir_state *st, const IRExpr *addr)
{
	return !c2csim_cfg.sim_stack && addr->tag == Iex_RdTmp && st->sp_tmp[addr->Iex.RdTmp.tmp];
}

static void track_sp(struct ir_state *st, IRTemp t, const IRExpr *e)
{
	if (e->tag == Iex_Get && e->Iex.Get.offset == OFFSET_amd64_RSP &&
	    e->Iex.Get.ty == Ity_I64) {
		st->sp_tmp[t] = True;
	} else if (e->tag == Iex_Binop &&
		   (e->Iex.Binop.op == Iop_Add64 || e->Iex.Binop.op == Iop_Sub64) &&
		   e->Iex.Binop.arg1->tag == Iex_RdTmp && e->Iex.Binop.arg2->tag == Iex_Const) {
		st->sp_tmp[t] = st->sp_tmp[e->Iex.Binop.arg1->Iex.RdTmp.tmp];
	}
}

static void add_event(struct ir_state *st, IRExpr *addr, UInt size, UInt kind, IRExpr *guard)
{
	UWord packed;
	IRDirty *di;

	if (st->no_accesses || is_stack_addr(st, addr))
		return;
	if (size > EV_SIZE_MASK)
		size = EV_SIZE_MASK;
	packed = ((UWord)(st->n_imarks - st->counted) << 16) | (size << 2) | kind;
	di = unsafeIRDirty_0_N(3, "c2csim_access", VG_(fnptr_to_fnentry)(c2csim_sim_on_access),
			       mkIRExprVec_3(addr, mkIRExpr_HWord(st->ip), mkIRExpr_HWord(packed)));
	if (guard)
		di->guard = guard;
	if (kind == EV_LOAD) {
		st->load_stmt = st->out->stmts_used;
		st->load_addr = addr;
	}
	addStmtToIRSB(st->out, IRStmt_Dirty(di));
}

static Bool same_atom(const IRExpr *a, const IRExpr *b)
{
	if (a->tag != b->tag)
		return False;
	if (a->tag == Iex_RdTmp)
		return a->Iex.RdTmp.tmp == b->Iex.RdTmp.tmp;
	return a->tag == Iex_Const && eqIRConst(a->Iex.Const.con, b->Iex.Const.con);
}

static void on_cas(struct ir_state *st, const IRCAS *cas)
{
	UInt size = sizeofIRType(typeOfIRExpr(st->tyenv, cas->dataLo)) * (cas->dataHi ? 2 : 1);

	if (st->load_stmt >= 0 && same_atom(st->load_addr, cas->addr)) {
		st->out->stmts[st->load_stmt] = IRStmt_NoOp(); /* fold load + CAS */
		st->load_stmt = -1;
	}
	add_event(st, cas->addr, size, EV_ATOMIC, NULL);
}

static void on_dirty(struct ir_state *st, const IRDirty *d)
{
	UInt kind;

	if (d->mFx == Ifx_None || !d->mAddr)
		return;
	kind = d->mFx == Ifx_Read ? EV_LOAD : EV_STORE;
	add_event(st, d->mAddr, d->mSize, kind, d->guard);
}

static void on_stmt(struct ir_state *st, IRStmt *s, const VexGuestLayout *layout)
{
	IRType narrow, wide;

	switch (s->tag) {
	case Ist_IMark:
		st->ip = s->Ist.IMark.addr;
		st->n_imarks++;
		st->load_stmt = -1;
		addStmtToIRSB(st->out, s);
		if (st->n_imarks == 1)
			add_lead_check(st, layout);
		return;
	case Ist_WrTmp:
		track_sp(st, s->Ist.WrTmp.tmp, s->Ist.WrTmp.data);
		if (s->Ist.WrTmp.data->tag == Iex_Load)
			add_event(st, s->Ist.WrTmp.data->Iex.Load.addr,
				  sizeofIRType(s->Ist.WrTmp.data->Iex.Load.ty), EV_LOAD, NULL);
		break;
	case Ist_Store:
		add_event(st, s->Ist.Store.addr,
			  sizeofIRType(typeOfIRExpr(st->tyenv, s->Ist.Store.data)), EV_STORE, NULL);
		break;
	case Ist_StoreG:
		add_event(st, s->Ist.StoreG.details->addr,
			  sizeofIRType(typeOfIRExpr(st->tyenv, s->Ist.StoreG.details->data)),
			  EV_STORE, s->Ist.StoreG.details->guard);
		break;
	case Ist_LoadG:
		typeOfIRLoadGOp(s->Ist.LoadG.details->cvt, &wide, &narrow);
		add_event(st, s->Ist.LoadG.details->addr, sizeofIRType(narrow), EV_LOAD,
			  s->Ist.LoadG.details->guard);
		break;
	case Ist_CAS:
		on_cas(st, s->Ist.CAS.details);
		break;
	case Ist_LLSC:
		add_event(st, s->Ist.LLSC.addr,
			  sizeofIRType(typeOfIRTemp(st->tyenv, s->Ist.LLSC.result)),
			  s->Ist.LLSC.storedata ? EV_ATOMIC : EV_LOAD, NULL);
		break;
	case Ist_Dirty:
		on_dirty(st, s->Ist.Dirty.details);
		break;
	case Ist_Exit:
		add_count(st);
		break;
	default:
		break;
	}
	addStmtToIRSB(st->out, s);
}

/* Whether code at a is in vgpreload_c2csim (once per translation, not per access). */
static Bool in_preload(Addr a)
{
	DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
	const HChar *name = di ? VG_(DebugInfo_get_filename)(di) : NULL;

	return name && VG_(strstr)(name, "vgpreload_c2csim") != NULL;
}

IRSB *c2csim_ir_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			   const VexGuestExtents *vge, const VexArchInfo *archinfo, IRType gwt,
			   IRType hwt)
{
	struct ir_state st = { .load_stmt = -1 };
	Int i = 0;

	if (gwt != hwt)
		VG_(tool_panic)("c2csim: host/guest word size mismatch");
	st.no_accesses = in_preload(vge->base[0]);
	st.out = deepCopyIRSBExceptStmts(in);
	st.tyenv = in->tyenv;
	st.sp_tmp = VG_(calloc)("c2csim.ir", in->tyenv->types_used + 1, sizeof(Bool));
	while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark)
		addStmtToIRSB(st.out, in->stmts[i++]);
	for (; i < in->stmts_used; i++)
		on_stmt(&st, in->stmts[i], layout);
	add_count(&st);
	VG_(free)(st.sp_tmp);
	return st.out;
}
