/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_run: runs a program under the c2csim Valgrind tool and pumps the
 * tool's record stream (through a fifo) into a sim_record converter while
 * the program runs. The program keeps the terminal: its output, input and
 * exit status are its own. SIGINT/SIGTERM/SIGHUP/SIGQUIT received by the
 * caller are passed on to it, so Ctrl-C ends the program, the tool flushes
 * what it saw and the file stays valid.
 */
#ifndef C2C_SIM_SIM_RUN_H
#define C2C_SIM_SIM_RUN_H

#include <stdbool.h>

#include "sim/sim_record.h"
#include "util/err.h"

struct sim_run_opts {
	const char *lib_dir; /* VALGRIND_LIB: the tool + links to Valgrind's files */
	const char *valgrind; /* the launcher; NULL: "valgrind" from PATH */
	const char *const *tool_args; /* --sim-... options, NULL-terminated */
	char *const *argv; /* the program and its arguments */
};

struct sim_run_result {
	int wait_status; /* of the Valgrind process (waitpid) */
	bool exec_failed; /* the launcher could not be run */
	int convert_error; /* 0, or the first converter error (stream kept draining) */
	struct err_msg convert_err;
};

/*
 * Starts the tool, then opens the converter with ro (its set-up, e.g. the
 * host's kernel map, overlaps Valgrind's start) and pumps the stream into
 * it until the tool exits. *rec: the converter when it was opened (the
 * caller closes it), else NULL; when it cannot be opened the tool is
 * killed before the program runs.
 */
int sim_run(const struct sim_run_opts *opts, const struct sim_record_opts *ro,
	    struct sim_record **rec, struct sim_run_result *res, struct err_msg *err);

#endif
