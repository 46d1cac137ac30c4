// SPDX-License-Identifier: GPL-2.0
/* Corpus: arrays, nested arrays of structs, flexible array members. */
struct point {
	short x, y;
};

struct grid {
	struct point cells[3][4];
	char name[5];
	int matrix[2][3][2];
	struct point *rows[2];
};

struct flex_int {
	int count;
	int values[];
};

struct flex_struct {
	long header;
	char kind;
	struct point pts[];
};

struct zero_len {
	int n;
	char marker[0];
	int after;
	unsigned char data[0];
};

struct of_grids {
	struct grid g[2];
	struct flex_int *fi;
};

struct grid grid;
struct flex_int *flex_int;
struct flex_struct *flex_struct;
struct zero_len zero_len;
struct of_grids of_grids;
