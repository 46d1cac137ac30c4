/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct task_group as Linux 6.1 lays it out on x86-64 with
 * FAIR_GROUP_SCHED, RT_GROUP_SCHED and CFS_BANDWIDTH (no SCHED_AUTOGROUP,
 * no UCLAMP_TASK_GROUP), in three variants chosen with -DTG_LAYOUT=:
 *
 *  TG_UPSTREAM   the 6.1 order: load_avg, which every cpu writes, shares
 *                its cache line with rt_se and rt_rq, which set_task_cpu
 *                reads on every wakeup.
 *  TG_REORDERED  rcu, list, siblings, children and parent move in front
 *                of the RT members (samples/linux/task_group-reorder.patch):
 *                same 704 bytes, nothing hot left next to load_avg.
 *  TG_ALIGNED    load_avg alone in a cacheline-aligned anonymous struct:
 *                robust against later edits, but 704 -> 768 bytes.
 *
 * The _Static_asserts pin every offset so that the model cannot drift from
 * the kernel it stands for.
 */
#ifndef SCHED_CORE_TASK_GROUP_H
#define SCHED_CORE_TASK_GROUP_H

#include "kernel_types.h"

#define TG_UPSTREAM 0
#define TG_REORDERED 1
#define TG_ALIGNED 2

#ifndef TG_LAYOUT
#error "build with -DTG_LAYOUT=TG_UPSTREAM, TG_REORDERED or TG_ALIGNED"
#endif

#define ____cacheline_aligned __attribute__((__aligned__(64)))

struct sched_entity;
struct cfs_rq;
struct sched_rt_entity;
struct rt_rq;

struct task_group {
	struct cgroup_subsys_state css;

	/* schedulable entities of this group on each CPU */
	struct sched_entity **se;
	/* runqueue "owned" by this group on each CPU */
	struct cfs_rq **cfs_rq;
	unsigned long shares;

	/* A positive value indicates that this is a SCHED_IDLE group. */
	int idle;

#ifdef TG_TEST_DRIFT
	/* Only for the test that proves the asserts below bite. */
	int drift;
	char drift_pad[40];
#endif

#if TG_LAYOUT == TG_ALIGNED
	struct {
		atomic_long_t load_avg;
	} ____cacheline_aligned;
#else
	/*
	 * load_avg can be heavily contended at clock tick time, so put
	 * it in its own cacheline separated from the fields above which
	 * will also be accessed at each tick.
	 */
	atomic_long_t load_avg ____cacheline_aligned;
#endif

#if TG_LAYOUT == TG_REORDERED
	struct rcu_head rcu;
	struct list_head list;

	struct list_head siblings;
	struct list_head children;
	struct task_group *parent;
#endif

	struct sched_rt_entity **rt_se;
	struct rt_rq **rt_rq;

	struct rt_bandwidth rt_bandwidth;

#if TG_LAYOUT != TG_REORDERED
	struct rcu_head rcu;
	struct list_head list;

	struct task_group *parent;
	struct list_head siblings;
	struct list_head children;
#endif

	struct cfs_bandwidth cfs_bandwidth;
};

#define TG_ASSERT_AT(member, off)                                    \
	_Static_assert(offsetof(struct task_group, member) == (off), \
		       "task_group." #member " must sit at " #off)

/* Shared by all three layouts: everything up to load_avg. */
TG_ASSERT_AT(css, 0);
TG_ASSERT_AT(se, 200);
TG_ASSERT_AT(cfs_rq, 208);
TG_ASSERT_AT(shares, 216);
TG_ASSERT_AT(idle, 224);
TG_ASSERT_AT(load_avg, 256);
_Static_assert(_Alignof(struct task_group) == 64, "task_group is cacheline aligned");

#if TG_LAYOUT == TG_UPSTREAM
#define TG_LAYOUT_NAME "upstream"
TG_ASSERT_AT(rt_se, 264);
TG_ASSERT_AT(rt_rq, 272);
TG_ASSERT_AT(rt_bandwidth, 280);
TG_ASSERT_AT(rcu, 376);
TG_ASSERT_AT(list, 392);
TG_ASSERT_AT(parent, 408);
TG_ASSERT_AT(siblings, 416);
TG_ASSERT_AT(children, 432);
TG_ASSERT_AT(cfs_bandwidth, 448);
_Static_assert(sizeof(struct task_group) == 704, "upstream task_group is 704 bytes");
#elif TG_LAYOUT == TG_REORDERED
#define TG_LAYOUT_NAME "reordered"
TG_ASSERT_AT(rcu, 264);
TG_ASSERT_AT(list, 280);
TG_ASSERT_AT(siblings, 296);
TG_ASSERT_AT(children, 312);
TG_ASSERT_AT(parent, 328);
TG_ASSERT_AT(rt_se, 336);
TG_ASSERT_AT(rt_rq, 344);
TG_ASSERT_AT(rt_bandwidth, 352);
TG_ASSERT_AT(cfs_bandwidth, 448);
_Static_assert(sizeof(struct task_group) == 704, "reordered task_group keeps 704 bytes");
#elif TG_LAYOUT == TG_ALIGNED
#define TG_LAYOUT_NAME "aligned"
TG_ASSERT_AT(rt_se, 320);
TG_ASSERT_AT(rt_rq, 328);
TG_ASSERT_AT(rt_bandwidth, 336);
TG_ASSERT_AT(rcu, 432);
TG_ASSERT_AT(list, 448);
TG_ASSERT_AT(parent, 464);
TG_ASSERT_AT(siblings, 472);
TG_ASSERT_AT(children, 488);
TG_ASSERT_AT(cfs_bandwidth, 504);
_Static_assert(sizeof(struct task_group) == 768, "aligned-wrapper task_group is 768 bytes");
#else
#error "unknown TG_LAYOUT"
#endif

#endif
