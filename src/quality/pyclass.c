/*
 * pyclass.c - the character classes datatrove's filters test, as Python's
 * str has them: white space and line breaks (fixed lists, the same in
 * every Unicode version since 6.3), letters, digits and word characters
 * (general categories and numeric types, from ICU's tables: Unicode 15.0
 * in ICU 72, where Debian 12's Python 3.11 has 14.0), and the punctuation
 * sets of datatrove's utils/text.py (PUNCTUATION_SET, TERMINAL_PUNCTUATION:
 * the code points below, as ranges).
 */
#define _GNU_SOURCE		/* memmem */
#include <string.h>

#include <unicode/uchar.h>

#include "quality/quality.h"

struct range {
	uint32_t	 lo, hi;
};

/* datatrove's PUNCTUATION_SET: its PUNCTUATION string and the terminal set. */
static const struct range punct[] = {
	{ 0x0000, 0x0008 }, { 0x000b, 0x001f }, { 0x0021, 0x002f },
	{ 0x003a, 0x0040 }, { 0x005b, 0x0060 }, { 0x007b, 0x009f },
	{ 0x00ab, 0x00ab }, { 0x00b4, 0x00b4 }, { 0x00bb, 0x00bb },
	{ 0x0589, 0x0589 }, { 0x061d, 0x061f }, { 0x06d4, 0x06d4 },
	{ 0x0700, 0x0702 }, { 0x07f9, 0x07f9 }, { 0x0837, 0x0837 },
	{ 0x0839, 0x0839 }, { 0x083d, 0x083e }, { 0x0964, 0x0965 },
	{ 0x104a, 0x104b }, { 0x1362, 0x1362 }, { 0x1367, 0x1368 },
	{ 0x166e, 0x166e }, { 0x1735, 0x1736 }, { 0x17d4, 0x17d6 },
	{ 0x17d9, 0x17da }, { 0x1803, 0x1803 }, { 0x1809, 0x1809 },
	{ 0x1944, 0x1945 }, { 0x1aa8, 0x1aab }, { 0x1b5a, 0x1b5b },
	{ 0x1b5e, 0x1b5f }, { 0x1b7d, 0x1b7e }, { 0x1c3b, 0x1c3c },
	{ 0x1c7e, 0x1c7f }, { 0x2013, 0x2014 }, { 0x2019, 0x2019 },
	{ 0x201c, 0x201e }, { 0x2026, 0x2026 }, { 0x203c, 0x203d },
	{ 0x2047, 0x2049 }, { 0x2236, 0x2236 }, { 0x2501, 0x2501 },
	{ 0x25ba, 0x25ba }, { 0x2e2e, 0x2e2e }, { 0x2e3c, 0x2e3c },
	{ 0x2e53, 0x2e54 }, { 0x3001, 0x3002 }, { 0x3008, 0x300d },
	{ 0x3010, 0x3011 }, { 0xa4ff, 0xa4ff }, { 0xa60e, 0xa60f },
	{ 0xa6f3, 0xa6f3 }, { 0xa6f7, 0xa6f7 }, { 0xa876, 0xa877 },
	{ 0xa8ce, 0xa8cf }, { 0xa92f, 0xa92f }, { 0xa9c8, 0xa9c9 },
	{ 0xaa5d, 0xaa5f }, { 0xaaf0, 0xaaf1 }, { 0xabeb, 0xabeb },
	{ 0xfe52, 0xfe52 }, { 0xfe56, 0xfe57 }, { 0xff01, 0xff01 },
	{ 0xff05, 0xff05 }, { 0xff08, 0xff09 }, { 0xff0c, 0xff0c },
	{ 0xff0e, 0xff0e }, { 0xff11, 0xff11 }, { 0xff1a, 0xff1b },
	{ 0xff1f, 0xff1f }, { 0xff5e, 0xff5e }, { 0xff61, 0xff61 },
	{ 0x10a56, 0x10a57 }, { 0x10f55, 0x10f59 }, { 0x10f86, 0x10f89 },
	{ 0x11047, 0x11048 }, { 0x110be, 0x110c1 }, { 0x11141, 0x11143 },
	{ 0x111c5, 0x111c6 }, { 0x111cd, 0x111cd }, { 0x111de, 0x111df },
	{ 0x11238, 0x11239 }, { 0x1123b, 0x1123c }, { 0x112a9, 0x112a9 },
	{ 0x1144b, 0x1144c }, { 0x115c2, 0x115c3 }, { 0x115c9, 0x115d7 },
	{ 0x11641, 0x11642 }, { 0x1173c, 0x1173e }, { 0x11944, 0x11944 },
	{ 0x11946, 0x11946 }, { 0x11a42, 0x11a43 }, { 0x11a9b, 0x11a9c },
	{ 0x11c41, 0x11c42 }, { 0x11ef7, 0x11ef8 }, { 0x11f43, 0x11f44 },
	{ 0x16a6e, 0x16a6f }, { 0x16af5, 0x16af5 }, { 0x16b37, 0x16b38 },
	{ 0x16b44, 0x16b44 }, { 0x16e98, 0x16e98 }, { 0x1bc9f, 0x1bc9f },
	{ 0x1da88, 0x1da88 },
};

/* datatrove's TERMINAL_PUNCTUATION. */
static const struct range terminal[] = {
	{ 0x0021, 0x0021 }, { 0x002e, 0x002e }, { 0x003f, 0x003f },
	{ 0x0589, 0x0589 }, { 0x061d, 0x061f }, { 0x06d4, 0x06d4 },
	{ 0x0700, 0x0702 }, { 0x07f9, 0x07f9 }, { 0x0837, 0x0837 },
	{ 0x0839, 0x0839 }, { 0x083d, 0x083e }, { 0x0964, 0x0965 },
	{ 0x104a, 0x104b }, { 0x1362, 0x1362 }, { 0x1367, 0x1368 },
	{ 0x166e, 0x166e }, { 0x1735, 0x1736 }, { 0x17d4, 0x17d6 },
	{ 0x17d9, 0x17da }, { 0x1803, 0x1803 }, { 0x1809, 0x1809 },
	{ 0x1944, 0x1945 }, { 0x1aa8, 0x1aab }, { 0x1b5a, 0x1b5b },
	{ 0x1b5e, 0x1b5f }, { 0x1b7d, 0x1b7e }, { 0x1c3b, 0x1c3c },
	{ 0x1c7e, 0x1c7f }, { 0x203c, 0x203d }, { 0x2047, 0x2049 },
	{ 0x2e2e, 0x2e2e }, { 0x2e3c, 0x2e3c }, { 0x2e53, 0x2e54 },
	{ 0x3002, 0x3002 }, { 0xa4ff, 0xa4ff }, { 0xa60e, 0xa60f },
	{ 0xa6f3, 0xa6f3 }, { 0xa6f7, 0xa6f7 }, { 0xa876, 0xa877 },
	{ 0xa8ce, 0xa8cf }, { 0xa92f, 0xa92f }, { 0xa9c8, 0xa9c9 },
	{ 0xaa5d, 0xaa5f }, { 0xaaf0, 0xaaf1 }, { 0xabeb, 0xabeb },
	{ 0xfe52, 0xfe52 }, { 0xfe56, 0xfe57 }, { 0xff01, 0xff01 },
	{ 0xff0e, 0xff0e }, { 0xff1f, 0xff1f }, { 0xff61, 0xff61 },
	{ 0x10a56, 0x10a57 }, { 0x10f55, 0x10f59 }, { 0x10f86, 0x10f89 },
	{ 0x11047, 0x11048 }, { 0x110be, 0x110c1 }, { 0x11141, 0x11143 },
	{ 0x111c5, 0x111c6 }, { 0x111cd, 0x111cd }, { 0x111de, 0x111df },
	{ 0x11238, 0x11239 }, { 0x1123b, 0x1123c }, { 0x112a9, 0x112a9 },
	{ 0x1144b, 0x1144c }, { 0x115c2, 0x115c3 }, { 0x115c9, 0x115d7 },
	{ 0x11641, 0x11642 }, { 0x1173c, 0x1173e }, { 0x11944, 0x11944 },
	{ 0x11946, 0x11946 }, { 0x11a42, 0x11a43 }, { 0x11a9b, 0x11a9c },
	{ 0x11c41, 0x11c42 }, { 0x11ef7, 0x11ef8 }, { 0x11f43, 0x11f44 },
	{ 0x16a6e, 0x16a6f }, { 0x16af5, 0x16af5 }, { 0x16b37, 0x16b38 },
	{ 0x16b44, 0x16b44 }, { 0x16e98, 0x16e98 }, { 0x1bc9f, 0x1bc9f },
	{ 0x1da88, 0x1da88 },
};

static int
in(const struct range *r, size_t n, uint32_t c)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c > r[mid].hi)
			lo = mid + 1;
		else if (c < r[mid].lo)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

/* The ASCII part of punct[]: 0x00-0x08, 0x0b-0x1f, 0x21-0x2f, 0x3a-0x40, 0x5b-0x60, 0x7b-0x7f. */
const unsigned char q_ascii_punct[128] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
};

int
q_ispunct_table(uint32_t c)
{
	return in(punct, sizeof(punct) / sizeof(punct[0]), c);
}

int
q_isterminal(uint32_t c)
{
	return in(terminal, sizeof(terminal) / sizeof(terminal[0]), c);
}

int
q_isspace_table(uint32_t c)
{
	switch (c) {
	case 0x85: case 0xa0: case 0x1680: case 0x2028: case 0x2029:
	case 0x202f: case 0x205f: case 0x3000:
		return 1;
	}
	return c >= 0x2000 && c <= 0x200a;
}

int
q_islinebreak(uint32_t c)
{
	if (c < 0x80)
		return (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e);
	return c == 0x85 || c == 0x2028 || c == 0x2029;
}

int
q_isalpha(uint32_t c)
{
	if (c < 0x80)
		return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
	return u_isalpha((UChar32)c);
}

int
q_isdigit(uint32_t c)
{
	if (c < 0x80)
		return c >= '0' && c <= '9';
	return u_charType((UChar32)c) == U_DECIMAL_DIGIT_NUMBER;
}

int
q_isword(uint32_t c)
{
	if (c < 0x80)
		return q_isalpha(c) || (c >= '0' && c <= '9') || c == '_';
	return u_isalpha((UChar32)c) || u_getIntPropertyValue((UChar32)c,
	    UCHAR_NUMERIC_TYPE) != U_NT_NONE;
}

/* The code point that ends at s[n-1] and where it starts. */
static size_t
cp_before(const unsigned char *s, size_t n, uint32_t *c)
{
	size_t k = n - 1;

	while (k > 0 && (s[k] & 0xc0) == 0x80)
		k--;
	q_cp(s + k, n - k, c);
	return k;
}

void
q_strip(const unsigned char *s, size_t n, size_t *a, size_t *b)
{
	size_t i = 0, j = n, k, len;
	uint32_t c;

	while (i < j) {
		if (s[i] < 0x80) {	/* the usual case, without decoding */
			if (!q_isspace(s[i]))
				break;
			i++;
			continue;
		}
		len = q_cp(s + i, j - i, &c);
		if (!q_isspace(c))
			break;
		i += len;
	}
	while (j > i) {
		if (s[j - 1] < 0x80) {
			if (!q_isspace(s[j - 1]))
				break;
			j--;
			continue;
		}
		k = cp_before(s, j, &c);
		if (!q_isspace(c))
			break;
		j = k;
	}
	*a = i;
	*b = j;
}

void
q_lower(struct pskd_buf *b, const unsigned char *s, size_t n)
{
	size_t i;

	b->len = 0;
	pskd_buf_reserve(b, n + 1);
	for (i = 0; i < n;) {
		while (i < n && s[i] != 0xe2 && s[i] != 0xc4) {
			b->p[b->len++] = (unsigned char)(s[i] >= 'A' &&
			    s[i] <= 'Z' ? s[i] | 0x20 : s[i]);
			i++;
		}
		if (i >= n)
			break;
		if (s[i] == 0xe2 && i + 2 < n && s[i + 1] == 0x84 &&
		    s[i + 2] == 0xaa) {		/* U+212A KELVIN SIGN */
			b->p[b->len++] = 'k';
			i += 3;
		} else if (s[i] == 0xc4 && i + 1 < n && s[i + 1] == 0xb0) {
			pskd_buf_reserve(b, n - i + 2);	/* U+0130 */
			b->p[b->len++] = 'i';
			b->p[b->len++] = 0xcc;
			b->p[b->len++] = 0x87;
			i += 2;
		} else
			b->p[b->len++] = s[i++];
	}
}

size_t
q_count(const unsigned char *s, size_t n, const char *needle)
{
	size_t k = 0, m = strlen(needle);
	const unsigned char *p = s, *end = s + n, *q;

	if (m == 1) {
		while ((q = memchr(p, needle[0], (size_t)(end - p))) != NULL) {
			k++;
			p = q + 1;
		}
		return k;
	}

	while ((size_t)(end - p) >= m &&
	    (q = memmem(p, (size_t)(end - p), needle, m)) != NULL) {
		k++;
		p = q + m;
	}
	return k;
}

int
q_contains(const unsigned char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}
