/*
 * num.c - the one number parser: option values and numbers in text files,
 * with one wording of the error for every program.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

int
pskd_strtonum(const char *s, uint64_t min, uint64_t max, int flags,
    uint64_t *out)
{
	unsigned long long v;
	char *end;
	int base = flags & PSKD_NUM_HEX ? 0 : 10;

	/* strtoull takes a sign and leading blanks; a number here does not. */
	if (*s < '0' || *s > '9') {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno != 0)
		return -1;
	if ((flags & PSKD_NUM_SIZE) && *end != '\0' && end[1] == '\0') {
		int sh = *end == 'K' ? 10 : *end == 'M' ? 20 :
		    *end == 'G' ? 30 : *end == 'T' ? 40 : -1;

		if (sh > 0) {
			if (v >= 1ULL << (64 - sh)) {
				errno = ERANGE;
				return -1;
			}
			v <<= sh;
			end++;
		}
	}
	if (*end != '\0') {
		errno = EINVAL;
		return -1;
	}
	if (v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int
pskd_decimal(const unsigned char *p, size_t n, uint64_t *v)
{
	size_t i;

	*v = 0;
	if (n == 0 || n > 20)
		return -1;
	for (i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9' ||
		    __builtin_mul_overflow(*v, 10, v) ||
		    __builtin_add_overflow(*v, (uint64_t)(p[i] - '0'), v))
			return -1;
	return 0;
}

static void
bound(char *out, size_t n, uint64_t v)
{
	if (v == UINT64_MAX)
		snprintf(out, n, "2^64-1");
	else
		snprintf(out, n, "%" PRIu64, v);
}

uint64_t
pskd_optnum(const char *name, const char *s, uint64_t min, uint64_t max,
    int flags)
{
	char lo[32], hi[32];
	uint64_t v;

	if (pskd_strtonum(s, min, max, flags, &v) == 0)
		return v;
	bound(lo, sizeof(lo), min);
	bound(hi, sizeof(hi), max);
	pskd_warnx("%s: '%s' is not a %s from %s to %s%s", name, s,
	    flags & PSKD_NUM_SIZE ? "size" : "whole number", lo, hi,
	    flags & PSKD_NUM_SIZE ? " (K, M, G or T may follow)" : "");
	pskd_usage_error(NULL);
}

double
pskd_optreal(const char *name, const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (((*s >= '0' && *s <= '9') || *s == '.') && *end == '\0' &&
	    errno == 0 && isfinite(v) && v >= min && v <= max)
		return v;
	pskd_warnx("%s: '%s' is not a number from %g to %g", name, s, min,
	    max);
	pskd_usage_error(NULL);
}

void
pskd_optrange(const char *name, const char *s, uint64_t *from, uint64_t *to)
{
	const char *dash = strchr(s, '-');
	char *a;

	if (dash == NULL) {
		pskd_warnx("%s: '%s' is not FROM-TO", name, s);
		pskd_usage_error(NULL);
	}
	a = pskd_xstrndup(s, (size_t)(dash - s));
	*from = pskd_optnum(name, a, 0, UINT64_MAX, 0);
	*to = pskd_optnum(name, dash + 1, 0, UINT64_MAX, 0);
	free(a);
	if (*from > *to) {
		pskd_warnx("%s: '%s' ends before it starts", name, s);
		pskd_usage_error(NULL);
	}
}
