// SPDX-License-Identifier: GPL-2.0
/* Calls the library's writer N times (argv[1]); libs.sh watches it. */
#include <stdlib.h>

void bump(long n);

int main(int argc, char **argv)
{
	bump(argc > 1 ? atol(argv[1]) : 1000);
	return 0;
}
