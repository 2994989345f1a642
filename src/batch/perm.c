/*
 * perm.c - a keyed bijection on 0..n-1: a six-round Feistel network over
 * the b bits of n-1 (halves of ceil(b/2) and floor(b/2) bits, the rounds
 * alternating between them), walked in cycles until it lands below n, so at
 * most two steps on average.  Round keys come from (seed, epoch) through
 * splitmix64's finalizer.  See pskd-shuffle(1) for the specification.
 */
#include <string.h>

#include "perm.h"

#define GOLDEN	UINT64_C(0x9e3779b97f4a7c15)

void
pskd_perm_init(struct pskd_perm *p, uint64_t n, uint64_t seed, uint64_t epoch)
{
	uint64_t s;
	unsigned bits = 0, hi;
	int r;

	p->n = n;
	if (n >= 2)
		for (s = n - 1; s != 0; s >>= 1)
			bits++;
	p->lo = bits / 2;
	hi = bits - p->lo;
	p->maskl = hi == 0 ? 0 : UINT64_MAX >> (64 - hi);
	p->maskr = p->lo == 0 ? 0 : UINT64_MAX >> (64 - p->lo);
	s = pskd_perm_mix(pskd_perm_mix(seed + GOLDEN) ^ epoch);
	for (r = 0; r < PSKD_PERM_ROUNDS; r++)
		p->key[r] = pskd_perm_mix(s + (uint64_t)(r + 1) * GOLDEN);
}

void
pskd_perm_list(const struct pskd_perm *p, const uint64_t *pos, size_t count,
    uint64_t *out)
{
	uint32_t todo[256];
	size_t k, j, m, done, blk;

	if (p->n <= 1) {
		memmove(out, pos, count * sizeof(*out));
		return;
	}
	/*
	 * Blocks of independent positions keep the pipeline full: one step
	 * for every position, then more steps for those still outside 0..n-1,
	 * gathered without branches.
	 */
	for (done = 0; done < count; done += blk) {
		blk = count - done < 256 ? count - done : 256;
		m = 0;
		for (k = done; k < done + blk; k++) {
			out[k] = pskd_perm_feistel(p, pos[k]);
			todo[m] = (uint32_t)k - (uint32_t)done;
			m += out[k] >= p->n;
		}
		while (m > 0) {
			for (j = 0, k = 0; j < m; j++) {
				uint64_t *o = out + done + todo[j];

				*o = pskd_perm_feistel(p, *o);
				todo[k] = todo[j];
				k += *o >= p->n;
			}
			m = k;
		}
	}
}

void
pskd_perm_range(const struct pskd_perm *p, uint64_t first, uint64_t step,
    size_t count, uint64_t *out)
{
	size_t k;

	/* The positions, then the permutation in place. */
	for (k = 0; k < count; k++)
		out[k] = first + k * step;
	pskd_perm_list(p, out, count, out);
}
