// SPDX-License-Identifier: GPL-2.0
/* Corpus: unions, anonymous structs and unions, nested aggregates. */
union u_simple {
	int i;
	char bytes[6];
	double d;
};

struct with_anon {
	int kind;
	union {
		long l;
		struct {
			short lo;
			short hi;
		};
		void *p;
	};
	struct {
		unsigned char r, g, b;
	} color;
	union {
		unsigned int word;
		struct {
			unsigned int low : 12;
			unsigned int high : 20;
		} bits;
	} reg;
	char last;
};

union u_of_structs {
	struct {
		int a;
		char b;
	} first;
	struct {
		char pad[3];
		long long c;
	} second;
	unsigned int raw[5];
};

struct nested_outer {
	struct nested_inner {
		char c;
		int i;
	} in;
	union u_simple u;
	struct nested_inner pair[2];
};

/* A union known only by its declaration, and a pointer to an anonymous
 * struct: pahole prints "union declared_only *" and the struct's body
 * inline as "} * parts;" with offsets relative to it. */
union declared_only;
struct odd_pointers {
	union declared_only *fwd;
	struct {
		long from;
		long size;
		int flags;
	} *parts;
	int next;
};

union u_simple u_simple;
struct with_anon with_anon;
union u_of_structs u_of_structs;
struct nested_outer nested_outer;
struct odd_pointers odd_pointers;
