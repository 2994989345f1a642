/*
 * text.c - a document's text as the rule sets share it: its code points
 * and its words, each computed once; and the fields of a verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quality/quality.h"

void
q_text_set(struct q_text *t, const unsigned char *p, size_t n)
{
	t->p = p;
	t->n = n;
	t->cps = q_cplen(p, n);
	t->have_words = 0;
	t->have_lines = 0;
}

const struct q_spans *
q_text_lines(struct q_text *t)
{
	if (!t->have_lines)
		q_splitlines(t->p, t->n, &t->plines);
	t->have_lines = 1;
	return &t->plines;
}

int
q_text_words(struct q_text *t, struct q_seg *seg, struct pskd_error *e)
{
	if (t->have_words)
		return 0;
	if (q_words(seg, t->p, t->n, &t->words, e) == -1)
		return -1;
	t->have_words = 1;
	t->gen++;
	return 0;
}

void
q_text_free(struct q_text *t)
{
	q_spans_free(&t->words);
	q_spans_free(&t->plines);
	q_spans_free(&t->lines);
	q_spans_free(&t->lines2);
	q_spans_free(&t->sents);
	pskd_buf_free(&t->lower);
	pskd_buf_free(&t->passed);
	pskd_buf_free(&t->buf);
	q_ngram_free(t);
}

/*
 * pskd_format_double's text, the shortest "%.*g" that strtod reads back
 * as d, with the precisions halved rather than tried in turn: a text of p
 * digits that reads back does with p + 1 (the nearest number of p + 1
 * digits is no farther from d, and the numbers that round to d lie as
 * far on either side of it), but at a power of 2, where they do not: so
 * those go to pskd_format_double, as do NaN and the infinities.
 */
static void
shortest(char *out, size_t size, double d)
{
	char tmp[40];
	int lo = 1, hi = 17, mid, e;

	if (isnan(d) || isinf(d) || fabs(frexp(d, &e)) == 0.5) {
		pskd_format_double(out, size, d);
		return;
	}
	while (lo < hi) {
		mid = (lo + hi) / 2;
		snprintf(tmp, sizeof(tmp), "%.*g", mid, d);
		if (strtod(tmp, NULL) == d)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(out, size, "%.*g", lo, d);
}

void
q_format_number(char *out, size_t size, double d)
{
	if (d == floor(d) && fabs(d) < 1e15)
		snprintf(out, size, "%.0f", d);
	else
		shortest(out, size, d);
}

/* The thresholds, each formatted once: the last few, by their bits. */
static void
format_threshold(char *out, size_t size, double d)
{
	static struct {
		uint64_t	 bits;
		char		 text[64];
	} seen[16];
	static size_t nseen, next;
	uint64_t bits;
	size_t k;

	memcpy(&bits, &d, sizeof(bits));
	for (k = 0; k < nseen; k++)
		if (seen[k].bits == bits) {
			snprintf(out, size, "%s", seen[k].text);
			return;
		}
	q_format_number(out, size, d);
	k = nseen < 16 ? nseen++ : next++ % 16;
	seen[k].bits = bits;
	snprintf(seen[k].text, sizeof(seen[k].text), "%s", out);
}

void
q_verdict_set(struct q_verdict *v, const char *name, double what,
    double against)
{
	v->name = name;
	q_format_number(v->what, sizeof(v->what), what);
	format_threshold(v->against, sizeof(v->against), against);
}

void
q_verdict_str(struct q_verdict *v, const char *name, const char *what,
    size_t whatlen, const char *against)
{
	size_t n = whatlen < sizeof(v->what) - 1 ? whatlen : sizeof(v->what) - 1;

	/* Cut at a code point's start, so the field stays UTF-8. */
	while (n > 0 && n < whatlen && ((unsigned char)what[n] & 0xc0) == 0x80)
		n--;
	v->name = name;
	memcpy(v->what, what, n);
	v->what[n] = '\0';
	snprintf(v->against, sizeof(v->against), "%s", against);
}
