/*
 * hf-compiled.c - a tokenizer.json compiled (pskd-tok --compile): the
 * vocab and merges as pskd-tok's loader leaves them in memory, so that a
 * later load copies tables instead of reading 10-30 MB of JSON (Llama 3's
 * start: 42 ms, Gemma 3's: 110, on this project's machine).  The rest of
 * the file (normalizer, pre-tokenizer, added tokens, decoder,
 * post-processor, the model's options) rides along as JSON, the vocab's
 * value replaced by {} and the merges' by [], and is read as before: one
 * reader of what a tokenizer.json means, hf-load.c.
 *
 * The file: a header of NH little-endian 64-bit words (H_* below), then
 * sections, each at an offset the header gives, a multiple of 64:
 *
 *	json	the file, less its vocab and merges
 *	bytes	every token's bytes, back to back
 *	off len	u32 per id: where its bytes are, how many (0: no such id)
 *	slot	the lookup table by bytes (struct pskd_rslot, bpe-ranks.h)
 *	byte-level vocabularies: mstart (u32, V + 1), mleft, mrank (u32,
 *	    H_NM each), the merges by the token each makes (hf.h); msplit
 *	    (u32, H_MWIDTH a slot; none when H_MWIDTH is 0) and pairmerge
 *	    (u32, 65536), where bpe.c finds them (bpe.h);
 *	vocabularies of characters: mslot (struct pskd_hf_mslot), the
 *	    merges by pair;
 *	cut	struct pskd_hf_cuts (hf.h), where words may be cut
 *
 * The tables are this build's in-memory layout and hashing, so a file
 * holds a fingerprint of both (fingerprint(): the tables of a few fixed
 * tokens and merges, hashed); another build of pskd-tok that lays them out
 * otherwise refuses the file rather than misread it.  H_SUM, XXH3-64 of
 * everything after the first four words, catches a file cut or damaged;
 * and every index in the tables is checked against the sizes before use,
 * so no file, however made, reads outside its tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "pskd.h"
#include "bpe.h"
#include "hf.h"
#include "hf-json.h"
#include "hf-load.h"

#define MAGIC		"pskdtokc"
#define VERSION		2	/* 2: metacut in the cut section */
#define ALIGN		64

enum {
	H_MAGIC, H_VERSION, H_PRINT, H_SUM,	/* H_SUM covers what follows */
	H_SIZE, H_FLAGS,
	H_JSON, H_JSONLEN,
	H_N, H_NTOKENS, H_MAXLEN, H_MASK, H_BYTES, H_NBYTES,
	H_OFF, H_LEN, H_SLOT,
	H_NM, H_MSTART, H_MLEFT, H_MRANK,	/* byte-level */
	H_MWIDTH, H_MSPLIT, H_PAIRMERGE,	/* and bpe.c's splits */
	H_MMASK, H_MN, H_MSLOT,			/* characters */
	H_CUTS,
	NH = 32
};
#define F_BYTELEVEL	1
#define F_APART		2

/* For the fuzz target: 1 accepts any H_SUM, to test what follows it. */
int pskd_hf_compiled_nosum;

int
pskd_hf_compiled_sniff(const unsigned char *head, size_t n)
{
	return n >= 8 && memcmp(head, MAGIC, 8) == 0;
}

/*
 * The layout and hashing of this build's tables: XXH3-64 of the tables
 * of a few fixed tokens (one of each key form: 1-3, 4-7, 8-11 bytes and a
 * long one) and of a few merges, and of the sizes they depend on.
 */
static uint64_t
fingerprint(void)
{
	static const char *const tok[] = { "a", "bc", "def", "ghij",
	    "klmnopq", "rstuvwxy", "z0123456789", "ABCDEFGHIJKLMNOPQRST" };
	uint32_t off[8], len[8], rank[8], i, at = 0;
	unsigned char *bytes = pskd_xmalloc(64);
	struct pskd_ranks r;
	struct pskd_hf_merges m;
	uint64_t v[5] = { VERSION, PSKD_RANK_SHORT,
	    sizeof(struct pskd_rslot), sizeof(struct pskd_hf_mslot),
	    sizeof(struct pskd_hf_cuts) };
	char err[64];
	uint64_t h;

	for (i = 0; i < 8; i++) {
		off[i] = at;
		len[i] = (uint32_t)strlen(tok[i]);
		rank[i] = 7 - i;
		memcpy(bytes + at, tok[i], len[i]);
		at += len[i];
	}
	if (pskd_ranks_build(&r, bytes, off, len, rank, 8, err,
	    sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "fingerprint: %s", err);
	pskd_hf_merges_init(&m, 3);
	pskd_hf_merges_add(&m, 0, 1, 0, 2);
	pskd_hf_merges_add(&m, 2, 3, 1, 4);
	pskd_hf_merges_add(&m, 70000, 5, 2, 6);
	h = XXH3_64bits(v, sizeof(v));
	h = XXH3_64bits_withSeed(r.slot, (r.mask + 1) * sizeof(*r.slot), h);
	h = XXH3_64bits_withSeed(m.slot, (m.mask + 1) * sizeof(*m.slot), h);
	pskd_ranks_free(&r);
	pskd_hf_merges_free(&m);
	return h;
}

/* ---- writing ----------------------------------------------------------- */

/* p[0..n) at the next multiple of ALIGN in b: its offset. */
static uint64_t
section(struct pskd_buf *b, const void *p, size_t n)
{
	static const unsigned char zero[ALIGN];
	uint64_t at;

	pskd_buf_add(b, zero, (ALIGN - b->len % ALIGN) % ALIGN);
	at = b->len;
	if (n > 0)
		pskd_buf_add(b, p, n);
	return at;
}

void
pskd_hf_compile(const struct pskd_hf *hf, const struct pskd_bpe *e,
    const unsigned char *json, size_t n, struct pskd_buf *out)
{
	const struct pskd_ranks *r = &hf->vocab;
	struct pskd_buf strip = { 0 };
	size_t cut[2][2], i, nbytes = 0, nm = 0;
	uint64_t h[NH] = { 0 };

	/* The file less its vocab and merges, in the order they come. */
	cut[0][0] = hf->vocabat;
	cut[0][1] = hf->vocabat + hf->vocablen;
	cut[1][0] = hf->mergesat;
	cut[1][1] = hf->mergesat + hf->mergeslen;
	i = cut[0][0] > cut[1][0];
	pskd_buf_add(&strip, json, cut[i][0]);
	pskd_buf_add(&strip, i ? "[]" : "{}", 2);
	pskd_buf_add(&strip, json + cut[i][1], cut[!i][0] - cut[i][1]);
	pskd_buf_add(&strip, i ? "{}" : "[]", 2);
	pskd_buf_add(&strip, json + cut[!i][1], n - cut[!i][1]);

	for (i = 0; i < r->n; i++)
		if (r->len[i] != 0 && r->off[i] + r->len[i] > nbytes)
			nbytes = r->off[i] + r->len[i];

	out->len = 0;
	pskd_buf_add(out, h, sizeof(h));
	h[H_JSON] = section(out, strip.p, strip.len);
	h[H_JSONLEN] = strip.len;
	h[H_N] = r->n;
	h[H_NTOKENS] = r->ntokens;
	h[H_MAXLEN] = r->maxlen;
	h[H_MASK] = r->mask;
	h[H_BYTES] = section(out, r->bytes, nbytes);
	h[H_NBYTES] = nbytes;
	h[H_OFF] = section(out, r->off, r->n * sizeof(uint32_t));
	h[H_LEN] = section(out, r->len, r->n * sizeof(uint32_t));
	h[H_SLOT] = section(out, r->slot, (r->mask + 1) * sizeof(*r->slot));
	if (hf->bytelevel) {
		nm = hf->mstart[r->n];
		h[H_NM] = nm;
		h[H_MSTART] = section(out, hf->mstart, ((size_t)r->n + 1) *
		    sizeof(uint32_t));
		h[H_MLEFT] = section(out, hf->mleft, nm * sizeof(uint32_t));
		h[H_MRANK] = section(out, hf->mrank, nm * sizeof(uint32_t));
		h[H_MWIDTH] = e->msplit != NULL ? e->mwidth : 0;
		h[H_MSPLIT] = section(out, e->msplit, e->msplit == NULL ? 0 :
		    (r->mask + 1) * e->mwidth * sizeof(uint32_t));
		h[H_PAIRMERGE] = section(out, e->pairmerge, 65536 *
		    sizeof(uint32_t));
	} else {
		h[H_MMASK] = hf->merges.mask;
		h[H_MN] = hf->merges.n;
		h[H_MSLOT] = section(out, hf->merges.slot,
		    (hf->merges.mask + 1) * sizeof(*hf->merges.slot));
	}
	h[H_CUTS] = section(out, &hf->cut, sizeof(hf->cut));
	section(out, NULL, 0);
	pskd_buf_free(&strip);

	memcpy(&h[H_MAGIC], MAGIC, 8);
	h[H_VERSION] = VERSION;
	h[H_PRINT] = fingerprint();
	h[H_SIZE] = out->len;
	h[H_FLAGS] = (hf->bytelevel ? F_BYTELEVEL : 0) |
	    (hf->apart ? F_APART : 0);
	memcpy(out->p, h, sizeof(h));
	h[H_SUM] = XXH3_64bits(out->p + 4 * 8, out->len - 4 * 8);
	memcpy(out->p + H_SUM * 8, &h[H_SUM], 8);
}

/* ---- reading ----------------------------------------------------------- */

/* The n elements of size at offset h[at] of p, or NULL past its end. */
static const unsigned char *
place(const unsigned char *p, const uint64_t *h, int at, uint64_t n,
    size_t size)
{
	uint64_t off = h[at];

	if (off % ALIGN != 0 || off > h[H_SIZE] || n > (h[H_SIZE] - off) /
	    size)
		return NULL;
	return p + off;
}

/* A copy of them (on huge pages when huge), or NULL. */
static void *
array(const unsigned char *p, const uint64_t *h, int at, uint64_t n,
    size_t size, int huge)
{
	const unsigned char *s = place(p, h, at, n, size);
	void *v;

	if (s == NULL)
		return NULL;
	v = huge ? pskd_huge_alloc(n * size) : pskd_xmalloc(n ? n * size : 1);
	memcpy(v, s, n * size);
	return v;
}

/*
 * The vocab's tables: NULL, or what is wrong with them.  Every token is
 * looked up by its bytes (its slot fetched AHEAD tokens early) and must
 * be found, and no slot holds anything else: the table answers as the one
 * built from the tokens.
 */
#define AHEAD	16

static const char *
check_vocab(const struct pskd_ranks *r, uint64_t nbytes)
{
	struct {
		uint64_t h, k0;
		uint32_t k1;
	} ring[AHEAD], *q;
	const unsigned char *p;
	uint64_t used = 0, slots = 0;
	uint32_t i, maxlen = 0;
	size_t k;

	for (i = 0; i < r->n; i++) {
		if (r->len[i] == 0)
			continue;
		if (r->off[i] > nbytes || r->len[i] > nbytes - r->off[i])
			return "a token outside the bytes";
		used++;
		if (r->len[i] > maxlen)
			maxlen = r->len[i];
	}
	if (used != r->ntokens || maxlen != r->maxlen)
		return "the token count or the longest token is wrong";
	for (k = 0; k <= r->mask; k++)
		if (r->slot[k].k1 != 0) {
			if (r->slot[k].rank >= r->n)
				return "a lookup slot of no token";
			slots++;
		}
	/* An empty slot ends every search. */
	if (slots != r->ntokens || slots > r->mask)
		return "the lookup table's count is wrong";
	for (i = 0; i < r->n + AHEAD; i++) {
		if (i >= AHEAD && r->len[i - AHEAD] != 0) {
			q = &ring[(i - AHEAD) % AHEAD];
			p = r->bytes + r->off[i - AHEAD];
			if (pskd_ranks_find_keyed(r, p, r->len[i - AHEAD],
			    q->k0, q->k1, q->h) != i - AHEAD)
				return "a token its lookup table does not find";
		}
		if (i < r->n && r->len[i] != 0) {
			q = &ring[i % AHEAD];
			q->h = pskd_ranks_keyof(r->bytes + r->off[i], r->len[i],
			    &q->k0, &q->k1);
			__builtin_prefetch(&r->slot[q->h & r->mask]);
		}
	}
	return NULL;
}

static const char *
check_merges(const struct ld_tables *t)
{
	const struct pskd_hf_mslot *s;
	uint32_t n = t->vocab.n, a, b;
	uint64_t i, used = 0;

	if (t->bytelevel) {
		if (t->mstart[0] != 0 || t->mstart[n] != t->nm)
			return "the merges' index is wrong";
		for (i = 0; i < n; i++)
			if (t->mstart[i] > t->mstart[i + 1])
				return "the merges' index is wrong";
		for (i = 0; i < t->nm; i++)
			if (t->mleft[i] >= n && t->mleft[i] != PSKD_RANK_NONE)
				return "a merge of no token";
		return NULL;
	}
	for (i = 0; i <= t->merges.mask; i++) {
		s = &t->merges.slot[i];
		if (s->key == 0)
			continue;
		pskd_hf_mpair(s->key, &a, &b);
		if (a >= n || b >= n || s->id >= n ||
		    t->vocab.len[s->id] == 0)
			return "a merge of no token";
		used++;
	}
	if (used != t->merges.n || used > t->merges.mask)
		return "the merges' count is wrong";
	return NULL;
}

void
ld_tables_free(struct ld_tables *t)
{
	pskd_ranks_free(&t->vocab);
	pskd_hf_merges_free(&t->merges);
	free(t->mstart);
	free(t->mleft);
	free(t->mrank);
	free(t->splits.msplit);
	free(t->splits.pairmerge);
	memset(t, 0, sizeof(*t));
}

/* The header's tables into t: NULL, or what is wrong. */
static const char *
tables(const unsigned char *p, const uint64_t *h, struct ld_tables *t)
{
	struct pskd_ranks *r = &t->vocab;
	const char *why;
	uint64_t mask = h[H_MASK], mmask = h[H_MMASK];
	const unsigned char *s;
	unsigned char two[2];
	uint32_t i;

	memset(t, 0, sizeof(*t));
	t->bytelevel = (h[H_FLAGS] & F_BYTELEVEL) != 0;
	t->apart = (h[H_FLAGS] & F_APART) != 0;
	if (h[H_FLAGS] > (F_BYTELEVEL | F_APART) || h[H_N] > PSKD_RANK_MAX ||
	    h[H_MWIDTH] > 4 || h[H_NTOKENS] > h[H_N] ||
	    mask >= (uint64_t)1 << 26 || (mask & (mask + 1)) != 0 ||
	    h[H_NBYTES] >= (uint64_t)1 << 32 || h[H_MAXLEN] > h[H_NBYTES] ||
	    h[H_NM] >= (uint64_t)1 << 32 || mmask >= (uint64_t)1 << 28 ||
	    (mmask & (mmask + 1)) != 0 ||
	    (t->bytelevel ? mmask != 0 : mmask < 1023) || h[H_MN] > mmask)
		return "its sizes are out of range";
	r->n = (uint32_t)h[H_N];
	r->ntokens = (uint32_t)h[H_NTOKENS];
	r->maxlen = h[H_MAXLEN];
	r->mask = mask;
	if ((r->bytes = array(p, h, H_BYTES, h[H_NBYTES], 1, 0)) == NULL ||
	    (r->off = array(p, h, H_OFF, r->n, 4, 0)) == NULL ||
	    (r->len = array(p, h, H_LEN, r->n, 4, 0)) == NULL ||
	    (r->slot = array(p, h, H_SLOT, mask + 1, sizeof(*r->slot),
	    1)) == NULL)
		return "a table runs past its end";
	if ((why = check_vocab(r, h[H_NBYTES])) != NULL)
		return why;
	if (t->bytelevel) {
		t->nm = h[H_NM];
		if ((t->mstart = array(p, h, H_MSTART, (uint64_t)r->n + 1, 4,
		    0)) == NULL || (t->mleft = array(p, h, H_MLEFT, t->nm, 4,
		    0)) == NULL || (t->mrank = array(p, h, H_MRANK, t->nm, 4,
		    0)) == NULL || (t->splits.pairmerge = array(p, h,
		    H_PAIRMERGE, 65536, 4, 0)) == NULL || (h[H_MWIDTH] != 0 &&
		    (t->splits.msplit = array(p, h, H_MSPLIT, (mask + 1) *
		    h[H_MWIDTH], 4, 0)) == NULL))
			return "a table runs past its end";
		t->splits.mwidth = (uint32_t)h[H_MWIDTH];
		/* A merge of two bytes makes their token (bpe.c's pair). */
		for (i = 0; i < 65536; i++) {
			two[0] = (unsigned char)(i >> 8);
			two[1] = (unsigned char)i;
			if (t->splits.pairmerge[i] != PSKD_RANK_NONE &&
			    pskd_ranks_find(r, two, 2) == PSKD_RANK_NONE)
				return "a merge of two bytes that are no token";
		}
	} else {
		t->merges.mask = mmask;
		t->merges.n = h[H_MN];
		if ((t->merges.slot = array(p, h, H_MSLOT, mmask + 1,
		    sizeof(*t->merges.slot), 1)) == NULL)
			return "a table runs past its end";
	}
	if ((why = check_merges(t)) != NULL)
		return why;
	if ((s = place(p, h, H_CUTS, 1, sizeof(t->cut))) == NULL)
		return "a table runs past its end";
	memcpy(&t->cut, s, sizeof(t->cut));
	return NULL;
}

int
pskd_hf_parse_compiled(struct pskd_hf *hf, const unsigned char *p, size_t n,
    char *err, size_t errsize)
{
	struct ld_tables t;
	uint64_t h[NH];
	const unsigned char *json = NULL;
	const char *why;
	int rc;

	memset(hf, 0, sizeof(*hf));
	memset(&t, 0, sizeof(t));
	if (n < sizeof(h)) {
		snprintf(err, errsize, " a compiled tokenizer cut short "
		    "(%zu bytes)", n);
		return -1;
	}
	memcpy(h, p, sizeof(h));
	if (h[H_VERSION] != VERSION || h[H_PRINT] != fingerprint()) {
		snprintf(err, errsize, " compiled by another build of "
		    "pskd-tok: compile its tokenizer.json again (--compile)");
		return -1;
	}
	if (h[H_SIZE] != n) {
		snprintf(err, errsize, " a compiled tokenizer of %llu bytes "
		    "holds %zu: cut short or run on", (unsigned long long)
		    h[H_SIZE], n);
		return -1;
	}
	if (!pskd_hf_compiled_nosum &&
	    h[H_SUM] != XXH3_64bits(p + 4 * 8, n - 4 * 8)) {
		snprintf(err, errsize, " a compiled tokenizer whose checksum "
		    "is wrong: damaged");
		return -1;
	}
	if ((why = tables(p, h, &t)) == NULL &&
	    (json = place(p, h, H_JSON, h[H_JSONLEN], 1)) == NULL)
		why = "its JSON runs past its end";
	if (why != NULL) {
		snprintf(err, errsize, " not a compiled tokenizer: %s", why);
		ld_tables_free(&t);
		return -1;
	}
	rc = ld_parse(hf, json, h[H_JSONLEN], &t, err, errsize);
	ld_tables_free(&t);
	return rc;
}
