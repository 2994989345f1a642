/*
 * bpe-pretok.c - the pre-tokenizers of tiktoken's encodings, hand-written.
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
 * and PSKD_PAT_CL100K_N1 is cl100k_base with \p{N} for \p{N}{1,3} (Qwen's).
 *
 * \s is White_Space; (?i) makes 's also match 'S and 'ſ (U+017F, which
 * folds to s).  The classes come from build/gen/ucd.h.  A byte that is not
 * well-formed UTF-8 (only when the caller encodes raw bytes) counts as one
 * character of no class, like punctuation.
 */
#include <stdint.h>
#include <string.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "ucd.h"

_Static_assert(UCD_L == PSKD_CLASS_L && UCD_N == PSKD_CLASS_N &&
    UCD_U == PSKD_CLASS_U && UCD_W == PSKD_CLASS_W && UCD_S == PSKD_CLASS_S,
    "bpe-pretok.h's classes are ucd.h's");

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

/* End of up to max \p{N} from i. */
static size_t
digits(const unsigned char *t, size_t len, size_t i, int max)
{
	size_t n;
	int k;

	for (k = 0; k < max && i < len && (cls(t, len, i, &n) & C_N); k++)
		i += n;
	return i;
}

static size_t
digits3(const unsigned char *t, size_t len, size_t i)
{
	return digits(t, len, i, 3);
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

/*
 * The fast paths: most pieces of most text are ASCII words, with or
 * without a space or a punctuation mark in front.  Eight bytes are
 * classified at a time (SWAR); a run that stops at a byte >= 0x80 is
 * handed back to the general code, which goes on by Unicode classes.
 * Each returns 0 when it does not apply, so the caller falls back.
 */
#define ONES	0x0101010101010101ULL
#define HIGH	0x8080808080808080ULL

/*
 * Bit 7 of each byte of x set where that byte is in [lo, hi] (ASCII);
 * y is x without bit 7, so no sum carries into the next byte.
 */
static inline uint64_t
in_range8(uint64_t x, unsigned lo, unsigned hi)
{
	uint64_t y = x & ~HIGH;

	return (y + ONES * (0x80 - lo)) & ~(y + ONES * (0x7f - hi)) & ~x &
	    HIGH;
}

static inline uint64_t
load8(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);	/* little-endian: t[i] in the low byte */
	return v;
}

static inline uint64_t
alpha8(uint64_t x)
{
	return in_range8(x | ONES * 0x20, 'a', 'z');
}

static inline uint64_t
lower8(uint64_t x)
{
	return in_range8(x, 'a', 'z');
}

static inline uint64_t
upper8(uint64_t x)
{
	return in_range8(x, 'A', 'Z');
}

static inline int
is_alpha(unsigned c)
{
	return (unsigned)((c | 0x20) - 'a') < 26;
}

/* End of the run of bytes from i that mask8 marks (the tail bytewise). */
#define ASCII_RUN(name, mask8, test)					\
static inline size_t							\
name(const unsigned char *t, size_t len, size_t i)			\
{									\
	uint64_t m;							\
									\
	for (; i + 8 <= len; i += 8)					\
		if ((m = ~mask8(load8(t + i)) & HIGH) != 0)		\
			return i + (size_t)__builtin_ctzll(m) / 8;	\
	while (i < len && (test))					\
		i++;							\
	return i;							\
}

ASCII_RUN(run_alpha, alpha8, is_alpha(t[i]))
ASCII_RUN(run_lower, lower8, (unsigned)t[i] - 'a' < 26)
ASCII_RUN(run_upper, upper8, (unsigned)t[i] - 'A' < 26)

/*
 * \p{L}+ from i, where t[i] is an ASCII letter; the optional character
 * before (the space of " word") is the caller's.
 */
static inline size_t
letters(const unsigned char *t, size_t len, size_t i)
{
	i = run_alpha(t, len, i);
	if (i < len && t[i] >= 0x80)
		i = run(t, len, i, C_L);
	return i;
}

/*
 * An ASCII letter, or an ASCII prefix character before one: a space
 * (r50k's " ?\p{L}+"), or with anyprefix any of [^\r\n\p{L}\p{N}]
 * (cl100k's).  The caller has ruled out a contraction.
 */
static inline size_t
fast_letters(const unsigned char *t, size_t len, size_t pos, int anyprefix)
{
	unsigned b = t[pos];

	if (is_alpha(b))
		return letters(t, len, pos + 1);
	if (b < 0x80 && pos + 1 < len && is_alpha(t[pos + 1]) &&
	    (anyprefix ? !(ucd_ascii[b] & (C_L | C_N | C_NL)) : b == ' '))
		return letters(t, len, pos + 2);
	return 0;
}

/*
 * o200k's letters from an ASCII start: [A-Z]*[a-z]* and a contraction,
 * when that ends at an ASCII byte (non-ASCII letters would extend or
 * re-split it: the general code decides then).
 */
static inline size_t
fast_o200k(const unsigned char *t, size_t len, size_t pos)
{
	unsigned b = t[pos];
	size_t i = pos;

	if (!is_alpha(b)) {
		if (b >= 0x80 || (ucd_ascii[b] & (C_L | C_N | C_NL)) ||
		    pos + 1 >= len || !is_alpha(t[pos + 1]))
			return 0;
		i++;
	}
	i = run_lower(t, len, run_upper(t, len, i));
	if (i < len && t[i] >= 0x80)
		return 0;
	return i + contraction(t, len, i, 1);
}

/* Out of line: the fast paths inline better without it. */
static __attribute__((noinline)) size_t
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

/* Out of line: the fast paths inline better without it. */
static __attribute__((noinline)) size_t
next_cl100k(const unsigned char *t, size_t len, size_t pos, int ndig)
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
		return digits(t, len, pos, ndig);
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

/* Out of line: the fast paths inline better without it. */
static __attribute__((noinline)) size_t
next_o200k(const unsigned char *t, size_t len, size_t pos)
{
	size_t n, n2, k;
	unsigned c, c2;

	c = cls(t, len, pos, &n);
	if (c & C_N)
		return digits3(t, len, pos);
	/* The letter alternatives need a letter or mark first or second. */
	c2 = cls_at(t, len, pos + n, &n2);
	if (((c | c2) & (C_U | C_W)) &&
	    (k = letters_o200k(t, len, pos, c, n)) != 0)
		return k;
	if ((c & C_SP) && n2 != 0 && !(c2 & (C_S | C_L | C_N)))
		return run_bytes(t, len, run_other(t, len, pos + n), 1);
	if (!(c & C_S))
		return run_bytes(t, len, run_other(t, len, pos), 1);
	return spaces(t, len, pos, 1);
}

static const struct {
	const char	*name;
	int		 pat;
} pattern_names[] = {
	{ "r50k_base", PSKD_PAT_R50K },		/* first: the name of each */
	{ "cl100k_base", PSKD_PAT_CL100K },
	{ "o200k_base", PSKD_PAT_O200K },
	{ "p50k_base", PSKD_PAT_R50K },
	{ "gpt2", PSKD_PAT_R50K },
};
#define NPATNAMES	(sizeof(pattern_names) / sizeof(pattern_names[0]))

/* The regular expressions the hand-written pre-tokenizers cut exactly. */
static const struct {
	const char	*pattern;
	int		 fast;
} regexes[] = {
	{ "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
	    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_CL100K },
	{ "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
	    "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_CL100K_N1 },
	{ "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_R50K },
	{ "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*"
	    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
	    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+"
	    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
	    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_O200K },
};

const char *
pskd_pretok_regex(int pattern)
{
	size_t i;

	for (i = 0; i < sizeof(regexes) / sizeof(regexes[0]);
	    i++)
		if (regexes[i].fast == pattern)
			return regexes[i].pattern;
	return NULL;
}

int
pskd_pretok_of_regex(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(regexes) / sizeof(regexes[0]);
	    i++)
		if (strlen(regexes[i].pattern) == n &&
		    memcmp(regexes[i].pattern, p, n) == 0)
			return regexes[i].fast;
	return -1;
}

int
pskd_pretok_pattern(const char *name)
{
	size_t i;

	for (i = 0; i < NPATNAMES; i++)
		if (strcmp(name, pattern_names[i].name) == 0)
			return pattern_names[i].pat;
	return -1;
}

const char *
pskd_pretok_name(int pattern)
{
	size_t i;

	for (i = 0; i < NPATNAMES; i++)
		if (pattern_names[i].pat == pattern)
			return pattern_names[i].name;
	return NULL;
}

/* Each pattern: its fast path (a contraction is the general code's). */
static inline size_t
cut_r50k(const unsigned char *t, size_t len, size_t pos)
{
	size_t k;

	if (t[pos] != '\'' && (k = fast_letters(t, len, pos, 0)) != 0)
		return k;
	return next_r50k(t, len, pos);
}

static inline size_t
cut_cl100k(const unsigned char *t, size_t len, size_t pos, int ndig)
{
	size_t k;

	if (t[pos] != '\'' && (k = fast_letters(t, len, pos, 1)) != 0)
		return k;
	return next_cl100k(t, len, pos, ndig);
}

static inline size_t
cut_o200k(const unsigned char *t, size_t len, size_t pos)
{
	size_t k;

	if ((k = fast_o200k(t, len, pos)) != 0)
		return k;
	return next_o200k(t, len, pos);
}

unsigned
pskd_pretok_class(uint32_t cp)
{
	if (cp < 128)
		return ucd_ascii[cp] & (C_L | C_N | C_U | C_W | C_S);
	if (cp >= 0x110000)
		return 0;
	return ucd_stage2[ucd_stage1[cp >> 7] * UCD_BLOCK + (cp & 127)];
}

const char *
pskd_pretok_pcre2_add(unsigned bit)
{
	switch (bit) {
	case PSKD_CLASS_L: return UCD_PCRE2_ADD_L;
	case PSKD_CLASS_N: return UCD_PCRE2_ADD_N;
	case PSKD_CLASS_U: return UCD_PCRE2_ADD_U;
	case PSKD_CLASS_W: return UCD_PCRE2_ADD_W;
	default: return "";
	}
}

size_t
pskd_pretok_next(int pattern, const unsigned char *text, size_t len,
    size_t pos)
{
	switch (pattern) {
	case PSKD_PAT_R50K:
		return cut_r50k(text, len, pos);
	case PSKD_PAT_CL100K:
		return cut_cl100k(text, len, pos, 3);
	case PSKD_PAT_CL100K_N1:
		return cut_cl100k(text, len, pos, 1);
	default:
		return cut_o200k(text, len, pos);
	}
}
