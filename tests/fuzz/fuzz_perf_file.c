// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the perf.data reader on a file (file mode, or a pipe-mode stream saved to a file). */
#include "fuzz_common.h"
#include "perf/perf_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("perf.data", data, size);
	struct perf_event_rec ev;
	struct perf_reader *r;
	struct err_msg err;
	size_t i;

	if (perf_reader_open(path, &r, &err) < 0)
		return 0;
	for (i = 0; i < perf_reader_nr_attrs(r); i++)
		(void)perf_reader_attr(r, i)->name;
	while (perf_reader_next(r, &ev, &err) > 0)
		;
	(void)perf_reader_warnings(r);
	perf_reader_close(r);
	return 0;
}
