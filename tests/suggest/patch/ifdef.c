/* suggest --patch corpus: the fix moves a member inside its #ifdef block. */
#define CONFIG_SMP 1

struct rq_like {
	long			cold0[6];
#ifdef CONFIG_SMP
	/* read by every cpu on wakeup */
	void			*owner;
	long			load;		/* written by every cpu */
	char			cold1[56];
#endif
	long			cold2;
};

struct rq_like rq_instance;

/* The fix moves a whole #ifdef block: hot is pinned, rd must leave line 0. */
#define CONFIG_Y 1

struct blk {
	long			hot;
	long			rd;
#ifdef CONFIG_Y
	/* statistics, rarely read */
	char			cold[56];
#endif
};

struct blk blk_instance;
