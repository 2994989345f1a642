/*
 * test-tok-split.c - the hand-written pre-tokenizers (bpe-pretok.c) cut a text
 * exactly where PCRE2 cuts it with the regular expression they stand for,
 * as a tokenizer.json writes it: Llama 3's (cl100k_base's), Qwen's (one
 * digit a piece), GPT-2's (ByteLevel's own) and o200k_base's.  PCRE2 gets
 * the pattern as pskd-tok gives it (hf-regex.c: the Unicode classes from
 * the same tables), so what is compared is the hand-written matching.
 *
 * The texts: every code point of planes 0 to 3 (every 61st above) in
 * contexts where its class decides the cut, and 100000 short random
 * strings over characters chosen for the patterns' corners (apostrophes
 * and the long s, \r \n and the other white space, U+180E, marks, digits
 * of several scripts, upper and lower case).  PSKD_SPLIT_FULL=1: every
 * code point, and a million strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "check.h"
#include "tok/hf.h"
#include "tok/bpe-pretok.h"

static const struct {
	const char	*name;
	const char	*pattern;
	int		 fast;
} pats[] = {
	{ "Llama 3 (cl100k_base)",
	    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
	    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_CL100K },
	{ "Qwen",
	    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
	    "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_CL100K_N1 },
	{ "GPT-2 (ByteLevel)",
	    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_R50K },
	{ "o200k_base",
	    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*"
	    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
	    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+"
	    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
	    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_O200K },
};

static size_t *rx;
static size_t rxcap;

/* First place where the two cut text[0..n) differently, or -1. */
static long
compare(struct pskd_hf_regex *re, int fast, const unsigned char *t, size_t n)
{
	size_t k, i, pos = 0, end;
	char err[256];

	if (pskd_hf_regex_all(re, t, n, &rx, &rxcap, &k, err, sizeof(err)) ==
	    -1)
		return 0;		/* PCRE2 gave up: never here */
	for (i = 0; i < k; i++) {
		if (rx[2 * i] != pos)
			return (long)pos;	/* PCRE2 left a gap */
		end = pskd_pretok_next(fast, t, n, pos);
		if (end != rx[2 * i + 1])
			return (long)pos;
		pos = end;
	}
	return pos == n ? -1 : (long)pos;
}

static void
add(struct pskd_buf *b, uint32_t cp)
{
	pskd_buf_reserve(b, 4);
	b->len += pskd_utf8_encode(cp, b->p + b->len);
}

static void
adds(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

/* Where a text differs, shown. */
static void
show(const unsigned char *t, size_t n, long at)
{
	size_t a = at > 20 ? (size_t)at - 20 : 0, e = (size_t)at + 20 < n ?
	    (size_t)at + 20 : n, i;

	printf("  at byte %ld:", at);
	for (i = a; i < e; i++)
		printf(" %02x%s", t[i], i == (size_t)at ? "<" : "");
	printf("\n");
}

/* Every code point in contexts, a few thousand a text. */
static int full;

static int
sweep(struct pskd_hf_regex *re, int fast)
{
	struct pskd_buf b = { 0 };
	uint32_t cp;
	long at;
	int bad = 0;

	for (cp = 1; cp < 0x110000 && !bad; cp += cp < 0x40000 || full ? 1 :
	    61) {
		if (cp >= 0xd800 && cp < 0xe000)
			continue;
		/* c's aCb CCA 1C2 C\r\n  C 'C */
		add(&b, cp); adds(&b, "'s a"); add(&b, cp); adds(&b, "b ");
		add(&b, cp); add(&b, cp); adds(&b, "A 1"); add(&b, cp);
		adds(&b, "2 "); add(&b, cp); adds(&b, "\r\n  "); add(&b, cp);
		adds(&b, " '"); add(&b, cp); adds(&b, "\n");
		if (b.len > 60000 || cp + 61 >= 0x110000) {
			if ((at = compare(re, fast, b.p, b.len)) >= 0) {
				show(b.p, b.len, at);
				bad = 1;
			}
			b.len = 0;
		}
	}
	pskd_buf_free(&b);
	return !bad;
}

static const uint32_t pool[] = {
	'a', 'b', 'Z', 'x', 's', 'S', 't', 'T', 'r', 'e', 'E', 'v', 'V', 'm',
	'l', 'L', 'd', 'D', '\'', '\'', '\'', 0x17f, 0x212a, ' ', ' ', ' ',
	'\t', '\r', '\n', '\n', 0x0b, 0x0c, 0x85, 0xa0, 0x1680, 0x180e, 0x2000,
	0x2028, 0x2029, 0x202f, 0x3000, 0xfeff, '0', '1', '9', 0x661, 0xff11,
	0xb2, 0x2167, '.', ',', '!', '/', '-', '_', '$', 0xe9, 0xc9, 0x301,
	0x300, 0x3b1, 0x391, 0x1c5, 0x2b0, 0x5d0, 0x4e2d, 0x3042, 0xac00,
	0x1f600, 0x1f3fb, 0x200d, 0xfe0f,
};

static int
random_strings(struct pskd_hf_regex *re, int fast, unsigned n)
{
	struct pskd_buf b = { 0 };
	uint64_t x = 88172645463325252ULL;
	unsigned i, k, len;
	long at;

	for (i = 0; i < n; i++) {
		b.len = 0;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		len = (unsigned)(x % 24) + 1;
		for (k = 0; k < len; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			add(&b, pool[x % (sizeof(pool) / sizeof(pool[0]))]);
		}
		if ((at = compare(re, fast, b.p, b.len)) >= 0) {
			show(b.p, b.len, at);
			pskd_buf_free(&b);
			return 0;
		}
	}
	pskd_buf_free(&b);
	return 1;
}

int
main(void)
{
	struct pskd_hf_regex *re;
	char err[256];
	size_t i;

	full = getenv("PSKD_SPLIT_FULL") != NULL &&
	    strcmp(getenv("PSKD_SPLIT_FULL"), "1") == 0;
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		check(pskd_pretok_of_regex(pats[i].pattern,
		    strlen(pats[i].pattern)) == pats[i].fast,
		    "%s: a tokenizer.json with this pattern takes the "
		    "hand-written pre-tokenizer", pats[i].name);
		re = pskd_hf_regex_new(pats[i].pattern, strlen(pats[i].pattern),
		    0, err, sizeof(err));
		if (!check(re != NULL, "%s: PCRE2 compiles it", pats[i].name)) {
			printf("  %s\n", err);
			continue;
		}
		check(sweep(re, pats[i].fast), "%s: cut as PCRE2 cuts, code "
		    "points in context", pats[i].name);
		check(random_strings(re, pats[i].fast, full ? 1000000 : 100000),
		    "%s: cut as PCRE2 cuts, random strings", pats[i].name);
		pskd_hf_regex_free(re);
	}
	return check_status();
}
