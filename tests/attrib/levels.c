// SPDX-License-Identifier: GPL-2.0
/*
 * The optimisation-level corpus (tests/attrib/levels.sh builds it at -O0,
 * -Og, -O1, -O2 and -O3 with gcc and clang and records it under record --sim): four
 * threads reach heap structs only through pointers, in the ways code does
 * at every level:
 *   - a per-thread element of a calloc'd array, from the thread's void *
 *     argument copied into a typed local (-O0: reloaded from its slot);
 *   - a member array indexed by a loop variable (w->bins[i & 3]);
 *   - an embedded struct passed by address to a helper (lea of a member);
 *   - a pointer member followed to a shared struct (w->shared->misses);
 *   - an atomic add on a member's address (lock xadd through lea);
 *   - a local struct on the stack holding the pointer (c.s->limit);
 *   - a pointer copied to another local before use;
 *   - a pointer returned by a call (shared_of(w)->lock).
 * Neighbouring elements share lines (false sharing) and every thread hits
 * the shared struct (true sharing), so every access shows in the report.
 *
 * The truth comes from the compiler: after the threads end the program
 * prints each object's address, size and element count ("object NAME ADDR
 * SIZE COUNT") and each field's offsetof and sizeof ("field NAME PATH OFF
 * SIZE [ELEMENT_SIZE]"); the test names every sampled address from those lines alone.
 * usage: levels [N]   (N rounds per thread, default 2000)
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define NR_THREADS 4
#define NOINLINE __attribute__((noinline))

struct shared {
	long lock;
	long hits;
	long misses;
	long limit; /* read by all, on the writers' line */
};

struct counter {
	long val;
	long n;
};

struct worker {
	long id;
	long sum;
	struct counter ctr;
	int bins[4];
	struct shared *shared;
};

struct ctx {
	struct shared *s;
	long k;
};

static long rounds = 2000;

/* A struct pointer parameter, written through twice. */
NOINLINE static void bump(struct counter *c, long v)
{
	((volatile struct counter *)c)->val += v;
	((volatile struct counter *)c)->n++;
}

/* A pointer copied into another local, then a pointer member followed. */
NOINLINE static void miss(struct worker *w)
{
	struct worker *q = w;

	((volatile struct shared *)q->shared)->misses++;
}

/* A pointer handed back as a call's return value. */
NOINLINE static struct shared *shared_of(struct worker *w)
{
	return w->shared;
}

/* The pointer kept in a local struct on the stack. */
NOINLINE static long peek(struct worker *w, long i)
{
	struct ctx c = { w->shared, i };

	return ((volatile struct shared *)c.s)->limit + c.k;
}

static void *work(void *p)
{
	struct worker *w = p;
	long i, got = 0;

	for (i = 0; i < rounds; i++) {
		((volatile struct worker *)w)->sum += i;
		((volatile struct worker *)w)->bins[i & 3]++;
		bump(&w->ctr, i);
		__atomic_fetch_add(&w->shared->hits, 1, __ATOMIC_RELAXED);
		if (!(i & 7))
			miss(w);
		if (!(i & 15))
			((volatile struct shared *)shared_of(w))->lock++;
		got += peek(w, i);
	}
	return (void *)got;
}

#define FIELD(type, path)                                                          \
	printf("field %s %s %zu %zu\n", #type, #path, offsetof(struct type, path), \
	       sizeof(((struct type *)0)->path))
/* An array member: its element size too. */
#define ARRAY_FIELD(type, path)                                                        \
	printf("field %s %s %zu %zu %zu\n", #type, #path, offsetof(struct type, path), \
	       sizeof(((struct type *)0)->path), sizeof(((struct type *)0)->path[0]))

static void truth(const struct worker *w, const struct shared *s)
{
	printf("object worker %p %zu %d\n", (void *)w, sizeof(*w), NR_THREADS);
	printf("object shared %p %zu 1\n", (void *)s, sizeof(*s));
	FIELD(worker, id);
	FIELD(worker, sum);
	FIELD(worker, ctr.val);
	FIELD(worker, ctr.n);
	ARRAY_FIELD(worker, bins);
	FIELD(worker, shared);
	FIELD(shared, lock);
	FIELD(shared, hits);
	FIELD(shared, misses);
	FIELD(shared, limit);
}

int main(int argc, char **argv)
{
	pthread_t t[NR_THREADS];
	struct worker *w;
	struct shared *s;
	long total = 0;
	int i;

	if (argc > 1)
		rounds = atol(argv[1]);
	w = calloc(NR_THREADS, sizeof(*w));
	s = calloc(1, sizeof(*s));
	if (!w || !s)
		return 1;
	s->limit = 1;
	for (i = 0; i < NR_THREADS; i++) {
		w[i].id = i;
		w[i].shared = s;
		pthread_create(&t[i], NULL, work, &w[i]);
	}
	for (i = 0; i < NR_THREADS; i++) {
		void *got;

		pthread_join(t[i], &got);
		total += (long)got;
	}
	truth(w, s);
	printf("total %ld\n", total);
	return 0;
}
