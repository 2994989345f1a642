/*
 * dist.c - distributions of whole numbers with fixed histogram bins, so
 * that two of them merge by adding bins: the log scale for lengths and
 * counts, the per-cent scale for the estimates of pskd-lsh.
 */
#include <stdio.h>
#include <string.h>

#include "pskd.h"
#include "stats/stats.h"

void
stats_dist_init(struct stats_dist *d, enum stats_scale scale)
{
	memset(d, 0, sizeof(*d));
	d->scale = scale;
}

unsigned
stats_bin(enum stats_scale scale, uint64_t v)
{
	unsigned e;

	if (scale == STATS_PERCENT)
		return v >= 10000 ? 100 : (unsigned)(v / 100);
	if (v < 4)
		return (unsigned)v;
	e = 63 - (unsigned)__builtin_clzll(v);
	return 4 * e - 4 + (unsigned)(v >> (e - 2) & 3);
}

uint64_t
stats_bin_lo(enum stats_scale scale, unsigned b)
{
	if (scale == STATS_PERCENT)
		return (uint64_t)b * 100;
	if (b < 4)
		return b;
	return (uint64_t)(4 + b % 4) << (b / 4 - 1);
}

uint64_t
stats_bin_hi(enum stats_scale scale, unsigned b)
{
	if (scale == STATS_PERCENT)
		return b >= 100 ? 10000 : (uint64_t)b * 100 + 99;
	if (b + 1 >= STATS_LOG_BINS)
		return UINT64_MAX;
	return stats_bin_lo(scale, b + 1) - 1;
}

static unsigned
nbins(enum stats_scale scale)
{
	return scale == STATS_PERCENT ? STATS_PERCENT_BINS : STATS_LOG_BINS;
}

/* a += b; nonzero when it overflows. */
static int
add(uint64_t *a, uint64_t b)
{
	return __builtin_add_overflow(*a, b, a);
}

int
stats_dist_merge(struct stats_dist *d, const struct stats_dist *s)
{
	unsigned b;
	int over = 0;

	if (s->count == 0)
		return 0;
	if (d->count == 0 || s->min < d->min)
		d->min = s->min;
	if (d->count == 0 || s->max > d->max)
		d->max = s->max;
	over |= add(&d->count, s->count);
	over |= add(&d->sum, s->sum);
	for (b = 0; b < nbins(d->scale); b++)
		over |= add(&d->bin[b], s->bin[b]);
	return over;
}

int
stats_dist_check(const struct stats_dist *d)
{
	unsigned __int128 lo = 0, hi = 0;
	unsigned b, first = STATS_BINS, last = 0;

	for (b = 0; b < nbins(d->scale); b++) {
		if (d->bin[b] == 0)
			continue;
		if (first == STATS_BINS)
			first = b;
		last = b;
		lo += (unsigned __int128)d->bin[b] * stats_bin_lo(d->scale, b);
		hi += (unsigned __int128)d->bin[b] * stats_bin_hi(d->scale, b);
	}
	if (d->count == 0)
		return first == STATS_BINS && d->sum == 0 ? 0 : -1;
	return first != STATS_BINS && stats_bin(d->scale, d->min) == first &&
	    stats_bin(d->scale, d->max) == last && d->min <= d->max &&
	    d->sum >= lo && d->sum <= hi ? 0 : -1;
}

void
stats_dist_remove(struct stats_dist *d, uint64_t v)
{
	d->count--;
	d->sum -= v;
	d->bin[stats_bin(d->scale, v)]--;
}

static void
adds(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

void
stats_value_text(char *t, size_t size, enum stats_scale scale, uint64_t v)
{
	int n, k;

	if (scale == STATS_LOG) {
		snprintf(t, size, "%llu", (unsigned long long)v);
		return;
	}
	n = snprintf(t, size, "%llu.%04u", (unsigned long long)(v / 10000),
	    (unsigned)(v % 10000));
	if (n <= 0 || (size_t)n >= size)
		return;
	for (k = n - 1; t[k] == '0'; k--)
		;
	t[t[k] == '.' ? k : k + 1] = '\0';
}

static void
num(struct pskd_buf *b, enum stats_scale scale, uint64_t v)
{
	char t[48];

	stats_value_text(t, sizeof(t), scale, v);
	adds(b, t);
}

void
stats_dist_json(struct pskd_buf *b, const struct stats_dist *d)
{
	char t[64];
	unsigned i, first = 1;
	double mean;
	int n;

	n = snprintf(t, sizeof(t), "{\"count\":%llu,\"sum\":",
	    (unsigned long long)d->count);
	pskd_buf_add(b, t, (size_t)n);
	num(b, d->scale, d->sum);
	if (d->count == 0) {
		adds(b, ",\"min\":null,\"mean\":null,\"max\":null,"
		    "\"histogram\":[]}");
		return;
	}
	adds(b, ",\"min\":");
	num(b, d->scale, d->min);
	mean = (double)d->sum / (double)d->count;
	if (d->scale == STATS_PERCENT)
		mean = (double)d->sum / ((double)d->count * 10000.0);
	/* Whole means without an exponent: 1500000, not 1.5e+06. */
	if (mean < 1e15 && mean == (double)(uint64_t)mean)
		snprintf(t, sizeof(t), "%.0f", mean);
	else
		pskd_format_double(t, sizeof(t), mean);
	adds(b, ",\"mean\":");
	pskd_buf_add(b, t, strlen(t));
	adds(b, ",\"max\":");
	num(b, d->scale, d->max);
	adds(b, ",\"histogram\":[");
	for (i = 0; i < nbins(d->scale); i++) {
		if (d->bin[i] == 0)
			continue;
		pskd_buf_add(b, first ? "[" : ",[", first ? 1 : 2);
		first = 0;
		num(b, d->scale, stats_bin_lo(d->scale, i));
		pskd_buf_addc(b, ',');
		num(b, d->scale, stats_bin_hi(d->scale, i));
		n = snprintf(t, sizeof(t), ",%llu]",
		    (unsigned long long)d->bin[i]);
		pskd_buf_add(b, t, (size_t)n);
	}
	adds(b, "]}");
}

/* A value of the scale read back: a whole number, or up to 4 decimals. */
static int
getnum(const struct jv *v, enum stats_scale scale, uint64_t *out)
{
	const char *s, *dot;
	uint64_t whole, frac = 0;
	size_t k, nd;
	char t[32];

	if (scale == STATS_LOG)
		return jv_u64(v, out);
	if (v == NULL || v->type != JV_NUMBER || v->len >= sizeof(t))
		return -1;
	s = v->str;
	dot = strchr(s, '.');
	nd = dot ? strlen(dot + 1) : 0;
	if (nd > 4 || (dot && nd == 0))
		return -1;
	memcpy(t, s, dot ? (size_t)(dot - s) : strlen(s) + 1);
	t[dot ? (size_t)(dot - s) : strlen(s)] = '\0';
	if (pskd_strtonum(t, 0, UINT64_MAX / 10000 - 1, 0, &whole) == -1)
		return -1;
	for (k = 0; k < 4; k++) {
		if (k < nd && (dot[1 + k] < '0' || dot[1 + k] > '9'))
			return -1;
		frac = frac * 10 + (k < nd ? (uint64_t)(dot[1 + k] - '0') : 0);
	}
	*out = whole * 10000 + frac;
	return 0;
}

static int
bad(char *err, size_t errsize, const char *what)
{
	snprintf(err, errsize, "%s", what);
	return -1;
}

int
stats_dist_parse(struct stats_dist *d, const struct jv *v,
    enum stats_scale scale, char *err, size_t errsize)
{
	const struct jv *h, *e, *min, *max;
	uint64_t lo, hi, n, total = 0;
	unsigned b, next = 0;
	size_t i;

	stats_dist_init(d, scale);
	if (v == NULL || v->type != JV_OBJECT)
		return bad(err, errsize, "a distribution is not an object");
	h = jv_member(v, "histogram");
	if (jv_u64(jv_member(v, "count"), &d->count) == -1 ||
	    getnum(jv_member(v, "sum"), scale, &d->sum) == -1 ||
	    h == NULL || h->type != JV_ARRAY)
		return bad(err, errsize, "a distribution without count, sum "
		    "or histogram");
	min = jv_member(v, "min");
	max = jv_member(v, "max");
	if (d->count == 0) {
		if (d->sum != 0 || h->n != 0 || min == NULL ||
		    min->type != JV_NULL || max == NULL || max->type != JV_NULL)
			return bad(err, errsize, "an empty distribution with "
			    "values");
		return 0;
	}
	if (getnum(min, scale, &d->min) == -1 ||
	    getnum(max, scale, &d->max) == -1 || d->min > d->max ||
	    (scale == STATS_PERCENT && d->max > 10000))
		return bad(err, errsize, "a distribution's min or max is "
		    "not valid");
	for (i = 0; i < h->n; i++) {
		e = &h->items[i];
		if (e->type != JV_ARRAY || e->n != 3 ||
		    getnum(&e->items[0], scale, &lo) == -1 ||
		    getnum(&e->items[1], scale, &hi) == -1 ||
		    jv_u64(&e->items[2], &n) == -1 || n == 0)
			return bad(err, errsize, "a histogram bin is not "
			    "[lo, hi, count]");
		if (scale == STATS_PERCENT && lo > 10000)
			return bad(err, errsize, "a histogram bin is not one "
			    "of the scale's");
		b = stats_bin(scale, lo);
		if (b < next || stats_bin_lo(scale, b) != lo ||
		    stats_bin_hi(scale, b) != hi)
			return bad(err, errsize, "a histogram bin is not one "
			    "of the scale's, in order");
		if (n > UINT64_MAX - total)
			return bad(err, errsize, "histogram counts overflow");
		d->bin[b] = n;
		total += n;
		next = b + 1;
	}
	if (total != d->count || stats_dist_check(d) == -1)
		return bad(err, errsize, "a histogram that does not add up to "
		    "its count, sum, min and max");
	return 0;
}
