/*
 * train-special.h - the companion file VOCAB.special of a vocabulary trained
 * with `pskd-tok --train -o VOCAB`: its special tokens, which are the last
 * ranks of VOCAB (after the merges), and the pre-tokenizer it was trained
 * with.  One "TOKEN RANK" line per special token: the token's text (UTF-8,
 * no white space), one space, its rank in decimal; and a line without a
 * space, "pattern=NAME", NAME the pattern's encoding (r50k_base,
 * cl100k_base, o200k_base).  Files of older pskd-tok have no pattern line.
 */
#ifndef PSKD_TRAIN_SPECIAL_H
#define PSKD_TRAIN_SPECIAL_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

struct pskd_special {
	char		*text;		/* NUL-terminated */
	size_t		 len;
	uint32_t	 rank;
};

struct pskd_companion {
	struct pskd_special *sp;
	size_t		 n;
	int		 pattern;	/* PSKD_PAT_*, or -1: not recorded */
};

/*
 * Read VOCAB.special for the ranks file at path vocab into c: 1, or 0
 * (and c empty) when there is no such file; -1 with e set
 * ("VOCAB.special:LINE: message") when it cannot be read or is malformed.
 */
int	pskd_special_load(const char *vocab, struct pskd_companion *c,
	    struct pskd_error *e);
void	pskd_special_free(struct pskd_companion *c);
/*
 * The same from the text of such a file, p[0..n): 0, or -1 (c empty) with
 * "LINE: message" in err.
 */
int	pskd_special_parse(const unsigned char *p, size_t n,
	    struct pskd_companion *c, char *err, size_t errsize);
/* The text of the file: the pattern line (if any), then the tokens. */
void	pskd_special_write(struct pskd_writer *w,
	    const struct pskd_companion *c);
/* 1 if text[0..n) may be a special token: UTF-8, not empty, no white space. */
int	pskd_special_valid(const unsigned char *text, size_t n);

#endif
