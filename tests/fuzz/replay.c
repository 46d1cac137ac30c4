// SPDX-License-Identifier: GPL-2.0
/*
 * A main() for the fuzz harnesses in the normal build (gcc, make check):
 * replay_TARGET FILE... runs the target once on each file, as libFuzzer
 * does on a corpus, so that the regression inputs and the seeds go through
 * the very harness that found them, and the harnesses keep compiling.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, alloc = 0, n;

	if (!f) {
		perror(path);
		return 2;
	}
	do {
		if (len == alloc) {
			alloc = alloc ? 2 * alloc : 65536;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, alloc - len, f);
		len += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	for (i = 1; i < argc; i++)
		ret |= replay(argv[i]);
	return ret;
}
