/* normalize.c - text normalisation before shingling; see pskd-shingle(1). */
#include <string.h>
#include <utf8proc.h>

#include "frame.h"
#include "normalize.h"

#define SPACE	0x80	/* ascii[] value of a whitespace byte */

void
pskd_norm_init(struct pskd_norm *nm, unsigned flags)
{
	unsigned c;

	nm->flags = flags;
	for (c = 0; c < 128; c++) {
		nm->ascii[c] = (unsigned char)c;
		if (c < 0x20 || c == 0x7f || c == ' ')
			nm->ascii[c] = SPACE;
		else if ((flags & PSKD_NORM_CASE) && c >= 'A' && c <= 'Z')
			nm->ascii[c] = (unsigned char)(c - 'A' + 'a');
		else if ((flags & PSKD_NORM_DIGITS) && c >= '0' && c <= '9')
			nm->ascii[c] = '0';
		else if ((flags & PSKD_NORM_PUNCT) && !(c >= 'a' && c <= 'z') &&
		    !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9'))
			nm->ascii[c] = SPACE;
	}
	for (c = 0; c < 128; c++)
		nm->word[c] = nm->ascii[c] == SPACE ? ' ' :
		    (uint16_t)(0x100 | nm->ascii[c]);
}

/* The class of a code point after case folding and decomposition. */
static utf8proc_int32_t
map_cp(const struct pskd_norm *nm, utf8proc_int32_t cp)
{
	switch (utf8proc_category(cp)) {
	case UTF8PROC_CATEGORY_ZS:
	case UTF8PROC_CATEGORY_ZL:
	case UTF8PROC_CATEGORY_ZP:
	case UTF8PROC_CATEGORY_CC:
		return -1;
	case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD:
	case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
	case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
	case UTF8PROC_CATEGORY_PO: case UTF8PROC_CATEGORY_SM:
	case UTF8PROC_CATEGORY_SC: case UTF8PROC_CATEGORY_SK:
	case UTF8PROC_CATEGORY_SO:
		return (nm->flags & PSKD_NORM_PUNCT) ? -1 : cp;
	case UTF8PROC_CATEGORY_ND:
		return (nm->flags & PSKD_NORM_DIGITS) ? '0' : cp;
	default:
		return cp;
	}
}

/* A space between two words, its offset noted in seps. */
static void
add_sep(struct pskd_buf *out, size_t start, struct pskd_buf *seps)
{
	uint32_t off = (uint32_t)(out->len - start);

	if (seps != NULL)
		pskd_buf_add(seps, &off, sizeof(off));
	out->p[out->len++] = ' ';
}

void
pskd_norm_text(const struct pskd_norm *nm, struct pskd_buf *out,
    const unsigned char *s, size_t n, int words, struct pskd_buf *seps)
{
	utf8proc_int32_t d[32];
	utf8proc_ssize_t nd, j;
	unsigned char *o;
	uint32_t cp;
	size_t i = 0, len, start = out->len;
	int collapse = words || (nm->flags & PSKD_NORM_SPACE);
	int pending = 0, last, opts = 0;
	unsigned char c;

	if (nm->flags & PSKD_NORM_CASE)
		opts |= UTF8PROC_CASEFOLD;
	if (nm->flags & PSKD_NORM_MARKS)
		opts |= UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE |
		    UTF8PROC_STRIPMARK;
	/* Each code point gives at most 4 bytes per decomposed code point. */
	pskd_buf_reserve(out, n + 1);
	while (i < n) {
		c = s[i];
		if (collapse && c < 0x80) {
			/*
			 * Branch-free over ASCII (word boundaries are random).
			 * A space byte stores ' ' at the end of the output
			 * without taking it; a word byte after one (with a word
			 * before) is stored one further on, taking the space.
			 * The dependency chains are one operation a byte.
			 * Room: the buffer has at least the input left plus
			 * the pending space.
			 */
			unsigned char *q = out->p + start;
			size_t l = out->len - start, ns = 0;
			size_t wrote = l > 0;
			size_t pend = (size_t)pending & wrote, w = 1;
			uint32_t *sv = NULL;

			if (seps != NULL) {
				/* At most one separator per byte of the run. */
				pskd_buf_reserve(seps, 4 * (n - i) + 4);
				sv = (uint32_t *)(void *)(seps->p + seps->len);
			}
			q[l] = ' ';
			if (sv != NULL) {
				do {
					unsigned e = nm->word[c];
					size_t sep;

					w = e >> 8;
					sep = pend & w;
					sv[ns] = (uint32_t)l;
					ns += sep;
					q[l + sep] = (unsigned char)e;
					l += sep + w;
					wrote |= w;
					pend = wrote & ~w;
					i++;
				} while (i < n && (c = s[i]) < 0x80);
			} else {
				do {
					unsigned e = nm->word[c];
					size_t sep;

					w = e >> 8;
					sep = pend & w;
					q[l + sep] = (unsigned char)e;
					l += sep + w;
					wrote |= w;
					pend = wrote & ~w;
					i++;
				} while (i < n && (c = s[i]) < 0x80);
			}
			out->len = start + l;
			pending = (int)(w ^ 1);
			if (seps != NULL)
				seps->len += 4 * ns;
			continue;
		}
		if (c < 0x80) {
			i++;
			c = nm->ascii[c];
			if (c == SPACE) {
				if (collapse)
					pending = 1;
				else
					out->p[out->len++] = ' ';
				continue;
			}
			if (pending && out->len > start)
				add_sep(out, start, seps);
			pending = 0;
			out->p[out->len++] = c;
			continue;
		}
		len = pskd_utf8_decode(s + i, n - i, &cp);
		if (len == 0)
			len = 1, cp = 0xfffd;	/* callers pass valid UTF-8 */
		i += len;
		last = 0;
		nd = utf8proc_decompose_char((utf8proc_int32_t)cp, d, 32,
		    (utf8proc_option_t)opts, &last);
		if (nd < 0 || nd > 32)
			d[0] = (utf8proc_int32_t)cp, nd = 1;
		for (j = 0; j < nd; j++) {
			utf8proc_int32_t m = map_cp(nm, d[j]);

			if (m < 0) {
				if (collapse)
					pending = 1;
				else {
					pskd_buf_reserve(out, 1 + (n - i));
					out->p[out->len++] = ' ';
				}
				continue;
			}
			pskd_buf_reserve(out, 5 + (n - i));
			if (pending && out->len > start)
				add_sep(out, start, seps);
			pending = 0;
			o = out->p + out->len;
			out->len += pskd_utf8_encode((uint32_t)m, o);
		}
	}
}
