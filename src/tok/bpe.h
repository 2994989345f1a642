/*
 * bpe.h - byte-level BPE encoding as tiktoken does it: the pre-tokenizer
 * of the encoding cuts the text into pieces (bpe-pretok.h); a piece that is a
 * token is that token, else its bytes are merged pairwise, always the
 * adjacent pair whose concatenation has the lowest rank (the leftmost of
 * equal ones), until no adjacent pair is a token.
 */
#ifndef PSKD_BPE_H
#define PSKD_BPE_H

#include <stddef.h>
#include <stdint.h>

#include "bpe-ranks.h"


/* A growable array of token ids. */
struct pskd_ids {
	uint32_t	*v;
	size_t		 n;
	size_t		 cap;
};

struct pskd_bpe_cache;

#define PSKD_MSPLIT_MORE	UINT32_MAX

struct pskd_bpe {
	const struct pskd_ranks *ranks;
	int		 pattern;	/* PSKD_PAT_* */
	/* HF's rule (pskd_bpe_init_hf; hf.h's mstart...); NULL: tiktoken's */
	const uint32_t	*mstart;
	int		 whole;		/* a piece that is a token is it */
	const uint32_t	*mleft, *mrank;
	/*
	 * The same merges by where they split, for tokens of 3 to
	 * PSKD_RANK_SHORT bytes: beside the ranks' slot i of such a token,
	 * msplit[mwidth i ..] holds up to mwidth of the merges that make it,
	 * each as the left part's length << 28 | the merge's rank (0: no
	 * more; PSKD_MSPLIT_MORE first: more, see mstart; msplit NULL: not
	 * every merge's token is its parts joined, or tiktoken's rule holds
	 * and the merges are found through mstart); pairmerge the rank of
	 * the merge of two single bytes.
	 */
	uint32_t	*msplit, *pairmerge;
	uint32_t	 mwidth;	/* msplit's entries a slot: 1 to 4 */
	/*
	 * Without ignore_merges, what each token's own bytes merge to, once
	 * a piece has been that token (bpe.c's own_merge): 0 not yet, else
	 * SELF_ALONE or SELF_OTHER; NULL with ignore_merges (or tiktoken's
	 * rule), where a piece that is a token is that token.
	 */
	unsigned char	*self;
	/*
	 * tiktoken's loop in place of HF's where it gives the same ids
	 * (bpe.c's tk_rule): by token, tklow the length of the left part
	 * of the lowest merge that makes it (0: none; no tklow if one is
	 * longer than 255 bytes: one byte a token), tksplit bit l - 1
	 * set when one of l bytes does (l <= 32); tklow NULL where the ids
	 * do not rank the tokens as their lowest merges do, tksplit NULL
	 * where the merges are not listed in the order of their tokens' ids.
	 */
	uint8_t		*tklow;
	uint32_t	*tksplit;
	uint32_t	*d;		/* more scratch */
	struct pskd_bpe_cache *cache;	/* pieces seen before */
	uint32_t	*pair;		/* rank of each two-byte string */
	uint32_t	 byte[256];	/* rank of each byte */
	/* scratch of the merge */
	uint32_t	*a, *b, *c;
	uint64_t	*heap;
	size_t		 cap;
};

/* The ranks must outlive the encoder. */
void	pskd_bpe_init(struct pskd_bpe *e, const struct pskd_ranks *r,
	    int pattern);
/*
 * What pskd_bpe_init_hf works out from the merges (msplit, mwidth and
 * pairmerge above), as a compiled tokenizer keeps it (hf-compiled.c).
 */
struct pskd_bpe_splits {
	uint32_t	*msplit, *pairmerge;
	uint32_t	 mwidth;
};
/*
 * The same with the merges of a tokenizer.json: a piece is merged by HF's
 * rule (the pair first in the merges), and is taken whole when it is a
 * token only with ignore_merges; the ranks are the vocabulary's ids.
 * given: the splits kept from an earlier init of the same tables (taken,
 * *given left empty), or NULL or empty: worked out.
 */
void	pskd_bpe_init_hf(struct pskd_bpe *e, const struct pskd_ranks *r,
	    int pattern, const uint32_t *mstart, const uint32_t *mleft,
	    const uint32_t *mrank, int ignore_merges, int joins,
	    struct pskd_bpe_splits *given);
void	pskd_bpe_free(struct pskd_bpe *e);
/*
 * Append the ids of text[0..len) (tiktoken's encode_ordinary: special
 * token text is ordinary text) to out.  Bytes that are not UTF-8 are
 * encoded as bytes (each its own piece-level character); every byte
 * sequence has an encoding since each single byte is a token (else abort
 * with a message: the ranks must hold all 256 bytes, which
 * pskd_bpe_complete checks).
 */
void	pskd_bpe_encode(struct pskd_bpe *e, const unsigned char *text,
	    size_t len, struct pskd_ids *out);
/* The ids of one piece into out (room for n ids); returns their number. */
size_t	pskd_bpe_piece(struct pskd_bpe *e, const unsigned char *p, size_t n,
	    uint32_t *out);
/* 1 when every single byte is a token of r. */
int	pskd_bpe_complete(const struct pskd_ranks *r);

void	pskd_ids_reserve(struct pskd_ids *ids, size_t extra);
static inline void
pskd_ids_push(struct pskd_ids *ids, uint32_t id)
{
	if (ids->n == ids->cap)
		pskd_ids_reserve(ids, 1);
	ids->v[ids->n++] = id;
}

#endif
