// SPDX-License-Identifier: GPL-2.0
/* Corpus: enums, function pointers, typedef chains, qualifiers. */
#include <stddef.h>

enum color { RED, GREEN = 5, BLUE = -1 };
enum small_enum { S_A, S_B } __attribute__((packed));
enum big_enum { BIG = 0x100000000ULL };

typedef unsigned int u32;
typedef u32 my_u32;
typedef my_u32 reg_t;
typedef struct ops ops_t;
typedef int (*handler_t)(void *data, int len);

struct ops {
	int (*open)(const char *name, int flags);
	void (*close)(struct ops *self);
	handler_t handler;
	void *(*alloc)(size_t size, ...);
	int (*table[2])(int);
	void (*noargs)(void);
};

struct typed {
	reg_t r;
	my_u32 m;
	enum color color;
	enum small_enum small;
	enum big_enum big;
	ops_t *ops;
	const char *name;
	volatile int v;
	const volatile unsigned long cvl;
	char *const cp;
	const ops_t *const_ops;
	_Bool b;
	long double ld;
	float f;
	double d;
	unsigned long long ull;
	signed char sc;
	_Atomic int atom;
};

typedef struct {
	int anon_typedef_member;
} anon_t;

struct uses_anon_t {
	anon_t a;
	anon_t *pa;
};

struct ops ops;
struct typed typed;
struct uses_anon_t uses_anon_t;
