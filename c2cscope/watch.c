// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"

/* Not built yet: see the open issues. Says so instead of pretending. */
int cmd_watch(int argc, char **argv)
{
	return cmd_error("watch", "not available in this build yet");
}
