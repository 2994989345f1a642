/*
 * gopher.c - the Gopher quality rules (Rae et al. 2021, "Scaling Language
 * Models: Methods, Analysis & Insights from Training Gopher", appendix A),
 * in the order and with the defaults of datatrove's GopherQualityFilter:
 * the words counted are those with a character outside datatrove's
 * punctuation set; the other ratios count every word.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quality/quality.h"

/* Lines starting (after white space) with a bullet, ending in an ellipsis. */
static void
line_marks(const struct q_text *t, const struct q_spans *lines,
    size_t *bullets, size_t *ellipses)
{
	const unsigned char *p;
	size_t i, a, b;

	*bullets = *ellipses = 0;
	for (i = 0; i < lines->n; i++) {
		p = t->p + lines->v[i].off;
		q_strip(p, lines->v[i].len, &a, &b);
		/* lstrip then startswith: the first after white space */
		if (b > a && (p[a] == '-' || (b - a >= 3 && p[a] == 0xe2 &&
		    p[a + 1] == 0x80 && p[a + 2] == 0xa2)))
			(*bullets)++;
		if ((b - a >= 3 && memcmp(p + b - 3, "...", 3) == 0) ||
		    (b - a >= 3 && memcmp(p + b - 3, "\xe2\x80\xa6", 3) == 0))
			(*ellipses)++;
	}
}

/* Of a word: a character outside the punctuation set, a letter. */
#define W_SYM	1
#define W_ALPHA	2

/* The same for ASCII, by byte. */
static unsigned char ascii_marks[128];

static void
marks_init(void)
{
	uint32_t c;

	for (c = 0; c < 128; c++)
		ascii_marks[c] = (unsigned char)((q_ispunct(c) ? 0 : W_SYM) |
		    (q_isalpha(c) ? W_ALPHA : 0));
}

/* Of the words: those not all punctuation, their code points, alphabetic. */
static void
word_counts(const struct q_text *t, size_t *nsym, size_t *cps, size_t *alpha)
{
	const struct q_span *w = t->words.v, *end = w + t->words.n;
	const unsigned char *p;
	size_t k, len, ns = 0, nc = 0, na = 0;
	uint32_t c;
	unsigned m;

	if (ascii_marks['a'] == 0)
		marks_init();
	for (; w < end; w++) {
		p = t->p + w->off;
		if (p[0] < 0x80 && ascii_marks[p[0]] == (W_SYM | W_ALPHA)) {
			ns++;		/* a letter first: the usual word */
			nc += w->cps;
			na++;
			continue;
		}
		for (m = 0, k = 0; k < w->len && m != (W_SYM | W_ALPHA);) {
			if (p[k] < 0x80) {
				m |= ascii_marks[p[k++]];
				continue;
			}
			len = q_cp(p + k, w->len - k, &c);
			m |= (q_ispunct(c) ? 0u : W_SYM) |
			    (q_isalpha(c) ? W_ALPHA : 0u);
			k += len;
		}
		ns += m & W_SYM;
		nc += (m & W_SYM) ? w->cps : 0;
		na += m >> 1;
	}
	*nsym = ns;
	*cps = nc;
	*alpha = na;
}

/*
 * Distinct stop words among the words (case and all, as datatrove),
 * counted up to enough.
 */
static size_t
stop_words(const struct q_text *t, const struct q_settings *s, size_t enough)
{
	const struct q_words *sw = &s->stop_words;
	unsigned char *seen = pskd_xcalloc(sw->n + 1, 1);
	size_t *len = pskd_xcalloc(sw->n + 1, sizeof(*len));
	size_t i, k, n = 0, want = 0, maxlen = 0;
	const struct q_span *w;

	for (k = 0; k < sw->n; k++) {
		len[k] = strlen(sw->v[k]);
		maxlen = len[k] > maxlen ? len[k] : maxlen;
		for (i = 0; i < k; i++)		/* listed twice: once */
			if (strcmp(sw->v[i], sw->v[k]) == 0)
				seen[k] = 1;
		want += !seen[k];
	}
	want = want < enough ? want : enough;
	for (i = 0; i < t->words.n && n < want; i++) {
		w = &t->words.v[i];
		if (w->len > maxlen)
			continue;
		for (k = 0; k < sw->n; k++)
			if (!seen[k] && len[k] == w->len && (unsigned char)
			    sw->v[k][0] == t->p[w->off] && memcmp(sw->v[k],
			    t->p + w->off, w->len) == 0) {
				seen[k] = 1;
				n++;
			}
	}
	free(seen);
	free(len);
	return n;
}

int
q_gopher_quality(struct q_text *t, struct q_seg *seg,
    const struct q_settings *s, struct q_verdict *v, struct pskd_error *e)
{
	size_t nwords, nsym, cps, alpha, bullets, ellipses, dups;
	const struct q_spans *lines;
	double mean, r;

	v->name = NULL;
	if (q_text_words(t, seg, e) == -1)
		return -1;
	nwords = t->words.n;
	word_counts(t, &nsym, &cps, &alpha);
	if (q_on(s->min_doc_words) && (double)nsym < s->min_doc_words) {
		q_verdict_set(v, "gopher_short_doc", (double)nsym,
		    s->min_doc_words);
		return 0;
	}
	if (q_on(s->max_doc_words) && (double)nsym > s->max_doc_words) {
		q_verdict_set(v, "gopher_long_doc", (double)nsym,
		    s->max_doc_words);
		return 0;
	}
	/* numpy's mean of no words is NaN, which fails no comparison */
	mean = nsym ? (double)cps / (double)nsym : NAN;
	if (q_on(s->min_avg_word_length) && mean < s->min_avg_word_length) {
		q_verdict_set(v, "gopher_below_avg_threshold", mean,
		    s->min_avg_word_length);
		return 0;
	}
	if (q_on(s->max_avg_word_length) && mean > s->max_avg_word_length) {
		q_verdict_set(v, "gopher_above_avg_threshold", mean,
		    s->max_avg_word_length);
		return 0;
	}
	if (q_on(s->max_symbol_word_ratio)) {
		r = q_ratio((double)q_count(t->p, t->n, "#"), (double)nwords);
		if (r > s->max_symbol_word_ratio) {
			q_verdict_set(v, "gopher_too_many_hashes", r,
			    s->max_symbol_word_ratio);
			return 0;
		}
		dups = q_count_ellipses(t->p, t->n);
		r = q_ratio((double)dups, (double)nwords);
		if (r > s->max_symbol_word_ratio) {
			q_verdict_set(v, "gopher_too_many_ellipsis", r,
			    s->max_symbol_word_ratio);
			return 0;
		}
	}
	if (q_on(s->max_bullet_lines_ratio) || q_on(s->max_ellipsis_lines_ratio)) {
		lines = q_text_lines(t);
		line_marks(t, lines, &bullets, &ellipses);
		r = q_ratio((double)bullets, (double)lines->n);
		if (q_on(s->max_bullet_lines_ratio) &&
		    r > s->max_bullet_lines_ratio) {
			q_verdict_set(v, "gopher_too_many_bullets", r,
			    s->max_bullet_lines_ratio);
			return 0;
		}
		r = q_ratio((double)ellipses, (double)lines->n);
		if (q_on(s->max_ellipsis_lines_ratio) &&
		    r > s->max_ellipsis_lines_ratio) {
			q_verdict_set(v, "gopher_too_many_end_ellipsis", r,
			    s->max_ellipsis_lines_ratio);
			return 0;
		}
	}
	r = q_ratio((double)alpha, (double)nwords);
	if (q_on(s->max_non_alpha_words_ratio) &&
	    r < s->max_non_alpha_words_ratio) {
		q_verdict_set(v, "gopher_below_alpha_threshold", r,
		    s->max_non_alpha_words_ratio);
		return 0;
	}
	if (q_on(s->min_stop_words)) {
		/* past the minimum the count decides nothing */
		dups = stop_words(t, s, s->min_stop_words >= (double)SIZE_MAX ?
		    SIZE_MAX : (size_t)ceil(s->min_stop_words));
		if ((double)dups < s->min_stop_words) {
			q_verdict_set(v, "gopher_enough_stop_words",
			    (double)dups, s->min_stop_words);
			return 0;
		}
	}
	return 0;
}
