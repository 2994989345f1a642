/*
 * test-quality-scan.c - the byte scans of src/quality/scan.c: the vector
 * code of each level the processor runs (AVX-512, AVX2, SSE2) and its
 * portable twin give the answers of a plain loop written here, on random texts of bytes the scans look for (white space of both
 * kinds, dots, the bytes of U+2026, U+0085 and U+2028, cased letters,
 * bytes above 0x7f), every length to 300 and every offset in a vector.
 * And the numbers of verdicts are pskd_format_double's text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "quality/quality.h"
#include "check.h"

static int
space(unsigned char c)
{
	return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
}

static size_t
cplen(const unsigned char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += (s[i] & 0xc0) != 0x80;
	return k;
}

static size_t
find2(const unsigned char *s, size_t n, unsigned char a, unsigned char b)
{
	size_t i;

	for (i = 0; i < n && s[i] != a && s[i] != b; i++)
		;
	return i;
}

static size_t
find_break(const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i] >= 0x20 && s[i] != 0xc2 && s[i] != 0xe2; i++)
		;
	return i;
}

/* str.count: leftmost, then on past each. */
static size_t
count(const unsigned char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), i = 0, k = 0;

	while (i + m <= n) {
		if (memcmp(s + i, needle, m) == 0) {
			k++;
			i += m;
		} else
			i++;
	}
	return k;
}

static int
folded(const unsigned char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), i, j;

	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m && (s[i + j] | 0x20) ==
		    (unsigned char)needle[j]; j++)
			;
		if (j == m)
			return 1;
	}
	return m == 0;
}

static int
ascii(const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] >= 0x80)
			return 0;
	return 1;
}

static int
run_over(const unsigned char *s, size_t n, size_t lim)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		run = space(s[i]) ? 0 : run + 1;
		if (run > lim)
			return 1;
	}
	return 0;
}

static size_t
pieces(const unsigned char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += (i == 0 || s[i - 1] == ' ' || (s[i - 1] >= 0x09 &&
		    s[i - 1] <= 0x0d)) && s[i] < 0x80 && !space(s[i]);
	return k;
}

/* q_format_number and what it stands for, on the numbers verdicts have. */
static void
numbers(void)
{
	char a[64], b[64];
	size_t k, bad = 0, tried = 0;
	uint64_t bits;
	double d;
	int i;

	for (k = 0; k < 100000; k++) {
		switch (k % 4) {
		case 0:		/* a ratio of counts */
			d = (double)(rand() % 100000) / (double)(1 + rand() %
			    100000);
			break;
		case 1:		/* any bits */
			bits = (uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^
			    (uint64_t)rand();
			memcpy(&d, &bits, sizeof(d));
			break;
		case 2:		/* a power of 2 */
			d = ldexp(1, rand() % 2100 - 1075);
			break;
		default:	/* a short decimal, and next to it */
			d = (double)(rand() % 1000) / 1000.0;
			d = rand() % 2 ? nextafter(d, 1) : d;
		}
		tried++;
		q_format_number(a, sizeof(a), d);
		if (d == floor(d) && fabs(d) < 1e15)
			snprintf(b, sizeof(b), "%.0f", d);
		else
			pskd_format_double(b, sizeof(b), d);
		if (strcmp(a, b) != 0 && bad++ < 5)
			printf("# %s, not %s\n", a, b);
	}
	for (i = -1074; i < 1024; i++) {	/* every power of 2 */
		d = ldexp(1, i);
		q_format_number(a, sizeof(a), d);
		pskd_format_double(b, sizeof(b), d);
		tried++;
		bad += d != floor(d) && strcmp(a, b) != 0;
	}
	check(bad == 0, "numbers as pskd_format_double writes them, %zu "
	    "(%zu differ)", tried, bad);
}

int
main(void)
{
	static const unsigned char bytes[] = " \t\n\r\x0b\x1c\x1f.aZkI..\xe2"
	    "\x80\xa6\xc2\x85\xe2\x80\xa8\xff\x7f\x00_-";
	static const char *const needles[] = { "javascript", "cookie",
	    "lorem ipsum", "a", "k.", "..." };
	static const size_t lims[] = { 0, 3, 15, 16, 17, 40, 1000 };
	unsigned char buf[320];
	static const char *const level[] = { "portable (PSKD_SIMD=0)",
	    "SSE2 (PSKD_SIMD=sse2)", "AVX2 (PSKD_SIMD=avx2)",
	    "AVX-512 (PSKD_SIMD=avx512)" };
	size_t n, off, k, tries = 0, bad[4] = { 0, 0, 0, 0 };
	int v, top = q_simd_max();

	srand(25);
	for (n = 0; n <= 300; n++) {
		for (off = 0; off < 16; off++) {
			unsigned char *s = buf + off;

			for (k = 0; k < n; k++)
				s[k] = rand() % 4 == 0 ? (unsigned char)rand() :
				    bytes[(size_t)rand() % (sizeof(bytes) - 1)];
			if (rand() % 3 == 0 && n > 12)	/* a phrase in it */
				memcpy(s + (size_t)rand() % (n - 11),
				    rand() % 2 ? "JavaScript" : "Lorem Ipsum",
				    10);
			tries++;
			for (v = 0; v <= top; v++) {
				int ok = 1;

				q_scan_simd(v);
				ok &= q_cplen(s, n) == cplen(s, n);
				ok &= q_find2(s, n, '.', 0xe2) ==
				    find2(s, n, '.', 0xe2);
				ok &= q_find_break(s, n) == find_break(s, n);
				ok &= q_count_ellipses(s, n) == count(s, n,
				    "...") + count(s, n, "\xe2\x80\xa6");
				for (k = 0; k < sizeof(needles) /
				    sizeof(needles[0]); k++)
					ok &= q_contains_folded(s, n,
					    needles[k]) == folded(s, n,
					    needles[k]);
				ok &= q_is_ascii(s, n) == ascii(s, n);
				for (k = 0; k < sizeof(lims) / sizeof(lims[0]);
				    k++)
					ok &= q_run_over(s, n, lims[k]) ==
					    run_over(s, n, lims[k]);
				ok &= q_count_pieces(s, n) == pieces(s, n);
				bad[v] += !ok;
			}
		}
	}
	for (v = 0; v < 4; v++)
		if (v > top)
			printf("skip - %s scans: not on this processor\n",
			    level[v]);
		else
			check(bad[v] == 0, "%s scans as plain loops on %zu "
			    "texts (%zu differ)", level[v], tries, bad[v]);
	/* long runs: the vector code's counters over 255 blocks */
	{
		size_t big = 1 << 16, i;
		unsigned char *s = pskd_xmalloc(big);

		for (i = 0; i < big; i++)
			s[i] = i % 7 == 1 ? 0x80 : 'x';
		for (v = 0, k = 0; v <= top; v++) {
			q_scan_simd(v);
			k += q_cplen(s, big) == cplen(s, big);
			k += q_run_over(s, big, 1000) == 1 &&
			    q_run_over(s, big, big) == 0;
			k += q_count_pieces(s, big) == 1;
		}
		check(k == 3 * (size_t)(top + 1), "long texts: code points, "
		    "runs, pieces");
		free(s);
	}
	numbers();
	return check_status();
}
