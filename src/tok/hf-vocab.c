/*
 * hf-vocab.c - Hugging Face tokenizer.json files (hf.h) as a kind of
 * vocabulary: the encode pipeline of HF tokenizers (added tokens,
 * hf-added.c; normalizers, hf-norm.c; pre-tokenizers, hf-pretok.c; BPE,
 * hf-bpe.c), its decoders (hf-decode.c), and the post-processor's tokens
 * around a document as the defaults of --bos and -e.
 *
 * A file whose normalizer is none or NFC and whose pre-tokenizer a
 * hand-written one cuts (Llama 3's, Qwen's, GPT-2's patterns) runs the
 * fast way: the text straight through bpe-pretok.c into bpe.c with HF's
 * merge rule.  Everything else goes piece by piece through hf-pretok.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "bpe.h"
#include "hf.h"
#include "bpe-pretok.h"
#include "vocab.h"

struct hf_vocab {
	struct pskd_hf	 hf;
	int		 fast;		/* PSKD_PAT_* of the fast way, or -1 */
	int		 nfc;		/* the fast way normalizes first */
	struct pskd_bpe	 bpe;		/* byte-level vocabularies */
	struct pskd_hf_words *words;	/* the others */
	struct pskd_hf_pieces pieces;
	struct pskd_buf	 norm;
	struct pskd_hf_atrie added[2];	/* raw and normalized added tokens */
	struct pskd_hf_decoder dec;
	int		 cuts;		/* -r may cut where tiktoken's do */
	char		*path;		/* the file, for messages */
	struct pskd_byteset stops;	/* cut.stop[], for model()'s scan */
};

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

static int
hf_load(struct pskd_vocab *v, const char *path, const unsigned char *p,
    size_t n, const char *encoding, struct pskd_error *e)
{
	struct hf_vocab *h = pskd_xcalloc(1, sizeof(*h));
	struct pskd_hf *hf = &h->hf;
	char err[512];
	size_t i;

	v->impl = h;
	h->path = pskd_xstrdup(path);
	if (encoding != NULL) {
		pskd_error_set(e, 0, "-E %s: a tokenizer.json (-v %s) has its "
		    "own pipeline", encoding, path);
		return PSKD_EXIT_USAGE;
	}
	if ((pskd_hf_compiled_sniff(p, n) ? pskd_hf_parse_compiled(hf, p, n,
	    err, sizeof(err)) : pskd_hf_parse(hf, p, n, err, sizeof(err))) ==
	    -1) {
		pskd_error_set(e, 0, "%s:%s", path, err);
		return PSKD_EXIT_DATA;
	}
	if (hf->bytelevel && !pskd_bpe_complete(&hf->vocab)) {
		pskd_error_set(e, 0, "%s: a ByteLevel vocab without a token "
		    "for each byte is not supported", path);
		return PSKD_EXIT_DATA;
	}
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
	h->cuts = h->fast >= 0 && !hf->anynormalized;
	for (i = 0; i < hf->nadded; i++)
		if (hf->added[i].lstrip || hf->added[i].rstrip ||
		    hf->added[i].single_word)
			h->cuts = 0;
	if (pskd_hf_atrie_build(&h->added[0], hf, 0, err, sizeof(err)) ==
	    -1 || pskd_hf_atrie_build(&h->added[1], hf, 1, err, sizeof(err)) ==
	    -1) {
		pskd_error_set(e, 0, "%s:%s (an added token)", path, err);
		return PSKD_EXIT_DATA;
	}
	if (hf->bytelevel)
		pskd_bpe_init_hf(&h->bpe, &hf->vocab, h->fast, hf->mstart,
		    hf->mleft, hf->mrank, hf->ignore_merges, !hf->apart,
		    &hf->splits);
	else
		h->words = pskd_hf_words_new(hf);
	pskd_byteset_init(&h->stops, hf->cut.stop);
	return 0;
}

/* ---- encoding ---------------------------------------------------------- */

static void
model(struct hf_vocab *h, const unsigned char *s, size_t n,
    struct pskd_ids *out)
{
	uint32_t tmp[64], mask;
	size_t i, start, m, k, base, at[PSKD_HF_BATCH + 1];

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
	/* Cut where no merge can join across (hf-cuts.c). */
	at[0] = 0;
	base = 0;
	mask = pskd_byteset_mask(&h->stops, s, n);
	for (k = 0, start = 0;;) {
		/* The next stop, 32 bytes looked at a time (a ▁'s other
		   bytes are no stops). */
		while (mask == 0) {
			if ((base += 32) >= n)
				goto end;
			mask = pskd_byteset_mask(&h->stops, s + base,
			    n - base);
		}
		i = base + (size_t)__builtin_ctz(mask);
		mask &= mask - 1;
		if (s[i] < 128 && h->hf.cut.alone[s[i]]) {
			if (i > start)
				at[++k] = i;
			at[++k] = i + 1;
			start = i + 1;
		} else if (h->hf.cut.metacut && i > start &&
		    i + PSKD_HF_BARLEN <= n &&
		    memcmp(s + i, PSKD_HF_BAR, PSKD_HF_BARLEN) == 0 &&
		    h->hf.cut.barafter[s[i - 1] < 128 ? s[i - 1] : 128] &&
		    !(i >= PSKD_HF_BARLEN && memcmp(s + i - PSKD_HF_BARLEN,
		    PSKD_HF_BAR, PSKD_HF_BARLEN) == 0)) {
			at[++k] = i;
			start = i;
		}
		if (k >= PSKD_HF_BATCH - 1) {
			pskd_hf_word_batch(h->words, s, n, at, k, out);
			at[0] = at[k];
			k = 0;
		}
	}
end:
	if (start < n)
		at[++k] = n;
	pskd_hf_word_batch(h->words, s, n, at, k, out);
}

/*
 * A text between added tokens: normalized, split, each piece modelled.
 * 0, or -1 with "LINE: the normalizer (pre-tokenizer) TYPE: why" in err.
 */
static int
segment(struct hf_vocab *h, const unsigned char *s, size_t n, int first,
    int allow, struct pskd_ids *out, char *err, size_t errsize)
{
	const struct pskd_hf *hf = &h->hf;
	size_t i, from = 0, a, b, w, pos = 0;

	if (n == 0)
		return 0;
	/* The fast way: no normalizer, or NFC, which most text passes. */
	if (hf->nnorm > 0 && !pskd_hf_normal_already(hf, s, n)) {
		if (pskd_hf_normalize(hf, s, n, &h->norm, err, errsize) == -1)
			return -1;
		s = h->norm.p;
		n = h->norm.len;
	}
	if (h->fast >= 0 && !hf->anynormalized) {
		pskd_bpe_encode(&h->bpe, s, n, out);
		return 0;
	}
	for (;;) {
		if (hf->anynormalized && pskd_hf_next_added(hf, &h->added[1],
		    s, n, &from, allow, &a, &b, &w)) {
			from = b;
		} else {
			a = b = n;
			w = (size_t)-1;
		}
		if (a > pos && hf->npre == 0) {
			model(h, s + pos, a - pos, out);	/* one piece */
		} else if (a > pos) {
			if (pskd_hf_pretokenize(hf, s + pos, a - pos,
			    first && pos == 0, &h->pieces, err, errsize) == -1)
				return -1;
			for (i = 0; i < h->pieces.n; i++)
				model(h, h->pieces.buf.p + h->pieces.v[i].off,
				    h->pieces.v[i].len, out);
		}
		if (w == (size_t)-1)
			break;
		pskd_ids_push(out, hf->added[w].id);
		pos = b;
	}
	return 0;
}

static int
hf_encode(struct pskd_vocab *v, const unsigned char *s, size_t n, int allow,
    struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	struct hf_vocab *h = v->impl;
	const struct pskd_hf *hf = &h->hf;
	size_t from = 0, pos = 0, a, b, w;
	char err[256];
	int rc;

	for (;;) {
		if (!pskd_hf_next_added(hf, &h->added[0], s, n, &from, allow,
		    &a, &b, &w))
			a = b = n;
		if ((rc = segment(h, s + pos, a - pos, pos == 0, allow, out,
		    err, sizeof(err))) == -1 || a == n)
			break;
		pskd_ids_push(out, hf->added[w].id);
		pos = from = b;
	}
	if (rc == -1) {
		/* "FILE:LINE: the normalizer Replace: why" */
		snprintf(v->why, sizeof(v->why), "%s:%s", h->path, err);
		*bad = 0;
		*badcp = PSKD_NOT_DONE;
		return -1;
	}
	return 0;
}

static int
hf_decode(struct pskd_vocab *v, const uint32_t *ids, size_t n, int flags,
    struct pskd_buf *out, size_t *bad)
{
	struct hf_vocab *h = v->impl;

	return pskd_hf_decode(&h->hf, &h->dec, ids, n, flags, out, bad);
}

static uint32_t
hf_token(const struct pskd_vocab *v, const unsigned char *t, size_t n)
{
	const struct hf_vocab *h = v->impl;

	return pskd_ranks_find(&h->hf.vocab, t, n);
}

/*
 * Only the fast way cuts as the tiktoken patterns do, and only when no
 * added token takes what is around it (lstrip, rstrip, single_word):
 * another pipeline (a Prepend, a Strip, Metaspace's prepend_scheme) does
 * at the start of each text what it does once at a document's.
 */
static size_t
hf_cut(const struct pskd_vocab *v, const unsigned char *s, size_t n)
{
	const struct hf_vocab *h = v->impl;

	return h->cuts ? pskd_vocab_cut_pattern(v, h->fast, s, n) : 0;
}

static void
hf_free(struct pskd_vocab *v)
{
	struct hf_vocab *h = v->impl;
	size_t i, k;

	if (h->bpe.ranks != NULL)
		pskd_bpe_free(&h->bpe);
	if (h->words != NULL)
		pskd_hf_words_free(h->words);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < h->added[k].nnode; i++) {
			free(h->added[k].node[i].eb);
			free(h->added[k].node[i].ec);
		}
		free(h->added[k].node);
		pskd_buf_free(&h->dec.dbuf[k]);
		free(h->dec.dtok[k]);
	}
	free(h->pieces.v);
	pskd_buf_free(&h->pieces.buf);
	pskd_buf_free(&h->norm);
	pskd_hf_free(&h->hf);
	free(v->special);
	free(h->path);
	free(h);
}

void
pskd_hf_vocab_compile(const struct pskd_vocab *v, const unsigned char *p,
    size_t n, struct pskd_buf *out)
{
	const struct hf_vocab *h = v->impl;

	pskd_hf_compile(&h->hf, h->hf.bytelevel ? &h->bpe : NULL, p, n, out);
}

/* A tokenizer.json, or one compiled. */
static int
hf_sniff(const unsigned char *head, size_t n)
{
	return pskd_hf_sniff(head, n) || pskd_hf_compiled_sniff(head, n);
}

const struct pskd_vocab_kind pskd_vocab_hf = {
	.name = "tokenizer.json",
	.sniff = hf_sniff,
	.load = hf_load,
	.encode = hf_encode,
	.decode = hf_decode,
	.token = hf_token,
	.cut = hf_cut,
	.free = hf_free,
};

