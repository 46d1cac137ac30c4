// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"

/* Not built yet: see the open issues. Says so instead of pretending. */
int cmd_layout(int argc, char **argv)
{
	return cmd_error("layout", "not available in this build yet");
}
