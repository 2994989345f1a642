/*
 * test-quality-seg.c - pskd-filter's words and sentences: the ASCII paths
 * of seg.c and sent.c cut every text as ICU's break iterators do (every
 * string of up to five characters over an alphabet of each ASCII word
 * class, of up to six over one of each sentence class, and random texts
 * that mix ASCII, white space and other scripts), and datatrove's
 * punctuation sets are all there.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "quality/quality.h"
#include "check.h"

static struct q_seg *fast, *icu;
static struct q_spans a, b;

static int
same(const unsigned char *t, size_t n)
{
	struct pskd_error e;
	size_t k;

	if (q_words(fast, t, n, &a, &e) == -1 || q_words(icu, t, n, &b, &e) == -1)
		return 0;
	if (a.n != b.n)
		return 0;
	for (k = 0; k < a.n; k++)
		if (a.v[k].off != b.v[k].off || a.v[k].len != b.v[k].len ||
		    a.v[k].cps != b.v[k].cps)
			return 0;
	return 1;
}

/* The sentences of both, and their counts up to 1, 2 and 3. */
static int
same_sentences(const unsigned char *t, size_t n)
{
	struct pskd_error e;
	size_t k, x, y;

	if (q_sentences(fast, t, n, &a, &e) == -1 ||
	    q_sentences(icu, t, n, &b, &e) == -1 || a.n != b.n)
		return 0;
	for (k = 0; k < a.n; k++)
		if (a.v[k].off != b.v[k].off || a.v[k].len != b.v[k].len ||
		    a.v[k].cps != b.v[k].cps)
			return 0;
	for (k = 1; k <= 3; k++)
		if (q_sentence_count(fast, t, n, k, &x, &e) == -1 ||
		    q_sentence_count(icu, t, n, k, &y, &e) == -1 || x != y)
			return 0;
	return 1;
}

/* Every string of up to six of alpha's characters, then random ones. */
static void
sentences(void)
{
	static const char alpha[] = "aA1.?), #\r\n";
	static const char more[] = "aZ9.?!\"')(],-:; \t\v\f#@\r\n";
	unsigned char t[64];
	size_t n, k, m = strlen(alpha), bad = 0, tried = 0, len;
	unsigned long x, y, total;

	for (n = 1; n <= 6; n++) {
		for (total = 1, k = 0; k < n; k++)
			total *= m;
		for (x = 0; x < total; x++) {
			for (y = x, k = 0; k < n; k++, y /= m)
				t[k] = (unsigned char)alpha[y % m];
			tried++;
			if (!same_sentences(t, n) && bad++ < 5)
				printf("# differ: '%.*s'\n", (int)n, t);
		}
	}
	check(bad == 0, "ASCII sentences as ICU's on %zu short strings "
	    "(%zu differ)", tried, bad);
	m = strlen(more);
	for (bad = 0, tried = 0; tried < 50000; tried++) {
		len = (size_t)rand() % sizeof(t);
		for (k = 0; k < len; k++)
			t[k] = (unsigned char)more[(size_t)rand() % m];
		if (!same_sentences(t, len) && bad++ < 5)
			printf("# differ: '%.*s'\n", (int)len, t);
	}
	check(bad == 0, "ASCII sentences as ICU's on %zu random texts "
	    "(%zu differ)", tried, bad);
}

int
main(void)
{
	static const char alpha[] = "aZ7_@.,;:'\"- \t\n\x1c!#$/";
	static const char *const other[] = { "\xc3\xa9", "\xe2\x80\x99",
	    "\xcc\x81", "\xe4\xb8\xad\xe6\x96\x87", "\xd0\xb4\xd0\xb0",
	    "\xe2\x80\xa2", "\xc2\xa0", "\xe2\x80\xa8", "\xf0\x9f\x98\x80",
	    "\xe2\x80\x8d", "\xd7\x90\"", "\xe0\xb8\x81\xe0\xb8\xb2" };
	static const char *const level[] = { "portable (PSKD_SIMD=0)",
	    "SSE2 (PSKD_SIMD=sse2)", "AVX2 (PSKD_SIMD=avx2)",
	    "AVX-512 (PSKD_SIMD=avx512)" };
	struct pskd_error e;
	unsigned char t[64], long_t[400];
	size_t n, k, m = strlen(alpha), bad = 0, tried = 0, len, i;
	unsigned long x;

	fast = q_seg_open(&e);
	icu = q_seg_open(&e);
	if (!check(fast && icu, "ICU's break iterators open"))
		return check_status();
	q_seg_icu_only(icu, 1);
	for (n = 1; n <= 5; n++) {
		unsigned long total = 1;

		for (k = 0; k < n; k++)
			total *= m;
		for (x = 0; x < total; x++) {
			unsigned long y = x;

			for (k = 0; k < n; k++, y /= m)
				t[k] = (unsigned char)alpha[y % m];
			tried++;
			if (!same(t, n) && bad++ < 5)
				printf("# differ: '%.*s'\n", (int)n, t);
		}
	}
	check(bad == 0, "ASCII path as ICU on %zu short strings (%zu differ)",
	    tried, bad);
	srand(25);
	for (bad = 0, tried = 0; tried < 20000; tried++) {
		for (len = 0, i = 0; i < 12 && len + 8 < sizeof(t); i++) {
			if (rand() % 4 == 0) {
				const char *o = other[rand() % (sizeof(other) /
				    sizeof(other[0]))];

				memcpy(t + len, o, strlen(o));
				len += strlen(o);
			} else
				t[len++] = (unsigned char)alpha[rand() % m];
		}
		if (!same(t, len) && bad++ < 5)
			printf("# differ: '%.*s'\n", (int)len, t);
	}
	check(bad == 0, "ASCII path as ICU on %zu mixed texts (%zu differ)",
	    tried, bad);
	/* long texts: each level's path (PSKD_SIMD=0's too) on many blocks */
	for (k = 0; k < 4; k++) {
		if ((int)k > q_simd_max()) {
			printf("skip - %s path: not on this processor\n",
			    level[k]);
			continue;
		}
		q_scan_simd((int)k);
		for (bad = 0, tried = 0; tried < 20000; tried++) {
			for (len = 0; len + 8 < sizeof(long_t);) {
				if (rand() % (tried % 2 ? 40 : 400) == 0) {
					const char *o = other[rand() %
					    (sizeof(other) / sizeof(other[0]))];

					memcpy(long_t + len, o, strlen(o));
					len += strlen(o);
				} else
					long_t[len++] = (unsigned char)
					    alpha[rand() % m];
				if (rand() % 300 == 0)
					break;
			}
			if (!same(long_t, len) && bad++ < 5)
				printf("# differ: '%.*s'\n", (int)len, long_t);
		}
		check(bad == 0, "%s path as ICU on %zu long texts (%zu differ)",
		    level[k], tried, bad);
	}
	sentences();
	for (bad = 0, n = 0, x = 0; x < 0x110000; x++) {
		bad += q_isterminal((uint32_t)x) && !q_ispunct((uint32_t)x);
		n += q_ispunct((uint32_t)x);
	}
	check(bad == 0, "every terminal punctuation mark is punctuation");
	for (bad = 0, x = 0; x < 0x80; x++)
		bad += q_ispunct((uint32_t)x) != q_ispunct_table((uint32_t)x);
	check(bad == 0, "the ASCII punctuation table is the ranges'");
	/* datatrove's sets: 281 and 159 characters */
	check(n == 281, "281 punctuation characters (%zu)", n);
	for (n = 0, x = 0; x < 0x110000; x++)
		n += q_isterminal((uint32_t)x);
	check(n == 159, "159 terminal punctuation characters (%zu)", n);
	q_seg_close(fast);
	q_seg_close(icu);
	q_spans_free(&a);
	q_spans_free(&b);
	return check_status();
}
