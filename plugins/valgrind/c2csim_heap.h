/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c2csim_heap.c: the program's allocator, replaced; each block given out
 * or back is a record (c2csim_out.c).
 */
#ifndef C2CSIM_HEAP_H
#define C2CSIM_HEAP_H

#include "pub_tool_basics.h"

void c2csim_heap_init(void); /* pre_clo_init: the malloc replacement */
void c2csim_heap_start(void); /* post_clo_init */

#endif
