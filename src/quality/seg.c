/*
 * seg.c - words and sentences: ICU's break iterators (UAX #29 word and
 * sentence boundaries, the root locale's rules, with ICU's dictionaries
 * for the scripts written without spaces) over the UTF-8 text itself.
 * The segments between two word boundaries, each stripped of white space
 * as Python's str.strip() strips it, are the words; the sentences are cut
 * at the sentence boundaries.
 */
#include <stdlib.h>
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/uclean.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>

#include "quality/quality.h"

struct q_seg {
	UBreakIterator	*word, *sent;
	UText		*ut;
};

struct q_seg *
q_seg_open(struct pskd_error *e)
{
	struct q_seg *s = pskd_xcalloc(1, sizeof(*s));
	UErrorCode u = U_ZERO_ERROR;

	s->word = ubrk_open(UBRK_WORD, "", NULL, 0, &u);
	if (U_SUCCESS(u))
		s->sent = ubrk_open(UBRK_SENTENCE, "", NULL, 0, &u);
	if (U_FAILURE(u)) {
		pskd_error_set(e, 0, "ICU break iterators: %s", u_errorName(u));
		q_seg_close(s);
		return NULL;
	}
	return s;
}

void
q_seg_close(struct q_seg *s)
{
	if (s == NULL)
		return;
	if (s->word)
		ubrk_close(s->word);
	if (s->sent)
		ubrk_close(s->sent);
	if (s->ut)
		utext_close(s->ut);
	free(s);
}

const char *
q_icu_version(void)
{
	return U_ICU_VERSION;
}

/* The iterator bi set on t[0..n); -1 with e set. */
static int
set_text(struct q_seg *s, UBreakIterator *bi, const unsigned char *t,
    size_t n, struct pskd_error *e)
{
	UErrorCode u = U_ZERO_ERROR;

	if (n > INT32_MAX) {
		pskd_error_set(e, 0, "a text of %zu bytes: ICU's break "
		    "iterators take at most 2 GiB", n);
		return -1;
	}
	s->ut = utext_openUTF8(s->ut, (const char *)t, (int64_t)n, &u);
	if (U_SUCCESS(u))
		ubrk_setUText(bi, s->ut, &u);
	if (U_FAILURE(u)) {
		pskd_error_set(e, 0, "ICU: %s", u_errorName(u));
		return -1;
	}
	return 0;
}

int
q_words(struct q_seg *s, const unsigned char *t, size_t n,
    struct q_spans *out, struct pskd_error *e)
{
	int32_t prev = 0, cur;
	size_t a, b;

	out->n = 0;
	if (n == 0)
		return 0;
	if (set_text(s, s->word, t, n, e) == -1)
		return -1;
	while ((cur = ubrk_next(s->word)) != UBRK_DONE) {
		/* A segment of one ASCII byte: a word unless white space. */
		if (cur == prev + 1 && t[prev] < 0x80) {
			if (!q_isspace(t[prev]))
				q_spans_add(out, (size_t)prev, 1, 1);
			prev = cur;
			continue;
		}
		q_strip(t + prev, (size_t)(cur - prev), &a, &b);
		if (b > a)
			q_spans_add(out, (size_t)prev + a, b - a,
			    q_cplen(t + prev + a, b - a));
		prev = cur;
	}
	return 0;
}

int
q_sentences(struct q_seg *s, const unsigned char *t, size_t n,
    struct q_spans *out, struct pskd_error *e)
{
	int32_t prev = 0, cur;

	out->n = 0;
	if (n == 0) {
		q_spans_add(out, 0, 0, 0);
		return 0;
	}
	if (set_text(s, s->sent, t, n, e) == -1)
		return -1;
	while ((cur = ubrk_next(s->sent)) != UBRK_DONE) {
		q_spans_add(out, (size_t)prev, (size_t)(cur - prev),
		    q_cplen(t + prev, (size_t)(cur - prev)));
		prev = cur;
	}
	return 0;
}
