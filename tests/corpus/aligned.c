// SPDX-License-Identifier: GPL-2.0
/* Corpus: forced alignment and packing. */
struct al_member {
	char c;
	int hot __attribute__((aligned(64)));
	char d;
};

struct al_type {
	long x;
} __attribute__((aligned(64)));

struct uses_al_type {
	char c;
	struct al_type t;
	int after;
};

struct al_16 {
	char a;
	long long b __attribute__((aligned(16)));
	char c __attribute__((aligned(8)));
};

struct pk {
	char c;
	int i;
	short s;
	long l;
} __attribute__((packed));

/*
 * A packed member is only visible in DWARF through its offset: were i at a
 * naturally aligned offset, nothing would tell that the struct's alignment
 * is 1 (pahole cannot tell either). Here it sits at 16 + 1.
 */
struct pk_member {
	char c;
	struct pk inner;
	char d;
	int i __attribute__((packed));
};

struct pk_aligned {
	char c;
	int i;
} __attribute__((packed, aligned(4)));

typedef int aligned_int __attribute__((aligned(32)));

struct al_typedef {
	char c;
	aligned_int ai;
};

struct al_member al_member;
struct uses_al_type uses_al_type;
struct al_16 al_16;
struct pk pk;
struct pk_member pk_member;
struct pk_aligned pk_aligned;
struct al_typedef al_typedef;
