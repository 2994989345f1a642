/*
 * tok.h - pskd-tok's modes, one function each, called by main with the
 * options it parsed: encode (documents to a token stream, mode-encode.c),
 * decode (a stream of ids back to text, mode-decode.c), --build-vocab (a
 * character vocabulary, mode-build.c), --train (a BPE vocabulary,
 * mode-train.c) and --compile (a tokenizer.json's tables, mode-build.c);
 * and what they share (mode-input.c).
 */
#ifndef PSKD_TOK_H
#define PSKD_TOK_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

struct pskd_tok_opt {
	int		 allow_special;	/* --allow-special */
	int		 bytes;		/* -b */
	const char	*bos;		/* --bos */
	int		 nobos;		/* --no-bos */
	const char	*encoding;	/* -E */
	const char	*eot;		/* -e */
	const char	*field;		/* -f */
	struct pskd_doc	*doc;		/* -f's members, for JSON Lines */
	int		 input;		/* 'j' JSON Lines, 'l' -l, 'r' -r */
	int		 noeot;		/* --no-eot */
	const char	*output;	/* -o */
	const char	*rejects;	/* --rejects */
	const char	*vocab;		/* -v */
	/* --train */
	size_t		 ntokens;	/* --train N */
	uint64_t	 minfreq;	/* --min-frequency */
	const char	**special;	/* --special, in order */
	size_t		 nspecial;
};

void	pskd_tok_encode(const struct pskd_tok_opt *o, int argc, char **argv);
void	pskd_tok_decode(const struct pskd_tok_opt *o, int argc, char **argv);
void	pskd_tok_build(const struct pskd_tok_opt *o, int argc, char **argv);
void	pskd_tok_train(const struct pskd_tok_opt *o, int argc, char **argv);
void	pskd_tok_compile(const struct pskd_tok_opt *o, int argc, char **argv);

/*
 * Each input (standard input when argc is 0, or for "-") through fn: a
 * reader opened on it, closed after.
 */
void	pskd_tok_each_input(int argc, char **argv,
	    void (*fn)(struct pskd_reader *));
/* The line and column of s[off] in a text that starts at line *line. */
void	pskd_tok_locate(const unsigned char *s, size_t off, uint64_t *line,
	    size_t *col);

#endif
