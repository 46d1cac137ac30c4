/*
 * The attribution corpus: functions with KNOWN field accesses, compiled by
 * tests/attrib/corpus.sh at -O2 -g. Each EXPECT(fn, "...") lists, by hand,
 * everything a memory access in fn may be attributed to:
 *   "S.path"  the struct/union S and the field path inside it ("[]" in the
 *             expectation matches any index, a number only itself);
 *   "=path"   the whole displayed path (a global that is not a struct).
 * Any other attribution is WRONG; an access may also stay unresolved with a
 * reason. The expectations live in the binary's c2c_expect section.
 */
#define EXPECT(fn, str)                                                                    \
	static const char fn##_expect[] __attribute__((section("c2c_expect"), used)) =       \
		#fn ":" str;

#define NOINLINE __attribute__((noinline))

struct pair {
	long a;
	long b;
};

struct inner {
	int x;
	int y;
	long z;
};

struct outer {
	long hdr;
	struct inner in;
	struct inner arr[4];
	struct inner *ip;
	union {
		long u_l;
		int u_i[2];
	} u;
	unsigned int flag : 8;
	unsigned int cnt : 8;
};

struct node {
	struct node *next;
	long val;
	int key;
};

struct arg {
	long a;
	int SX;
	int SY;
};

struct stats {
	long hits;
	long misses;
	long hist[16];
};

struct tg_like {
	long weight;
	struct {
		long quota;
		long period;
	} cfs_bandwidth;
	long load_avg;
};

struct outer g_outer;
struct arg args[8];
struct stats g_stats;
static struct pair s_pair;
struct node *g_head;

NOINLINE void ext_impl(void)
{
	__asm__ volatile("" ::: "memory");
}

/* Called through a pointer: the compiler must assume the ABI's clobbers. */
void (*volatile ext)(void) = ext_impl;

EXPECT(c_param_read, "pair.b")
NOINLINE long c_param_read(struct pair *p)
{
	return p->b;
}

EXPECT(c_param_write, "pair.a")
NOINLINE void c_param_write(struct pair *p, long v)
{
	p->a = v;
}

EXPECT(c_nested_read, "outer.in.y")
NOINLINE long c_nested_read(struct outer *o)
{
	return o->in.y;
}

EXPECT(c_array_elem, "outer.arr[2].z")
NOINLINE long c_array_elem(struct outer *o)
{
	return o->arr[2].z;
}

EXPECT(c_array_loop, "outer.arr[].x")
NOINLINE long c_array_loop(struct outer *o)
{
	long s = 0;
	int i;

	for (i = 0; i < 4; i++)
		s += o->arr[i].x;
	return s;
}

EXPECT(c_via_local, "outer.ip inner.z")
NOINLINE long c_via_local(struct outer *o)
{
	struct inner *ip = o->ip;

	return ip->z;
}

EXPECT(c_list_sum, "node.val node.next")
NOINLINE long c_list_sum(struct node *n)
{
	long s = 0;

	while (n) {
		s += n->val;
		n = n->next;
	}
	return s;
}

EXPECT(c_inc_hits, "stats.hits")
NOINLINE void c_inc_hits(struct stats *s)
{
	s->hits++;
}

EXPECT(c_hist_add, "stats.hist[]")
NOINLINE void c_hist_add(struct stats *s, int i)
{
	s->hist[i & 15]++;
}

static inline void set_period(struct tg_like *t, long p)
{
	t->cfs_bandwidth.period = p;
}

EXPECT(c_inl_period, "tg_like.cfs_bandwidth.period")
NOINLINE void c_inl_period(struct tg_like *t, long p)
{
	set_period(t, p);
}

static inline long inner_y(struct inner *i)
{
	return i->y;
}

EXPECT(c_inl_inner, "inner.y outer.in.y")
NOINLINE long c_inl_inner(struct outer *o)
{
	return inner_y(&o->in);
}

EXPECT(c_glob_read, "outer.in.z")
NOINLINE long c_glob_read(void)
{
	return g_outer.in.z;
}

EXPECT(c_args_sx, "arg.SX")
NOINLINE int c_args_sx(int i)
{
	return args[i & 7].SX;
}

EXPECT(c_args3, "arg.SX")
NOINLINE int c_args3(void)
{
	return args[3].SX;
}

EXPECT(c_static_pair, "pair.b")
NOINLINE long c_static_pair(void)
{
	return s_pair.b;
}

EXPECT(c_head_val, "node.val =g_head")
NOINLINE long c_head_val(void)
{
	return g_head->val;
}

EXPECT(c_union_i, "outer.u.u_i[1]")
NOINLINE int c_union_i(struct outer *o)
{
	return o->u.u_i[1];
}

EXPECT(c_bitfield, "outer.cnt")
NOINLINE unsigned int c_bitfield(struct outer *o)
{
	return o->cnt;
}

EXPECT(c_sum_args, "arg.SY")
NOINLINE long c_sum_args(struct arg *a, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += a[i].SY;
	return s;
}

EXPECT(c_deep, "outer.ip inner.y")
NOINLINE long c_deep(struct outer *o)
{
	return o->ip->y;
}

EXPECT(c_spin, "stats.misses")
NOINLINE void c_spin(struct stats *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		*(volatile long *)&s->misses += i;
}

EXPECT(c_after_call, "pair.b =ext")
NOINLINE long c_after_call(struct pair *p)
{
	ext();
	return p->b;
}

EXPECT(c_two_ptrs, "pair.a inner.z")
NOINLINE long c_two_ptrs(struct pair *x, struct inner *y)
{
	return x->a + y->z;
}

EXPECT(c_ptr_arr, "node.val =v[]")
NOINLINE long c_ptr_arr(struct node **v, int i)
{
	return v[i]->val;
}

EXPECT(c_atomic_add, "tg_like.load_avg")
NOINLINE void c_atomic_add(struct tg_like *t)
{
	__atomic_fetch_add(&t->load_avg, 1, __ATOMIC_RELAXED);
}

EXPECT(c_cas, "tg_like.weight")
NOINLINE int c_cas(struct tg_like *t)
{
	return __sync_bool_compare_and_swap(&t->weight, 0, 1);
}

EXPECT(c_update, "node.key stats.hist[]")
NOINLINE void c_update(struct stats *s, struct node *n)
{
	s->hist[n->key & 15] += 1;
}

EXPECT(c_glob_stats, "stats.misses stats.hits")
NOINLINE void c_glob_stats(void)
{
	g_stats.misses += g_stats.hits;
}

EXPECT(c_call_between, "pair.a pair.b =ext")
NOINLINE long c_call_between(struct pair *p)
{
	long a = p->a;

	ext();
	return a + p->b;
}

EXPECT(c_store_two, "tg_like.cfs_bandwidth.quota tg_like.cfs_bandwidth.period")
NOINLINE void c_store_two(struct tg_like *t, long q, long p)
{
	t->cfs_bandwidth.quota = q;
	t->cfs_bandwidth.period = p;
}

EXPECT(c_find_key, "node.key node.next")
NOINLINE struct node *c_find_key(struct node *n, int key)
{
	for (; n; n = n->next)
		if (n->key == key)
			return n;
	return 0;
}

static inline void stats_hit(struct stats *s, int miss)
{
	if (miss)
		s->misses++;
	else
		s->hits++;
}

EXPECT(c_inl_branch, "stats.misses stats.hits")
NOINLINE void c_inl_branch(struct stats *s, int miss)
{
	stats_hit(s, miss);
}

EXPECT(c_outer_chain, "outer.in.x outer.in.z outer.hdr")
NOINLINE long c_outer_chain(struct outer *o)
{
	return o->hdr + o->in.x + o->in.z;
}

EXPECT(c_arg_elem_ptr, "arg.SX arg.SY")
NOINLINE void c_arg_elem_ptr(struct arg *a)
{
	a[2].SX = a[1].SY;
}

/* ---- kernel-style shapes ------------------------------------------------ */

struct list_head {
	struct list_head *next, *prev;
};

struct item {
	long weight;
	struct list_head link;
	int prio;
	char name[12];
};

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-__builtin_offsetof(type, member)))

EXPECT(c_container_of, "item.prio")
NOINLINE int c_container_of(struct list_head *l)
{
	struct item *it = container_of(l, struct item, link);

	return it->prio;
}

EXPECT(c_list_walk, "list_head.next item.weight item.link.next")
NOINLINE long c_list_walk(struct list_head *head)
{
	struct list_head *pos;
	long sum = 0;

	for (pos = head->next; pos != head; pos = pos->next)
		sum += container_of(pos, struct item, link)->weight;
	return sum;
}

EXPECT(c_name_char, "item.name[3]")
NOINLINE int c_name_char(struct item *it)
{
	return it->name[3];
}

struct spin {
	int lock;
	int owner;
};

struct lockpool {
	long nr;
	struct spin locks[8];
};

EXPECT(c_pool_lock, "lockpool.locks[].lock")
NOINLINE void c_pool_lock(struct lockpool *p, int i)
{
	while (__atomic_exchange_n(&p->locks[i & 7].lock, 1, __ATOMIC_ACQUIRE))
		;
}

EXPECT(c_pool_owner, "lockpool.locks[5].owner")
NOINLINE void c_pool_owner(struct lockpool *p, int me)
{
	p->locks[5].owner = me;
}

struct percpu {
	long count;
	long pad;
};

struct percpu pcpu[16];

EXPECT(c_percpu_inc, "percpu.count")
NOINLINE void c_percpu_inc(int cpu)
{
	pcpu[cpu & 15].count++;
}

struct msg {
	int type;
	union {
		struct {
			int a;
			int b;
		};
		long c;
	};
};

EXPECT(c_anon_member, "msg.b")
NOINLINE int c_anon_member(struct msg *m)
{
	return m->b;
}

EXPECT(c_anon_long, "msg.c")
NOINLINE long c_anon_long(struct msg *m)
{
	return m->c;
}

/*
 * A type only a parameter uses (the model has no anonymous struct behind a
 * typedef): attribution asks the type model to convert it, bitfields with
 * DWARF 4's DW_AT_bit_offset included (corpus.sh builds with -gdwarf-4 too).
 */
typedef struct {
	unsigned int lo : 8;
	unsigned int mid : 8;
	unsigned int hi : 16;
	long tail;
} bits_t;

EXPECT(c_typedef_bits, "bits_t.hi")
NOINLINE unsigned int c_typedef_bits(bits_t *b)
{
	return b->hi;
}

struct grid {
	int w;
	int cells[4][8];
};

EXPECT(c_grid_cell, "grid.cells[2][5]")
NOINLINE int c_grid_cell(struct grid *g)
{
	return g->cells[2][5];
}

EXPECT(c_bitfield_write, "outer.cnt")
NOINLINE void c_bitfield_write(struct outer *o, unsigned int v)
{
	o->cnt = v;
}

EXPECT(c_spin_wait, "tg_like.load_avg")
NOINLINE void c_spin_wait(struct tg_like *t)
{
	while (!*(volatile long *)&t->load_avg)
		__builtin_ia32_pause();
}

EXPECT(c_double_ptr, "outer.hdr =*pp")
NOINLINE long c_double_ptr(struct outer **pp)
{
	return (*pp)->hdr;
}

NOINLINE struct node *get_node(void)
{
	return g_head;
}

EXPECT(c_returned_ptr, "node.key =ext")
NOINLINE int c_returned_ptr(void)
{
	struct node *n;

	ext();
	n = get_node();
	return n->key;
}

EXPECT(c_args_loop, "arg.SY")
NOINLINE void c_args_loop(void)
{
	int i;

	for (i = 0; i < 8; i++)
		args[i].SY++;
}

EXPECT(c_keep_across_calls, "stats.hits stats.misses =ext")
NOINLINE void c_keep_across_calls(struct stats *s)
{
	s->hits++;
	ext();
	s->misses++;
	ext();
	s->hits += s->misses;
}

EXPECT(c_clear_hist, "stats.hist[]")
NOINLINE void c_clear_hist(struct stats *s, int n)
{
	int i;

	for (i = 0; i < n && i < 16; i++)
		s->hist[i] = 0;
}

static inline struct inner *outer_inner(struct outer *o)
{
	return &o->in;
}

static inline void inner_set(struct inner *i, long v)
{
	i->z = v;
	i->x = (int)v;
}

EXPECT(c_inl_chain, "inner.z inner.x outer.in.z outer.in.x")
NOINLINE void c_inl_chain(struct outer *o, long v)
{
	inner_set(outer_inner(o), v);
}

int main(void)
{
	return 0;
}
