/*
 * hfsplit.c - the pre-tokenizers of tokenizer.json and the regular
 * expressions they (and Replace) run.
 *
 * HF tokenizers runs its patterns with Oniguruma, whose Unicode tables
 * (16.0 in the npm module) are newer than Debian's PCRE2 (10.42: 14.0), and
 * whose \s is White_Space where PCRE2's also takes U+180E, and whose \w
 * also takes marks.  A pattern is therefore rewritten before PCRE2
 * compiles it: \s, \S, \w and \W outside a bracket, \s and \w inside
 * one, become White_Space and Oniguruma's word class; \p{L}, \p{N} and
 * o200k's two letter classes get the code points of build/gen/ucd.h (the
 * tables of the hand-written pre-tokenizers) that PCRE2's lack.  Those
 * (pretok.c) cut a text for the patterns they know, which
 * tests/unit/test-tok-split.c checks against PCRE2.
 *
 * A pre-tokenizer maps each piece of the text to pieces, splitting it at
 * the matches of its pattern; SplitDelimiterBehavior says what becomes of
 * the matches, exactly as NormalizedString::split in HF tokenizers.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcre2.h>
#include <utf8proc.h>

#include "pskd.h"
#include "hf.h"
#include "bpe-pretok.h"

struct pskd_hf_regex {
	pcre2_code	*code;
	pcre2_match_data *md;
	int		 jit;
	char		*source;
};

/* ---- the pattern, rewritten ----------------------------------------- */

/* White_Space (unchanged since Unicode 6.3), as bracket contents. */
#define WHITE_SPACE "\\t-\\r\\x{20}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}" \
	"\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}"

/*
 * A class of pretok.h as bracket contents: PCRE2's own, and what the newer
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

const char *
pskd_hf_regex_source(const struct pskd_hf_regex *re)
{
	return re->source;
}

int
pskd_hf_regex_find(struct pskd_hf_regex *re, const unsigned char *s,
    size_t n, size_t from, size_t *ms, size_t *me)
{
	PCRE2_SIZE *ov;
	int rc;

	if (re->jit)
		rc = pcre2_jit_match(re->code, s, n, from, 0, re->md, NULL);
	else
		rc = pcre2_match(re->code, s, n, from, PCRE2_NO_UTF_CHECK,
		    re->md, NULL);
	if (rc < 0) {
		if (rc == PCRE2_ERROR_NOMATCH)
			return 0;
		pskd_errx(PSKD_EXIT_DATA, "regular expression: error %d", rc);
	}
	ov = pcre2_get_ovector_pointer(re->md);
	*ms = ov[0];
	*me = ov[1];
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

size_t
pskd_hf_regex_all(struct pskd_hf_regex *re, const unsigned char *s, size_t n,
    size_t **v, size_t *cap)
{
	size_t k = 0, last = 0, lastmatch = (size_t)-1, ms, me;

	while (last <= n && pskd_hf_regex_find(re, s, n, last, &ms, &me)) {
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
	return k;
}

/* ---- pre-tokenizers --------------------------------------------------- */

/* A stretch of a piece, a match of the pattern or not. */
struct span {
	size_t		 a, b;
	int		 m;
};

static struct span *spans, *spans2;
static size_t nspans, capspans, capspans2;
static size_t *rx;
static size_t rxcap;

static void
span_add(size_t a, size_t b, int m)
{
	if (nspans == capspans) {
		capspans = capspans ? capspans * 2 : 256;
		spans = pskd_xreallocarray(spans, capspans, sizeof(*spans));
	}
	spans[nspans].a = a;
	spans[nspans].b = b;
	spans[nspans++].m = m;
}

/* HF's find_matches for a regex: the gaps and the matches, in order. */
static void
regex_spans(struct pskd_hf_regex *re, const unsigned char *s, size_t n)
{
	size_t k, i, prev = 0;

	if (pskd_utf8_check(s, n) != n)
		pskd_errx(PSKD_EXIT_DATA, "text that is not UTF-8 (-b) cannot "
		    "go through this tokenizer's regular expressions");
	k = pskd_hf_regex_all(re, s, n, &rx, &rxcap);
	for (i = 0; i < k; i++) {
		if (prev != rx[2 * i])
			span_add(prev, rx[2 * i], 0);
		span_add(rx[2 * i], rx[2 * i + 1], 1);
		prev = rx[2 * i + 1];
	}
	if (prev != n)
		span_add(prev, n, 0);
}

/* A hand-written pattern: its pieces tile the text, each a match. */
static void
fast_spans(int pattern, const unsigned char *s, size_t n)
{
	size_t pos = 0, end;

	while (pos < n) {
		end = pskd_pretok_next(pattern, s, n, pos);
		span_add(pos, end, 1);
		pos = end;
	}
}

/* HF's find_matches for a predicate: each character it takes a match. */
static void
char_spans(int (*pred)(uint32_t, const void *), const void *arg,
    const unsigned char *s, size_t n)
{
	size_t i, k, last = 0;
	uint32_t cp;

	for (i = 0; i < n; i += k) {
		if ((k = pskd_utf8_decode(s + i, n - i, &cp)) == 0) {
			k = 1;
			cp = 0xfffd;
		}
		if (pred(cp, arg)) {
			if (last < i)
				span_add(last, i, 0);
			span_add(i, i + k, 1);
			last = i + k;
		}
	}
	if (n > last)
		span_add(last, n, 0);
}

static int
is_digit(uint32_t cp, const void *arg)
{
	(void)arg;
	return cp >= '0' && cp <= '9';
}

static int
is_space(uint32_t cp, const void *arg)
{
	(void)arg;
	return (pskd_pretok_class(cp) & PSKD_CLASS_S) != 0;
}

static int
is_punct(uint32_t cp, const void *arg)
{
	(void)arg;
	if (cp < 0x80)
		return (cp >= '!' && cp <= '/') || (cp >= ':' && cp <= '@') ||
		    (cp >= '[' && cp <= '`') || (cp >= '{' && cp <= '~');
	switch (utf8proc_category((utf8proc_int32_t)cp)) {
	case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD:
	case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
	case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
	case UTF8PROC_CATEGORY_PO:
		return 1;
	default:
		return 0;
	}
}

static int
is_rep(uint32_t cp, const void *arg)
{
	const struct pskd_hf_pretok *p = arg;
	uint32_t r;

	return pskd_utf8_decode((const unsigned char *)p->rep, p->replen,
	    &r) != 0 && cp == r;
}

/* spans (as found) into the pieces of one behaviour, in spans2. */
static size_t
behave(int behavior)
{
	size_t i, k = 0;
	int prev = 0;

	if (nspans > capspans2) {
		capspans2 = capspans;
		spans2 = pskd_xreallocarray(spans2, capspans2,
		    sizeof(*spans2));
	}
	switch (behavior) {
	case HF_REMOVED:
		for (i = 0; i < nspans; i++)
			if (!spans[i].m)
				spans2[k++] = spans[i];
		break;
	case HF_ISOLATED:
		for (i = 0; i < nspans; i++)
			spans2[k++] = spans[i];
		break;
	case HF_MERGED_PREV:
		for (i = 0; i < nspans; i++) {
			if (spans[i].m && !prev && k > 0)
				spans2[k - 1].b = spans[i].b;
			else
				spans2[k++] = spans[i];
			prev = spans[i].m;
		}
		break;
	case HF_MERGED_NEXT:
		for (i = nspans; i-- > 0; ) {
			if (spans[i].m && !prev && k > 0)
				spans2[k - 1].a = spans[i].a;
			else
				spans2[k++] = spans[i];
			prev = spans[i].m;
		}
		for (i = 0; i < k / 2; i++) {
			struct span t = spans2[i];

			spans2[i] = spans2[k - 1 - i];
			spans2[k - 1 - i] = t;
		}
		break;
	case HF_CONTIGUOUS:
		for (i = 0; i < nspans; i++) {
			if (spans[i].m == prev && k > 0)
				spans2[k - 1].b = spans[i].b;
			else
				spans2[k++] = spans[i];
			prev = spans[i].m;
		}
		break;
	}
	return k;
}

static void
piece_add(struct pskd_hf_pieces *out, const unsigned char *s, size_t n,
    int first)
{
	if (n == 0)
		return;		/* HF drops empty pieces */
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 256;
		out->v = pskd_xreallocarray(out->v, out->cap, sizeof(*out->v));
	}
	out->v[out->n].off = out->buf.len;
	out->v[out->n].len = n;
	out->v[out->n++].first = first;
	pskd_buf_add(&out->buf, s, n);
}

/* The ByteLevel pre-tokenizer's own pattern, as r50k_base's. */
static const char gpt2_pattern[] = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| "
    "?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/* One pre-tokenizer on one piece s[0..n) into out. */
static void
step(const struct pskd_hf_pretok *p, const unsigned char *s, size_t n,
    int first, struct pskd_hf_pieces *out, struct pskd_buf *tmp)
{
	static struct pskd_hf_regex *gpt2;
	char err[256];
	size_t i, k, j;
	int behavior = HF_ISOLATED;

	nspans = 0;
	switch (p->type) {
	case HF_P_BYTELEVEL:
		if (p->prefix_space && n > 0 && s[0] != ' ') {
			tmp->len = 0;
			pskd_buf_addc(tmp, ' ');
			pskd_buf_add(tmp, s, n);
			s = tmp->p;
			n = tmp->len;
		}
		if (!p->use_regex) {
			piece_add(out, s, n, first);
			return;
		}
		if (p->fast >= 0) {
			fast_spans(p->fast, s, n);
		} else {
			if (gpt2 == NULL && (gpt2 = pskd_hf_regex_new(
			    gpt2_pattern, strlen(gpt2_pattern), 0, err,
			    sizeof(err))) == NULL)
				pskd_errx(PSKD_EXIT_DATA, "%s", err);
			regex_spans(gpt2, s, n);
		}
		break;
	case HF_P_SPLIT:
		behavior = p->behavior;
		if (p->fast >= 0)
			fast_spans(p->fast, s, n);
		else
			regex_spans(p->re, s, n);
		if (p->invert)
			for (i = 0; i < nspans; i++)
				spans[i].m = !spans[i].m;
		break;
	case HF_P_METASPACE:
		tmp->len = 0;
		for (i = 0; i < n; i++) {
			if (s[i] == ' ')
				pskd_buf_add(tmp, p->rep, p->replen);
			else
				pskd_buf_addc(tmp, s[i]);
		}
		if ((p->prepend == HF_PREPEND_ALWAYS ||
		    (p->prepend == HF_PREPEND_FIRST && first)) &&
		    (tmp->len < p->replen || memcmp(tmp->p, p->rep,
		    p->replen) != 0)) {
			pskd_buf_add(tmp, p->rep, p->replen);
			memmove(tmp->p + p->replen, tmp->p, tmp->len -
			    p->replen);
			memcpy(tmp->p, p->rep, p->replen);
		}
		s = tmp->p;
		n = tmp->len;
		if (!p->split) {
			piece_add(out, s, n, first);
			return;
		}
		behavior = HF_MERGED_NEXT;
		char_spans(is_rep, p, s, n);
		break;
	case HF_P_DIGITS:
		behavior = p->individual ? HF_ISOLATED : HF_CONTIGUOUS;
		char_spans(is_digit, NULL, s, n);
		break;
	case HF_P_PUNCT:
		behavior = p->behavior;
		char_spans(is_punct, NULL, s, n);
		break;
	case HF_P_WHITESPACE:
		behavior = HF_REMOVED;
		regex_spans(p->re, s, n);
		for (i = 0; i < nspans; i++)
			spans[i].m = !spans[i].m;
		break;
	case HF_P_WSPLIT:
		behavior = HF_REMOVED;
		char_spans(is_space, NULL, s, n);
		break;
	}
	k = behave(behavior);
	for (j = 0; j < k; j++)
		piece_add(out, s + spans2[j].a, spans2[j].b - spans2[j].a,
		    first && spans2[j].a == 0);
}

void
pskd_hf_pretokenize(const struct pskd_hf *hf, const unsigned char *s,
    size_t n, int first, struct pskd_hf_pieces *p)
{
	static struct pskd_hf_pieces other;
	static struct pskd_buf tmp;
	struct pskd_hf_pieces *in, *out;
	size_t i, j;

	p->n = 0;
	p->buf.len = 0;
	if (hf->npre == 0) {
		piece_add(p, s, n, first);
		return;
	}
	/* The first step reads s; then pieces go back and forth. */
	in = &other;
	out = hf->npre % 2 ? p : &other;
	out->n = 0;
	out->buf.len = 0;
	step(&hf->pre[0], s, n, first, out, &tmp);
	for (i = 1; i < hf->npre; i++) {
		in = out;
		out = in == p ? &other : p;
		out->n = 0;
		out->buf.len = 0;
		for (j = 0; j < in->n; j++)
			step(&hf->pre[i], in->buf.p + in->v[j].off,
			    in->v[j].len, in->v[j].first, out, &tmp);
	}
}
