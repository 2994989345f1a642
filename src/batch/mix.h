/*
 * mix.h - the order of pskd-mix: which source each position of an epoch
 * draws from, and which of its samples, in O(1) time and memory a
 * position, specified in pskd-mix(1) (THE ORDER) and reimplemented in
 * src/python/pskd.py.
 *
 * The sources' weights are whole numbers m_s (after dividing by their
 * greatest common divisor).  A binary tree over the sources splits the
 * positions that reach a node between its two children in the ratio of
 * their weights, position by position, rounding to the nearest (the
 * nearest of two sources' shares is exact to half a sample); the tree is
 * the one that makes the guaranteed error of every source smallest.
 */
#ifndef PSKD_MIX_H
#define PSKD_MIX_H

#include <stddef.h>
#include <stdint.h>

#include "batch/perm.h"

#define MIX_MAXSRC	256
#define MIX_BLOCK	256	/* positions mix_draws computes at a time */
#define MIX_MAXWEIGHT	((uint64_t)1 << 31)	/* sum of reduced weights */

struct mix_node {
	uint64_t	 a2;		/* 2 x the weight of the left child */
	uint64_t	 m;		/* the weight of the node */
	uint64_t	 m2;		/* 2m */
	int		 child[2];	/* >= 0: a node; < 0: ~source */
	/* the state at position t: events so far, (a2 i + m) mod m2 */
	uint64_t	 i, rem;
};

struct mix_src {
	uint64_t	 n;		/* samples of the source */
	uint64_t	 m;		/* its weight, reduced */
	uint64_t	 per;		/* draws an epoch */
	double		 bound;		/* the guaranteed error, in samples */
	uint64_t	 cnt;		/* draws of this epoch before t */
	/* its own order: draw k is sample perm(n, seed + s, 1 + k div n) */
	uint64_t	 base;		/* (epoch - 1) x per: draws before */
	uint64_t	 q, r;		/* of the last draw: k div n, k mod n */
	uint64_t	 last;		/* cnt of the last draw (r, q valid) */
	int		 ready;
	struct pskd_perm perm;		/* for 1 + q */
	/* mix_draws: this source's items of the block, not yet computed */
	uint64_t	 list[MIX_BLOCK];	/* positions in perm */
	uint32_t	 at[MIX_BLOCK];		/* places in the block */
	size_t		 nlist;
};

struct mix {
	size_t		 k;		/* sources */
	struct mix_src	 src[MIX_MAXSRC];
	struct mix_node	 node[MIX_MAXSRC];	/* k - 1 of them */
	int		 root;		/* a node, or ~0 for one source */
	uint64_t	 len;		/* L, positions an epoch */
	uint64_t	 seed, epoch;
	uint64_t	 t;		/* the next position */
};

/*
 * A weight as pskd-mix takes it, a decimal number with up to nine digits
 * after the point, in billionths: 0, or -1 for anything else.
 */
int	mix_weight_parse(const char *s, uint64_t *nano);
/*
 * The mix of k sources of n[s] samples and weights nano[s] (billionths),
 * len positions an epoch, seed and epoch (from 1).  -1 with a message in
 * err when the weights need a total above MIX_MAXWEIGHT once reduced, or
 * the epoch's draws of a source overflow 64 bits.
 */
int	mix_init(struct mix *x, size_t k, const uint64_t *n,
	    const uint64_t *nano, uint64_t len, uint64_t seed, uint64_t epoch,
	    char *err, size_t errsize);
/* The draws of each source before position t (closed form) into cnt. */
void	mix_counts(const struct mix *x, uint64_t t, uint64_t *cnt);
/* Go to position t (< len) of the epoch. */
void	mix_seek(struct mix *x, uint64_t t);
/*
 * The source of position t and its draw of this epoch (*draw, counted
 * from 0); then t moves on by one.
 */
size_t	mix_step(struct mix *x, uint64_t *draw);
/* The sample that draw number draw of source s of this epoch is. */
uint64_t mix_sample(struct mix *x, size_t s, uint64_t draw);
/*
 * The sources and samples of count <= MIX_BLOCK positions of the slice of
 * rank of world, from its position u on: the same as mix_slice, mix_step
 * and mix_sample one by one, computed a block at a time.
 */
void	mix_draws(struct mix *x, uint64_t rank, uint64_t world, uint64_t u,
	    size_t count, uint32_t *src, uint64_t *sample);
/*
 * Rank rank of world: the epoch position of its slice position u (u <
 * len / world).
 */
uint64_t mix_slice(const struct mix *x, uint64_t rank, uint64_t world,
	    uint64_t u);

#endif /* PSKD_MIX_H */
