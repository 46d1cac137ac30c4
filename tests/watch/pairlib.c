// SPDX-License-Identifier: GPL-2.0
/* A shared library with a global the watch finds by name (libs.sh). */
struct libpair {
	volatile long a;
	volatile long b;
};

struct libpair libcounters;

void bump(long n)
{
	long i;

	for (i = 0; i < n; i++)
		libcounters.a = i; /* the library's writer */
}
