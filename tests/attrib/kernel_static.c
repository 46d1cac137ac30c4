// SPDX-License-Identifier: GPL-2.0
/*
 * Two static functions named show, as a kernel has many: built twice
 * (plain and -DSECOND) and joined with ld -r, each show has its own size
 * and reads a field of its own struct (tests/attrib/kernel_debug.sh).
 */
struct first_obj {
	long a, b;
};

struct second_obj {
	long x, y, z;
};

#ifndef SECOND
static __attribute__((noipa)) long show(struct first_obj *p)
{
	return p->b;
}

long first_caller(struct first_obj *p)
{
	return show(p) + 1;
}
#else
static __attribute__((noipa)) long show(struct second_obj *q, long k)
{
	return (q->z * k + q->y) / (k | 1) + (q->x ^ k) * 7;
}

long second_caller(struct second_obj *q)
{
	return show(q, 3) + 2;
}
#endif
