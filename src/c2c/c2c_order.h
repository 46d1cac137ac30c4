/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's ordered-events queue, for files whose records are not in time
 * order (per-cpu buffers drained in rounds): records are held and, at each
 * FINISHED_ROUND, those up to the newest time seen at the previous round
 * are delivered in time order (ties in file order); the rest at the end.
 * This is what makes order-dependent figures (PA cnt, the first sample of
 * a line) equal to perf's on such files.
 */
#ifndef C2C_C2C_ORDER_H
#define C2C_C2C_ORDER_H

#include <stdint.h>

#include "perf/perf_data.h"

typedef void (*c2c_deliver_fn)(void *ctx, const struct perf_event_rec *ev);

struct c2c_order;

struct c2c_order *c2c_order_new(void);
void c2c_order_free(struct c2c_order *q);
/* Hold a copy of ev (strings included) until it is due. */
void c2c_order_push(struct c2c_order *q, const struct perf_event_rec *ev, uint64_t time);
/* FINISHED_ROUND: deliver what is due. */
void c2c_order_round(struct c2c_order *q, c2c_deliver_fn deliver, void *ctx);
/* End of data: deliver everything held. */
void c2c_order_flush(struct c2c_order *q, c2c_deliver_fn deliver, void *ctx);

#endif
