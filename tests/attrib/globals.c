/* Globals for tests/attrib/globals.sh: the layouts are worked out by hand there. */
struct reader {
	long r1;
	long reader2;
};

struct buf {
	int lock; /* 0, then 4 bytes of padding */
	struct reader readers[2]; /* 8 */
	char name[12]; /* 40 */
};

struct arg {
	long a;
	int SX; /* 8 */
	int SY; /* 12 */
};

struct tg {
	long w;
	struct {
		long quota; /* 8 */
		long period; /* 16 */
	} cfs_bandwidth;
};

struct buf buf1;
struct arg args[8];
struct tg tg;
static long counter;

int main(void)
{
	return buf1.lock + args[1].SX + (int)tg.w + (int)counter++;
}
