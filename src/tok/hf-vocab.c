/*
 * vocab-hf.c - Hugging Face tokenizer.json files as a kind of vocabulary:
 * the encode pipeline of HF tokenizers (added tokens, normalizer,
 * pre-tokenizer, BPE), its decoders, and the post-processor's tokens
 * around a document as the defaults of --bos and -e.
 *
 * A file whose normalizer is none or NFC and whose pre-tokenizer a
 * hand-written one cuts (Llama 3's, Qwen's, GPT-2's patterns) runs the
 * fast way: the text straight through pretok.c into bpe.c with HF's merge
 * rule.  Everything else goes piece by piece through hfsplit.c.
 */
#define _GNU_SOURCE		/* memmem */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pskd.h"
#include "bpe.h"
#include "hf.h"
#include "bpe-pretok.h"
#include "vocab.h"

struct anode {
	int32_t		 token;		/* index into hf->added, or -1 */
	uint32_t	 nedge;
	unsigned char	*eb;		/* edge bytes */
	uint32_t	*ec;		/* their children */
};

struct atrie {
	struct anode	*node;
	size_t		 nnode;
	int32_t		 root[256];	/* the child of the root by byte */
	int		 nfirst;	/* bytes with a child at the root */
	unsigned char	 first;		/* the one, when nfirst is 1 */
	int		 allspecial;
};

static void	atrie_build(struct atrie *, const struct pskd_hf *, int);

struct hf_vocab {
	struct pskd_hf	 hf;
	int		 fast;		/* PSKD_PAT_* of the fast way, or -1 */
	int		 nfc;		/* the fast way normalizes first */
	struct pskd_bpe	 bpe;		/* byte-level vocabularies */
	struct pskd_hf_words *words;	/* the others */
	struct pskd_hf_pieces pieces;
	struct pskd_buf	 norm;
	struct atrie	 added[2];	/* raw and normalized added tokens */
	/* decoding */
	struct pskd_buf	 dbuf[2];
	size_t		*dtok[2];	/* token i: off, len pairs */
	size_t		 dcap[2];
};

static int
hf_sniff(const char *path, const unsigned char *head, size_t n)
{
	(void)path;
	return pskd_hf_sniff(head, n);
}

/* The file whole: mapped (released once loaded). */
static void
load_file(struct pskd_hf *hf, const char *path)
{
	struct pskd_buf b = { 0 };
	struct stat st;
	void *p = MAP_FAILED;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE |
		    MAP_POPULATE, fd, 0);
	if (p != MAP_FAILED) {
		close(fd);
		pskd_hf_load(hf, path, p, (size_t)st.st_size, 1);
		munmap(p, (size_t)st.st_size);
		return;
	}
	close(fd);
	pskd_vocab_slurp(path, &b);
	pskd_hf_load(hf, path, b.p, b.len, 0);
	pskd_buf_free(&b);
}

/* The fast way: one pattern a hand-written pre-tokenizer cuts. */
static int
fast_way(const struct pskd_hf *hf, int *nfc)
{
	const struct pskd_hf_pretok *p = hf->pre;

	*nfc = hf->nnorm == 1 && hf->norm[0].type == HF_N_NFC;
	if ((hf->nnorm > 0 && !*nfc) || !hf->bytelevel)
		return -1;
	if (hf->npre == 1 && p[0].type == HF_P_BYTELEVEL &&
	    !p[0].prefix_space && p[0].use_regex)
		return p[0].fast;
	if (hf->npre == 2 && p[0].type == HF_P_SPLIT && p[0].fast >= 0 &&
	    p[0].behavior == HF_ISOLATED && !p[0].invert &&
	    p[1].type == HF_P_BYTELEVEL && !p[1].prefix_space &&
	    !p[1].use_regex)
		return p[0].fast;
	return -1;
}

static void
hf_load(struct pskd_vocab *v, const char *path, const char *encoding)
{
	struct hf_vocab *h = pskd_xcalloc(1, sizeof(*h));
	struct pskd_hf *hf = &h->hf;
	size_t i;

	if (encoding != NULL)
		pskd_errx(PSKD_EXIT_USAGE, "-E %s: a tokenizer.json (-v %s) "
		    "has its own pipeline", encoding, path);
	load_file(hf, path);
	if (hf->bytelevel && !pskd_bpe_complete(&hf->vocab))
		pskd_errx(PSKD_EXIT_DATA, "%s: a ByteLevel vocab without a "
		    "token for each byte is not supported", path);
	v->name = path;
	v->impl = h;
	v->nvocab = hf->nvocab;
	v->special = pskd_xcalloc(hf->nadded ? hf->nadded : 1,
	    sizeof(*v->special));
	for (i = 0; i < hf->nadded; i++) {
		v->special[i].text = hf->added[i].text;
		v->special[i].len = hf->added[i].len;
		v->special[i].id = hf->added[i].id;
		v->special[i].inner = !hf->added[i].special;
	}
	v->nspecial = hf->nadded;
	v->template = 1;
	v->bos = hf->bos;
	v->nbos = hf->nbos;
	v->eos = hf->eos;
	v->neos = hf->neos;
	h->fast = fast_way(hf, &h->nfc);
	atrie_build(&h->added[0], hf, 0);
	atrie_build(&h->added[1], hf, 1);
	if (hf->bytelevel)
		pskd_bpe_init_hf(&h->bpe, &hf->vocab, h->fast, hf->mstart,
		    hf->mleft, hf->mrank, hf->ignore_merges);
	else
		h->words = pskd_hf_words_new(hf);
}

/* ---- encoding ---------------------------------------------------------- */

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

/* ---- added tokens: a trie of their bytes ------------------------------- */

static uint32_t
anode_new(struct atrie *t)
{
	t->node = pskd_xreallocarray(t->node, t->nnode + 1, sizeof(*t->node));
	memset(&t->node[t->nnode], 0, sizeof(*t->node));
	t->node[t->nnode].token = -1;
	return (uint32_t)t->nnode++;
}

static void
atrie_build(struct atrie *t, const struct pskd_hf *hf, int normalized)
{
	const struct pskd_hf_added *a;
	struct pskd_buf text = { 0 };
	const char *p;
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
		if (normalized) {
			pskd_hf_normalize(hf, (const unsigned char *)a->text,
			    a->len, &text);
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
				struct anode *nd = &t->node[cur];

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
}

/* The longest token at s[p]: its index, its length in *len; or -1. */
static int32_t
atrie_at(const struct atrie *t, const unsigned char *s, size_t n, size_t p,
    size_t *len)
{
	const struct anode *nd;
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
atrie_find(const struct atrie *t, const unsigned char *s, size_t n,
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
		} else if (t->root[s[p]] < 0)
			continue;
		if ((k = atrie_at(t, s, n, p, len)) >= 0) {
			*start = p;
			*which = (size_t)k;
			return 1;
		}
	}
	return 0;
}

/*
 * The next added token in s[*from..n) of trie t, as HF's find_matches:
 * leftmost, the longest there; special ones only with allow (else
 * skipped, the search going on after them); single_word ones only between
 * non-word characters; lstrip and rstrip take the white space beside
 * them (lstrip not back past *from, the end of the previous one).
 * Returns 1 with [*a, *b) and the token in *which.
 */
static int
next_added(const struct pskd_hf *hf, const struct atrie *t,
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

/* The model on one piece. */
static void
model(struct hf_vocab *h, const unsigned char *s, size_t n,
    struct pskd_ids *out)
{
	static const unsigned char bar[3] = { 0xe2, 0x96, 0x81 };
	uint32_t tmp[64];
	size_t i, start, m, k, at[PSKD_HF_BATCH + 1];

	if (n == 0)
		return;
	if (h->hf.bytelevel) {
		if (n + 4 <= 64) {
			m = pskd_bpe_piece(&h->bpe, s, n, tmp);
			pskd_ids_reserve(out, m);
			memcpy(out->v + out->n, tmp, m * sizeof(*tmp));
		} else {
			pskd_ids_reserve(out, n + 4);
			m = pskd_bpe_piece(&h->bpe, s, n, out->v + out->n);
		}
		out->n += m;
		return;
	}
	/* Cut where no merge can join across (hfload.c's cuts()). */
	at[0] = 0;
	for (k = 0, start = 0, i = 0; i < n; i++) {
		if (s[i] < 128 && h->hf.alone[s[i]]) {
			if (i > start)
				at[++k] = i;
			at[++k] = i + 1;
			start = i + 1;
		} else if (h->hf.metacut && i > start && i + 3 <= n &&
		    memcmp(s + i, bar, 3) == 0 && !(i >= 3 &&
		    memcmp(s + i - 3, bar, 3) == 0)) {
			at[++k] = i;
			start = i;
			i += 2;
		}
		if (k >= PSKD_HF_BATCH - 1) {
			pskd_hf_word_batch(h->words, s, at, k, out);
			at[0] = at[k];
			k = 0;
		}
	}
	if (start < n)
		at[++k] = n;
	pskd_hf_word_batch(h->words, s, at, k, out);
}

/* A text between added tokens: normalized, split, each piece modelled. */
static void
segment(struct hf_vocab *h, const unsigned char *s, size_t n, int first,
    int allow, struct pskd_ids *out)
{
	const struct pskd_hf *hf = &h->hf;
	size_t i, from = 0, a, b, w, pos = 0;

	if (n == 0)
		return;
	if (h->fast >= 0 && !hf->anynormalized) {
		if (h->nfc) {
			pskd_hf_normalize(hf, s, n, &h->norm);
			s = h->norm.p;
			n = h->norm.len;
		}
		pskd_bpe_encode(&h->bpe, s, n, out);
		return;
	}
	if (hf->nnorm > 0) {
		pskd_hf_normalize(hf, s, n, &h->norm);
		s = h->norm.p;
		n = h->norm.len;
	}
	for (;;) {
		if (hf->anynormalized && next_added(hf, &h->added[1], s, n,
		    &from, allow, &a, &b, &w)) {
			from = b;
		} else {
			a = b = n;
			w = (size_t)-1;
		}
		if (a > pos && hf->npre == 0) {
			model(h, s + pos, a - pos, out);	/* one piece */
		} else if (a > pos) {
			pskd_hf_pretokenize(hf, s + pos, a - pos,
			    first && pos == 0, &h->pieces);
			for (i = 0; i < h->pieces.n; i++)
				model(h, h->pieces.buf.p + h->pieces.v[i].off,
				    h->pieces.v[i].len, out);
		}
		if (w == (size_t)-1)
			break;
		pskd_ids_push(out, hf->added[w].id);
		pos = b;
	}
}

static int
hf_encode(struct pskd_vocab *v, const unsigned char *s, size_t n, int allow,
    struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	struct hf_vocab *h = v->impl;
	const struct pskd_hf *hf = &h->hf;
	size_t from = 0, pos = 0, a, b, w;

	(void)bad;
	(void)badcp;
	while (next_added(hf, &h->added[0], s, n, &from, allow, &a, &b,
	    &w)) {
		segment(h, s + pos, a - pos, pos == 0, allow, out);
		pskd_ids_push(out, hf->added[w].id);
		pos = from = b;
	}
	segment(h, s + pos, n - pos, pos == 0, allow, out);
	return 0;
}

/* ---- decoding ---------------------------------------------------------- */

/* The token list of a decoder's output, k: start with none. */
static void
tok_reset(struct hf_vocab *h, int k)
{
	h->dbuf[k].len = 0;
}

static size_t ntok[2];

static void
tok_add(struct hf_vocab *h, int k, const void *p, size_t n)
{
	if (2 * ntok[k] + 2 > h->dcap[k]) {
		h->dcap[k] = h->dcap[k] ? h->dcap[k] * 2 : 512;
		h->dtok[k] = pskd_xreallocarray(h->dtok[k], h->dcap[k],
		    sizeof(**h->dtok));
	}
	h->dtok[k][2 * ntok[k]] = h->dbuf[k].len;
	h->dtok[k][2 * ntok[k] + 1] = n;
	ntok[k]++;
	pskd_buf_add(&h->dbuf[k], p, n);
}

/* Append to the last token of list k. */
static void
tok_grow(struct hf_vocab *h, int k, const void *p, size_t n)
{
	if (ntok[k] == 0)
		tok_add(h, k, "", 0);
	h->dtok[k][2 * ntok[k] - 1] += n;
	pskd_buf_add(&h->dbuf[k], p, n);
}

/* A token's text through the ByteLevel alphabet (HF's rule). */
static void
byte_level(struct hf_vocab *h, int k, const unsigned char *s, size_t n)
{
	size_t i, c;
	uint32_t cp;
	int b;

	for (i = 0; i < n; i += c) {
		if ((c = pskd_utf8_decode(s + i, n - i, &cp)) == 0 ||
		    pskd_hf_char_byte(cp) < 0) {
			tok_grow(h, k, s, n);	/* not in it: as it is */
			return;
		}
	}
	for (i = 0; i < n; i += c) {
		c = pskd_utf8_decode(s + i, n - i, &cp);
		b = pskd_hf_char_byte(cp);
		tok_grow(h, k, &(unsigned char){ (unsigned char)b }, 1);
	}
}

static int
hexdig(unsigned c)
{
	if (c >= '0' && c <= '9')
		return (int)(c - '0');
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (int)((c | 0x20) - 'a' + 10);
	return -1;
}

/* <0xNN>: the byte, or -1. */
static int
fallback_byte(const unsigned char *s, size_t n)
{
	int hi, lo;

	if (n != 6 || memcmp(s, "<0x", 3) != 0 || s[5] != '>' ||
	    (hi = hexdig(s[3])) < 0 || (lo = hexdig(s[4])) < 0)
		return -1;
	return hi << 4 | lo;
}

/* s[0..n) with every a replaced by b, into the last token of list k. */
static void
replace_all(struct hf_vocab *h, int k, const unsigned char *s, size_t n,
    const struct pskd_hf_dec *d)
{
	const unsigned char *p;
	size_t pos = 0;

	while ((p = memmem(s + pos, n - pos, d->a, d->alen)) != NULL) {
		tok_grow(h, k, s + pos, (size_t)(p - s) - pos);
		tok_grow(h, k, d->b, d->blen);
		pos = (size_t)(p - s) + d->alen;
	}
	tok_grow(h, k, s + pos, n - pos);
}

/* The added token with this id, or NULL. */
static const struct pskd_hf_added *
added_id(const struct pskd_hf *hf, uint32_t id)
{
	size_t i;

	for (i = 0; i < hf->nadded; i++)
		if (hf->added[i].id == id)
			return &hf->added[i];
	return NULL;
}

/* A byte-level vocabulary's token as the alphabet writes it. */
static void
alphabet(struct hf_vocab *h, int k, const unsigned char *s, size_t n)
{
	unsigned char u[4];
	size_t i;

	for (i = 0; i < n; i++)
		tok_grow(h, k, u, pskd_utf8_encode(pskd_hf_byte_char(s[i]), u));
}

/*
 * HF's decode of a run of ids: each id's token (an added token's text
 * first), then the decoders one after another over the list of tokens;
 * no decoder joins the tokens with spaces.
 */
static int
hf_decode(struct pskd_vocab *v, const uint32_t *ids, size_t n, int flags,
    struct pskd_buf *out, size_t *bad)
{
	struct hf_vocab *h = v->impl;
	const struct pskd_hf *hf = &h->hf;
	const struct pskd_hf_dec *d;
	const struct pskd_hf_added *ad;
	const struct pskd_ranks *r = &hf->vocab;
	const unsigned char *s;
	size_t i, j, len, a, b, x, c;
	int in = 0, o = 1, fused = 0, byte, fast;
	uint32_t cp;

	/* Llama 3's and Qwen's: the bytes of the tokens, as they are. */
	fast = hf->bytelevel && hf->ndec == 1 &&
	    hf->dec[0].type == HF_D_BYTELEVEL;
	ntok[0] = 0;
	tok_reset(h, 0);
	if (fast)
		tok_add(h, 0, "", 0);
	for (i = 0; i < n; i++) {
		if (hf->nadded > 0 && (ad = added_id(hf, ids[i])) != NULL) {
			if (fast)
				byte_level(h, 0,
				    (const unsigned char *)ad->text, ad->len);
			else
				tok_add(h, 0, ad->text, ad->len);
			continue;
		}
		if (ids[i] >= r->n || r->len[ids[i]] == 0) {
			*bad = i;
			return -1;
		}
		s = r->bytes + r->off[ids[i]];
		len = r->len[ids[i]];
		if (fast) {
			tok_grow(h, 0, s, len);
		} else if (hf->bytelevel) {
			tok_add(h, 0, "", 0);
			alphabet(h, 0, s, len);
		} else
			tok_add(h, 0, s, len);
	}
	if (fast) {
		pskd_buf_add(out, h->dbuf[0].p, h->dbuf[0].len);
		return 0;
	}
	if (hf->ndec == 0) {
		for (i = 0; i < ntok[0]; i++) {
			if (i > 0 || !(flags & PSKD_DEC_FIRST))
				pskd_buf_addc(out, ' ');
			pskd_buf_add(out, h->dbuf[0].p + h->dtok[0][2 * i],
			    h->dtok[0][2 * i + 1]);
		}
		return 0;
	}
	for (j = 0; j < hf->ndec; j++) {
		d = &hf->dec[j];
		ntok[o] = 0;
		tok_reset(h, o);
		for (i = 0; i < ntok[in]; i++) {
			s = h->dbuf[in].p + h->dtok[in][2 * i];
			len = h->dtok[in][2 * i + 1];
			switch (d->type) {
			case HF_D_BYTELEVEL:
				if (i == 0)
					tok_add(h, o, "", 0);
				byte_level(h, o, s, len);
				break;
			case HF_D_FUSE:
				if (i == 0)
					tok_add(h, o, "", 0);
				tok_grow(h, o, s, len);
				break;
			case HF_D_BYTEFALLBACK:
				/* A run of <0xNN>: its bytes as one token. */
				if ((byte = fallback_byte(s, len)) < 0) {
					tok_add(h, o, s, len);
					break;
				}
				if (i == 0 || fallback_byte(h->dbuf[in].p +
				    h->dtok[in][2 * i - 2],
				    h->dtok[in][2 * i - 1]) < 0)
					tok_add(h, o, "", 0);
				tok_grow(h, o, &(unsigned char){
				    (unsigned char)byte }, 1);
				break;
			case HF_D_STRIP:
				a = 0;
				b = len;
				if (!fused || (flags & PSKD_DEC_FIRST))
					for (x = 0; x < (size_t)d->start &&
					    a + d->alen <= b && memcmp(s + a,
					    d->a, d->alen) == 0; x++)
						a += d->alen;
				if (!fused || (flags & PSKD_DEC_LAST))
					for (x = 0; x < (size_t)d->stop &&
					    b >= a + d->alen && memcmp(s + b -
					    d->alen, d->a, d->alen) == 0; x++)
						b -= d->alen;
				tok_add(h, o, s + a, b - a);
				break;
			case HF_D_REPLACE:
				tok_add(h, o, "", 0);
				replace_all(h, o, s, len, d);
				break;
			case HF_D_METASPACE:
				tok_add(h, o, "", 0);
				for (a = 0; a < len; a += c) {
					c = pskd_utf8_decode(s + a, len - a,
					    &cp);
					if (c == 0)
						c = 1;
					if (c != d->alen || memcmp(s + a, d->a,
					    c) != 0)
						tok_grow(h, o, s + a, c);
					else if (!(i == 0 && (flags &
					    PSKD_DEC_FIRST) &&
					    d->prepend != HF_PREPEND_NEVER))
						tok_grow(h, o, " ", 1);
				}
				break;
			}
		}
		if (d->type == HF_D_BYTELEVEL || d->type == HF_D_FUSE)
			fused = 1;
		in = o;
		o ^= 1;
	}
	pskd_buf_add(out, h->dbuf[in].p, h->dbuf[in].len);
	return 0;
}

static uint32_t
hf_token(const struct pskd_vocab *v, const unsigned char *t, size_t n)
{
	const struct hf_vocab *h = v->impl;

	return pskd_ranks_find(&h->hf.vocab, t, n);
}

const struct pskd_vocab_kind pskd_vocab_hf = {
	.name = "tokenizer.json",
	.sniff = hf_sniff,
	.load = hf_load,
	.encode = hf_encode,
	.decode = hf_decode,
	.token = hf_token,
};
