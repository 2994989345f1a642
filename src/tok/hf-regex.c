/*
 * hf-regex.c - the regular expressions of tokenizer.json (Split
 * pre-tokenizers, Replace normalizers), run by PCRE2 with its JIT.
 *
 * HF tokenizers runs its patterns with Oniguruma, whose Unicode tables
 * (16.0 in the npm module) are newer than Debian's PCRE2 (10.42: 14.0), and
 * whose \s is White_Space where PCRE2's also takes U+180E, and whose \w
 * also takes marks.  A pattern is therefore rewritten before PCRE2
 * compiles it: \s, \S, \w and \W outside a bracket, \s and \w inside
 * one, become White_Space and Oniguruma's word class; \p{L}, \p{N} and
 * o200k's two letter classes get the code points of build/gen/ucd.h (the
 * tables of the hand-written pre-tokenizers) that PCRE2's lack.  Those
 * (bpe-pretok.c) cut a text for the patterns they know, which
 * tests/unit/test-tok-split.c checks against PCRE2.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>

#include "pskd.h"
#include "hf.h"
#include "bpe-pretok.h"
struct pskd_hf_regex {
	pcre2_code	*code;
	pcre2_match_data *md;
	int		 jit;
	char		*source;
	size_t		 litlen;	/* a String's bytes (source), or 0 */
};

/* ---- the pattern, rewritten ----------------------------------------- */

/* White_Space (unchanged since Unicode 6.3), as bracket contents. */
#define WHITE_SPACE "\\t-\\r\\x{20}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}" \
	"\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}"

/*
 * A class of bpe-pretok.h as bracket contents: PCRE2's own, and what the newer
 * table adds to it (cached).
 */
static const char *
ranges(unsigned bit)
{
	static char *cache[32];
	const char *own = bit == PSKD_CLASS_L ? "\\p{L}" :
	    bit == PSKD_CLASS_N ? "\\p{N}" :
	    bit == PSKD_CLASS_U ? "\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}" :
	    "\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}";
	const char *extra = pskd_pretok_pcre2_add(bit);
	unsigned k = (unsigned)__builtin_ctz(bit);
	size_t n;

	if (cache[k] == NULL) {
		n = strlen(own) + strlen(extra) + 1;
		cache[k] = pskd_xmalloc(n);
		snprintf(cache[k], n, "%s%s", own, extra);
	}
	return cache[k];
}

/*
 * Oniguruma's \w: Letter, Mark, Number, Connector_Punctuation (PCRE2's
 * takes only letters, numbers and _), with the newer table's additions.
 */
static const char *
word_class(void)
{
	static char *w;
	const char *a = pskd_pretok_pcre2_add(PSKD_CLASS_U),
	    *b = pskd_pretok_pcre2_add(PSKD_CLASS_W),
	    *c = pskd_pretok_pcre2_add(PSKD_CLASS_N);
	size_t n;

	if (w == NULL) {
		n = strlen(a) + strlen(b) + strlen(c) + 40;
		w = pskd_xmalloc(n);
		snprintf(w, n, "\\p{L}\\p{M}\\p{N}\\p{Pc}%s%s%s", a, b, c);
	}
	return w;
}

static void
add(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

/* A class set of bit: bracketed outside a bracket, negated or not. */
static void
add_class(struct pskd_buf *b, const char *set, int inclass, int neg)
{
	if (!inclass)
		add(b, neg ? "[^" : "[");
	add(b, set);
	if (!inclass)
		add(b, "]");
}

/* Length of the escape at p[0..n) (p[0] == '\\'), whole \x{..} \p{..}. */
static size_t
escape_len(const char *p, size_t n)
{
	const char *close;

	if (n < 2)
		return n;
	if ((p[1] == 'p' || p[1] == 'P' || p[1] == 'x' || p[1] == 'o') &&
	    n > 2 && p[2] == '{' &&
	    (close = memchr(p + 2, '}', n - 2)) != NULL)
		return (size_t)(close - p) + 1;
	if ((p[1] == 'p' || p[1] == 'P') && n > 2)
		return 3;
	if ((unsigned char)p[1] >= 0x80) {
		size_t k = 2;

		while (k < n && ((unsigned char)p[k] & 0xc0) == 0x80)
			k++;
		return k;
	}
	return 2;
}

static const struct {
	const char	*text;
	unsigned	 bit;
} brackets[] = {
	{ "[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]", PSKD_CLASS_U },
	{ "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]", PSKD_CLASS_W },
};

static char *
rewrite(const char *p, size_t n)
{
	struct pskd_buf b = { 0 };
	size_t i = 0, k, m, j;
	int inclass = 0, quoted = 0, neg;

	while (i < n) {
		if (quoted) {
			if (p[i] == '\\' && i + 1 < n && p[i + 1] == 'E')
				quoted = 0;
			k = p[i] == '\\' ? 2 : 1;
			pskd_buf_add(&b, p + i, k < n - i ? k : n - i);
			i += k;
			continue;
		}
		if (!inclass) {
			for (j = 0; j < sizeof(brackets) / sizeof(brackets[0]);
			    j++) {
				m = strlen(brackets[j].text);
				if (n - i >= m && memcmp(p + i,
				    brackets[j].text, m) == 0)
					break;
			}
			if (j < sizeof(brackets) / sizeof(brackets[0])) {
				add_class(&b, ranges(brackets[j].bit), 0, 0);
				i += m;
				continue;
			}
		}
		if (p[i] == '[' && !inclass) {
			inclass = 1;
			pskd_buf_addc(&b, '[');
			i++;
			if (i < n && p[i] == '^')
				pskd_buf_addc(&b, (unsigned char)p[i++]);
			if (i < n && p[i] == ']')	/* a literal ] */
				pskd_buf_addc(&b, (unsigned char)p[i++]);
			continue;
		}
		if (p[i] == ']' && inclass) {
			inclass = 0;
			pskd_buf_addc(&b, ']');
			i++;
			continue;
		}
		if (p[i] != '\\') {
			pskd_buf_addc(&b, (unsigned char)p[i++]);
			continue;
		}
		k = escape_len(p + i, n - i);
		neg = k >= 2 && (p[i + 1] == 'S' || p[i + 1] == 'P');
		if (k == 2 && p[i + 1] == 'Q') {
			quoted = 1;
		} else if (k == 2 && (p[i + 1] == 's' ||
		    (p[i + 1] == 'S' && !inclass))) {
			add_class(&b, WHITE_SPACE, inclass, neg);
			i += k;
			continue;
		} else if (k == 2 && (p[i + 1] == 'w' ||
		    (p[i + 1] == 'W' && !inclass))) {
			add_class(&b, word_class(), inclass, p[i + 1] == 'W');
			i += k;
			continue;
		} else if ((k == 5 || k == 3) && (!neg || !inclass) &&
		    (p[i + k - (k == 5 ? 2 : 1)] == 'L' ||
		    p[i + k - (k == 5 ? 2 : 1)] == 'N') &&
		    (k == 3 || p[i + 2] == '{')) {
			add_class(&b, ranges(p[i + k - (k == 5 ? 2 : 1)] ==
			    'L' ? PSKD_CLASS_L : PSKD_CLASS_N), inclass, neg);
			i += k;
			continue;
		}
		pskd_buf_add(&b, p + i, k);
		i += k;
	}
	pskd_buf_addc(&b, '\0');
	return (char *)b.p;
}

struct pskd_hf_regex *
pskd_hf_regex_new(const char *pattern, size_t len, int literal, char *err,
    size_t errsize)
{
	struct pskd_hf_regex *re = pskd_xcalloc(1, sizeof(*re));
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int rc;

	re->source = literal ? pskd_xstrndup(pattern, len) :
	    rewrite(pattern, len);
	re->code = pcre2_compile((PCRE2_SPTR)re->source, literal ? len :
	    PCRE2_ZERO_TERMINATED, PCRE2_UTF | (literal ? PCRE2_LITERAL :
	    PCRE2_UCP), &rc, &off, NULL);
	if (re->code == NULL) {
		pcre2_get_error_message(rc, msg, sizeof(msg));
		snprintf(err, errsize, "regular expression: %s", msg);
		free(re->source);
		free(re);
		return NULL;
	}
	re->litlen = literal ? len : 0;
	re->jit = pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0;
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	return re;
}

void
pskd_hf_regex_free(struct pskd_hf_regex *re)
{
	if (re == NULL)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re->source);
	free(re);
}

/*
 * The first match in s[0..n) at or after from: 1 with [*ms, *me), 0, or
 * PCRE2's error code (negative: it gave up, a limit reached).
 */
static int
regex_find(struct pskd_hf_regex *re, const unsigned char *s,
    size_t n, size_t from, size_t *ms, size_t *me)
{
	PCRE2_SIZE *ov;
	int rc;

	if (re->jit)
		rc = pcre2_jit_match(re->code, s, n, from, 0, re->md, NULL);
	else
		rc = pcre2_match(re->code, s, n, from, PCRE2_NO_UTF_CHECK,
		    re->md, NULL);
	if (rc < 0)
		return rc == PCRE2_ERROR_NOMATCH ? 0 : rc;
	ov = pcre2_get_ovector_pointer(re->md);
	*ms = ov[0];
	*me = ov[1];
	return 1;
}

/*
 * The same for a String that is not empty, by its bytes: PCRE2's first
 * match of a literal is its first occurrence, found without it (Gemma 3
 * splits on spaces its normalizer has made ▁, so most texts have none).
 */
static int
literal_find(const struct pskd_hf_regex *re, const unsigned char *s,
    size_t n, size_t from, size_t *ms, size_t *me)
{
	const unsigned char *q;

	if (from >= n || (q = memmem(s + from, n - from, re->source,
	    re->litlen)) == NULL)
		return 0;
	*ms = (size_t)(q - s);
	*me = *ms + re->litlen;
	return 1;
}

static size_t
char_len(const unsigned char *s, size_t n, size_t i)
{
	uint32_t cp;
	size_t k;

	if (i >= n)
		return 1;
	k = pskd_utf8_decode(s + i, n - i, &cp);
	return k ? k : 1;
}

int
pskd_hf_regex_all(struct pskd_hf_regex *re, const unsigned char *s, size_t n,
    size_t **v, size_t *cap, size_t *nmatch, char *err, size_t errsize)
{
	PCRE2_UCHAR msg[256];
	size_t k = 0, last = 0, lastmatch = (size_t)-1, ms, me;
	int rc;

	*nmatch = 0;
	while (last <= n && (rc = re->litlen > 0 ? literal_find(re, s, n, last,
	    &ms, &me) : regex_find(re, s, n, last, &ms, &me)) != 0) {
		if (rc < 0) {
			pcre2_get_error_message(rc, msg, sizeof(msg));
			snprintf(err, errsize, "its regular expression fails on "
			    "this text (PCRE2: %s)", (const char *)msg);
			return -1;
		}
		if (ms == me && lastmatch == me) {
			last += char_len(s, n, last);
			continue;
		}
		last = lastmatch = me;
		if (2 * k + 2 > *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*v = pskd_xreallocarray(*v, *cap, sizeof(**v));
		}
		(*v)[2 * k] = ms;
		(*v)[2 * k + 1] = me;
		k++;
	}
	*nmatch = k;
	return 0;
}

