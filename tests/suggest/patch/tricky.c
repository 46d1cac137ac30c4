/* suggest --patch corpus: what a naive parser gets wrong. */
#define FEATURE 1
#define __rcu_like /* nothing */

struct tricky {
	long			hot;		/* written by every cpu; { not a brace; */
	int			(*handler)(int a, int b);	/* one member, two commas */
	int			x; int y;	/* two declarations, one line: one unit */
	struct inner {
		int		i;
		char		c[4];
	}			in;		/* a nested definition */
	unsigned int		f1 : 4,
				f2 : 4;
	unsigned int		f3 : 8;		/* same storage unit as f1, f2 */
#if defined(FEATURE) && \
	FEATURE > 0
	char			text[40];	/* cold */
	// a C++-style comment; with a semicolon
	long			ctr __rcu_like;
#endif
	char			tail[24];
};

struct tricky tricky_instance;
