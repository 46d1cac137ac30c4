// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: c2csim's event stream decoder (src/sim), which turns
 * the Valgrind tool's records into perf.data. The input is fed in two
 * chunks split where its first byte says, as reads from the pipe cut it.
 */
#include "fuzz_common.h"
#include "sim/sim_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const argv[] = { "fuzz", NULL };
	struct sim_record_opts o = { .cmdline = argv, .comm = "fuzz" };
	struct sim_record_stats st;
	struct sim_record *r;
	struct err_msg err;
	size_t cut;

	if (!size)
		return 0;
	cut = data[0] * (size - 1) / 256;
	data++;
	size--;
	o.path = fuzz_file("out.data", data, 0);
	if (sim_record_open(&o, &r, &err) < 0)
		abort(); /* our own folder: always writable */
	if (sim_record_feed(r, data, cut, &err) < 0 ||
	    sim_record_feed(r, data + cut, size - cut, &err) < 0) {
		sim_record_abort(r);
		return 0;
	}
	sim_record_close(r, &st, &err);
	return 0;
}
