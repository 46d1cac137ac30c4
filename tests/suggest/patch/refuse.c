/* suggest --patch corpus: the only fix takes rd out of an #if/#else. */
#define CONFIG_X 1

struct refuse {
	long			hot;		/* written by every cpu */
#ifdef CONFIG_X
	long			rd;		/* read by every cpu */
	char			pad[48];
#else
	char			pad[56];
#endif
	long			c2;
	long			c3;
};

struct refuse refuse_instance;
