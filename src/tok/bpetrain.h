/* bpetrain.h - `pskd-tok --train`: learn a byte-level BPE vocabulary. */
#ifndef PSKD_BPETRAIN_H
#define PSKD_BPETRAIN_H

#include <stddef.h>
#include <stdint.h>

/* The whole of `pskd-tok --train ...`: parses argv itself; exit status. */
int	pskd_tok_train_main(int argc, char **argv);

/*
 * The special tokens of a vocabulary trained with `pskd-tok --train -o
 * VOCAB`.  They are the last ranks of VOCAB (after the merges), and the
 * companion file VOCAB.special names them, one "TOKEN RANK" line each: the
 * token's text (UTF-8, no white space), one space, its rank in decimal.
 */
struct pskd_special {
	char		*text;		/* NUL-terminated */
	size_t		 len;
	uint32_t	 rank;
};

/*
 * Read VOCAB.special for the ranks file at path vocab.  Returns the number
 * of special tokens, with *sp an array to release with pskd_special_free();
 * 0 and *sp NULL when there is no such file.  A malformed file is fatal:
 * "pskd-tok: VOCAB.special:LINE: message" and exit 1.
 */
size_t	pskd_special_load(const char *vocab, struct pskd_special **sp);
void	pskd_special_free(struct pskd_special *sp, size_t n);
/*
 * The same from the text of such a file, p[0..n): 0, or -1 with
 * "LINE: message" in err.
 */
int	pskd_special_parse(const unsigned char *p, size_t n,
	    struct pskd_special **sp, size_t *nsp, char *err, size_t errsize);
/* 1 if text[0..n) may be a special token: UTF-8, not empty, no white space. */
int	pskd_special_valid(const unsigned char *text, size_t n);

#endif
