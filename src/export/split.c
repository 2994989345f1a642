/*
 * split.c - the validation split, one of two rules:
 *
 *	--val-docs N: N of the D documents, chosen by pskd-shuffle's
 *	permutation of 0..D-1 for (seed, epoch 1).  Document d is a
 *	validation document when the permutation puts a value below N at
 *	position d, so exactly N are, the same on every machine, and Python
 *	finds them as numpy.flatnonzero(pskd.permutation(D, seed) < N).  D
 *	must be known first: the stream is read twice.
 *
 *	--val-fraction F (and the default of nanogpt and llmc): each
 *	document on its own, by a keyed hash of its number, so that a pipe
 *	can be split as it passes.  Document d is a validation document when
 *	the (d+1)-th output of SplitMix64 seeded with the seed is below
 *	F x 2^64 (pskd-export(1) gives the arithmetic).
 */
#include <math.h>
#include <stdlib.h>

#include "pskd.h"
#include "batch/perm.h"
#include "export/export.h"

void
xsplit_init(struct xsplit *s, uint64_t docs, uint64_t valdocs, uint64_t seed)
{
	struct pskd_perm *p;

	s->on = 1;
	s->hash = 0;
	s->docs = docs;
	s->seed = seed;
	s->nval = valdocs < docs ? valdocs : docs;
	p = pskd_xmalloc(sizeof(*p));
	pskd_perm_init(p, docs, seed, 1);
	s->perm = p;
}

void
xsplit_hash(struct xsplit *s, double frac, uint64_t seed)
{
	s->on = 1;
	s->hash = 1;
	s->seed = seed;
	s->frac = frac;
	s->all = frac >= 1;
	/* F x 2^64, exact: a power of two scales a double without error. */
	s->below = s->all ? 0 : (uint64_t)ldexp(frac, 64);
}

/* The (d+1)-th output of SplitMix64 seeded with seed. */
static uint64_t
splitmix(uint64_t seed, uint64_t d)
{
	uint64_t z = seed + (d + 1) * UINT64_C(0x9E3779B97F4A7C15);

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

int
xsplit_val(const struct xsplit *s, uint64_t d)
{
	if (!s->on)
		return 0;
	if (s->hash)
		return s->all || splitmix(s->seed, d) < s->below;
	if (s->nval == 0)
		return 0;
	if (s->nval >= s->docs)
		return 1;
	return pskd_perm_at(s->perm, d) < s->nval;
}

void
xsplit_free(struct xsplit *s)
{
	free(s->perm);
	s->perm = NULL;
}
