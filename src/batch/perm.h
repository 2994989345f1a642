/*
 * perm.h - the keyed permutation of pskd-shuffle: position i of epoch e of
 * 0..n-1 in O(1) time and memory, for any n up to 2^64-1.  The algorithm is
 * specified bit for bit in pskd-shuffle(1); src/python/pskd.py is a second
 * implementation of it.
 */
#ifndef PSKD_PERM_H
#define PSKD_PERM_H

#include <stddef.h>
#include <stdint.h>

#define PSKD_PERM_ROUNDS	6

struct pskd_perm {
	uint64_t	 n;		/* the domain 0..n-1 */
	unsigned	 lo;		/* bits of the right half */
	uint64_t	 maskl;		/* 2^hi - 1: the left half's bits */
	uint64_t	 maskr;		/* 2^lo - 1 */
	uint64_t	 key[PSKD_PERM_ROUNDS];
};

/* The splitmix64 finalizer: the only mixer of the specification. */
static inline uint64_t
pskd_perm_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The permutation of 0..n-1 for (seed, epoch); epoch is 1-based. */
void	pskd_perm_init(struct pskd_perm *p, uint64_t n, uint64_t seed,
	    uint64_t epoch);
/* The Feistel network alone, on 0..2^(hi+lo)-1. */
static inline uint64_t
pskd_perm_feistel(const struct pskd_perm *p, uint64_t x)
{
	uint64_t l = x >> p->lo, r = x & p->maskr;
	int i;

	for (i = 0; i < PSKD_PERM_ROUNDS; i += 2) {
		l ^= pskd_perm_mix(p->key[i] ^ r) & p->maskl;
		r ^= pskd_perm_mix(p->key[i + 1] ^ l) & p->maskr;
	}
	return l << p->lo | r;
}

/* The element at position i < n (cycle walking over the Feistel network). */
static inline uint64_t
pskd_perm_at(const struct pskd_perm *p, uint64_t i)
{
	if (p->n <= 1)
		return i;
	do
		i = pskd_perm_feistel(p, i);
	while (i >= p->n);
	return i;
}

/*
 * out[k] = the element at position first + k*step, for k < count (each
 * position < n): the same values as pskd_perm_at, computed a block at a
 * time so that the rounds of many positions overlap in the pipeline.
 */
void	pskd_perm_range(const struct pskd_perm *p, uint64_t first,
	    uint64_t step, size_t count, uint64_t *out);

/* The same for count positions pos[k] (out may be pos). */
void	pskd_perm_list(const struct pskd_perm *p, const uint64_t *pos,
	    size_t count, uint64_t *out);

#endif /* PSKD_PERM_H */
