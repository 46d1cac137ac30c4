/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lists of numbers and ranges ("0-3,8"): the kernel's cpu lists in sysfs,
 * and the -C, -p and -t arguments.
 */
#ifndef C2C_UTIL_INTLIST_H
#define C2C_UTIL_INTLIST_H

#include <stddef.h>

#include "util/err.h"

#define CPU_LIST_ONLINE "/sys/devices/system/cpu/online"

/*
 * "0-3,8" or "1234,1240": non-negative numbers and ranges (at most 65,537
 * long), in the order given. *out is the caller's to free. -EINVAL naming
 * what (the option or file) when list is empty or not such a list.
 */
int int_list_parse(const char *list, const char *what, int **out, size_t *nr, struct err_msg *err);

/*
 * The cpus of a sysfs cpu list file (CPU_LIST_ONLINE); 0 to fallback_nr - 1
 * where the file cannot be read. -EINVAL as int_list_parse.
 */
int cpu_list_read(const char *path, long fallback_nr, int **out, size_t *nr, struct err_msg *err);

#endif
