/*
 * fineweb.c - FineWeb's own rules (Penedo et al. 2024, "The FineWeb
 * Datasets", section 3.3), in the order and with the defaults of
 * datatrove's FineWebQualityFilter: over the lines that are not only
 * white space (the text cut at each "\n"), the fraction ending in a
 * terminal punctuation mark, the fraction of short lines, the characters
 * in duplicated lines; then newlines per word.
 */
#include <string.h>

#include "quality/quality.h"

/* Does the line end in one of the stop characters? */
static int
ends_stop(const unsigned char *p, size_t n, const struct q_settings *s)
{
	size_t k = n - 1, i;
	uint32_t c;

	while (k > 0 && (p[k] & 0xc0) == 0x80)
		k--;
	q_cp(p + k, n - k, &c);
	if (s->stop_chars == NULL)
		return q_isterminal(c);
	for (i = 0; i < s->nstop_chars; i++)
		if (s->stop_chars[i] == c)
			return 1;
	return 0;
}

/*
 * The words of a text are at least its pieces between ASCII white space
 * (space, \t to \r) that start with ASCII that is not white space
 * (q_count_pieces): no word boundary joins across such white space (UAX
 * #29: only a space before Extend, Format or ZWJ goes with what follows
 * it), so such a first character is in a word of its own piece.
 */
int
q_fineweb(struct q_text *t, struct q_seg *seg, const struct q_settings *s,
    struct q_verdict *v, struct pskd_error *e)
{
	struct q_spans *L = &t->lines;
	size_t i, j, a, b, k, punct = 0, shortl = 0, newlines;
	const unsigned char *nl;
	uint64_t el, ch;
	double r;

	v->name = NULL;
	/* str.split("\n"), then the pieces that strip to nothing left out */
	L->n = 0;
	newlines = 0;
	for (j = 0;; j = i + 1) {
		nl = memchr(t->p + j, '\n', t->n - j);
		i = nl ? (size_t)(nl - t->p) : t->n;
		q_strip(t->p + j, i - j, &a, &b);
		if (b > a)
			q_spans_add(L, j, i - j, q_cplen(t->p + j, i - j));
		if (nl == NULL)
			break;
		newlines++;
	}
	if (L->n == 0) {
		q_verdict_set(v, "fineweb_empty", 0, 1);
		return 0;
	}
	for (i = 0; i < L->n; i++) {
		punct += (size_t)ends_stop(t->p + L->v[i].off, L->v[i].len, s);
		shortl += q_on(s->short_line_length) &&
		    (double)L->v[i].cps <= s->short_line_length;
	}
	r = (double)punct / (double)L->n;
	if (q_on(s->line_punct_thr) && r < s->line_punct_thr &&
	    !(r == 0 && s->line_punct_exclude_zero)) {
		q_verdict_set(v, "line_punct_ratio", r, s->line_punct_thr);
		return 0;
	}
	r = (double)shortl / (double)L->n;
	if (q_on(s->short_line_thr) && r > s->short_line_thr) {
		q_verdict_set(v, "short_line_ratio", r, s->short_line_thr);
		return 0;
	}
	q_duplicates(t->p, L, &el, &ch);
	r = q_ratio((double)ch, (double)(t->cps - newlines));
	if (q_on(s->char_duplicates_ratio) && r > s->char_duplicates_ratio) {
		q_verdict_set(v, "char_dup_ratio", r, s->char_duplicates_ratio);
		return 0;
	}
	if (!q_on(s->new_line_ratio) || newlines == 0)
		return 0;
	/* as many words as that pass: no need to count them all */
	k = q_count_pieces(t->p, t->n);
	if (k > 0 && (double)newlines / (double)k <= s->new_line_ratio)
		return 0;
	if (q_text_words(t, seg, e) == -1)
		return -1;
	r = q_ratio((double)newlines, (double)t->words.n);
	if (r > s->new_line_ratio) {
		q_verdict_set(v, "list_ratio", r, s->new_line_ratio);
		return 0;
	}
	return 0;
}
