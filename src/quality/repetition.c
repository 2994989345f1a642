/*
 * repetition.c - the Gopher repetition rules (Rae et al. 2021, table A1)
 * in the order and with the defaults of datatrove's
 * GopherRepetitionFilter: duplicate paragraphs (the stripped text cut at
 * runs of two or more newlines) and lines (cut at runs of newlines), by
 * count and by characters; the most frequent 2-, 3- and 4-gram of words;
 * the duplicated 5- to 10-grams.  Characters are code points; every
 * fraction of characters is of the whole text.
 */
#include <stdio.h>

#include "quality/quality.h"

static char names[2][Q_NGRAM_MAX + 1][32];

static const char *
ngram_name(int dup, size_t n)
{
	if (names[dup][n][0] == '\0')
		snprintf(names[dup][n], sizeof(names[dup][n]),
		    dup ? "duplicated_%zu_n_grams" : "top_%zu_gram", n);
	return names[dup][n];
}

/* The fractions of duplicates among spans s: by count, by characters. */
static int
dup_rule(struct q_text *t, const struct q_spans *s, double frac,
    const char *fname, double charfrac, const char *cname,
    struct q_verdict *v)
{
	uint64_t el, ch;
	double r;

	q_duplicates(t->p, s, &el, &ch);
	r = q_ratio((double)el, (double)s->n);
	if (q_on(frac) && r > frac) {
		q_verdict_set(v, fname, r, frac);
		return 1;
	}
	r = q_ratio((double)ch, (double)t->cps);
	if (q_on(charfrac) && r > charfrac) {
		q_verdict_set(v, cname, r, charfrac);
		return 1;
	}
	return 0;
}

int
q_gopher_repetition(struct q_text *t, struct q_seg *seg,
    const struct q_settings *s, struct q_verdict *v, struct pskd_error *e)
{
	size_t a, b, i, n;
	uint64_t top;
	double r;

	v->name = NULL;
	q_strip(t->p, t->n, &a, &b);
	q_split_runs(t->p + a, b - a, '\n', 2, &t->lines);
	for (i = 0; i < t->lines.n; i++)
		t->lines.v[i].off += a;
	if (dup_rule(t, &t->lines, s->dup_para_frac, "dup_para_frac",
	    s->dup_para_char_frac, "dup_para_char_frac", v))
		return 0;
	q_split_runs(t->p, t->n, '\n', 1, &t->lines);
	if (dup_rule(t, &t->lines, s->dup_line_frac, "dup_line_frac",
	    s->dup_line_char_frac, "dup_line_char_frac", v))
		return 0;
	for (n = 1; n <= Q_NGRAM_MAX; n++)
		if (q_on(s->top_ngram[n]) || q_on(s->dup_ngram[n]))
			break;
	if (n > Q_NGRAM_MAX)
		return 0;
	if (q_text_words(t, seg, e) == -1)
		return -1;
	for (n = 1, top = UINT64_MAX; n <= Q_NGRAM_MAX; n++) {
		/*
		 * An n-gram is at most as frequent as the (n-1)-gram it starts
		 * with: top carries the count (or a bound) to the next n.
		 */
		if (!q_on(s->top_ngram[n]) || t->words.n < n)
			continue;
		r = q_ratio((double)q_top_ngram(t, n, s->top_ngram[n], &top),
		    (double)t->cps);
		if (r > s->top_ngram[n]) {
			q_verdict_set(v, ngram_name(0, n), r, s->top_ngram[n]);
			return 0;
		}
	}
	for (n = 1; n <= Q_NGRAM_MAX; n++) {
		if (!q_on(s->dup_ngram[n]))
			continue;
		r = q_ratio((double)q_dup_ngrams(t, n, s->dup_ngram[n]),
		    (double)t->cps);
		if (r > s->dup_ngram[n]) {
			q_verdict_set(v, ngram_name(1, n), r, s->dup_ngram[n]);
			return 0;
		}
	}
	return 0;
}
