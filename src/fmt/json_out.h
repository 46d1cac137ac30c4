/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON output through jansson (never hand-written): write a document to a
 * file or to stdout ("-"), indented, keys in insertion order.
 */
#ifndef C2C_FMT_JSON_OUT_H
#define C2C_FMT_JSON_OUT_H

#include "config.h"
#include "util/err.h"

#ifdef HAVE_JANSSON
#include <jansson.h>

/* Writes root (does not take the reference). 0 or -errno with err filled. */
int json_out_write(json_t *root, const char *path, struct err_msg *err);
#endif

#endif
