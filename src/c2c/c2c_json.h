/* SPDX-License-Identifier: GPL-2.0 */
/* The c2c report as a JSON document (doc/report-json.md). */
#ifndef C2C_C2C_JSON_H
#define C2C_C2C_JSON_H

#include "config.h"
#include "c2c/c2c_session.h"

#ifdef HAVE_JANSSON
#include <jansson.h>

/* A new reference; symbols of shown rows are resolved on the way. */
json_t *c2c_json_build(struct c2c_session *s);
#endif

#endif
