/*
 * bpe.c - byte-level BPE encoding, token for token what tiktoken gives.
 *
 * tiktoken merges a piece by scanning all its parts for the lowest pair
 * rank after every merge (quadratic in the piece's length).  Short pieces
 * do the same here (over a list of parts, without tiktoken's moves); long
 * ones (a megabyte without a space) keep the pairs in a min-heap keyed by
 * (rank, position) in a linked list of parts, which merges in the same
 * order: always the lowest rank, the leftmost of equal ranks.  Pieces are
 * remembered in direct-mapped caches (short ones by their inline key,
 * longer ones by XXH3), since most of them come back.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "bpe.h"
#include "hf.h"
#include "bpe-merge.h"

#define SMALL		64	/* pieces up to this long: the plain scan */
#define CACHE_BITS	15	/* 32768 entries of 32 bytes: 1 MiB */
#define CACHE_IDS	4	/* most ids of a piece cached */

/* A piece of up to PSKD_RANK_SHORT bytes, by its inline key, and its ids. */
struct cache_entry {
	uint64_t	 k0;
	uint32_t	 k1;		/* 0: empty */
	uint32_t	 nids;
	uint32_t	 ids[CACHE_IDS];
};

/*
 * Longer pieces, tokens or not, by their XXH3: a record of the piece's
 * bytes and then its ids, in one of two caches by its size.  Most are a
 * word of 12 to 40 bytes with a few ids, many in a document, each in a
 * line of 64 bytes (make bench's documents: 3-5 % less CPU than with the
 * other cache alone); the rest up to 236 bytes, so the lines of 70 dashes
 * or stars that man pages draw are merged once, not each time.
 */
#define MID_BITS	16	/* 65536 entries of 64 bytes: 4 MiB */
#define MID_REC		48
#define LONG_BITS	13	/* 8192 of 256 bytes: 2 MiB */
#define LONG_REC	240

struct rec_head {
	uint64_t	 h;
	uint16_t	 len;		/* 0: empty */
	uint16_t	 nids;
	uint32_t	 unused;
};

struct mid_entry {
	struct rec_head	 hd;
	unsigned char	 rec[MID_REC];
};

struct long_entry {
	struct rec_head	 hd;
	unsigned char	 rec[LONG_REC];
};

/* Short pieces that are not tokens: merged once, remembered longer. */
#define MERGED_BITS	16

struct pskd_bpe_cache {
	struct cache_entry e[1u << CACHE_BITS];
	struct cache_entry m[1u << MERGED_BITS];
	struct mid_entry mid[1u << MID_BITS];
	struct long_entry l[1u << LONG_BITS];
};

void
pskd_ids_reserve(struct pskd_ids *ids, size_t extra)
{
	size_t cap;

	if (ids->cap - ids->n >= extra)
		return;
	cap = ids->cap ? ids->cap : 4096;
	while (cap - ids->n < extra)
		cap *= 2;
	ids->v = pskd_xreallocarray(ids->v, cap, sizeof(*ids->v));
	ids->cap = cap;
}

void
pskd_bpe_init(struct pskd_bpe *e, const struct pskd_ranks *r, int pattern)
{
	const unsigned char *b;
	unsigned i;
	uint32_t k;

	memset(e, 0, sizeof(*e));
	e->ranks = r;
	e->pattern = pattern;
	e->whole = 1;
	e->cache = pskd_huge_alloc(sizeof(*e->cache));
	/* The one- and two-byte tokens, straight from the rank table. */
	e->pair = pskd_xreallocarray(NULL, 65536, sizeof(*e->pair));
	for (i = 0; i < 65536; i++)
		e->pair[i] = PSKD_RANK_NONE;
	for (i = 0; i < 256; i++)
		e->byte[i] = PSKD_RANK_NONE;
	for (k = 0; k < r->n; k++) {
		b = r->bytes + r->off[k];
		if (r->len[k] == 2)
			e->pair[b[0] << 8 | b[1]] = k;
		else if (r->len[k] == 1)
			e->byte[b[0]] = k;
	}
}

/*
 * The merges of each token of 3 to PSKD_RANK_SHORT bytes beside its slot
 * in the ranks (bpe.h's msplit; pair_merges below does each pair of
 * bytes): a part's token is the token of its bytes, so the merge of two
 * parts is the one that makes their joined bytes and splits them where
 * they meet.
 */
static void
splits(struct pskd_bpe *e)
{
	const struct pskd_ranks *r = e->ranks;
	uint32_t c, k, m, *s, len;
	size_t i;

	/*
	 * Slot by slot: a short token's key holds its length on top.  As
	 * many merges a slot as the most a token has, up to 4 (one for a
	 * file that lists one a token, as most do: less memory to miss).
	 */
	e->mwidth = 1;
	for (i = 0; i <= r->mask && e->mwidth < 4; i++) {
		len = r->slot[i].k1 >> 24;
		c = r->slot[i].rank;
		if (len >= 3 && len <= PSKD_RANK_SHORT &&
		    e->mstart[c + 1] - e->mstart[c] > e->mwidth)
			e->mwidth = e->mstart[c + 1] - e->mstart[c] < 4 ?
			    e->mstart[c + 1] - e->mstart[c] : 4;
	}
	e->msplit = pskd_xcalloc((r->mask + 1) * e->mwidth, sizeof(uint32_t));
	for (i = 0; i <= r->mask; i++) {
		len = r->slot[i].k1 >> 24;
		if (len < 3 || len > PSKD_RANK_SHORT)
			continue;	/* empty, shorter, or a long token */
		c = r->slot[i].rank;
		s = e->msplit + e->mwidth * i;
		for (m = 0, k = e->mstart[c]; k < e->mstart[c + 1]; k++) {
			if (e->mleft[k] == PSKD_RANK_NONE)
				continue;	/* unused */
			if (m == e->mwidth || e->mrank[k] >= 1u << 28) {
				s[0] = PSKD_MSPLIT_MORE;
				break;
			}
			s[m++] = r->len[e->mleft[k]] << 28 | e->mrank[k];
		}
	}
}

/* The rank of the merge of each pair of bytes (bpe.h's pairmerge). */
static void
pair_merges(struct pskd_bpe *e)
{
	uint32_t c, k, b, left;

	e->pairmerge = pskd_xreallocarray(NULL, 65536, sizeof(uint32_t));
	for (b = 0; b < 65536; b++) {
		e->pairmerge[b] = PSKD_RANK_NONE;
		if ((c = e->pair[b]) == PSKD_RANK_NONE ||
		    (left = e->byte[b >> 8]) == PSKD_RANK_NONE)
			continue;
		for (k = e->mstart[c]; k < e->mstart[c + 1]; k++)
			if (e->mleft[k] == left)
				e->pairmerge[b] = e->mrank[k];
	}
}

/*
 * HF's loop merges the adjacent pair that is the merge of lowest rank;
 * tiktoken's the adjacent pair whose bytes joined are the token of lowest
 * id.  Every pair HF's loop may merge is one tiktoken's may (its bytes
 * joined are a token: joins), and its rank is at least that of its
 * token's lowest merge; so when the ids rank the tokens as their lowest
 * merges do, the two make the same merge while tiktoken's is
 *  (a) the lowest merge of its token: no pair HF's may merge has a lower
 *      rank, nor the same but at the left; or
 *  (b) with the merges listed in the order of the ids they make (tksplit;
 *      Llama 3 lists every split of a token), a merge of its token, and
 *      no other pair beside makes that token split elsewhere: a pair of
 *      a larger id has a larger rank, and the same pair is leftmost for
 *      both.
 * Each loop then starts from the same parts again, and stops when
 * tiktoken's does: no pair joined is a token, so none is a merge.  So
 * tiktoken's loop runs while (a) or (b) holds, and HF's takes the piece
 * over from the start when neither does.  Qwen 3 and Llama 3 rank so.
 */
static void
tk_rule(struct pskd_bpe *e, int joins)
{
	const struct pskd_ranks *r = e->ranks;
	uint32_t c, k, low, high, l, lowl = 0, lastlow = 0, lasthigh = 0;
	uint32_t *ts;
	uint8_t *tl;
	int any = 0, listed = 1;

	if (!joins || e->mstart[r->n] == 0)
		return;
	tl = pskd_xcalloc((size_t)r->n + 1, sizeof(*tl));
	ts = pskd_xcalloc((size_t)r->n + 1, sizeof(*ts));
	/*
	 * Token by token, its merges' lowest and highest ranks: the lowest
	 * must rise with the ids, and for tksplit each token's ranks come
	 * after all of the one before's.
	 */
	for (c = 0; c < r->n; c++) {
		low = PSKD_RANK_NONE, high = 0;
		for (k = e->mstart[c]; k < e->mstart[c + 1]; k++) {
			if (e->mleft[k] == PSKD_RANK_NONE)
				continue;
			l = r->len[e->mleft[k]];
			if (e->mrank[k] < low)
				low = e->mrank[k], lowl = l;
			if (e->mrank[k] > high)
				high = e->mrank[k];
			if (l >= 1 && l <= 32)
				ts[c] |= 1u << (l - 1);
		}
		if (low == PSKD_RANK_NONE)
			continue;
		if ((any && low <= lastlow) || lowl == 0 || lowl > UINT8_MAX) {
			free(tl);
			free(ts);
			return;
		}
		if (any && low <= lasthigh)
			listed = 0;
		any = 1;
		lastlow = low;
		lasthigh = high;
		tl[c] = (uint8_t)lowl;
	}
	if (!listed)
		free(ts), ts = NULL;
	e->tklow = tl;
	e->tksplit = ts;
}

void
pskd_bpe_init_hf(struct pskd_bpe *e, const struct pskd_ranks *r, int pattern,
    const uint32_t *mstart, const uint32_t *mleft, const uint32_t *mrank,
    int ignore_merges, int joins, struct pskd_bpe_splits *given)
{
	/*
	 * A pair of parts is a merge when their bytes joined are a token
	 * that this merge makes: so the merge is found by the joined bytes,
	 * which tiktoken's loop looks up (and prefetches) already, and where
	 * they split (splits()), beside the token's slot, prefetched with it.
	 * Where they split says which merge only if every merge's token is
	 * its parts' bytes joined (joins): else each part's token is that of
	 * its bytes no longer, and the merges are found by the left token.
	 * Where tiktoken's rule holds (tk_rule), HF's loop takes so few
	 * pieces that those are found through mstart too, and the table by
	 * split is not made: Llama 3 hands it 1,197 of the 264 K pieces it
	 * merges on make bench's 64 MB (long runs of CJK letters), Qwen 3
	 * none; the table cost 4.1 and 4.6 ms of their 41 and 33 ms start.
	 */
	pskd_bpe_init(e, r, pattern);
	e->mstart = mstart;
	e->mleft = mleft;
	e->mrank = mrank;
	e->whole = ignore_merges;
	if (!ignore_merges)
		e->self = pskd_xcalloc((size_t)r->n + 1, 1);
	tk_rule(e, joins);
	if (given != NULL && given->pairmerge != NULL) {
		e->msplit = given->msplit;
		e->pairmerge = given->pairmerge;
		e->mwidth = given->mwidth;
		memset(given, 0, sizeof(*given));
	} else {
		if (joins && e->tklow == NULL)
			splits(e);
		pair_merges(e);
	}
	if (!joins) {
		free(e->msplit);
		e->msplit = NULL;
	}
}

void
pskd_bpe_free(struct pskd_bpe *e)
{
	if (e->cache != NULL)
		pskd_huge_free(e->cache, sizeof(*e->cache));
	free(e->pair);
	free(e->a);
	free(e->b);
	free(e->c);
	free(e->heap);
	free(e->d);
	free(e->self);
	free(e->tklow);
	free(e->tksplit);
	free(e->msplit);
	free(e->pairmerge);
	memset(e, 0, sizeof(*e));
}

int
pskd_bpe_complete(const struct pskd_ranks *r)
{
	unsigned char c;
	unsigned i;

	for (i = 0; i < 256; i++) {
		c = (unsigned char)i;
		if (pskd_ranks_find(r, &c, 1) == PSKD_RANK_NONE)
			return 0;
	}
	return 1;
}

static void
scratch(struct pskd_bpe *e, size_t n)
{
	if (e->cap >= n + 2)
		return;
	e->cap = n + 2;
	e->a = pskd_xreallocarray(e->a, e->cap, sizeof(uint32_t));
	e->b = pskd_xreallocarray(e->b, e->cap, sizeof(uint32_t));
	e->c = pskd_xreallocarray(e->c, e->cap, sizeof(uint32_t));
	e->d = pskd_xreallocarray(e->d, e->cap, sizeof(uint32_t));
	e->heap = pskd_xreallocarray(e->heap, e->cap * 2, sizeof(uint64_t));
}

static inline uint32_t
rank_of(const struct pskd_ranks *r, const unsigned char *p, size_t n)
{
	uint64_t k0;
	uint32_t k1;

	if (n > PSKD_RANK_SHORT)
		return pskd_ranks_find(r, p, n);
	pskd_ranks_key(p, n, &k0, &k1);
	return pskd_ranks_find_key(r, k0, k1, pskd_ranks_keyhash(k0, k1));
}

static uint32_t
byte_token(const struct pskd_ranks *r, unsigned char c)
{
	uint32_t k = pskd_ranks_find(r, &c, 1);

	if (k == PSKD_RANK_NONE)
		pskd_errx(PSKD_EXIT_DATA, "the vocabulary has no token for "
		    "the byte 0x%02x", c);
	return k;
}

/*
 * Every merge looks up the join of two parts, and the next merge depends
 * on it: a chain of misses in a table of megabytes.  Any join is a
 * substring of the piece, so the slots of all its short substrings (3 to
 * PSKD_RANK_SHORT bytes but the whole piece, not a token) are prefetched
 * first: the misses then overlap instead of queueing one after another.
 */
#define PREFETCH_MAX	16	/* pieces up to this long */

static void
prefetch_joins(const struct pskd_ranks *r, const uint32_t *msplit,
    uint32_t mwidth, const unsigned char *p, size_t n)
{
	uint64_t k0;
	uint32_t k1;
	size_t i, l, s;

	for (l = 3; l < n && l <= PSKD_RANK_SHORT; l++)
		for (i = 0; i + l <= n; i++) {
			pskd_ranks_key(p + i, l, &k0, &k1);
			s = pskd_ranks_keyhash(k0, k1) & r->mask;
			__builtin_prefetch(&r->slot[s]);
			if (msplit != NULL)
				__builtin_prefetch(&msplit[mwidth * s]);
		}
}

/*
 * tk_rule's (b) for the pair of part k, its token c split after l bytes:
 * 1 when that is a merge of c and no other part's pair makes c split
 * elsewhere.
 */
static int
tk_other(const uint32_t *tksplit, const uint32_t *nx, const uint32_t *rk,
    uint32_t n, uint32_t k, uint32_t c)
{
	uint32_t i, l = nx[k] - k;

	if (tksplit == NULL || l > 32 || !(tksplit[c] >> (l - 1) & 1))
		return 0;
	for (i = 0; i < n; i = nx[i])
		if (i != k && rk[i] == c && nx[i] - i != l)
			return 0;
	return 1;
}

/*
 * merge_small's check reads tklow[best] (128-150 KB for Llama 3 and
 * Qwen 3, out of L2 beside the ranks): each rank's entry is fetched when
 * the rank is known.
 */
static inline void
tk_fetch(const uint8_t *tklow, uint32_t rank)
{
	if (tklow != NULL && rank != PSKD_RANK_NONE)
		__builtin_prefetch(&tklow[rank]);
}

/*
 * tiktoken's loop, without its moves: parts are a list over byte
 * positions, nx[i] the start of the part after the one at i (n at the
 * end), id[i] its token, rk[i] the rank of it joined to the next.  A scan
 * of the list finds the lowest rank, the leftmost of equal ones.
 */
static size_t
merge_small(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t *out, const uint8_t *tklow)
{
	uint32_t *nx = e->a, *rk = e->b, *id = e->c, best, i, j, k, kq;
	size_t m = 0;

	if (n <= PREFETCH_MAX)
		prefetch_joins(e->ranks, NULL, 0, p, n);
	for (i = 0; i < n; i++) {
		nx[i] = i + 1;
		id[i] = e->byte[p[i]];
		if (id[i] == PSKD_RANK_NONE)
			id[i] = byte_token(e->ranks, p[i]);
		rk[i] = i + 1 < n ? e->pair[p[i] << 8 | p[i + 1]] :
		    PSKD_RANK_NONE;
		tk_fetch(tklow, rk[i]);
	}
	for (;;) {
		if ((best = pskd_merge_lowest(nx, rk, (uint32_t)n, &k, &kq)) ==
		    PSKD_RANK_NONE)
			break;
		if (tklow != NULL && tklow[best] != nx[k] - k &&
		    !tk_other(e->tksplit, nx, rk, (uint32_t)n, k, best))
			return 0;	/* HF's loop may merge otherwise */
		/* Parts k and the next become the token best. */
		j = nx[k] = nx[nx[k]];
		id[k] = best;
		rk[k] = j < n ? rank_of(e->ranks, p + k, nx[j] - k) :
		    PSKD_RANK_NONE;
		if (k > 0)
			rk[kq] = rank_of(e->ranks, p + kq, j - kq);
		tk_fetch(tklow, rk[k]);
		if (k > 0)
			tk_fetch(tklow, rk[kq]);
	}
	for (i = 0; i < n; i = nx[i])
		out[m++] = id[i];
	return m;
}

/*
 * Parts are a linked list over byte positions: nx[i] is the start of the
 * part after the one starting at i (n at the end; i dead when nx[i] is 0);
 * pv the one before; rk[i] the rank of the part at i joined to the next.
 */
static size_t
merge_heap(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t *out, const uint8_t *tklow)
{
	const struct pskd_ranks *r = e->ranks;
	uint32_t *nx = e->a, *pv = e->b, *rk = e->c, i, j, q, end;
	uint64_t *h = e->heap, top;
	size_t nh = 0, m = 0;

	for (i = 0; i < n; i++) {
		nx[i] = i + 1;
		pv[i] = i - 1;
		rk[i] = i + 1 < n ? e->pair[p[i] << 8 | p[i + 1]] :
		    PSKD_RANK_NONE;
		if (rk[i] != PSKD_RANK_NONE)
			h[nh++] = (uint64_t)rk[i] << 32 | i;
	}
	pskd_heapify(h, nh);
	while (nh > 0) {
		top = pskd_heap_pop(h, &nh);
		i = (uint32_t)top;
		if (nx[i] == 0 || rk[i] != top >> 32)
			continue;	/* stale */
		j = nx[i];
		if (tklow != NULL && tklow[rk[i]] != j - i)
			return 0;	/* not its lowest merge: HF's loop */
		nx[i] = nx[j];
		nx[j] = 0;
		if (nx[i] < n)
			pv[nx[i]] = i;
		end = nx[i] < n ? nx[nx[i]] : (uint32_t)n;
		rk[i] = nx[i] < n ? rank_of(r, p + i, end - i) :
		    PSKD_RANK_NONE;
		if (rk[i] != PSKD_RANK_NONE)
			pskd_heap_push(h, &nh, (uint64_t)rk[i] << 32 | i);
		if (i > 0) {
			q = pv[i];
			rk[q] = rank_of(r, p + q, nx[i] - q);
			if (rk[q] != PSKD_RANK_NONE)
				pskd_heap_push(h, &nh, (uint64_t)rk[q] << 32 | q);
		}
	}
	for (i = 0; i < n; i = nx[i]) {
		if (nx[i] - i == 1)
			out[m++] = byte_token(r, p[i]);
		else
			out[m++] = pskd_ranks_find(r, p + i, nx[i] - i);
	}
	return m;
}

/*
 * hf_rank's rare way: the merges that make token c (PSKD_RANK_NONE: the
 * token of p[0..n)) by their left part, through mstart.
 */
static uint32_t
hf_rank_listed(const struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t c, uint32_t left, uint32_t *nw)
{
	uint32_t k;

	if (c == PSKD_RANK_NONE &&
	    (c = pskd_ranks_find(e->ranks, p, n)) == PSKD_RANK_NONE)
		return PSKD_RANK_NONE;
	for (k = e->mstart[c]; k < e->mstart[c + 1]; k++)
		if (e->mleft[k] == left) {
			*nw = c;
			return e->mrank[k];
		}
	return PSKD_RANK_NONE;
}

/*
 * HF's rule: the rank of the merge of parts left and right, p[0..n) their
 * bytes, the left one ll of them, its token in *nw; PSKD_RANK_NONE if
 * they are no merge.
 */
static inline uint32_t
hf_rank(const struct pskd_bpe *e, const unsigned char *p, size_t n,
    size_t ll, uint32_t left, uint32_t *nw)
{
	const uint32_t *s;
	uint64_t k0;
	uint32_t k1, k;
	size_t i;

	if (n == 2) {
		if ((k = e->pairmerge[p[0] << 8 | p[1]]) != PSKD_RANK_NONE)
			*nw = e->pair[p[0] << 8 | p[1]];
		return k;
	}
	if (n > PSKD_RANK_SHORT || e->msplit == NULL)
		return hf_rank_listed(e, p, n, PSKD_RANK_NONE, left, nw);
	pskd_ranks_key(p, n, &k0, &k1);
	if ((i = pskd_ranks_slot_key(e->ranks, k0, k1,
	    pskd_ranks_keyhash(k0, k1))) == SIZE_MAX)
		return PSKD_RANK_NONE;
	s = e->msplit + e->mwidth * i;
	if (s[0] == PSKD_MSPLIT_MORE)
		return hf_rank_listed(e, p, n, e->ranks->slot[i].rank, left,
		    nw);
	for (k = 0; k < e->mwidth && s[k] != 0; k++)
		if (s[k] >> 28 == ll) {
			*nw = e->ranks->slot[i].rank;
			return s[k] & ((1u << 28) - 1);
		}
	return PSKD_RANK_NONE;
}

/* hf_rank for the parts at i and j of the piece in ctx. */
struct hf_piece {
	const struct pskd_bpe *e;
	const unsigned char *p;
};

static uint32_t
piece_rank(void *ctx, const struct pskd_merge_parts *m, uint32_t i,
    uint32_t j, uint32_t *nw)
{
	const struct hf_piece *c = ctx;

	return hf_rank(c->e, c->p + i, m->nx[j] - i, j - i, m->id[i], nw);
}

/*
 * HF's rule on a piece of n bytes: the bytes' tokens, the first pairs by
 * the table of two-byte tokens (and their joins prefetched, as
 * merge_small does), then bpe-merge.h's loops.
 */
static size_t
merge_hf(struct pskd_bpe *e, const unsigned char *p, size_t n, uint32_t *out)
{
	struct pskd_merge_parts m = { e->a, e->b, e->c, out, e->d, e->heap };
	struct hf_piece c = { e, p };
	uint32_t i;

	if (n <= PREFETCH_MAX)
		prefetch_joins(e->ranks, e->msplit, e->mwidth, p, n);
	for (i = 0; i < n; i++)
		if ((out[i] = e->byte[p[i]]) == PSKD_RANK_NONE)
			out[i] = byte_token(e->ranks, p[i]);
	for (i = 0; i + 1 < n; i++)
		m.rk[i] = hf_rank(e, p + i, 2, 1, out[i], &m.nw[i]);
	m.rk[n - 1] = PSKD_RANK_NONE;
	if (n <= SMALL)
		return pskd_merge_scan(&m, (uint32_t)n, piece_rank, &c);
	return pskd_merge_heapwise(&m, (uint32_t)n, piece_rank, &c);
}

static size_t
merge(struct pskd_bpe *e, const unsigned char *p, size_t n, uint32_t *out)
{
	size_t m;

	scratch(e, n);
	if (e->mstart != NULL) {
		if (e->tklow != NULL && (m = n <= SMALL ?
		    merge_small(e, p, n, out, e->tklow) :
		    merge_heap(e, p, n, out, e->tklow)) != 0)
			return m;
		return merge_hf(e, p, n, out);
	}
	if (n <= SMALL)
		return merge_small(e, p, n, out, NULL);
	return merge_heap(e, p, n, out, NULL);
}

/* The ids of p[0..n) into out if rec holds them; their number or 0. */
static inline size_t
recall(const struct rec_head *c, const unsigned char *rec, uint64_t h,
    const unsigned char *p, size_t n, uint32_t *out)
{
	if (c->h != h || c->len != n || memcmp(rec, p, n) != 0)
		return 0;
	memcpy(out, rec + n, c->nids * sizeof(*out));
	return c->nids;
}

static inline void
remember(struct rec_head *c, unsigned char *rec, uint64_t h,
    const unsigned char *p, size_t n, const uint32_t *ids, size_t m)
{
	c->h = h;
	c->len = (uint16_t)n;
	c->nids = (uint16_t)m;
	memcpy(rec, p, n);
	memcpy(rec + n, ids, m * sizeof(*ids));
}

/*
 * A piece that is a token is that token with ignore_merges; without it,
 * HF merges its bytes, which for most tokens make the token again, but
 * not for all.  So each token's own merge is made the first time a piece
 * is that token, and what it made remembered (self): from then on a piece
 * that is such a token costs its lookup, as with ignore_merges.  The ids
 * are the merge's either way.  Qwen 3 on make bench's 64 MB: 1.7 % fewer
 * instructions (callgrind; the first merge of each token, which is most
 * of what ignore_merges would save, stays).
 */
#define SELF_ALONE	1	/* its merge makes the token alone */
#define SELF_OTHER	2	/* other tokens */

/* The token that is the piece, when that is its ids; else NONE. */
static inline uint32_t
whole_token(const struct pskd_bpe *e, uint32_t k)
{
	if (k == PSKD_RANK_NONE || e->whole || e->self[k] == SELF_ALONE)
		return k;
	return PSKD_RANK_NONE;
}

/* What a merge of token k's bytes (m ids in out) made, for whole_token. */
static inline void
own_merge(struct pskd_bpe *e, uint32_t k, const uint32_t *out, size_t m)
{
	if (k != PSKD_RANK_NONE && e->self != NULL && e->self[k] == 0)
		e->self[k] = m == 1 && out[0] == k ? SELF_ALONE : SELF_OTHER;
}

/*
 * A piece too long for the inline key: recall it, else look it up (with
 * the same hash) or merge it, and remember it.
 */
static size_t
piece_long(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t *out)
{
	struct mid_entry *mc = NULL;
	struct long_entry *c;
	uint64_t h;
	uint32_t k;
	size_t m;

	if (n + sizeof(*out) > LONG_REC) {
		k = pskd_ranks_find(e->ranks, p, n);
		if (whole_token(e, k) != PSKD_RANK_NONE) {
			out[0] = k;
			return 1;
		}
		m = merge(e, p, n, out);
		own_merge(e, k, out, m);
		return m;
	}
	h = XXH3_64bits(p, n);
	if (n + sizeof(*out) <= MID_REC) {
		mc = &e->cache->mid[h >> (64 - MID_BITS)];
		if ((m = recall(&mc->hd, mc->rec, h, p, n, out)) != 0)
			return m;
	}
	c = &e->cache->l[h >> (64 - LONG_BITS)];
	if ((m = recall(&c->hd, c->rec, h, p, n, out)) != 0)
		return m;
	k = pskd_ranks_find_long(e->ranks, p, n, h);
	if (whole_token(e, k) != PSKD_RANK_NONE) {
		out[0] = k;
		m = 1;
	} else {
		m = merge(e, p, n, out);
		own_merge(e, k, out, m);
	}
	if (mc != NULL && n + m * sizeof(*out) <= MID_REC)
		remember(&mc->hd, mc->rec, h, p, n, out, m);
	else if (n + m * sizeof(*out) <= LONG_REC)
		remember(&c->hd, c->rec, h, p, n, out, m);
	return m;
}

/*
 * A short piece by its inline key: the cache, the ranks, or a merge.  out
 * has room for n + CACHE_IDS ids (a hit copies all CACHE_IDS).
 */
static size_t
piece_short(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint64_t k0, uint32_t k1, uint64_t h, uint32_t *out)
{
	struct cache_entry *c, *mc;
	uint32_t k;
	size_t m;

	c = &e->cache->e[h >> (64 - CACHE_BITS)];
	if (c->k0 == k0 && c->k1 == k1) {
		/* All CACHE_IDS, one move, no branch: out has the room. */
		memcpy(out, c->ids, sizeof(c->ids));
		return c->nids;
	}
	k = pskd_ranks_find_key(e->ranks, k0, k1, h);
	if (whole_token(e, k) != PSKD_RANK_NONE) {
		out[0] = k;
		m = 1;
	} else if (n == 1) {
		out[0] = byte_token(e->ranks, p[0]);
		m = 1;
	} else {
		mc = &e->cache->m[h & ((1u << MERGED_BITS) - 1)];
		if (mc->k0 == k0 && mc->k1 == k1) {
			m = mc->nids;
			memcpy(out, mc->ids, m * sizeof(*out));
		} else {
			m = merge(e, p, n, out);
			if (m <= CACHE_IDS) {
				mc->k0 = k0;
				mc->k1 = k1;
				mc->nids = (uint32_t)m;
				memcpy(mc->ids, out, m * sizeof(*out));
			}
		}
		own_merge(e, k, out, m);
	}
	if (m <= CACHE_IDS) {
		c->k0 = k0;
		c->k1 = k1;
		c->nids = (uint32_t)m;
		memcpy(c->ids, out, m * sizeof(*out));
	}
	return m;
}

size_t
pskd_bpe_piece(struct pskd_bpe *e, const unsigned char *p, size_t n,
    uint32_t *out)
{
	uint32_t tmp[PSKD_RANK_SHORT + CACHE_IDS];	/* piece_short's room */
	uint64_t k0;
	uint32_t k1;
	size_t m;

	if (n > PSKD_RANK_SHORT)
		return piece_long(e, p, n, out);
	pskd_ranks_key(p, n, &k0, &k1);
	m = piece_short(e, p, n, k0, k1, pskd_ranks_keyhash(k0, k1), tmp);
	memcpy(out, tmp, m * sizeof(*out));
	return m;
}

/*
 * Pieces go in batches: cut BATCH of them, compute their keys and prefetch
 * their cache entries and table slots, then encode them, so the memory
 * latency of one piece overlaps the work on the others.
 */
#define BATCH	32

void
pskd_bpe_encode(struct pskd_bpe *e, const unsigned char *text, size_t len,
    struct pskd_ids *out)
{
	size_t pos = 0, start, at[BATCH + 1], nb, i, n;
	uint64_t k0[BATCH], h[BATCH];
	uint32_t k1[BATCH];
	const struct cache_entry *c;

	while (pos < len) {
		start = pos;
		at[0] = pos;
		for (nb = 0; nb < BATCH && pos < len; ) {
			pos = pskd_pretok_next(e->pattern, text, len, pos);
			n = pos - at[nb];
			if (n <= PSKD_RANK_SHORT) {
				if (at[nb] + 16 <= len)
					pskd_ranks_key16(text + at[nb], n,
					    &k0[nb], &k1[nb]);
				else
					pskd_ranks_key(text + at[nb], n,
					    &k0[nb], &k1[nb]);
				h[nb] = pskd_ranks_keyhash(k0[nb], k1[nb]);
				__builtin_prefetch(&e->cache->e[h[nb] >>
				    (64 - CACHE_BITS)]);
				__builtin_prefetch(&e->ranks->slot[h[nb] &
				    e->ranks->mask]);
			}
			at[++nb] = pos;
		}
		pskd_ids_reserve(out, pos - start + CACHE_IDS);
		for (i = 0; i < nb; i++) {
			n = at[i + 1] - at[i];
			if (n <= PSKD_RANK_SHORT) {
				c = &e->cache->e[h[i] >> (64 - CACHE_BITS)];
				if (c->k0 == k0[i] && c->k1 == k1[i]) {
					/* The usual case, inline: a hit. */
					memcpy(out->v + out->n, c->ids,
					    sizeof(c->ids));
					out->n += c->nids;
				} else
					out->n += piece_short(e, text + at[i],
					    n, k0[i], k1[i], h[i],
					    out->v + out->n);
			} else
				out->n += piece_long(e, text + at[i], n,
				    out->v + out->n);
		}
	}
}
