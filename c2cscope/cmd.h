/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command layer: one file per subcommand, each exporting
 * cmd_<name>(argc, argv) and returning the process exit code (0 ok,
 * 1 a check failed, 2 usage or input error). Only this layer prints.
 * Options are declared in one table per command (options.h); the
 * type-reading commands share one group of them (typeargs.h).
 */
#ifndef C2C_CMD_H
#define C2C_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

int cmd_layout(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_suggest(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_watch(int argc, char **argv);

/* "c2cscope CMD: MESSAGE" on stderr; returns EXIT_BAD_INPUT. */
int cmd_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report an engine error (err->msg) for cmd; returns EXIT_BAD_INPUT. */
int cmd_report_err(const char *cmd, const struct err_msg *err);
/* "c2cscope CMD: warning: MESSAGE" on stderr. */
void cmd_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
