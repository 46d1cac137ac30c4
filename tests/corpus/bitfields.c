// SPDX-License-Identifier: GPL-2.0
/* Corpus: bitfields, including ones that span or start new storage units. */
struct bf_basic {
	unsigned int a : 3;
	unsigned int b : 5;
	unsigned int c : 24;
	unsigned int d : 1;
	int e;
};

/* 7 + 7 + 7 bits in a char cannot share one byte: each starts a new unit. */
struct bf_char_units {
	unsigned char x : 7;
	unsigned char y : 7;
	unsigned char z : 7;
	char tail;
};

/* A long long bitfield spanning the 32-bit boundary of its storage unit. */
struct bf_span {
	char tag;
	unsigned long long lo : 20;
	unsigned long long mid : 30;
	unsigned long long hi : 14;
	short after;
};

/* Zero-width bitfield forces alignment to the next int boundary. */
struct bf_zero_width {
	unsigned int a : 4;
	unsigned int : 0;
	unsigned int b : 4;
	unsigned short c : 9;
	signed int neg : 3;
	_Bool flag : 1;
};

/* Bitfields of different base types sharing bytes with a plain member. */
struct bf_mixed {
	char c;
	int i : 9;
	short s : 5;
	long l : 40;
	unsigned char u : 2;
};

struct bf_basic bf_basic;
struct bf_char_units bf_char_units;
struct bf_span bf_span;
struct bf_zero_width bf_zero_width;
struct bf_mixed bf_mixed;
