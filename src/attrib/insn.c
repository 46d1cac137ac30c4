// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction decoding through capstone: the memory operand (base, index,
 * scale, displacement, in DWARF register numbers) and the few data moves the
 * register tracker follows (mov, load, lea, add immediate).
 */
#include "config.h"

#include <elf.h>
#include <errno.h>

#include "attrib/attrib_int.h"
#include "util/xalloc.h"

#ifdef HAVE_CAPSTONE
#include <capstone/capstone.h>

struct decoder {
	csh cs;
	cs_insn *insn;
	unsigned int machine;
};

/* x86-64 DWARF numbering: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip. */
static int x86_dwarf_reg(unsigned int r)
{
	switch (r) {
	case X86_REG_RAX:
	case X86_REG_EAX:
	case X86_REG_AX:
	case X86_REG_AL:
	case X86_REG_AH:
		return 0;
	case X86_REG_RDX:
	case X86_REG_EDX:
	case X86_REG_DX:
	case X86_REG_DL:
	case X86_REG_DH:
		return 1;
	case X86_REG_RCX:
	case X86_REG_ECX:
	case X86_REG_CX:
	case X86_REG_CL:
	case X86_REG_CH:
		return 2;
	case X86_REG_RBX:
	case X86_REG_EBX:
	case X86_REG_BX:
	case X86_REG_BL:
	case X86_REG_BH:
		return 3;
	case X86_REG_RSI:
	case X86_REG_ESI:
	case X86_REG_SI:
	case X86_REG_SIL:
		return 4;
	case X86_REG_RDI:
	case X86_REG_EDI:
	case X86_REG_DI:
	case X86_REG_DIL:
		return 5;
	case X86_REG_RBP:
	case X86_REG_EBP:
	case X86_REG_BP:
	case X86_REG_BPL:
		return 6;
	case X86_REG_RSP:
	case X86_REG_ESP:
	case X86_REG_SP:
	case X86_REG_SPL:
		return 7;
	case X86_REG_RIP:
	case X86_REG_EIP:
		return 16;
	}
	if (r >= X86_REG_R8 && r <= X86_REG_R15)
		return 8 + (r - X86_REG_R8);
	if (r >= X86_REG_R8D && r <= X86_REG_R15D)
		return 8 + (r - X86_REG_R8D);
	if (r >= X86_REG_R8W && r <= X86_REG_R15W)
		return 8 + (r - X86_REG_R8W);
	if (r >= X86_REG_R8B && r <= X86_REG_R15B)
		return 8 + (r - X86_REG_R8B);
	return REG_NONE;
}

/* AArch64 DWARF numbering: x0..x30 = 0..30, sp = 31. */
static int arm64_dwarf_reg(unsigned int r)
{
	if (r >= ARM64_REG_X0 && r <= ARM64_REG_X28)
		return r - ARM64_REG_X0;
	if (r >= ARM64_REG_W0 && r <= ARM64_REG_W30)
		return r - ARM64_REG_W0;
	switch (r) {
	case ARM64_REG_X29:
		return 29;
	case ARM64_REG_X30:
		return 30;
	case ARM64_REG_SP:
	case ARM64_REG_WSP:
		return 31;
	}
	return REG_NONE;
}

static int dwarf_reg(const struct decoder *d, unsigned int r)
{
	return d->machine == EM_AARCH64 ? arm64_dwarf_reg(r) : x86_dwarf_reg(r);
}

int attrib_decoder_open(struct decoder **out, unsigned int machine)
{
	struct decoder *d;
	cs_arch arch;
	cs_mode mode;

	if (machine == EM_X86_64) {
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
	} else if (machine == EM_AARCH64) {
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_ARM;
	} else {
		return -ENOTSUP;
	}
	d = xcalloc(1, sizeof(*d));
	d->machine = machine;
	if (cs_open(arch, mode, &d->cs) != CS_ERR_OK) {
		free(d);
		return -ENOTSUP;
	}
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->cs);
	*out = d;
	return 0;
}

void attrib_decoder_close(struct decoder *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d);
}

int attrib_decoder_sp(const struct decoder *d)
{
	return d->machine == EM_AARCH64 ? 31 : 7;
}

int attrib_decoder_fp(const struct decoder *d)
{
	return d->machine == EM_AARCH64 ? 29 : 6;
}

static uint64_t reg_bit(int reg)
{
	return reg >= 0 && reg < NR_DWARF_REGS ? 1ULL << reg : 0;
}

static void collect_writes(struct decoder *d, struct insn *out)
{
	cs_regs rd, wr;
	uint8_t nr_rd = 0, nr_wr = 0, i;

	if (cs_regs_access(d->cs, d->insn, rd, &nr_rd, wr, &nr_wr) != CS_ERR_OK)
		return;
	for (i = 0; i < nr_wr; i++)
		out->writes |= reg_bit(dwarf_reg(d, wr[i]));
}

static void x86_mem(struct decoder *d, const cs_x86_op *op, struct insn *out)
{
	out->base = op->mem.base ? dwarf_reg(d, op->mem.base) : REG_NONE;
	out->index = op->mem.index ? dwarf_reg(d, op->mem.index) : REG_NONE;
	out->scale = op->mem.index ? op->mem.scale : 0;
	out->disp = op->mem.disp;
	out->mem_size = op->size;
	if (op->mem.base == X86_REG_RIP) {
		out->pc_relative = true;
		out->base = REG_NONE;
		out->disp += out->pc + out->len;
	}
	/* fs:/gs: segments: thread-local or per-cpu data, not a plain pointer. */
	if (op->mem.segment == X86_REG_FS || op->mem.segment == X86_REG_GS)
		out->segment = true;
}

/*
 * How the memory operand (operand i) is used. Capstone's access flags where
 * it sets them; else the Intel-syntax rule: a destination (operand 0) is
 * written, except by the instructions that only compare.
 */
static uint8_t x86_mem_rw(unsigned int id, uint8_t i, uint8_t access)
{
	uint8_t rw = 0;

	if (id == X86_INS_LEA || id == X86_INS_NOP)
		return 0;
	if (access & CS_AC_READ)
		rw |= INSN_MEM_READ;
	if (access & CS_AC_WRITE)
		rw |= INSN_MEM_WRITE;
	if (rw)
		return rw;
	if (i == 0 && id != X86_INS_CMP && id != X86_INS_TEST)
		return INSN_MEM_WRITE;
	return INSN_MEM_READ;
}

/*
 * The bits of a memory operand of size bytes that an immediate operand
 * selects: testb $0x1 / orb $0x4 the set ones, andb $0xfb the clear ones,
 * bt* $2 bit 2; 0 (all, or unknown) for anything else.
 */
static uint64_t x86_imm_bits(unsigned int id, int64_t imm, uint8_t size)
{
	uint64_t all = size >= 8 ? ~0ULL : (1ULL << (size * 8)) - 1;

	switch (id) {
	case X86_INS_TEST:
	case X86_INS_OR:
	case X86_INS_XOR:
		return (uint64_t)imm & all;
	case X86_INS_AND:
		return ~(uint64_t)imm & all;
	case X86_INS_BT:
	case X86_INS_BTS:
	case X86_INS_BTR:
	case X86_INS_BTC:
		return imm >= 0 && imm < size * 8 ? 1ULL << imm : 0;
	}
	return 0;
}

static void x86_classify(struct decoder *d, struct insn *out)
{
	const cs_x86 *x = &d->insn->detail->x86;
	const cs_x86_op *op0 = x->op_count > 0 ? &x->operands[0] : NULL;
	const cs_x86_op *op1 = x->op_count > 1 ? &x->operands[1] : NULL;
	unsigned int id = d->insn->id;
	uint8_t i;

	for (i = 0; i < x->op_count; i++) {
		if (x->operands[i].type != X86_OP_MEM)
			continue;
		out->mem_access = id != X86_INS_LEA && id != X86_INS_NOP;
		x86_mem(d, &x->operands[i], out);
		out->mem_rw = x86_mem_rw(id, i, x->operands[i].access);
		break;
	}
	out->nop = id == X86_INS_NOP;
	if (out->mem_access && op1 && op1->type == X86_OP_IMM && op0->type == X86_OP_MEM)
		out->bits = x86_imm_bits(id, op1->imm, op0->size);
	if (cs_insn_group(d->cs, d->insn, CS_GRP_CALL)) {
		out->op = INSN_CALL;
		/* The System V ABI's caller-saved registers. */
		out->writes |= 0x0f37; /* rax rdx rcx rsi rdi r8-r11 */
		if (op0 && op0->type == X86_OP_IMM)
			out->target = op0->imm; /* a direct call */
	} else if (cs_insn_group(d->cs, d->insn, CS_GRP_RET)) {
		out->op = INSN_RET;
	} else if (cs_insn_group(d->cs, d->insn, CS_GRP_JUMP)) {
		out->op = INSN_JUMP;
		out->unconditional = id == X86_INS_JMP;
		if (op0 && op0->type == X86_OP_IMM)
			out->target = op0->imm;
	}
	if (!op0 || !op1 || op0->type != X86_OP_REG || op0->size != 8)
		return;
	out->dst = dwarf_reg(d, op0->reg);
	if (id == X86_INS_MOV && op1->type == X86_OP_REG && op1->size == 8) {
		out->op = INSN_MOV_REG;
		out->src = dwarf_reg(d, op1->reg);
	} else if (id == X86_INS_MOV && op1->type == X86_OP_MEM && out->mem_access) {
		out->op = INSN_LOAD;
	} else if (id == X86_INS_LEA) {
		out->op = INSN_LEA;
	} else if ((id == X86_INS_ADD || id == X86_INS_SUB) && op1->type == X86_OP_IMM) {
		out->op = INSN_ADD_IMM;
		out->disp = id == X86_INS_ADD ? op1->imm : -op1->imm;
	} else if (id == X86_INS_SHL && op1->type == X86_OP_IMM && op1->imm < 32) {
		out->op = INSN_SCALE_IMM;
		out->src = out->dst;
		out->disp = 1LL << op1->imm;
	} else if (id == X86_INS_IMUL && x->op_count == 3 && op1->type == X86_OP_REG &&
		   x->operands[2].type == X86_OP_IMM && x->operands[2].imm > 0) {
		out->op = INSN_SCALE_IMM;
		out->src = dwarf_reg(d, op1->reg);
		out->disp = x->operands[2].imm;
	}
}

static void arm64_classify(struct decoder *d, struct insn *out)
{
	const cs_arm64 *x = &d->insn->detail->arm64;
	const cs_arm64_op *op0 = x->op_count > 0 ? &x->operands[0] : NULL;
	const cs_arm64_op *op1 = x->op_count > 1 ? &x->operands[1] : NULL;
	unsigned int id = d->insn->id;
	uint8_t i;

	for (i = 0; i < x->op_count; i++) {
		const cs_arm64_op *op = &x->operands[i];

		if (op->type != ARM64_OP_MEM)
			continue;
		out->mem_access = id != ARM64_INS_PRFM;
		out->mem_rw = (op->access & CS_AC_WRITE ? INSN_MEM_WRITE : 0) |
			      (op->access & CS_AC_READ ? INSN_MEM_READ : 0);
		if (!out->mem_rw && out->mem_access)
			out->mem_rw = id >= ARM64_INS_ST1 && id <= ARM64_INS_STXR ? INSN_MEM_WRITE :
										    INSN_MEM_READ;
		out->base = op->mem.base ? dwarf_reg(d, op->mem.base) : REG_NONE;
		out->index = op->mem.index ? dwarf_reg(d, op->mem.index) : REG_NONE;
		out->scale = op->mem.index ? 1 : 0;
		out->disp = op->mem.disp;
		/* Post-index: the access uses the base before the update. */
		if (i + 1 < x->op_count && x->operands[i + 1].type == ARM64_OP_IMM)
			out->disp = 0;
		break;
	}
	if (cs_insn_group(d->cs, d->insn, CS_GRP_CALL)) {
		out->op = INSN_CALL;
		out->writes |= 0x7ffff; /* x0-x18 */
		if (op0 && op0->type == ARM64_OP_IMM)
			out->target = op0->imm; /* bl: a direct call */
	} else if (cs_insn_group(d->cs, d->insn, CS_GRP_RET)) {
		out->op = INSN_RET;
	} else if (cs_insn_group(d->cs, d->insn, CS_GRP_JUMP)) {
		out->op = INSN_JUMP;
		out->unconditional = id == ARM64_INS_B && x->cc == ARM64_CC_INVALID;
		for (i = 0; i < x->op_count; i++)
			if (x->operands[i].type == ARM64_OP_IMM)
				out->target = x->operands[i].imm;
	}
	if (!op0 || !op1 || op0->type != ARM64_OP_REG)
		return;
	out->dst = dwarf_reg(d, op0->reg);
	if (id == ARM64_INS_MOV && op1->type == ARM64_OP_REG) {
		out->op = INSN_MOV_REG;
		out->src = dwarf_reg(d, op1->reg);
	} else if (id == ARM64_INS_LDR && op1->type == ARM64_OP_MEM && !x->writeback &&
		   op0->reg >= ARM64_REG_X0 && op0->reg <= ARM64_REG_X28) {
		out->op = INSN_LOAD;
	} else if (id == ARM64_INS_ADD && x->op_count == 3 && op1->type == ARM64_OP_REG &&
		   x->operands[2].type == ARM64_OP_IMM && !x->operands[2].shift.value) {
		/* add xd, xn, #imm behaves as lea xd, [xn + imm] */
		out->op = INSN_LEA;
		out->base = dwarf_reg(d, op1->reg);
		out->index = REG_NONE;
		out->disp = x->operands[2].imm;
	}
}

size_t attrib_decoder_decode(struct decoder *d, const uint8_t *code, size_t len, uint64_t pc,
			     struct insn *out)
{
	const uint8_t *p = code;
	uint64_t addr = pc;

	*out = (struct insn){
		.pc = pc, .base = REG_NONE, .index = REG_NONE, .dst = REG_NONE, .src = REG_NONE
	};
	if (!cs_disasm_iter(d->cs, &p, &len, &addr, d->insn))
		return 0;
	out->len = d->insn->size;
	collect_writes(d, out);
	if (d->machine == EM_AARCH64)
		arm64_classify(d, out);
	else
		x86_classify(d, out);
	return out->len;
}

size_t attrib_decoder_text(struct decoder *d, const uint8_t *code, size_t len, uint64_t pc,
			   struct strbuf *out)
{
	const uint8_t *p = code;
	uint64_t addr = pc;

	if (!cs_disasm_iter(d->cs, &p, &len, &addr, d->insn))
		return 0;
	strbuf_addstr(out, d->insn->mnemonic);
	if (*d->insn->op_str)
		strbuf_addf(out, " %s", d->insn->op_str);
	return d->insn->size;
}

#else /* !HAVE_CAPSTONE: globals resolve, instructions do not */

size_t attrib_decoder_text(struct decoder *d, const uint8_t *code, size_t len, uint64_t pc,
			   struct strbuf *out)
{
	return 0;
}

int attrib_decoder_open(struct decoder **out, unsigned int machine)
{
	return -ENOTSUP;
}

void attrib_decoder_close(struct decoder *d)
{
}

size_t attrib_decoder_decode(struct decoder *d, const uint8_t *code, size_t len, uint64_t pc,
			     struct insn *out)
{
	return 0;
}

int attrib_decoder_sp(const struct decoder *d)
{
	return 7;
}

int attrib_decoder_fp(const struct decoder *d)
{
	return 6;
}
#endif
