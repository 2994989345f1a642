/*
 * verdicts.c - the verdict and tombstone lines of pskd-verdicts(5), as
 * every stage that keeps or drops documents writes them: keep and empty
 * are kept; trimmed (pskd-exact's) is kept with the bytes and units it
 * lost; near_duplicate keeps its estimate; rejected; every other verdict
 * is a drop, counted by its name.  A tombstone line carries the
 * document's line after the fields, which may be long: only the fields
 * before it are read, and they must lie in the first STATS_LINE_MAX bytes.
 */
#include <string.h>

#include "pskd.h"
#include "stats/collect.h"

/*
 * An estimate: 0 to 1 with at most four decimals, in ten-thousandths;
 * -1 for anything else.
 */
static int64_t
estimate(const unsigned char *p, size_t n)
{
	uint64_t v;
	size_t i, nd;

	if (n == 0 || p[0] < '0' || p[0] > '1')
		return -1;
	v = (uint64_t)(p[0] - '0') * 10000;
	if (n == 1)
		return (int64_t)v;
	if (p[1] != '.' || n == 2 || n > 6)
		return -1;
	for (i = 2, nd = 1000; i < n; i++, nd /= 10) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v += (uint64_t)(p[i] - '0') * nd;
	}
	return v > 10000 ? -1 : (int64_t)v;
}

/* Split a line at its tabs into at most max fields; returns how many. */
static size_t
fields(const unsigned char *line, size_t len, const unsigned char **f,
    size_t *fl, size_t max)
{
	const unsigned char *p = line, *end = line + len, *tab;
	size_t n = 0;

	for (;;) {
		tab = n + 1 < max ? memchr(p, '\t', (size_t)(end - p)) : NULL;
		f[n] = p;
		fl[n++] = (size_t)((tab ? tab : end) - p);
		if (tab == NULL)
			return n;
		p = tab + 1;
	}
}

static int
is(const unsigned char *p, size_t n, const char *word)
{
	return n == strlen(word) && memcmp(p, word, n) == 0;
}

/*
 * One verdict line, line[0..len): all of it (whole), or its first bytes
 * only, the rest of a long line still to come.
 */
static void
verdict(struct pskd_reader *r, struct stats *s, const unsigned char *line,
    size_t len, int whole)
{
	const unsigned char *f[5];
	size_t fl[5], n;
	uint64_t bytes, units;
	int64_t est;

	n = fields(line, len, f, fl, 5);
	/* A field cut by the end of what is read is not known. */
	if (!whole)
		n--;
	if (n < 2 || !stats_verdict_word((const char *)f[1], fl[1])) {
		if (!whole && n < 2)
			pskd_fail_at(r->name, r->lineno, "a verdict line whose "
			    "id and verdict pass %d bytes", STATS_LINE_MAX);
		pskd_fail_at(r->name, r->lineno, "not a verdict (an id, a tab, "
		    "and a verdict: letters, digits, underscores and dots)");
	}
	if (is(f[1], fl[1], "near_duplicate")) {
		/* Its tombstone line goes on with the document's. */
		if (n < 4)
			pskd_fail_at(r->name, r->lineno, whole ?
			    "near_duplicate without its match and estimate" :
			    "a near_duplicate whose estimate is not in the "
			    "line's first bytes");
		if ((est = estimate(f[3], fl[3])) < 0)
			pskd_fail_at(r->name, r->lineno, "the estimate is not "
			    "a number from 0 to 1 with at most four decimals");
		stats_dist_add(&s->est, (uint64_t)est);
		s->neardup++;
	} else if (is(f[1], fl[1], "trimmed")) {
		/* Kept: the bytes and the units cut out of it. */
		if (n != 4 || !whole || pskd_decimal(f[2], fl[2], &bytes) == -1 ||
		    pskd_decimal(f[3], fl[3], &units) == -1 || units == 0)
			pskd_fail_at(r->name, r->lineno, "trimmed without the "
			    "bytes and units removed (two whole numbers, at "
			    "least one unit)");
		if (__builtin_add_overflow(s->trim_bytes, bytes,
		    &s->trim_bytes) || __builtin_add_overflow(s->trim_units,
		    units, &s->trim_units))
			pskd_fail_at(r->name, r->lineno, "the bytes or units "
			    "trimmed pass 2^64");
		s->trimmed++;
	} else if (is(f[1], fl[1], "keep") || is(f[1], fl[1], "empty")) {
		if (n != 2 || !whole)
			pskd_fail_at(r->name, r->lineno, "%.*s with fields "
			    "after it (a kept document has none)", (int)fl[1],
			    (const char *)f[1]);
		if (fl[1] == 4)
			s->keep++;
		else
			s->empty++;
	} else if (is(f[1], fl[1], "rejected")) {
		s->rejected++;
	} else if (stats_tally_add(&s->drops, f[1], fl[1], 1) == -1) {
		pskd_fail_at(r->name, r->lineno, fl[1] > STATS_NAME_MAX ?
		    "a verdict longer than %d bytes" : "more than %d kinds of "
		    "verdict", fl[1] > STATS_NAME_MAX ? STATS_NAME_MAX :
		    STATS_NAMES_MAX);
	}
}

void
collect_verdicts(struct pskd_reader *r, struct stats *s)
{
	const unsigned char *line, *p;
	uint64_t total;
	size_t len;
	ssize_t got;
	int rc, last;

	while ((rc = collect_line(r, &line, &len)) > 0) {
		if (rc == 1) {
			verdict(r, s, line, len, 1);
			s->bytes += len + !r->noeol;
		} else {
			/* The fields from the first bytes; the rest passes. */
			verdict(r, s, r->buf + r->pos, STATS_LINE_MAX, 0);
			for (total = 0, last = 0; !last; total += (size_t)got) {
				if ((got = collect_piece(r, &p, &last)) < 0)
					pskd_err(PSKD_EXIT_DATA, "%s", r->name);
				collect_consume(r, (size_t)got, last);
			}
			s->bytes += total + !r->noeol;
		}
		s->n++;
		if ((s->n & 0xffff) == 0)
			collect_progress(r);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
}
