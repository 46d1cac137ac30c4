#!/bin/bash
# Threads that block: a contended mutex, a condition variable, a pipe
# between threads, a sleep, joins. The simulator wakes a blocked thread at
# the clock of the thread that wakes it (futex wake, pipe write, thread
# exit), so two runs give byte-identical reports and never fall back to
# real-time scheduling, even on a loaded machine.
source "$TOP_SRCDIR/tests/lib.sh"
source "$TOP_SRCDIR/tests/sim/common.sh"
sim_require

cat >"$TMP/sync.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static long counter, queue, consumed, piped, n = 3000;
static int fds[2];
static void *inc(void *a)
{
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		counter++;
		pthread_mutex_unlock(&m);
	}
	return a;
}
static void *prod(void *a)
{
	char b[16] = { 0 };
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		queue++;
		pthread_cond_signal(&c);
		pthread_mutex_unlock(&m);
		if (i % 30 == 0 && write(fds[1], b, sizeof(b)) != sizeof(b))
			abort();
	}
	return a;
}
static void *cons(void *a)
{
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		while (!queue)
			pthread_cond_wait(&c, &m);
		queue--;
		consumed++;
		pthread_mutex_unlock(&m);
	}
	return a;
}
static void *reader(void *a)
{
	char b[16];
	while (piped < (n + 29) / 30 * 16) {
		long r = read(fds[0], b, sizeof(b));
		if (r <= 0)
			break;
		piped += r;
	}
	return a;
}
int main(void)
{
	pthread_t t[5];
	void *(*fn[5])(void *) = { reader, inc, inc, prod, cons };
	if (pipe(fds))
		return 1;
	for (int i = 0; i < 5; i++) {
		pthread_create(&t[i], 0, fn[i], 0);
		if (i == 0)
			usleep(2000);
	}
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], 0);
	printf("counter=%ld consumed=%ld piped=%ld\n", counter, consumed, piped);
	return 0;
}
C
compile "$TMP/sync" "$TMP/sync.c" -g -O2 -pthread
for i in 1 2 3; do
	sim_record "$TMP/$i.data" "$TMP/$i.err" --seed 3 -- "$TMP/sync"
	expect_contains "run $i: output" "counter=6000 consumed=3000 piped=1600" "$TMP/stdout"
	no_fallback "run $i" "$TMP/$i.err"
	run_c2c 0 "$TMP/$i.txt" "$TMP/$i.rerr" report -i "$TMP/$i.data" --stdio
done
for i in 2 3; do
	if cmp -s "$TMP/1.txt" "$TMP/$i.txt"; then ok; else
		fail "runs 1 and $i give different reports"
		diff "$TMP/1.txt" "$TMP/$i.txt" | head >&2
	fi
done
[ "$(summary_hitms "$TMP/1.err")" -gt 0 ] && ok || fail "no HITMs on the mutex"

# Rounds of 8 threads that exit while main joins them: many threads wait
# for the token while main comes back from its join. Waiting threads that
# spun on Valgrind's lock starved main of it under load, and the tool fell
# back to real time ("stayed in a syscall past its allowance").
cat >"$TMP/rounds.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static long cnt[9];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *f(void *a)
{
	for (long i = 0; i < 5000; i++) {
		(*(volatile long *)a)++;
		if (i % 1000 == 0) {
			pthread_mutex_lock(&m);
			cnt[8]++;
			pthread_mutex_unlock(&m);
		}
	}
	return a;
}
int main(void)
{
	for (int r = 0; r < 4; r++) {
		pthread_t t[8];
		for (int i = 0; i < 8; i++)
			pthread_create(&t[i], 0, f, &cnt[i]);
		for (int i = 0; i < 8; i++)
			pthread_join(t[i], 0);
	}
	printf("locked=%ld\n", cnt[8]);
	return 0;
}
C
compile "$TMP/rounds" "$TMP/rounds.c" -g -O2 -pthread
for i in 1 2; do
	sim_record "$TMP/r$i.data" "$TMP/r$i.err" --seed 3 -- "$TMP/rounds"
	expect_contains "rounds $i: output" "locked=160" "$TMP/stdout"
	no_fallback "rounds run $i" "$TMP/r$i.err"
	run_c2c 0 "$TMP/r$i.txt" "$TMP/r$i.rerr" report -i "$TMP/r$i.data" --stdio
done
if cmp -s "$TMP/r1.txt" "$TMP/r2.txt"; then ok; else
	fail "rounds: two runs give different reports"
	diff "$TMP/r1.txt" "$TMP/r2.txt" | head -20 >&2
fi

# A timed wait that times out is outside the model: real time decides,
# and the note says so, naming the cause.
cat >"$TMP/timed.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static void *spin(void *a)
{
	for (volatile long i = 0; i < 20000000; i++)
		;
	return a;
}
int main(void)
{
	struct timespec ts;
	pthread_t t;
	int r;

	pthread_create(&t, 0, spin, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&m);
	r = pthread_cond_timedwait(&c, &m, &ts);
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	printf("timedwait=%d\n", r);
	return 0;
}
C
compile "$TMP/timed" "$TMP/timed.c" -g -O1 -pthread
sim_record "$TMP/t.data" "$TMP/t.err" -- "$TMP/timed"
expect_contains "timed: output" "timedwait=110" "$TMP/stdout"
expect_contains "timed: the note names the cause" \
	"1 times real time decided which thread ran (1: a timed wait timed out" "$TMP/t.err"
finish
