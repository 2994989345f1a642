/*
 * steps.h - the names of the normalisation steps (PSKD_NORM_* in frame.h),
 * as pskd-shingle -n, pskd-exact -n and pskd-decon --normalize take them:
 * a comma-separated list of case, punct, digits, space, marks, or all or
 * none (pskd-shingle(1)).
 */
#ifndef PSKD_STEPS_H
#define PSKD_STEPS_H

#include <stddef.h>

/*
 * The steps of the list s, into *bits; -1 for a name that is none of them,
 * with the name (as in s, up to its comma) in bad.
 */
int	pskd_norm_steps(const char *s, unsigned *bits, char *bad,
	    size_t badsize);

#endif /* PSKD_STEPS_H */
