/*
 * sent.c - sentences of ASCII text by the rules of UAX #29 (SB1-SB11),
 * the ones ICU's sentence break iterator applies, with the Sentence_Break
 * classes ICU gives the ASCII characters: so the same cuts as ICU's
 * (tests/unit/test-quality-seg.c compares them on every string of up to
 * six characters of those classes, and on random texts), without ICU.
 */
#include <unicode/uchar.h>

#include "quality/quality.h"

/* ICU's classes, by byte below 0x80 */
static unsigned char sb[128];
static int sb_ready;

static void
sb_init(void)
{
	int c;

	for (c = 0; c < 128; c++)
		sb[c] = (unsigned char)u_getIntPropertyValue(c,
		    UCHAR_SENTENCE_BREAK);
	sb_ready = 1;
}

/* Where the sentence that starts at i (< n) ends: its last break. */
static size_t
sentence_end(const unsigned char *t, size_t n, size_t i)
{
	size_t a, p, q;
	unsigned c;

	for (; i < n; i++) {
		c = sb[t[i]];
		if (c == U_SB_LF)				/* SB4 */
			return i + 1;
		if (c == U_SB_CR)				/* SB3, SB4 */
			return i + 1 < n && t[i + 1] == '\n' ? i + 2 : i + 1;
		if (c != U_SB_ATERM && c != U_SB_STERM)		/* SB998 */
			continue;
		/* SATerm Close* Sp*, unbroken (SB9, SB10) */
		a = i;
		for (p = a + 1; p < n && sb[t[p]] == U_SB_CLOSE; p++)
			;
		for (; p < n && sb[t[p]] == U_SB_SP; p++)
			;
		if (p == n)					/* SB2 */
			return n;
		c = sb[t[p]];
		if (c == U_SB_LF)				/* SB11 */
			return p + 1;
		if (c == U_SB_CR)
			return p + 1 < n && t[p + 1] == '\n' ? p + 2 : p + 1;
		if (c == U_SB_SCONTINUE || c == U_SB_ATERM ||
		    c == U_SB_STERM)				/* SB8a */
			continue;
		if (sb[t[a]] == U_SB_ATERM) {
			if (p == a + 1 && c == U_SB_NUMERIC)	/* SB6 */
				continue;
			if (p == a + 1 && c == U_SB_UPPER && a > 0 &&
			    (sb[t[a - 1]] == U_SB_UPPER ||
			    sb[t[a - 1]] == U_SB_LOWER))	/* SB7 */
				continue;
			/* SB8: ATerm Close* Sp* x (not a letter...)* Lower */
			for (q = p; q < n; q++) {
				c = sb[t[q]];
				if (c == U_SB_OLETTER || c == U_SB_UPPER ||
				    c == U_SB_LOWER || c == U_SB_SEP ||
				    c == U_SB_CR || c == U_SB_LF ||
				    c == U_SB_ATERM || c == U_SB_STERM)
					break;
			}
			if (q < n && sb[t[q]] == U_SB_LOWER)
				continue;
		}
		return p;					/* SB11 */
	}
	return n;
}

size_t
q_ascii_sentences(const unsigned char *t, size_t n, size_t limit,
    struct q_spans *out)
{
	size_t i = 0, k = 0, e;

	if (!sb_ready)
		sb_init();
	for (; i < n && k < limit; k++, i = e) {
		e = sentence_end(t, n, i);
		if (out != NULL)
			q_spans_add(out, i, e - i, e - i);
	}
	return k;
}
