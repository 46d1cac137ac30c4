// SPDX-License-Identifier: GPL-2.0
/*
 * A pigz-like parallel compressor (bench/sim.sh's workload, not a test):
 * the input file is cut into blocks; T worker threads take the next block
 * from a shared job counter under a mutex, deflate it with zlib into their
 * own buffer and compute its crc32; the main thread writes the blocks out
 * in order as they complete (a condition variable per hand-off), like
 * pigz's write thread, and combines the crcs.
 * usage: pigz_like [-p THREADS] [-b BLOCK_KIB] [-l LEVEL] FILE > OUT
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct block {
	unsigned char *out;
	size_t len;
	uLong crc;
	int done;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t done; /* a block finished */
	unsigned char *in;
	size_t in_len, block_size, next, nr_blocks;
	struct block *blocks;
	int level;
} job = { .lock = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER };

static void compress_block(size_t i)
{
	size_t off = i * job.block_size;
	size_t n = off + job.block_size > job.in_len ? job.in_len - off : job.block_size;
	struct block *b = &job.blocks[i];
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, job.level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		exit(1);
	b->out = malloc(deflateBound(&z, n) + 16);
	z.next_in = job.in + off;
	z.avail_in = n;
	z.next_out = b->out;
	z.avail_out = deflateBound(&z, n) + 16;
	deflate(&z, i + 1 == job.nr_blocks ? Z_FINISH : Z_SYNC_FLUSH);
	b->len = z.total_out;
	deflateEnd(&z);
	b->crc = crc32(0, job.in + off, n);
	pthread_mutex_lock(&job.lock);
	b->done = 1;
	pthread_cond_broadcast(&job.done);
	pthread_mutex_unlock(&job.lock);
}

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		size_t i;

		pthread_mutex_lock(&job.lock);
		i = job.next++;
		pthread_mutex_unlock(&job.lock);
		if (i >= job.nr_blocks)
			return NULL;
		compress_block(i);
	}
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0)
		return NULL;
	rewind(f);
	buf = malloc(n ? n : 1);
	if (fread(buf, 1, n, f) != (size_t)n)
		return NULL;
	fclose(f);
	*len = n;
	return buf;
}

/* In order, as each block completes; the gzip-like trailer: crc, length. */
static void write_blocks(void)
{
	uLong crc = crc32(0, NULL, 0);
	size_t i;

	for (i = 0; i < job.nr_blocks; i++) {
		struct block *b = &job.blocks[i];
		size_t n = i + 1 == job.nr_blocks ? job.in_len - i * job.block_size :
						    job.block_size;

		pthread_mutex_lock(&job.lock);
		while (!b->done)
			pthread_cond_wait(&job.done, &job.lock);
		pthread_mutex_unlock(&job.lock);
		fwrite(b->out, 1, b->len, stdout);
		crc = crc32_combine(crc, b->crc, n);
		free(b->out);
	}
	fwrite(&crc, 4, 1, stdout);
	fwrite(&job.in_len, 4, 1, stdout);
}

int main(int argc, char **argv)
{
	int threads = 2, c, i;
	pthread_t *t;

	job.block_size = 128 << 10;
	job.level = 6;
	while ((c = getopt(argc, argv, "p:b:l:")) != -1) {
		if (c == 'p')
			threads = atoi(optarg);
		else if (c == 'b')
			job.block_size = (size_t)atoi(optarg) << 10;
		else if (c == 'l')
			job.level = atoi(optarg);
		else
			return 2;
	}
	if (optind >= argc || threads < 1 || !job.block_size)
		return 2;
	job.in = slurp(argv[optind], &job.in_len);
	if (!job.in) {
		perror(argv[optind]);
		return 2;
	}
	job.nr_blocks = (job.in_len + job.block_size - 1) / job.block_size;
	job.blocks = calloc(job.nr_blocks ? job.nr_blocks : 1, sizeof(*job.blocks));
	t = calloc(threads, sizeof(*t));
	for (i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	write_blocks();
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
	free(job.blocks);
	free(job.in);
	return 0;
}
