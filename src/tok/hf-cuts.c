/*
 * hf-cuts.c - where the words of a vocabulary of characters may be cut
 * without changing their tokens (hf-vocab.c's model() cuts there, and the
 * word cache of hf-bpe.c then sees words, not whole documents), worked
 * out once per file from its merges.
 *
 * Why a cut changes nothing.  The model makes a word's symbols from its
 * characters (hf-bpe.c's symbols(): a character's own token, else its
 * <0xNN> bytes, else unk, fused with an unk before it, an unk waiting past
 * <0xNN> bytes), then joins the adjacent pair that comes first in the
 * merges, the leftmost of equal ones, until no pair is a merge.  Cut a
 * word at p into u and v.  (1) The symbols of u then v are the word's
 * when no unk is waiting at p: the character at p, or the one before it,
 * is a token of its own, or no character can become unk at all.  (2) Say
 * no merge can join a symbol that ends at p to one that begins there.
 * Every symbol is a character's or a merge of two symbols, so the first
 * merge that would make a symbol spanning p is such a join: none is ever
 * made, the pair across p is never a merge, and a merge on one side
 * changes no pair on the other.  The lowest pair of the word (leftmost of
 * equal ones) is then always the lowest of u's or of v's, and each side
 * makes its own merges in its own order: BPE on the word is BPE on u
 * followed by BPE on v.
 *
 * The places, and when (2) holds there:
 *  - before a ▁ (a token) that follows a character c other than ▁:
 *    a symbol that begins at p begins with ▁, one that ends there ends
 *    with c, or is <0xNN> or unk when c is no token.  blocked[c] marks the
 *    last characters of the left parts of the merges whose right part
 *    begins with ▁ and whose left part does not end with ▁ (that one joins
 *    a run of ▁, and a run is never cut inside).  When no merge has a
 *    <0xNN> or unk part ("stray"), those symbols are never joined.  So a
 *    cut is made after c when c is a token and not blocked, or when c is
 *    no token and nothing is stray.  A non-ASCII c is taken as blocked
 *    when any non-ASCII character is; the ▁ is a token, so (1) holds.
 *    Gemma 3's merges have one such left part, '>' (of "> ▁</"): its words
 *    are cut before every ▁ except after a '>'.
 *  - around an ASCII character x that no merge's token holds (digits and
 *    line breaks in Llama 2's): no merge has x's token as a part when x is
 *    a token; when it is not, its <0xNN> is none when nothing is stray; and
 *    (1) needs x to be a token unless nothing can become unk.
 * None at all when a character may be dropped (no unk_token and a byte
 * without <0xNN>): its neighbours would meet; nor with a subword prefix
 * or suffix (symbols that depend on where a character is in its word) or
 * ignore_merges (a whole word looked up first).
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "hf.h"
#include "hf-load.h"

static const unsigned char *const bar = (const unsigned char *)PSKD_HF_BAR;

/* What the merges are looked at for, by token (kept small: the merges'
   tokens are fetched in no order). */
#define K_LAST	0x0ff	/* the last byte, 128 for any >= 128 */
#define K_ODD	0x100	/* a <0xNN> or the unk */
#define K_BEG	0x200	/* begins with a ▁ */
#define K_END	0x400	/* ends with a ▁ */
#define K_MADE	0x800	/* a merge makes it */

static uint16_t *
kinds(const struct pskd_hf *hf)
{
	const struct pskd_ranks *r = &hf->vocab;
	const unsigned char *t;
	uint16_t *kind = pskd_xcalloc((size_t)r->n + 1, sizeof(*kind));
	uint32_t k, n;
	unsigned c;

	for (k = 0; k < r->n; k++) {
		if ((n = r->len[k]) == 0)
			continue;
		t = r->bytes + r->off[k];
		kind[k] = t[n - 1] < 128 ? t[n - 1] : 128;
		if (n >= PSKD_HF_BARLEN && memcmp(t, bar, PSKD_HF_BARLEN) == 0)
			kind[k] |= K_BEG;
		if (n >= PSKD_HF_BARLEN && memcmp(t + n - PSKD_HF_BARLEN, bar,
		    PSKD_HF_BARLEN) == 0)
			kind[k] |= K_END;
	}
	for (c = 0; c < 256; c++)
		if (hf->fallback[c] != PSKD_RANK_NONE)
			kind[hf->fallback[c]] |= K_ODD;
	if (hf->unk != PSKD_RANK_NONE)
		kind[hf->unk] |= K_ODD;
	return kind;
}

void
ld_cuts(struct pskd_hf *hf, const uint32_t *mlist, size_t n)
{
	const struct pskd_ranks *r = &hf->vocab;
	const unsigned char *t;
	unsigned char seen[256], blocked[129];
	uint16_t *kind;
	uint32_t a, b, k;
	size_t j, i;
	unsigned c;
	int stray = 0, unk = 0, drop = 0;

	memset(&hf->cut, 0, sizeof(hf->cut));
	if (hf->bytelevel || hf->prefixlen || hf->suffixlen ||
	    hf->ignore_merges)
		return;
	/* A byte without <0xNN> in a character that is no token. */
	for (c = 0; c < 256; c++)
		if (hf->fallback[c] == PSKD_RANK_NONE &&
		    !(c < 128 && hf->charid[c] != PSKD_RANK_NONE)) {
			unk = hf->unk != PSKD_RANK_NONE;
			drop = !unk;
		}
	if (drop)
		return;
	kind = kinds(hf);
	memset(blocked, 0, sizeof(blocked));
	/*
	 * The merges as read, in a row (a pair given twice is there twice,
	 * with the same token: the same marks), not the table by pair:
	 * Gemma 3's is 16 MB to the list's 6.
	 */
	for (j = 0; j < n; j++) {
		a = mlist[3 * j];
		b = mlist[3 * j + 1];
		kind[mlist[3 * j + 2]] |= K_MADE;
		if ((kind[a] | kind[b]) & K_ODD)
			stray = 1;
		if ((kind[b] & K_BEG) && !(kind[a] & K_END))
			blocked[kind[a] & K_LAST] = 1;
	}
	/* Every byte marked, the ASCII ones kept: no branch on a byte
	   (the non-ASCII ones of Gemma 3's tokens mispredicted). */
	memset(seen, 0, sizeof(seen));
	for (k = 0; k < r->n; k++) {
		if (!(kind[k] & K_MADE))
			continue;
		t = r->bytes + r->off[k];
		for (i = 0; i < r->len[k]; i++)
			seen[t[i]] = 1;
	}
	free(kind);
	for (c = 0; c < 128; c++) {
		if (hf->charid[c] != PSKD_RANK_NONE) {
			hf->cut.barafter[c] = !blocked[c];
			hf->cut.alone[c] = !seen[c];
		} else {
			hf->cut.barafter[c] = !stray;
			hf->cut.alone[c] = !seen[c] && !stray && !unk;
		}
	}
	hf->cut.barafter[128] = !blocked[128] && !stray;
	hf->cut.metacut = hf->metaid != PSKD_RANK_NONE;
	for (c = 0; c < 128; c++)
		hf->cut.stop[c] = hf->cut.alone[c];
	hf->cut.stop[bar[0]] = hf->cut.metacut;
}
