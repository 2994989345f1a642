/*
 * hf-added.c - the added tokens of a tokenizer.json, found in a text as
 * HF finds them: a trie of their bytes, the leftmost and then the longest
 * match, with single_word, lstrip and rstrip.
 */
#include <string.h>

#include "pskd.h"
#include "hf.h"
#include "bpe-pretok.h"

static int
is_space(uint32_t cp)
{
	return (pskd_pretok_class(cp) & PSKD_CLASS_S) != 0;
}

static int
word_char(const unsigned char *s, size_t n, size_t i, int before)
{
	uint32_t cp;
	size_t k;

	if (before) {
		if (i == 0)
			return 0;
		for (k = i - 1; k > 0 && (s[k] & 0xc0) == 0x80; k--)
			;
		i = k;
	} else if (i >= n)
		return 0;
	if (pskd_utf8_decode(s + i, n - i, &cp) == 0)
		return 0;
	return cp == '_' || (pskd_pretok_class(cp) &
	    (PSKD_CLASS_L | PSKD_CLASS_N)) != 0;
}

static uint32_t
anode_new(struct pskd_hf_atrie *t)
{
	t->node = pskd_xreallocarray(t->node, t->nnode + 1, sizeof(*t->node));
	memset(&t->node[t->nnode], 0, sizeof(*t->node));
	t->node[t->nnode].token = -1;
	return (uint32_t)t->nnode++;
}

int
pskd_hf_atrie_build(struct pskd_hf_atrie *t, const struct pskd_hf *hf,
    int normalized, char *err, size_t errsize)
{
	const struct pskd_hf_added *a;
	struct pskd_buf text = { 0 };
	const char *p;
	unsigned char in[256];
	uint32_t cur, e;
	size_t i, k, len;

	memset(t, 0, sizeof(*t));
	memset(t->root, 0xff, sizeof(t->root));
	t->allspecial = 1;
	anode_new(t);
	for (i = 0; i < hf->nadded; i++) {
		a = &hf->added[i];
		if (a->normalized != normalized)
			continue;
		if (!a->special)
			t->allspecial = 0;
		/* A normalized one is matched as the normalizer writes it. */
		p = a->text;
		len = a->len;
		if (normalized && pskd_hf_normalize(hf,
		    (const unsigned char *)a->text, a->len, &text, err,
		    errsize) == -1) {
			pskd_buf_free(&text);
			return -1;
		}
		if (normalized) {
			p = (const char *)text.p;
			len = text.len;
		}
		cur = 0;
		for (k = 0; k < len; k++) {
			for (e = 0; e < t->node[cur].nedge &&
			    t->node[cur].eb[e] != (unsigned char)p[k];
			    e++)
				;
			if (e == t->node[cur].nedge) {
				uint32_t child = anode_new(t);
				struct pskd_hf_anode *nd = &t->node[cur];

				nd->eb = pskd_xreallocarray(nd->eb,
				    nd->nedge + 1, 1);
				nd->ec = pskd_xreallocarray(nd->ec,
				    nd->nedge + 1, sizeof(*nd->ec));
				nd->eb[nd->nedge] = (unsigned char)p[k];
				nd->ec[nd->nedge++] = child;
				if (cur == 0) {
					t->root[(unsigned char)p[k]] =
					    (int32_t)child;
					t->nfirst++;
					t->first = (unsigned char)p[k];
				}
			}
			cur = t->node[cur].ec[e];
		}
		if (cur != 0 && t->node[cur].token == -1)
			t->node[cur].token = (int32_t)i;
	}
	pskd_buf_free(&text);
	for (k = 0; k < 256; k++)
		in[k] = t->root[k] >= 0;
	pskd_byteset_init(&t->firsts, in);
	return 0;
}

/* The longest token at s[p]: its index, its length in *len; or -1. */
static int32_t
atrie_at(const struct pskd_hf_atrie *t, const unsigned char *s, size_t n,
    size_t p, size_t *len)
{
	const struct pskd_hf_anode *nd;
	int32_t best = -1, cur = t->root[s[p]];
	size_t i = p + 1;
	uint32_t e;

	while (cur >= 0) {
		nd = &t->node[cur];
		if (nd->token >= 0) {
			best = nd->token;
			*len = i - p;
		}
		if (i == n)
			break;
		for (e = 0; e < nd->nedge && nd->eb[e] != s[i]; e++)
			;
		if (e == nd->nedge)
			break;
		cur = (int32_t)nd->ec[e];
		i++;
	}
	return best;
}

/* The leftmost token in s[at..n): its start, length, index; or 0. */
static int
atrie_find(const struct pskd_hf_atrie *t, const unsigned char *s, size_t n,
    size_t at, size_t *start, size_t *len, size_t *which)
{
	const unsigned char *q;
	int32_t k;
	size_t p;

	for (p = at; p < n; p++) {
		if (t->nfirst == 1) {
			if ((q = memchr(s + p, t->first, n - p)) == NULL)
				return 0;
			p = (size_t)(q - s);
		} else if ((p += pskd_byteset_find(&t->firsts, s + p,
		    n - p)) >= n)
			return 0;
		if ((k = atrie_at(t, s, n, p, len)) >= 0) {
			*start = p;
			*which = (size_t)k;
			return 1;
		}
	}
	return 0;
}

int
pskd_hf_next_added(const struct pskd_hf *hf, const struct pskd_hf_atrie *t,
    const unsigned char *s, size_t n, size_t *from, int allow, size_t *a,
    size_t *b, size_t *which)
{
	const struct pskd_hf_added *tok;
	size_t at = *from, k, len;
	uint32_t cp;

	if (t->nfirst == 0 || (!allow && t->allspecial))
		return 0;
	while (atrie_find(t, s, n, at, a, &len, which)) {
		tok = &hf->added[*which];
		*b = *a + len;
		at = *b;
		if (tok->special && !allow)
			continue;
		if (tok->single_word && (word_char(s, n, *a, 1) ||
		    word_char(s, n, *b, 0)))
			continue;
		if (tok->lstrip) {
			while (*a > *from) {
				for (k = *a - 1; k > 0 && (s[k] & 0xc0) == 0x80;
				    k--)
					;
				if (pskd_utf8_decode(s + k, *a - k, &cp) == 0 ||
				    !is_space(cp))
					break;
				*a = k;
			}
		}
		if (tok->rstrip)
			while (*b < n && (k = pskd_utf8_decode(s + *b, n - *b,
			    &cp)) != 0 && is_space(cp))
				*b += k;
		return 1;
	}
	return 0;
}

