// SPDX-License-Identifier: GPL-2.0
/*
 * Which thread may run: a deterministic schedule in virtual time.
 *
 * Valgrind runs one thread at a time, but which one, and for how long, is
 * up to the kernel and its big lock. Any program whose threads communicate
 * (a lock, a spin-wait, a join) would then behave differently from run to
 * run, and so would the report. Here only the thread that holds the token
 * may run client code: the READY thread with the least virtual clock (ties:
 * the one created first). It runs until its clock passes the next thread's
 * by --sim-lead instructions (the lead check in each block exits with
 * Ijk_Yield), then the token moves on. Every other thread waits in
 * start_client_code. The order in which threads run, and so what the
 * program reads, is then a function of the program, its input and the
 * options, not of the machine's load.
 *
 * Blocked threads. A thread that waits for another must give the token up,
 * and its clock on waking must come from the thread that woke it, never
 * from real time. The model covers what glibc's threads use:
 *   futex WAIT/WAIT_BITSET  the word is read before the call (only the
 *                           token holder runs, so the kernel will see the
 *                           same value): equal -> BLOCKED, else it returns
 *                           at once and keeps the token
 *   futex WAKE/WAKE_BITSET  wakes the first N BLOCKED waiters on the word
 *                           (FIFO, as the kernel does); each one's clock
 *                           becomes max(its own, the waker's)
 *   futex REQUEUE/CMP_REQUEUE  the same, the rest move to the second word
 *   thread exit             the kernel clears and wakes the thread's
 *                           CLONE_CHILD_CLEARTID word: pthread_join's
 *                           waiter wakes at the exiting thread's clock,
 *                           and no thread runs until the kernel has
 *                           cleared the word (a join reads it)
 *   nanosleep (relative)    the thread stays READY, its clock advanced by
 *                           the duration (one instruction per nanosecond)
 *   clone                   the child starts at its creator's clock
 * A thread woken by the model may still be on its way back from the
 * kernel: the token waits for it. Anything else that blocks (read from a
 * pipe, poll, wait4, absolute sleeps, PI futexes, a timed wait that times
 * out) is outside the model: after a while the thread is marked LOST, the
 * others run on, and when it returns its clock is raised to the merge
 * frontier. Such runs are counted (C2CSIM_ST_GAVE_UP, and by cause in the
 * C2CSIM_ST_FB_ counters) and c2cscope record names the causes and says
 * the run may not be reproducible. Threads that are only slow (running,
 * runnable, in disk sleep, back from their call and waiting for
 * Valgrind's lock, or finishing an exit) are never given up on.
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "c2csim_opts.h"
#include "c2csim_out.h"
#include "c2csim_sched.h"

/* core, outside the tool API; they link (4: VgTs_Yielding) */
extern Bool VG_(is_exiting)(ThreadId tid);
extern Bool VG_(in_generated_code);
extern void VG_(release_BigLock)(ThreadId tid, UInt sleepstate, const HChar *who);
extern void VG_(acquire_BigLock)(ThreadId tid, const HChar *who);
extern SysRes VG_(do_syscall)(UWord sysno, UWord a1, UWord a2, UWord a3, UWord a4, UWord a5,
			      UWord a6, UWord a7, UWord a8);
#define VGTS_YIELDING 4

#define FUTEX_CMD_MASK 0x7f /* drops FUTEX_PRIVATE_FLAG and CLOCK_REALTIME */
/*
 * How long the token waits for a thread in a syscall before letting the
 * others run (real time, so only where the model may be wrong: a machine
 * can stall a thread for seconds, e.g. a write throttled by writeback).
 */
#define HANG_NEVER (~0u) /* cannot wait for another thread of ours */
#define HANG_MS 5000 /* woken by the model, or a pipe: should return */
#define HANG_UNMODELLED_MS 200 /* may block on something outside the model */
#define ASLEEP_MS 30000 /* a thread the model blocked, not yet seen asleep */
#define ABSENT_MS 60000 /* the token holder, not in a syscall, not arriving */
#define CLONE_THREAD_FLAG 0x00010000UL
#define CLONE_CHILD_CLEARTID_FLAG 0x00200000UL

static ULong wait_seq;
static void block_on(struct slot *s, Addr key);
static Addr pending_ctid; /* from clone's arguments, for the new slot */

/* Real time decided, for the reason cause (a C2CSIM_ST_FB_ counter). */
static void fell_back(UInt cause)
{
	c2csim_totals[C2CSIM_ST_GAVE_UP]++;
	c2csim_totals[cause]++;
}

/* A thread back from a wait outside the model: on at the merge frontier. */
static void rejoin(struct slot *s)
{
	if (s->clock < c2csim_merged_upto)
		s->clock = c2csim_merged_upto;
}

/* The READY thread with the least clock (ties: the lower slot). */
static struct slot *designated(void)
{
	struct slot *best = NULL;
	UInt i;

	for (i = 0; i < c2csim_nr_slots; i++) {
		struct slot *s = &c2csim_slots[i];

		if (s->live && s->state == SL_READY && (!best || s->clock < best->clock))
			best = s;
	}
	return best;
}

ULong c2csim_sched_lead_limit(const struct slot *me)
{
	ULong min = ~0ULL;
	UInt i;

	for (i = 0; i < c2csim_nr_slots; i++) {
		const struct slot *s = &c2csim_slots[i];

		if (s != me && s->live && s->state == SL_READY && s->clock < min)
			min = s->clock;
	}
	return min == ~0ULL ? min : min + c2csim_cfg.lead;
}

/* The first line of a /proc file of one of our threads, or False. */
static Bool read_task_file(const struct slot *s, const HChar *name, HChar *buf, Int size)
{
	HChar path[64];
	SysRes r;
	Int fd, n;

	VG_(sprintf)(path, "/proc/self/task/%d/%s", s->lwpid, name);
	r = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(r))
		return False;
	fd = (Int)sr_Res(r);
	n = VG_(read)(fd, buf, size - 1);
	VG_(close)(fd);
	if (n <= 0)
		return False;
	buf[n] = 0;
	return True;
}

/* A thread's state letter from /proc (R, S, D, ...); 0 when unreadable. */
static HChar task_state(const struct slot *s)
{
	HChar buf[256];
	const HChar *p;

	if (!read_task_file(s, "stat", buf, sizeof(buf)))
		return 0;
	p = VG_(strrchr)(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/*
 * Whether /proc shows a thread inside the syscall it entered (same number
 * and first argument). A thread back from its call but not yet past
 * post_syscall waits for Valgrind's lock (a read of its pipe, or a futex
 * of its own): it is not stuck in its call, it only needs the lock.
 * *unknown is set where /proc cannot tell.
 */
static Bool in_own_syscall(const struct slot *s, Bool *unknown)
{
	HChar buf[256];
	HChar *end;
	Long nr;
	ULong arg0;

	*unknown = False;
	if (!read_task_file(s, "syscall", buf, sizeof(buf))) {
		*unknown = True;
		return False;
	}
	nr = VG_(strtoll10)(buf, &end);
	if (end == buf || *end != ' ')
		return False; /* "running" */
	arg0 = (ULong)VG_(strtoll16)(end + 1, &end);
	return nr == s->sysno && arg0 == s->arg0;
}

/*
 * Whether a thread the model has BLOCKED is really asleep in the syscall
 * it blocked in: its state is S and it is in that call (not waiting for
 * Valgrind's lock once the call has returned). Until then no other
 * thread may run: its own futex wait could reach the kernel's queue
 * first, and a call that returns at once (EAGAIN, data already there)
 * must not have let others run. Where /proc cannot tell, the thread
 * counts as asleep.
 */
static Bool asleep(struct slot *s)
{
	HChar state;
	Bool unknown, in;

	if (s->asleep || s->lwpid <= 0)
		return True;
	state = task_state(s);
	if (!state)
		return s->asleep = True;
	if (state != 'S' && state != 'D')
		return False;
	in = in_own_syscall(s, &unknown);
	if (unknown || in)
		s->asleep = True;
	return s->asleep;
}

/*
 * Whether a thread in a syscall is working (running, waiting for a cpu, or
 * in uninterruptible disk sleep) rather than waiting for an event: a
 * loaded machine can keep such a thread in the kernel for seconds, and
 * that must not hand its turn to another thread.
 */
static Bool busy_in_kernel(const struct slot *s)
{
	HChar state = s->lwpid > 0 ? task_state(s) : 0;
	Bool unknown;

	if (state == 'R' || state == 'D')
		return True;
	return state && !in_own_syscall(s, &unknown) && !unknown; /* waits for the lock */
}

/*
 * Wait a little for another thread, asleep outside Valgrind's lock on
 * sched_gen. Spinning on the lock (vg_yield) starved a thread that needs
 * the lock to come back from a syscall (the lock is a pipe, and a spinner
 * already on a cpu takes the byte before the woken thread runs, for
 * seconds on a loaded machine), and cost every waiter two context
 * switches each time the token holder let go of the lock. A waiter sleeps
 * with its own bit of the futex bitset (its thread id modulo 32), so the
 * thread that passes the token wakes the one it passes it to
 * (wake_thread), and each return from a syscall wakes them all
 * (wake_sleepers). The timeout is only a safety net: 1 ms for a token
 * holder running client code; growing from 50 us to 1 ms for one in the
 * kernel, whose falling asleep is seen only through /proc.
 */
static UInt sched_gen, sleepers;

#define TID_BIT(tid) (1u << ((tid) % 32))

static void wait_a_little(ThreadId tid, Bool kernel, UInt *spins)
{
	struct vki_timespec ts = { 0, 0 };
	UInt n = (*spins)++, gen = sched_gen;
	Long ns = !kernel ? 1000000L : n < 5 ? 50000L << n : 1000000L;

	VG_(do_syscall)(__NR_clock_gettime, VKI_CLOCK_MONOTONIC, (UWord)&ts, 0, 0, 0, 0, 0, 0);
	ts.tv_nsec += ns;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	sleepers++;
	VG_(release_BigLock)(tid, VGTS_YIELDING, "c2csim wait");
	VG_(do_syscall)
	(__NR_futex, (UWord)&sched_gen, VKI_FUTEX_WAIT_BITSET | VKI_FUTEX_PRIVATE_FLAG, gen,
	 (UWord)&ts, 0, TID_BIT(tid), 0, 0);
	VG_(acquire_BigLock)(tid, "c2csim wait");
	sleepers--;
}

/* Wake the sleeping waiters whose bit is in bits (each sleeps with TID_BIT). */
static void wake_bits(UInt bits)
{
	if (!sleepers)
		return;
	sched_gen++;
	VG_(do_syscall)
	(__NR_futex, (UWord)&sched_gen, VKI_FUTEX_WAKE_BITSET | VKI_FUTEX_PRIVATE_FLAG, 0x7fffffff,
	 0, 0, bits, 0, 0);
}

/* Something any sleeping waiter may wait for happened. */
static void wake_sleepers(void)
{
	wake_bits(~0u);
}

/* The token is d's now: wake it (and any waiter sharing its bit). */
static void wake_thread(const struct slot *d)
{
	if (d)
		wake_bits(TID_BIT(d->vgtid));
}

/* *busy: one not asleep yet is working (running, runnable, disk sleep). */
static Bool blocked_all_asleep(Bool *busy)
{
	Bool all = True;
	UInt i;

	*busy = False;
	for (i = 0; i < c2csim_nr_slots; i++)
		if (c2csim_slots[i].live && c2csim_slots[i].state == SL_BLOCKED &&
		    !asleep(&c2csim_slots[i])) {
			all = False;
			*busy = *busy || busy_in_kernel(&c2csim_slots[i]);
		}
	return all;
}

/*
 * Whether d, woken by a thread's exit in the model (pthread_join), waits
 * for the kernel to finish that exit: the thread is still there. On a
 * loaded machine that can take long; it always ends.
 */
static Bool exit_in_progress(const struct slot *d)
{
	HChar state;
	UInt i;

	for (i = 0; d->futex && i < c2csim_nr_slots; i++) {
		const struct slot *t = &c2csim_slots[i];

		if (t->state != SL_EXITED || t->ctid != d->futex || t->lwpid <= 0)
			continue;
		state = task_state(t);
		return state && state != 'Z' && state != 'X';
	}
	return False;
}

static Bool read_word(Addr a, UInt *v);

/*
 * Whether every thread that exited in the model has exited in the kernel
 * too: the kernel clears its CLONE_CHILD_CLEARTID word (pthread_join
 * reads it) only then, and until it has, a thread that reads the word
 * would see a value that depends on real time. *busy: one is still on
 * its way (its exit only needs a cpu).
 */
static Bool exits_done(Bool *busy)
{
	Bool all = True;
	HChar state;
	UInt i, v;

	*busy = False;
	for (i = 0; i < c2csim_nr_slots; i++) {
		struct slot *t = &c2csim_slots[i];

		if (t->state != SL_EXITED || !t->ctid || t->exit_cleared)
			continue;
		state = t->lwpid > 0 ? task_state(t) : 0;
		if (!read_word(t->ctid, &v) || !v || !state || state == 'Z' || state == 'X') {
			t->exit_cleared = True; /* cleared, or gone: nothing to wait for */
			continue;
		}
		all = False;
		*busy = *busy || (state != 'T' && state != 't');
	}
	return all;
}

/* Threads neither asleep nor gone after ASLEEP_MS: run on without them. */
static void give_up_waiting(void)
{
	Bool busy;
	UInt i;

	if (!exits_done(&busy))
		fell_back(C2CSIM_ST_FB_EXIT);
	if (!blocked_all_asleep(&busy))
		fell_back(C2CSIM_ST_FB_NOT_ASLEEP);
	for (i = 0; i < c2csim_nr_slots; i++) {
		c2csim_slots[i].asleep = True;
		c2csim_slots[i].exit_cleared = True;
	}
}

void c2csim_sched_wait_turn(ThreadId tid)
{
	struct slot *waited_for = NULL;
	UInt since = 0, mine = 0; /* when the wait for d / for sleepers began */
	UInt spins = 0;

	for (;;) {
		struct slot *s = c2csim_thread_slot(tid), *d;
		UInt now = VG_(read_millisecond_timer)();

		if (VG_(is_exiting)(tid)) /* start_client lets it go (c2csim_sched_exiting) */
			return;

		if (s->state != SL_READY) { /* runs although the model has it waiting */
			if (s->state != SL_LOST) /* LOST: counted when given up on */
				fell_back(C2CSIM_ST_FB_RAN_WAITING);
			s->state = SL_READY;
			rejoin(s);
		}
		d = designated();
		if (d == s || !d) {
			Bool busy, exiting;

			if (blocked_all_asleep(&busy) && exits_done(&exiting))
				return;
			if (!mine || busy || exiting) /* on its way: give it time */
				mine = now | 1;
			else if (now - mine > ASLEEP_MS) { /* never seen asleep: go on */
				give_up_waiting();
				return;
			}
			wait_a_little(tid, True, &spins);
			continue;
		}
		if (d != waited_for) {
			waited_for = d;
			since = now;
			spins = 0;
			wake_thread(d); /* it may be asleep here, waiting for this thread */
		}
		/* The token holder should be running or on its way back from a
		 * syscall; one stuck in the kernel blocks on something unseen. */
		if (d->in_kernel && now - d->kernel_since > d->hang_ms &&
		    (busy_in_kernel(d) || exit_in_progress(d)))
			d->kernel_since = now; /* slow, not waiting: give it time */
		if (d->in_kernel && now - d->kernel_since > d->hang_ms) {
			d->state = SL_LOST;
			fell_back(C2CSIM_ST_FB_HANG);
			c2csim_totals[C2CSIM_ST_FB_HANG_SYSNO] = d->sysno + 1;
			continue;
		}
		if (now - since > ABSENT_MS) {
			d->state = SL_LOST;
			fell_back(C2CSIM_ST_FB_ABSENT);
			continue;
		}
		wait_a_little(tid, d->in_kernel, &spins);
	}
}

/* Wake up to n BLOCKED waiters on word, oldest first, at the waker's clock. */
static void futex_wake(Addr word, ULong n, ULong clock, Addr requeue_to, ULong requeue_n)
{
	while (n || requeue_n) {
		struct slot *first = NULL;
		UInt i;

		for (i = 0; i < c2csim_nr_slots; i++) {
			struct slot *s = &c2csim_slots[i];

			if (s->live && s->state == SL_BLOCKED && s->futex == word &&
			    (!first || s->wait_seq < first->wait_seq))
				first = s;
		}
		if (!first)
			return;
		if (n) {
			n--;
			first->state = SL_READY;
			if (first->clock < clock)
				first->clock = clock;
			first->hang_ms = HANG_MS;
		} else {
			requeue_n--;
			first->futex = requeue_to;
		}
	}
}

static Bool read_word(Addr a, UInt *v)
{
	if (a & 3 || !VG_(am_is_valid_for_client)(a, 4, VKI_PROT_READ))
		return False;
	*v = *(const UInt *)a;
	return True;
}

/* A thread that exited in the model but whose tid word the kernel has not
 * cleared yet: a wait on it returns as soon as the kernel does. */
static Bool exit_pending(Addr word)
{
	UInt i;

	for (i = 0; i < c2csim_nr_slots; i++)
		if (c2csim_slots[i].state == SL_EXITED && c2csim_slots[i].ctid == word)
			return True;
	return False;
}

static void futex_pre(struct slot *s, const UWord *args)
{
	Addr word = args[0];
	UInt cmd = args[1] & FUTEX_CMD_MASK, v;

	switch (cmd) {
	case 0: /* FUTEX_WAIT */
	case 9: /* FUTEX_WAIT_BITSET */
		s->hang_ms = HANG_MS;
		if (!read_word(word, &v) || v != (UInt)args[2] || exit_pending(word))
			return; /* returns at once (EAGAIN) or when the kernel clears it */
		block_on(s, word);
		return;
	case 1: /* FUTEX_WAKE */
	case 10: /* FUTEX_WAKE_BITSET */
		futex_wake(word, (UInt)args[2], s->clock, 0, 0);
		return;
	case 4: /* FUTEX_CMP_REQUEUE: only when the word still holds val3 */
		if (!read_word(word, &v) || v != (UInt)args[5])
			return;
		/* fall through */
	case 3: /* FUTEX_REQUEUE */
		futex_wake(word, (UInt)args[2], s->clock, args[4], (UInt)args[3]);
		return;
	case 6: /* FUTEX_LOCK_PI */
	case 11: /* FUTEX_WAIT_REQUEUE_PI */
	case 13: /* FUTEX_LOCK_PI2 */
		s->hang_ms = HANG_UNMODELLED_MS;
		return;
	default:
		return;
	}
}

/* nanosleep and relative clock_nanosleep: the clock moves, the thread stays READY. */
static void sleep_pre(struct slot *s, Addr req, Bool absolute)
{
	const struct vki_timespec *ts = (const struct vki_timespec *)req;
	ULong ns;

	if (absolute || !VG_(am_is_valid_for_client)(req, sizeof(*ts), VKI_PROT_READ) ||
	    ts->tv_sec < 0 || ts->tv_nsec < 0) {
		s->hang_ms = HANG_UNMODELLED_MS;
		return;
	}
	ns = (ULong)ts->tv_sec * 1000000000ULL + (ULong)ts->tv_nsec;
	s->clock += ns; /* and it returns by itself: HANG_NEVER */
}

/*
 * Pipes: a read from an empty pipe blocks until a write to it, a write to a
 * full one until a read. Both ends share the pipe's inode, which keys the
 * waiters (tagged so as never to equal a futex address).
 */
#define PIPE_TAG (1ULL << 63)
#ifndef VKI_POLLOUT
#define VKI_POLLOUT 0x0004
#endif

static Addr pipe_key(Int fd, Bool reader)
{
	struct vg_stat st;

	if (VG_(fstat)(fd, &st) != 0 || !VKI_S_ISFIFO(st.mode))
		return 0;
	return PIPE_TAG | ((st.ino << 1 | reader) ^ (st.dev << 40));
}

static Bool fd_ready(Int fd, Short events)
{
	struct vki_pollfd p = { .fd = fd, .events = events };
	SysRes r = VG_(poll)(&p, 1, 0);

	return sr_isError(r) || sr_Res(r) > 0;
}

static void block_on(struct slot *s, Addr key)
{
	s->state = SL_BLOCKED;
	s->asleep = False;
	s->futex = key;
	s->wait_seq = ++wait_seq;
	s->block_clock = s->clock;
}

static void pipe_pre(struct slot *s, Int fd, Bool reading)
{
	Addr mine = pipe_key(fd, reading), other;
	struct vg_stat st;

	if (!mine) { /* files return by themselves; sockets may wait for a thread */
		if (VG_(fstat)(fd, &st) == 0 && (VKI_S_ISREG(st.mode) || VKI_S_ISBLK(st.mode)))
			s->hang_ms = HANG_NEVER;
		else if (VG_(fstat)(fd, &st) == 0 && VKI_S_ISSOCK(st.mode))
			s->hang_ms = HANG_UNMODELLED_MS;
		return;
	}
	other = mine ^ 1; /* the key of the other end's waiters */
	s->hang_ms = HANG_MS;
	futex_wake(other, 1, s->clock, 0, 0); /* a reader frees room, a writer brings data */
	if (!fd_ready(fd, reading ? VKI_POLLIN : VKI_POLLOUT))
		block_on(s, mine);
}

/* Syscalls that may wait for something the model does not see. */
static Bool may_block(UInt sysno)
{
	switch (sysno) {
	case __NR_poll:
	case __NR_ppoll:
	case __NR_select:
	case __NR_pselect6:
	case __NR_epoll_wait:
	case __NR_epoll_pwait:
	case __NR_wait4:
	case __NR_waitid:
	case __NR_read:
	case __NR_readv:
	case __NR_recvfrom:
	case __NR_recvmsg:
	case __NR_accept:
	case __NR_accept4:
	case __NR_pause:
	case __NR_rt_sigsuspend:
	case __NR_rt_sigtimedwait:
	case __NR_msgrcv:
	case __NR_semop:
	case __NR_semtimedop:
	case __NR_connect:
	case __NR_flock:
	case __NR_fcntl:
		return True;
	default:
		return False;
	}
}

static void clone_pre(const UWord *args, UInt sysno)
{
	UWord flags = args[0];
	Addr ctid = args[3];

	if (sysno == __NR_clone3) { /* struct clone_args: flags @0, child_tid @16 */
		if (!VG_(am_is_valid_for_client)(args[0], 24, VKI_PROT_READ))
			return;
		flags = ((const ULong *)args[0])[0];
		ctid = ((const ULong *)args[0])[2];
	}
	if ((flags & CLONE_THREAD_FLAG) && (flags & CLONE_CHILD_CLEARTID_FLAG))
		pending_ctid = ctid;
}

void c2csim_sched_thread_created(struct slot *child)
{
	UInt i;

	child->state = SL_READY;
	child->ctid = pending_ctid;
	pending_ctid = 0;
	for (i = 0; child->ctid && i < c2csim_nr_slots; i++) /* a reused thread descriptor */
		if (&c2csim_slots[i] != child && c2csim_slots[i].ctid == child->ctid)
			c2csim_slots[i].ctid = 0;
}

void c2csim_sched_pre_syscall(struct slot *s, UInt sysno, const UWord *args)
{
	s->in_kernel = True;
	s->sysno = sysno;
	s->arg0 = args[0];
	s->kernel_since = VG_(read_millisecond_timer)();
	s->hang_ms = may_block(sysno) ? HANG_UNMODELLED_MS : HANG_NEVER;
	s->futex = 0;
	switch (sysno) {
	case __NR_futex:
		futex_pre(s, args);
		break;
	case __NR_nanosleep:
		sleep_pre(s, args[0], False);
		break;
	case __NR_clock_nanosleep:
		sleep_pre(s, args[2], (args[1] & 1) != 0);
		break;
	case __NR_clone:
	case __NR_clone3:
		clone_pre(args, sysno);
		break;
	case __NR_read:
	case __NR_readv:
		pipe_pre(s, (Int)args[0], True);
		break;
	case __NR_write:
	case __NR_writev:
		pipe_pre(s, (Int)args[0], False);
		break;
	case __NR_exit: /* this thread only; the kernel wakes its tid word */
		s->state = SL_EXITED;
		if (s->ctid)
			futex_wake(s->ctid, 1, s->clock, 0, 0);
		break;
	default:
		break;
	}
	c2csim_sched_pass_token(s);
}

void c2csim_sched_pass_token(const struct slot *from)
{
	struct slot *d = designated();

	if (d != from) /* most calls keep the token: nobody to wake */
		wake_thread(d);
}

/*
 * A thread back from a futex wait the model still has it blocked in: the
 * kernel woke it instead of another waiter on the same word that the model
 * chose (they entered the kernel in another order), or a timeout or signal
 * ended the wait. Swap with that waiter when there is one.
 */
static void blocked_returned(struct slot *s)
{
	UInt i;

	for (i = 0; i < c2csim_nr_slots; i++) {
		struct slot *t = &c2csim_slots[i];

		if (t != s && t->live && t->state == SL_READY && t->in_kernel &&
		    t->futex == s->futex && t->hang_ms == HANG_MS && t->clock >= t->block_clock) {
			ULong woke_at = t->clock;

			t->state = SL_BLOCKED;
			t->clock = t->block_clock;
			s->state = SL_READY;
			if (s->clock < woke_at)
				s->clock = woke_at;
			fell_back(C2CSIM_ST_FB_SWAPPED);
			return;
		}
	}
	s->state = SL_READY;
	fell_back(C2CSIM_ST_FB_WOKE);
	rejoin(s);
}

void c2csim_sched_post_syscall(struct slot *s, UInt sysno, SysRes res)
{
	if (s->state == SL_BLOCKED && !s->asleep) {
		/* Returned without sleeping; nobody ran meanwhile (c2csim_sched_wait_turn
		 * waits for it), so this is the model being cautious, not lost. */
		s->state = SL_READY;
	} else if (s->state == SL_BLOCKED) {
		blocked_returned(s);
	} else if (s->state == SL_LOST) { /* counted when it was given up on */
		s->state = SL_READY;
		rejoin(s);
	}
	s->in_kernel = False;
	s->futex = 0;
	wake_sleepers();
}

/*
 * A thread Valgrind has told to exit (a fatal signal, exit_group) stops
 * waiting for the token at once: nobody would give it. It must get back
 * to Valgrind's scheduler to exit, and from start_client that is only
 * through generated code: with c2csim_limit 0 its first block yields before
 * any client instruction. A thread that took a fatal signal waits, still
 * inside its signal handler and so "in generated code", until every
 * other thread has gone; the core asserts that nobody else is in
 * generated code when a thread enters it, so the exiting thread borrows
 * that flag for its one block and gives it back in stop_client.
 */
static Bool gen_flag_borrowed;

Bool c2csim_sched_exiting(ThreadId tid)
{
	if (!VG_(is_exiting)(tid))
		return False;
	if (VG_(in_generated_code)) {
		VG_(in_generated_code) = False;
		gen_flag_borrowed = True;
	}
	return True;
}

void c2csim_sched_stopped(void)
{
	if (gen_flag_borrowed) {
		VG_(in_generated_code) = True;
		gen_flag_borrowed = False;
	}
}
