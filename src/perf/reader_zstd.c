// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_COMPRESSED (perf record -z): zstd frames whose contents are
 * ordinary records, possibly split across COMPRESSED records. One
 * decompression stream serves the whole file, as in perf.
 */
#include <errno.h>
#include <stdlib.h>

#include "config.h"
#include "perf/reader_int.h"
#include "util/xalloc.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

/*
 * What one COMPRESSED record may unpack to. perf bounds it by the ring
 * buffer size the COMPRESSED feature gives (comp_mmap_len; 512 KiB per cpu
 * by default); without that feature (a pipe, or before it arrives) we
 * allow 16 MiB, and never more than 256 MiB: 64 KiB of zstd can claim
 * gigabytes (a "zstd bomb"), and the reader must stay in bounded memory.
 */
#define ZSTD_DEFAULT_OUT (16ULL << 20)
#define ZSTD_MAX_OUT (256ULL << 20)

static uint64_t record_out_limit(const struct perf_reader *r)
{
	uint64_t lim = r->comp_mmap_len ? r->comp_mmap_len : ZSTD_DEFAULT_OUT;

	return lim > ZSTD_MAX_OUT ? ZSTD_MAX_OUT : lim;
}

int reader_decompress(struct perf_reader *r, const uint8_t *data, size_t len, uint64_t off,
		      struct err_msg *err)
{
	ZSTD_inBuffer in = { data, len, 0 };
	size_t start;

	if (!r->zstd) {
		r->zstd = ZSTD_createDStream();
		if (!r->zstd)
			return err_set(err, ENOMEM, "%s: cannot create a zstd stream", r->path);
		ZSTD_initDStream(r->zstd);
	}
	/* drop what was handed out, keep a partial record */
	if (r->z_pos && r->z_len > r->z_pos) /* zbuf is NULL before the first record */
		memmove(r->zbuf, r->zbuf + r->z_pos, r->z_len - r->z_pos);
	r->z_len -= r->z_pos;
	r->z_pos = 0;
	r->z_off = off - 8;
	r->stats.compressed++;
	start = r->z_len;
	do {
		ZSTD_outBuffer out;
		size_t ret;

		if (r->z_alloc - r->z_len < 64 * 1024)
			r->zbuf = xgrow(r->zbuf, &r->z_alloc, r->z_len + 256 * 1024, 1);
		out = (ZSTD_outBuffer){ r->zbuf + r->z_len, r->z_alloc - r->z_len, 0 };
		ret = ZSTD_decompressStream(r->zstd, &out, &in);
		if (ZSTD_isError(ret))
			return err_set(err, EINVAL, "%s: at 0x%llx: COMPRESSED record: zstd: %s",
				       r->path, (unsigned long long)(off - 8),
				       ZSTD_getErrorName(ret));
		r->z_len += out.pos;
		if (out.pos < out.size && in.pos == in.size)
			break;
		if (r->z_len - start > record_out_limit(r))
			return err_set(err, EFBIG,
				       "%s: at 0x%llx: COMPRESSED record of %zu bytes unpacks to "
				       "more than %llu bytes, expected at most the recording's "
				       "buffer size",
				       r->path, (unsigned long long)(off - 8), len,
				       (unsigned long long)record_out_limit(r));
	} while (true);
	return 0;
}

void reader_zstd_free(struct perf_reader *r)
{
	if (r->zstd)
		ZSTD_freeDStream(r->zstd);
	r->zstd = NULL;
}
#else
int reader_decompress(struct perf_reader *r, const uint8_t *data, size_t len, uint64_t off,
		      struct err_msg *err)
{
	return err_set(err, ENOTSUP,
		       "%s: at 0x%llx: COMPRESSED record (perf record -z): "
		       "this c2cscope was built without libzstd",
		       r->path, (unsigned long long)(off - 8));
}

void reader_zstd_free(struct perf_reader *r)
{
}
#endif
