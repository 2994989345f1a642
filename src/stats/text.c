/*
 * text.c - the line streams: documents (JSON Lines, or plain text with
 * one document a line) and the verdicts of pskd-lsh.
 */
#include <string.h>

#include "pskd.h"
#include "stats/collect.h"

/* Code points in UTF-8 that is known to be valid: all but continuations. */
static uint64_t
chars(const unsigned char *p, size_t n)
{
	uint64_t cont = 0, x;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, p + i, 8);
		/* 10xxxxxx: bit 7 set, bit 6 clear. */
		cont += (uint64_t)__builtin_popcountll(x & ~(x << 1) &
		    0x8080808080808080ULL);
	}
	for (; i < n; i++)
		cont += (p[i] & 0xc0) == 0x80;
	return n - cont;
}

void
collect_documents(struct pskd_reader *r, struct stats *s,
    const struct collect_opts *o, int plain)
{
	struct pskd_doc doc;
	struct pskd_error e;
	const unsigned char *line, *text;
	size_t len, textlen, off;
	uint64_t lines = 0;
	int rc;

	if (!plain && pskd_doc_init(&doc, o->field, NULL, &e) == -1)
		pskd_errx(PSKD_EXIT_USAGE, "-f: %s", e.msg);
	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		if (plain) {
			off = pskd_utf8_check(line, len);
			if (off != len)
				pskd_fail_at(r->name, r->lineno, "invalid UTF-8 "
				    "at byte %zu", off);
			text = line;
			textlen = len;
		} else {
			if (pskd_doc_parse(&doc, line, len) == -1)
				pskd_fail_at(r->name, r->lineno, "%s",
				    doc.err);
			text = doc.text;
			textlen = doc.textlen;
		}
		s->n++;
		s->bytes += len + !r->noeol;
		stats_dist_add(&s->text_bytes, textlen);
		stats_dist_add(&s->text_chars, chars(text, textlen));
		if ((++lines & 0xfff) == 0)
			collect_progress(r);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
	if (!plain)
		pskd_doc_free(&doc);
}

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

void
collect_verdicts(struct pskd_reader *r, struct stats *s)
{
	const unsigned char *line, *f[5];
	size_t len, fl[5], n;
	int64_t est;
	int rc;

	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		n = fields(line, len, f, fl, 5);
		if (n >= 2 && is(f[1], fl[1], "near_duplicate")) {
			/* Its tombstone line goes on with the document's. */
			if (n < 4)
				pskd_fail_at(r->name, r->lineno,
				    "near_duplicate without its match and "
				    "estimate");
			if ((est = estimate(f[3], fl[3])) < 0)
				pskd_fail_at(r->name, r->lineno,
				    "the estimate is not a number from 0 to 1 "
				    "with at most four decimals");
			stats_dist_add(&s->est, (uint64_t)est);
			s->neardup++;
		} else if (n >= 2 && is(f[1], fl[1], "rejected")) {
			/* Its tombstone line goes on with the document's. */
			s->rejected++;
		} else if (n == 2 && is(f[1], fl[1], "keep")) {
			s->keep++;
		} else if (n == 2 && is(f[1], fl[1], "empty")) {
			s->empty++;
		} else {
			pskd_fail_at(r->name, r->lineno, "not a verdict (id, "
			    "then keep, empty, near_duplicate or rejected)");
		}
		s->n++;
		s->bytes += len + !r->noeol;
		if ((s->n & 0xffff) == 0)
			collect_progress(r);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
}
