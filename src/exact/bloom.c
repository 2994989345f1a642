/*
 * bloom.c - the Bloom filter of pskd-exact --bloom (pskd-exact(1),
 * BLOOM FILTER): blocks of 512 bits, one cache line; a unit's hash picks
 * a block with its high 32 bits and k bits in it with the bits of
 * fmix64 of itself, 9 bits a position.  Its false-positive rate with n
 * units held is the expectation over the blocks' loads, which are
 * Poisson with mean n / blocks: sum over j of P(j) (1 - (1 - 1/512)^kj)^k.
 */
#include <math.h>
#include <string.h>

#include "exact/exact.h"

#define MAX_BLOCKS	((uint64_t)1 << 32)

double
x_bloom_rate(uint64_t nbits, uint32_t k, uint64_t n)
{
	double lambda = (double)n * X_BLOOM_BLOCK / (double)nbits;
	double q = 1.0 - 1.0 / X_BLOOM_BLOCK, p, sum = 0, lp;
	double jmax = lambda + 12 * sqrt(lambda) + 40;
	uint64_t j;

	/* P(j) from its logarithm: no underflow of e^-lambda. */
	for (j = 0; (double)j <= jmax; j++) {
		lp = -lambda + (double)j * log(lambda > 0 ? lambda : 1) -
		    lgamma((double)j + 1);
		if (lambda == 0)
			lp = j == 0 ? 0 : -INFINITY;
		p = exp(lp);
		sum += p * pow(1 - pow(q, (double)k * (double)j), k);
	}
	return sum;
}

int
x_bloom_geometry(uint64_t cap, double rate, uint64_t *nbits, uint32_t *k)
{
	uint64_t lo, hi, mid, best = 0;
	uint32_t kk, bestk = 1;

	for (kk = 1; kk <= X_BLOOM_MAXK; kk++) {
		lo = 1;
		hi = MAX_BLOCKS;
		if (x_bloom_rate(hi * X_BLOOM_BLOCK, kk, cap) > rate)
			continue;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (x_bloom_rate(mid * X_BLOOM_BLOCK, kk, cap) <= rate)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (best == 0 || lo < best) {
			best = lo;
			bestk = kk;
		}
	}
	if (best == 0)
		return -1;
	*nbits = best * X_BLOOM_BLOCK;
	*k = bestk;
	return 0;
}

static inline unsigned char *
block(const struct x_bloom *b, uint64_t h)
{
	uint64_t nb = b->nbits / X_BLOOM_BLOCK;

	return b->bits + 64 * (((h >> 32) * nb) >> 32);
}

void
x_bloom_prefetch(const struct x_bloom *b, uint64_t h)
{
	__builtin_prefetch(block(b, h));
}

int
x_bloom_add(struct x_bloom *b, uint64_t h)
{
	unsigned char *blk = block(b, h);
	unsigned pos[X_BLOOM_MAXK];
	uint64_t g = x_fmix64(h);
	uint32_t i, have = 1;

	for (i = 0; i < b->k; i++) {
		if (i == 7)
			g = x_fmix64(g ^ 0x9e3779b97f4a7c15ULL);
		pos[i] = (unsigned)(g >> (9 * (i % 7))) & 511;
		have &= blk[pos[i] >> 3] >> (pos[i] & 7) & 1;
	}
	if (have)
		return 1;
	for (i = 0; i < b->k; i++)
		blk[pos[i] >> 3] |= (unsigned char)(1u << (pos[i] & 7));
	return 0;
}
