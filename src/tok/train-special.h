/*
 * train-special.h - the companion file VOCAB.special of a vocabulary trained
 * with `pskd-tok --train -o VOCAB`: its special tokens, which are the last
 * ranks of VOCAB (after the merges), and the pre-tokenizer it was trained
 * with.  One "TOKEN RANK" line per special token: the token's text (UTF-8,
 * no white space), one space, its rank in decimal; and lines without a
 * space: "pattern=NAME", NAME the pattern's encoding (r50k_base,
 * cl100k_base, o200k_base), and "ranks=HASH".
 *
 * The two files are renamed into place one after the other, so for a run
 * stopped between the renames to leave a pair that goes together, the
 * companion is a list of sections, each for one ranks file: a "ranks=HASH"
 * line (HASH the XXH3-64 of all the bytes of that ranks file, 16 hex
 * digits) and its lines up to the next.  --train writes the section of
 * the new VOCAB and then that of the VOCAB it replaces, renames the
 * companion, then VOCAB: whichever VOCAB is there has its section.  A
 * section without a line is a VOCAB that had no companion.  Files of
 * older pskd-tok have no "ranks=" line (one section, for any VOCAB), nor
 * a pattern line.
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

/* One section of a companion file. */
struct pskd_companion {
	struct pskd_special *sp;
	size_t		 n;
	int		 pattern;	/* PSKD_PAT_*, or -1: not recorded */
	int		 hasranks;	/* 0: a file of older pskd-tok */
	uint64_t	 ranks;		/* the XXH3-64 of its ranks file */
};

/* The hash a section names its ranks file by. */
uint64_t pskd_special_hash(const unsigned char *p, size_t n);
/*
 * Read VOCAB.special for the ranks file at path vocab, whose bytes are
 * p[0..n), into c: 1; 0 (and c empty) when there is no such file, or its
 * section for these ranks has no line; -1 with e set
 * ("VOCAB.special:LINE: message") when it cannot be read, is malformed or
 * has no section for these ranks.
 */
int	pskd_special_load(const char *vocab, const unsigned char *p, size_t n,
	    struct pskd_companion *c, struct pskd_error *e);
void	pskd_special_free(struct pskd_companion *c);
/*
 * The same from the text of such a file, p[0..n), for the ranks of hash
 * ranks: 1, with the section for them (the whole file when it has no
 * "ranks=" line) in c; 0 (c empty) when it has sections but none for
 * them; -1 (c empty) with "LINE: message" in err.
 */
int	pskd_special_parse(const unsigned char *p, size_t n, uint64_t ranks,
	    struct pskd_companion *c, char *err, size_t errsize);
/*
 * The text of a section: its "ranks=" line (with hasranks), the pattern
 * line (if any), then the tokens.
 */
void	pskd_special_write(struct pskd_writer *w,
	    const struct pskd_companion *c);
/* 1 if text[0..n) may be a special token: UTF-8, not empty, no white space. */
int	pskd_special_valid(const unsigned char *text, size_t n);

#endif
