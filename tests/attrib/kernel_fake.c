// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for kernel code in tests/attrib/kernel_debug.sh: compiled as
 * an object (like a .ko or kernel/sched/core.o) and as an executable with
 * a build-id (like a vmlinux). -DOTHER_BUILD makes set_task_cpu another
 * size: a debug file of another kernel. Built for x86-64 (-mcmodel=kernel
 * for the vmlinux).
 */
struct rt_rq;
struct task_group {
	long shares;
	long load_avg __attribute__((aligned(64)));
	void **rt_se;
	struct rt_rq **rt_rq;
};

struct task_struct {
	int cpu;
	struct task_group *sched_task_group;
};

__attribute__((noinline)) void *set_task_cpu(struct task_struct *p, int new_cpu)
{
	struct task_group *tg = p->sched_task_group;

	p->cpu = new_cpu;
#ifdef OTHER_BUILD
	tg->shares += new_cpu;
#endif
	return tg->rt_se[new_cpu] ? (void *)tg->rt_rq[new_cpu] : 0;
}

__attribute__((noinline)) long update_cfs_group(struct task_group *tg)
{
	return __atomic_load_n(&tg->load_avg, __ATOMIC_RELAXED);
}

/* A per-cpu variable, read with this_cpu_read's %gs: addressing */
struct rq {
	long nr_running;
	long clock;
};
__attribute__((section(".data..percpu"))) struct rq runqueues;

__attribute__((noinline)) long rq_clock_this_cpu(void)
{
	long v;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(v) : "i"(&runqueues.clock));
	return v;
}

/* A global, named by its data address: root_task_group.rt_se */
struct task_group root_task_group;

int main(int argc, char **argv)
{
	struct task_struct t = { .sched_task_group = &root_task_group };

	(void)argv;
	return set_task_cpu(&t, argc - 1) != 0 || update_cfs_group(&root_task_group) ||
	       rq_clock_this_cpu();
}
