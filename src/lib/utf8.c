/* utf8.c - strict UTF-8 (RFC 3629): no overlongs, surrogates or > U+10FFFF. */
#include <string.h>

#include "pskd.h"

size_t
pskd_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	unsigned char b0;

	if (n == 0)
		return 0;
	b0 = s[0];
	if (b0 < 0x80) {
		*cp = b0;
		return 1;
	}
	if (b0 < 0xC2)			/* continuation byte or overlong C0/C1 */
		return 0;
	if (b0 < 0xE0) {
		if (n < 2 || (s[1] & 0xC0) != 0x80)
			return 0;
		*cp = (uint32_t)(b0 & 0x1F) << 6 | (s[1] & 0x3F);
		return 2;
	}
	if (b0 < 0xF0) {
		if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		c = (uint32_t)(b0 & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
		    (s[2] & 0x3F);
		if (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))
			return 0;
		*cp = c;
		return 3;
	}
	if (b0 < 0xF5) {
		if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
		    (s[3] & 0xC0) != 0x80)
			return 0;
		c = (uint32_t)(b0 & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
		    (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
		if (c < 0x10000 || c > 0x10FFFF)
			return 0;
		*cp = c;
		return 4;
	}
	return 0;
}

size_t
pskd_utf8_check(const unsigned char *s, size_t n)
{
	size_t i = 0, k;
	uint32_t cp;

	while ((i += pskd_utf8_ascii(s + i, n - i)) < n) {
		k = pskd_utf8_decode(s + i, n - i, &cp);
		if (k == 0)
			return i;
		i += k;
	}
	return n;
}

size_t
pskd_utf8_encode(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xC0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xE0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (unsigned char)(0xF0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}
