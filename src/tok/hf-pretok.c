/*
 * hf-pretok.c - the pre-tokenizers of tokenizer.json.  A pre-tokenizer
 * maps each piece of the text to pieces, splitting it at the matches of
 * its pattern (a regular expression of hf-regex.c, a hand-written one of
 * bpe-pretok.c, or a class of characters); SplitDelimiterBehavior says
 * what becomes of the matches, exactly as NormalizedString::split in HF
 * tokenizers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "pskd.h"
#include "hf.h"
#include "bpe-pretok.h"

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

/*
 * HF's find_matches for a regex: the gaps and the matches, in order.  0,
 * or -1 with why in err.
 */
static int
regex_spans(struct pskd_hf_regex *re, const unsigned char *s, size_t n,
    char *err, size_t errsize)
{
	size_t k, i, prev = 0;

	if (pskd_utf8_check(s, n) != n) {
		snprintf(err, errsize, "text that is not UTF-8 (-b) cannot go "
		    "through its regular expression");
		return -1;
	}
	if (pskd_hf_regex_all(re, s, n, &rx, &rxcap, &k, err, errsize) == -1)
		return -1;
	for (i = 0; i < k; i++) {
		if (prev != rx[2 * i])
			span_add(prev, rx[2 * i], 0);
		span_add(rx[2 * i], rx[2 * i + 1], 1);
		prev = rx[2 * i + 1];
	}
	if (prev != n)
		span_add(prev, n, 0);
	return 0;
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

/* Digits' digits: Rust's char::is_numeric, \p{N} (not only 0-9). */
static int
is_digit(uint32_t cp, const void *arg)
{
	(void)arg;
	return (pskd_pretok_class(cp) & PSKD_CLASS_N) != 0;
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

/* One pre-tokenizer on one piece s[0..n) into out: 0, or -1 (err). */
static int
step(const struct pskd_hf_pretok *p, const unsigned char *s, size_t n,
    int first, struct pskd_hf_pieces *out, struct pskd_buf *tmp, char *err,
    size_t errsize)
{
	static struct pskd_hf_regex *gpt2;
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
			return 0;
		}
		if (p->fast >= 0) {
			fast_spans(p->fast, s, n);
		} else {
			if (gpt2 == NULL && (gpt2 = pskd_hf_regex_new(
			    gpt2_pattern, strlen(gpt2_pattern), 0, err,
			    errsize)) == NULL)
				return -1;
			if (regex_spans(gpt2, s, n, err, errsize) == -1)
				return -1;
		}
		break;
	case HF_P_SPLIT:
		behavior = p->behavior;
		if (p->fast >= 0)
			fast_spans(p->fast, s, n);
		else if (regex_spans(p->re, s, n, err, errsize) == -1)
			return -1;
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
			return 0;
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
		if (regex_spans(p->re, s, n, err, errsize) == -1)
			return -1;
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
	return 0;
}

static int
failed(const struct pskd_hf_pretok *p, const char *why, char *err,
    size_t errsize)
{
	snprintf(err, errsize, "%llu: the pre-tokenizer %s: %s",
	    (unsigned long long)p->line, pskd_hf_pretok_names[p->type], why);
	return -1;
}

int
pskd_hf_pretokenize(const struct pskd_hf *hf, const unsigned char *s,
    size_t n, int first, struct pskd_hf_pieces *p, char *err, size_t errsize)
{
	static struct pskd_hf_pieces other;
	static struct pskd_buf tmp;
	struct pskd_hf_pieces *in, *out;
	char why[256];
	size_t i, j;

	p->n = 0;
	p->buf.len = 0;
	if (hf->npre == 0) {
		piece_add(p, s, n, first);
		return 0;
	}
	/* The first step reads s; then pieces go back and forth. */
	in = &other;
	out = hf->npre % 2 ? p : &other;
	out->n = 0;
	out->buf.len = 0;
	if (step(&hf->pre[0], s, n, first, out, &tmp, why, sizeof(why)) == -1)
		return failed(&hf->pre[0], why, err, errsize);
	for (i = 1; i < hf->npre; i++) {
		in = out;
		out = in == p ? &other : p;
		out->n = 0;
		out->buf.len = 0;
		for (j = 0; j < in->n; j++)
			if (step(&hf->pre[i], in->buf.p + in->v[j].off,
			    in->v[j].len, in->v[j].first, out, &tmp, why,
			    sizeof(why)) == -1)
				return failed(&hf->pre[i], why, err, errsize);
	}
	return 0;
}
