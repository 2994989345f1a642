/*
 * c4.c - the C4 rules (Raffel et al. 2020, section 2.2, and the TFDS
 * c4_utils code), in the order and with the defaults of datatrove's
 * C4QualityFilter: line by line (str.splitlines, or its sentences), a line
 * is left out for a word over 1000 characters, no terminal punctuation
 * (after removing citations like "[1]"), fewer than 3 words, "javascript"
 * or a policy phrase; a document is dropped for "lorem ipsum" or "{" in a
 * line that got that far, or fewer than 5 sentences in the lines kept.
 * The lines kept, joined, are the text c4 passes on.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "quality/quality.h"

static const char *const policy[] = {
	"terms of use", "privacy policy", "cookie policy", "uses cookies",
	"use of cookies", "use cookies",
};

/* The words of line.split(), counted up to cap. */
static size_t
count_words(const unsigned char *p, size_t n, size_t cap)
{
	size_t i = 0, k = 0;
	uint32_t c;
	int in = 0;

	while (i < n && k < cap) {
		if (p[i] < 0x80)
			c = p[i++];
		else
			i += q_cp(p + i, n - i, &c);
		if (q_isspace(c))
			in = 0;
		else if (!in) {
			k++;
			in = 1;
		}
	}
	return k;
}

/* The least whole number not below d (d >= 0), or SIZE_MAX. */
static size_t
ceiling(double d)
{
	return d >= (double)SIZE_MAX ? SIZE_MAX : (size_t)ceil(d);
}

/* The greatest whole number not above d (d >= 0), or SIZE_MAX. */
static size_t
whole(double d)
{
	return d >= (double)SIZE_MAX ? SIZE_MAX : (size_t)d;
}

/* Python's line.split(): the number of words and the longest, in cps. */
static void
split_words(const unsigned char *p, size_t n, size_t *nwords, size_t *maxlen)
{
	size_t i = 0, len, cps = 0;
	uint32_t c;
	int in = 0;

	*nwords = *maxlen = 0;
	while (i < n) {
		len = q_cp(p + i, n - i, &c);
		i += len;
		if (q_isspace(c)) {
			in = 0;
			continue;
		}
		if (!in) {
			(*nwords)++;
			cps = 0;
			in = 1;
		}
		if (++cps > *maxlen)
			*maxlen = cps;
	}
}

/*
 * The line without the citations of \[\d*]|\[edit]|\[citation needed]
 * (\d: any decimal digit, as Python's re), into b.
 */
static void
uncite(struct pskd_buf *b, const unsigned char *p, size_t n)
{
	size_t i = 0, j, len;
	uint32_t c;

	b->len = 0;
	while (i < n) {
		const unsigned char *q = memchr(p + i, '[', n - i);

		if (q == NULL)
			break;
		pskd_buf_add(b, p + i, (size_t)(q - p) - i);
		i = (size_t)(q - p);
		for (j = i + 1; j < n; j += len) {
			len = q_cp(p + j, n - j, &c);
			if (!q_isdigit(c))
				break;
		}
		if (j < n && p[j] == ']') {
			i = j + 1;
			continue;
		}
		if (n - i >= 6 && memcmp(p + i, "[edit]", 6) == 0) {
			i += 6;
			continue;
		}
		if (n - i >= 17 && memcmp(p + i, "[citation needed]", 17) == 0) {
			i += 17;
			continue;
		}
		pskd_buf_addc(b, '[');
		i++;
	}
	pskd_buf_add(b, p + i, n - i);
}

/* Ends in . ? ! " ' and not in "...". */
static int
terminal(const unsigned char *p, size_t n)
{
	if (n == 0 || !strchr(".?!\"'", p[n - 1]))
		return 0;
	return !(n >= 3 && memcmp(p + n - 3, "...", 3) == 0);
}

/* Does s hold U+212A KELVIN SIGN? */
static int
kelvin(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while ((i += q_find2(s + i, n - i, 0xe2, 0xe2)) + 2 < n) {
		if (s[i + 1] == 0x84 && s[i + 2] == 0xaa)
			return 1;
		i++;
	}
	return 0;
}

/*
 * Which phrases a line can hold (1 lorem ipsum, 2 javascript, 4 a policy
 * phrase; curly: '{'), or more: a line, stripped and without its
 * citations, is a piece of the whole text without its citations (no
 * citation holds a line break, none starts or ends with white space),
 * lowercased as the whole is.  Where no character lowercases to ASCII but
 * A-Z (the Kelvin sign does, to k; U+0130 to i and U+0307, which no
 * phrase has after an i), a phrase in the lowercased text is in the text
 * with each byte ORed with 0x20, and "cookie" is in every policy phrase
 * but two.
 */
static void
phrases(struct q_text *t, const struct q_settings *s, int *any, int *curly)
{
	static const char *const folded[] = { "lorem ipsum", "javascript",
	    "cookie", "terms of use", "privacy policy" };
	static const int bits[] = { 1, 2, 4, 4, 4 };
	const unsigned char *p = t->p;
	size_t k, n = t->n;

	if (s->remove_citations && memchr(t->p, '[', t->n)) {
		uncite(&t->buf, t->p, t->n);
		p = t->buf.p;
		n = t->buf.len;
	}
	*any = 0;
	*curly = memchr(t->p, '{', t->n) != NULL;
	if (!kelvin(p, n)) {
		for (k = 0; k < sizeof(bits) / sizeof(bits[0]); k++)
			if (!(*any & bits[k]) && q_contains_folded(p, n,
			    folded[k]))
				*any |= bits[k];
		return;
	}
	q_lower(&t->lower, p, n);
	*any = q_contains(t->lower.p, t->lower.len, "lorem ipsum") |
	    q_contains(t->lower.p, t->lower.len, "javascript") << 1;
	for (k = 0; k < sizeof(policy) / sizeof(policy[0]); k++)
		if (q_contains(t->lower.p, t->lower.len, policy[k]))
			*any |= 4;
}

int
q_c4(struct q_text *t, struct q_seg *seg, const struct q_settings *s,
    struct q_verdict *v, struct pskd_error *e)
{
	size_t i, k, a, b, nwords, maxlen, nsent = 0, nkept = 0, lno;
	const unsigned char *line, *cp;
	size_t cl;
	const struct q_spans *lines;
	struct pskd_buf *cut = &t->buf;
	const char *sep = s->split_paragraph ? "\n" : " ";
	int any, curly;

	v->name = NULL;
	t->passed.len = 0;
	if (s->split_paragraph)
		lines = q_text_lines(t);
	else if (q_sentences(seg, t->p, t->n, &t->lines2, e) == -1)
		return -1;
	else
		lines = &t->lines2;
	phrases(t, s, &any, &curly);
	for (i = 0; i < lines->n; i++) {
		lno = i + 1;
		line = t->p + lines->v[i].off;
		q_strip(line, lines->v[i].len, &a, &b);
		line += a;
		/* a word has no more code points than bytes (words to 3) */
		nwords = 0;
		if (q_on(s->max_word_length) && q_run_over(line, b - a,
		    whole(s->max_word_length))) {
			split_words(line, b - a, &nwords, &maxlen);
			if ((double)maxlen > s->max_word_length)
				continue;
		} else if (q_on(s->min_words_per_line))
			nwords = count_words(line, b - a,
			    ceiling(s->min_words_per_line));
		/* the line without its citations, copied when it has some */
		if (s->remove_citations && memchr(line, '[', b - a)) {
			uncite(cut, line, b - a);
			cp = cut->p;
			cl = cut->len;
		} else {
			cp = line;
			cl = b - a;
		}
		if (s->filter_no_terminal_punct && !terminal(cp, cl))
			continue;
		if (q_on(s->min_words_per_line) && (double)nwords <
		    s->min_words_per_line)
			continue;
		if (any)
			q_lower(&t->lower, cp, cl);
		if (s->filter_lorem_ipsum && (any & 1) && q_contains(t->lower.p,
		    t->lower.len, "lorem ipsum")) {
			q_verdict_set(v, "lorem_ipsum", (double)lno, 0);
			strcpy(v->against, "lorem ipsum");
			return 0;
		}
		if (s->filter_javascript && (any & 2) && q_contains(t->lower.p,
		    t->lower.len, "javascript"))
			continue;
		if (s->filter_curly_bracket && curly &&
		    memchr(cp, '{', cl)) {
			q_verdict_set(v, "curly_bracket", (double)lno, 0);
			strcpy(v->against, "{");
			return 0;
		}
		if (s->filter_policy && (any & 4)) {
			for (k = 0; k < sizeof(policy) / sizeof(policy[0]); k++)
				if (q_contains(t->lower.p, t->lower.len,
				    policy[k]))
					break;
			if (k < sizeof(policy) / sizeof(policy[0]))
				continue;
		}
		/* past the minimum the count decides nothing: not counted */
		if (q_on(s->min_num_sentences) &&
		    (double)nsent < s->min_num_sentences) {
			if (!s->split_paragraph)
				nsent++;
			else if (q_sentence_count(seg, cp, cl,
			    (size_t)s->min_num_sentences - nsent, &k, e) == -1)
				return -1;
			else
				nsent += k;
		}
		if (nkept++ > 0)
			pskd_buf_add(&t->passed, sep, 1);
		pskd_buf_add(&t->passed, cp, cl);
	}
	if (q_on(s->min_num_sentences) && (double)nsent < s->min_num_sentences) {
		q_verdict_set(v, "too_few_sentences", (double)nsent,
		    s->min_num_sentences);
		return 0;
	}
	/* .strip() of the join: its lines are stripped, but may be empty */
	q_strip(t->passed.p, t->passed.len, &a, &b);
	if (a > 0)
		memmove(t->passed.p, t->passed.p + a, b - a);
	t->passed.len = b - a;
	return 0;
}
