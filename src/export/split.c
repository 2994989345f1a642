/*
 * split.c - the validation split: N of the D documents, chosen by
 * pskd-shuffle's permutation of 0..D-1 for (seed, epoch 1).  Document d is
 * a validation document when the permutation puts a value below N at
 * position d, so exactly N are, the same on every machine, and Python
 * finds them as numpy.flatnonzero(pskd.permutation(D, seed) < N).
 */
#include <math.h>
#include <stdlib.h>

#include "pskd.h"
#include "batch/perm.h"
#include "export/export.h"

void
xsplit_init(struct xsplit *s, uint64_t docs, uint64_t valdocs, double frac,
    uint64_t seed)
{
	struct pskd_perm *p;
	double n;

	s->on = 1;
	s->docs = docs;
	s->seed = seed;
	if (frac < 0)
		s->nval = valdocs < docs ? valdocs : docs;
	else {
		/* F x D to the nearest whole number, halves up. */
		n = floor(frac * (double)docs + 0.5);
		s->nval = n >= (double)docs ? docs : (uint64_t)n;
	}
	p = pskd_xmalloc(sizeof(*p));
	pskd_perm_init(p, docs, seed, 1);
	s->perm = p;
}

int
xsplit_val(const struct xsplit *s, uint64_t d)
{
	if (!s->on || s->nval == 0)
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
