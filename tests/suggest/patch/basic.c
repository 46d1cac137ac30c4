/* suggest --patch corpus: comments, attributes, multi-line declarations. */
#define CONFIG_STATS 1
#define ____cacheline_aligned __attribute__((__aligned__(64)))

struct counters {
	/* written on every packet by every cpu */
	unsigned long		hits;		/* hot counter */

	/*
	 * Configuration, read on every packet.
	 */
	unsigned int		mode,
				flags;		/* one declaration, two members */
	void			*ops __attribute__((__aligned__(16))); /* read-mostly */
	unsigned int		a : 3,
				b : 5;
	union {
		long		l;
		void		*p;
	};
	char			name[40];	/* cold */
#ifdef CONFIG_STATS
	unsigned long		drops;		/* cold */
	unsigned long		errs;
	void			*stats_ops;	/* read-mostly */
#endif
#ifdef CONFIG_NOT_SET
	long			never;
#endif
	long			tail;
	char			pad[24];
};

struct counters counters_instance;
