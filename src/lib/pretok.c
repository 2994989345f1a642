/*
 * pretok.c - the pre-tokenizers of tiktoken's encodings, hand-written.
 *
 * Each function below returns where the regex of an encoding, run by a
 * backtracking engine (leftmost match, alternatives tried in order), would
 * end its match starting at pos.  The patterns (as tiktoken gives them):
 *
 * r50k_base, p50k_base (gpt2):
 *	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+
 *	|\s+(?!\S)|\s+
 * cl100k_base:
 *	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
 *	| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
 * o200k_base:
 *	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*
 *	    [\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+
 *	    [\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
 *	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
 *
 * \s is White_Space; (?i) makes 's also match 'S and 'ſ (U+017F, which
 * folds to s).  The classes come from build/gen/ucd.h.  A byte that is not
 * well-formed UTF-8 (only when the caller encodes raw bytes) counts as one
 * character of no class, like punctuation.
 */
#include <stdint.h>
#include <string.h>

#include "pskd.h"
#include "pretok.h"
#include "ucd.h"

#define C_L	UCD_L
#define C_N	UCD_N
#define C_U	UCD_U
#define C_W	UCD_W
#define C_S	UCD_S
#define C_NL	UCD_NL	/* \r or \n */
#define C_SP	UCD_SP	/* U+0020 */
#define C_AP	UCD_AP	/* the apostrophe U+0027 */

/* The class of the character at t[i] (i < len), its length in *n. */
static inline unsigned
cls(const unsigned char *t, size_t len, size_t i, size_t *n)
{
	uint32_t cp;
	size_t k;

	if (t[i] < 0x80) {
		*n = 1;
		return ucd_ascii[t[i]];
	}
	k = pskd_utf8_decode(t + i, len - i, &cp);
	if (k == 0) {
		*n = 1;
		return 0;
	}
	*n = k;
	return ucd_stage2[ucd_stage1[cp >> 7] * UCD_BLOCK + (cp & 127)];
}

/* Class of the character at i, or 0 past the end. */
static inline unsigned
cls_at(const unsigned char *t, size_t len, size_t i, size_t *n)
{
	if (i >= len) {
		*n = 0;
		return 0;
	}
	return cls(t, len, i, n);
}

/* End of the run of characters having any of the bits from i. */
static inline size_t
run(const unsigned char *t, size_t len, size_t i, unsigned bits)
{
	size_t n;

	while (i < len && (cls(t, len, i, &n) & bits))
		i += n;
	return i;
}

/* End of the run of "other" characters (not \s, \p{L}, \p{N}) from i. */
static inline size_t
run_other(const unsigned char *t, size_t len, size_t i)
{
	size_t n;

	while (i < len && !(cls(t, len, i, &n) & (C_S | C_L | C_N)))
		i += n;
	return i;
}

/* End of up to three \p{N} from i. */
static size_t
digits3(const unsigned char *t, size_t len, size_t i)
{
	size_t n;
	int k;

	for (k = 0; k < 3 && i < len && (cls(t, len, i, &n) & C_N); k++)
		i += n;
	return i;
}

/* End of the bytes in set (a small string of ASCII bytes) from i. */
static size_t
run_bytes(const unsigned char *t, size_t len, size_t i, int slash)
{
	while (i < len && (t[i] == '\r' || t[i] == '\n' ||
	    (slash && t[i] == '/')))
		i++;
	return i;
}

/*
 * Length of the contraction 's 't 're 've 'm 'll 'd at t[i], or 0;
 * case-insensitive (ci) as (?i) matches them, or not.
 */
static size_t
contraction(const unsigned char *t, size_t len, size_t i, int ci)
{
	unsigned a, b;

	if (i + 1 >= len || t[i] != '\'')
		return 0;
	a = t[i + 1];
	if (ci && a >= 'A' && a <= 'Z')
		a += 'a' - 'A';
	switch (a) {
	case 's': case 't': case 'm': case 'd':
		return 2;
	case 'r': case 'v': case 'l':
		if (i + 2 >= len)
			return 0;
		b = t[i + 2];
		if (ci && b >= 'A' && b <= 'Z')
			b += 'a' - 'A';
		if ((a == 'l' && b == 'l') || (a != 'l' && b == 'e'))
			return 3;
		return 0;
	case 0xc5:	/* U+017F LATIN SMALL LETTER LONG S folds to s */
		if (ci && i + 2 < len && t[i + 2] == 0xbf)
			return 3;
		return 0;
	default:
		return 0;
	}
}

/*
 * A run of whitespace from pos (t[pos] is \s): \s*[\r\n]+ when nl (up to
 * the last \r or \n of the run), then \s+(?!\S) (all of it at the end of
 * the text, else all but its last character when that leaves one), then
 * \s+ (the one character).
 */
static size_t
spaces(const unsigned char *t, size_t len, size_t pos, int nl)
{
	size_t i = pos, last = pos, nlend = 0, n;
	unsigned c;
	int count = 0;

	while (i < len && ((c = cls(t, len, i, &n)) & C_S)) {
		if (c & C_NL)
			nlend = i + n;
		last = i;
		i += n;
		count++;
	}
	if (nl && nlend != 0)
		return nlend;
	if (i == len || count == 1)
		return i;
	return last;
}

static size_t
next_r50k(const unsigned char *t, size_t len, size_t pos)
{
	size_t n, n2, k;
	unsigned c, c2;

	c = cls(t, len, pos, &n);
	if ((c & C_AP) && (k = contraction(t, len, pos, 0)) != 0)
		return pos + k;
	if (c & C_SP) {
		c2 = cls_at(t, len, pos + n, &n2);
		if (c2 & C_L)
			return run(t, len, pos + n, C_L);
		if (c2 & C_N)
			return run(t, len, pos + n, C_N);
		if (n2 != 0 && !(c2 & C_S))
			return run_other(t, len, pos + n);
	}
	if (c & C_L)
		return run(t, len, pos, C_L);
	if (c & C_N)
		return run(t, len, pos, C_N);
	if (!(c & C_S))
		return run_other(t, len, pos);
	return spaces(t, len, pos, 0);
}

static size_t
next_cl100k(const unsigned char *t, size_t len, size_t pos)
{
	size_t n, n2, k;
	unsigned c, c2;

	c = cls(t, len, pos, &n);
	if ((c & C_AP) && (k = contraction(t, len, pos, 1)) != 0)
		return pos + k;
	if (c & C_L)
		return run(t, len, pos, C_L);
	c2 = cls_at(t, len, pos + n, &n2);
	if (!(c & (C_NL | C_N)) && (c2 & C_L))
		return run(t, len, pos + n, C_L);
	if (c & C_N)
		return digits3(t, len, pos);
	if ((c & C_SP) && n2 != 0 && !(c2 & (C_S | C_L | C_N)))
		return run_bytes(t, len, run_other(t, len, pos + n), 0);
	if (!(c & C_S))
		return run_bytes(t, len, run_other(t, len, pos), 0);
	return spaces(t, len, pos, 1);
}

/*
 * o200k's first two alternatives, [^\r\n\p{L}\p{N}]? U* W+ C? and
 * [^\r\n\p{L}\p{N}]? U+ W* C? (U, W the two letter classes, C a
 * contraction), with the backtracking a regex engine does: the optional
 * first character taken if it can be, U* as long as it goes and then given
 * back one at a time until W+ can start.  0 when neither matches.
 */
static size_t
letters_o200k(const unsigned char *t, size_t len, size_t pos, unsigned c,
    size_t n)
{
	size_t start[2], ns = 0, s, u, lastw, i, m;
	unsigned k;
	int j;

	if (!(c & (C_L | C_N | C_NL)))
		start[ns++] = pos + n;
	start[ns++] = pos;
	for (j = 0; j < (int)ns; j++) {
		s = start[j];
		lastw = 0;
		for (u = s; u < len && ((k = cls(t, len, u, &m)) & C_U);
		    u += m)
			if (k & C_W)
				lastw = u + m;
		if (u < len && (cls(t, len, u, &m) & C_W))
			i = run(t, len, u, C_W);
		else if (lastw != 0)
			i = lastw;
		else
			continue;
		return i + contraction(t, len, i, 1);
	}
	for (j = 0; j < (int)ns; j++) {
		s = start[j];
		if (s >= len || !(cls(t, len, s, &m) & C_U))
			continue;
		i = run(t, len, run(t, len, s, C_U), C_W);
		return i + contraction(t, len, i, 1);
	}
	return 0;
}

static size_t
next_o200k(const unsigned char *t, size_t len, size_t pos)
{
	size_t n, n2, k;
	unsigned c, c2;

	c = cls(t, len, pos, &n);
	if (!(c & C_N) && (k = letters_o200k(t, len, pos, c, n)) != 0)
		return k;
	if (c & C_N)
		return digits3(t, len, pos);
	c2 = cls_at(t, len, pos + n, &n2);
	if ((c & C_SP) && n2 != 0 && !(c2 & (C_S | C_L | C_N)))
		return run_bytes(t, len, run_other(t, len, pos + n), 1);
	if (!(c & C_S))
		return run_bytes(t, len, run_other(t, len, pos), 1);
	return spaces(t, len, pos, 1);
}

int
pskd_pretok_pattern(const char *name)
{
	static const struct {
		const char	*name;
		int		 pat;
	} tab[] = {
		{ "r50k_base", PSKD_PAT_R50K },
		{ "p50k_base", PSKD_PAT_R50K },
		{ "gpt2", PSKD_PAT_R50K },
		{ "cl100k_base", PSKD_PAT_CL100K },
		{ "o200k_base", PSKD_PAT_O200K },
	};
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strcmp(name, tab[i].name) == 0)
			return tab[i].pat;
	return -1;
}

size_t
pskd_pretok_next(int pattern, const unsigned char *text, size_t len,
    size_t pos)
{
	switch (pattern) {
	case PSKD_PAT_R50K:
		return next_r50k(text, len, pos);
	case PSKD_PAT_CL100K:
		return next_cl100k(text, len, pos);
	default:
		return next_o200k(text, len, pos);
	}
}
