/*
 * xmr.h - the map-reduce modes of pskd-exact (pskd-exact(1), MAP-REDUCE):
 * --map writes each unit's hash and place into partition files, --reduce
 * finds the repeated ones in a sorted partition, --apply cuts them out of
 * a shard's documents.
 */
#ifndef PSKD_XMR_H
#define PSKD_XMR_H

#include <stdint.h>

#include "pskd.h"
#include "exact/exact.h"

#define X_UNITLINE	49	/* "hhhhhhhhhhhhhhhh ssssssssss dddddddddd uuuuuuuuuu" */
#define X_REPLINE	54	/* "ssssssssss dddddddddd uuuuuuuuuu ssssssssss dddddddddd" */

struct x_mr {
	struct x_params	 p;
	const char	*fields, *idfield, *rejects;
	uint32_t	 parts;		/* --map P */
	uint64_t	 shard;		/* -s */
	const char	*prefix;	/* --map -o */
	uint64_t	 min;		/* -w */
	int		 quiet;
};

void	x_mr_map(const struct x_mr *mr, const char *path);
void	x_mr_reduce(void);
/* The stage's options set; returns the exit status. */
int	x_mr_apply(const struct x_mr *mr, struct pskd_stage *st,
	    const char *docs, char **repeats, int nrepeats);

#endif /* PSKD_XMR_H */
