// SPDX-License-Identifier: GPL-2.0
#include "cmd.h"

/* Not built yet: see the open issues. Says so instead of pretending. */
int cmd_record(int argc, char **argv)
{
	return cmd_error("record", "not available in this build yet");
}
