/*
 * train.h - the core of `pskd-tok --train`: count pre-tokens, then learn
 * byte-level BPE merges from the counts.
 */
#ifndef PSKD_TRAIN_H
#define PSKD_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/*
 * Distinct byte strings (pre-tokens) with 64-bit counts: memory grows with
 * the number of distinct strings, not with the input.
 */
struct pskd_wordcount;

struct pskd_wordcount *pskd_wordcount_new(void);
void	pskd_wordcount_add(struct pskd_wordcount *wc, const unsigned char *s,
	    size_t n);
size_t	pskd_wordcount_size(const struct pskd_wordcount *wc);
/*
 * The strings one after another, in the table's order: from *pos = 0,
 * 1 with the next in s[0..n) and its count, 0 at the end.
 */
int	pskd_wordcount_next(const struct pskd_wordcount *wc, size_t *pos,
	    const unsigned char **s, size_t *n, uint64_t *count);
/* How many times s[0..n) was added. */
uint64_t pskd_wordcount_get(const struct pskd_wordcount *wc,
	    const unsigned char *s, size_t n);
/*
 * Add the pre-tokens (under pattern) of p[0..n) that end at or before
 * limit; the bytes after limit are lookahead.  Returns where the last one
 * ended: limit, or less when a piece would cross it.  p[0..n) is UTF-8.
 */
size_t	pskd_wordcount_text(struct pskd_wordcount *wc, int pattern,
	    const unsigned char *p, size_t n, size_t limit);
/*
 * Where text that goes on after p[0..n) may be cut so that the pieces
 * before the cut are those of the whole text: the last line break followed
 * by a character that is not white space.  Returns the offset after the
 * line break, with *look the length of that character (the lookahead the
 * pieces need), or 0 when there is no such place.
 */
size_t	pskd_train_cut(const unsigned char *p, size_t n, size_t *look);
void	pskd_wordcount_free(struct pskd_wordcount *wc);

/*
 * A learned vocabulary: token r (its rank) is bytes[off[r] .. off[r+1]).
 * Ranks 0..255 are the single bytes, rank = byte value; then the merges in
 * the order they were learned.
 */
struct pskd_bpe_vocab {
	size_t		 ntokens;
	size_t		 nmerges;	/* merges done (>= ntokens - 256) */
	uint64_t	 stopcount;	/* count of the best pair left, or 0 */
	unsigned char	*bytes;
	size_t		*off;		/* ntokens + 1 offsets */
	uint32_t	*merge;		/* merge i joined ranks merge[2i], [2i+1] */
};

/*
 * Learn merges until the vocabulary holds ntokens tokens or no pair occurs
 * at least minfreq times.  The pair merged next is the one with the highest
 * count; among equal counts the one whose left token has the lowest rank,
 * then whose right token has the lowest rank.  A merge whose bytes are
 * already a token merges into that token and adds no rank.  progress, when
 * not NULL, is called after every merge with the tokens so far.
 */
void	pskd_bpe_learn(const struct pskd_wordcount *wc, size_t ntokens,
	    uint64_t minfreq, struct pskd_bpe_vocab *v,
	    void (*progress)(size_t ntok, size_t want));
void	pskd_bpe_vocab_free(struct pskd_bpe_vocab *v);
/* The rank of the token with these bytes, or -1. */
long long pskd_bpe_vocab_find(const struct pskd_bpe_vocab *v,
	    const unsigned char *s, size_t n);

/*
 * A learned vocabulary written out (train-write.c), the special tokens
 * after its tokens: as "BASE64 RANK" lines (returns the hash of what it
 * wrote, pskd_special_hash's); the companion VOCAB.special of those (the
 * pattern, the special tokens' ranks, in the section for the ranks of that
 * hash), followed by the section old (NULL: none) of the ranks they
 * replace; or a tokenizer.json.
 */
struct pskd_companion;
uint64_t pskd_train_write_ranks(struct pskd_writer *w,
	    const struct pskd_bpe_vocab *v, const char *const *special,
	    size_t nspecial);
void	pskd_train_write_special(struct pskd_writer *w,
	    const struct pskd_bpe_vocab *v, int pattern,
	    const char *const *special, size_t nspecial, uint64_t ranks,
	    const struct pskd_companion *old);
void	pskd_train_write_json(struct pskd_writer *w,
	    const struct pskd_bpe_vocab *v, int pattern,
	    const char *const *special, size_t nspecial);

#endif
