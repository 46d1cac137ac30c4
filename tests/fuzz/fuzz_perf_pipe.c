// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the perf.data reader on a pipe (stdin, "-"), as
 * `perf record -o - | c2cscope report -i -` feeds it: HEADER_ATTR and
 * HEADER_FEATURE records, COMPRESSED (zstd) records. The input is written
 * into a pipe made big enough for it (run with -max_len=1048576 or less).
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <fcntl.h>

#include "fuzz_common.h"
#include "perf/perf_data.h"

static int feed_stdin(const uint8_t *data, size_t size)
{
	int fds[2];
	size_t done = 0;

	if (pipe(fds) < 0)
		abort();
	if (size > 65536 && fcntl(fds[1], F_SETPIPE_SZ, (int)size) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1; /* larger than the pipe may grow: skip */
	}
	while (done < size) {
		ssize_t n = write(fds[1], data + done, size - done);

		if (n <= 0)
			abort();
		done += n;
	}
	close(fds[1]);
	if (fds[0] != 0) { /* 0 is free after the last run's close(0) */
		if (dup2(fds[0], 0) < 0)
			abort();
		close(fds[0]);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_rec ev;
	struct perf_reader *r;
	struct err_msg err;

	if (feed_stdin(data, size) < 0)
		return 0;
	if (perf_reader_open("-", &r, &err) == 0) {
		while (perf_reader_next(r, &ev, &err) > 0)
			;
		perf_reader_close(r);
	}
	close(0);
	return 0;
}
