/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interactive browser of c2cscope report (ncursesw): the line table,
 * a line's rows, a row's annotation, the layout of its struct with heat,
 * the suggested layouts and the per-type view, drawn from tui_view's
 * models. It renders what the engine computed and computes nothing.
 */
#ifndef C2C_TUI_TUI_H
#define C2C_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "c2c/c2c_session.h"

struct tui_opts {
	bool no_color; /* --no-color; NO_COLOR in the environment does the same */
	bool by_type; /* open on the per-type view (--by-type) */
	const char *type_glob; /* its types (--type GLOB), or NULL: all */
	const char *source_dir; /* where the annotate view looks for sources */
};

/*
 * Whether the TUI can run here: stdout and stdin are terminals and TERM
 * names a terminal terminfo knows (not "dumb"). When not, why says so.
 */
bool tui_usable(char *why, size_t size);

/* Browse s until the user quits; 0, or 2 when the terminal cannot be set up. */
int tui_run(struct c2c_session *s, const struct tui_opts *opts);

#endif
