/*
 * tokinfo.h - what pskd-tok knows of a tokenizer, for the programs outside
 * its family (pskd-export, pskd-stats, and any later one that needs it):
 * the size of its vocabulary V, the end-of-text id pskd-tok writes after
 * each document, its special tokens and its pre-tokenizer, by encoding
 * name (-E) or by vocabulary file (-v), with the rules of pskd-tok(1).
 * src/tok is the one owner of these facts: a program does not keep its
 * own table of them.
 *
 * The functions report errors through a struct pskd_error and never exit
 * (but when memory runs out, as everywhere).  Link libpskd-tok.a (and
 * -lpcre2-8, for a tokenizer.json): tok.mk names the programs that do.
 */
#ifndef PSKD_TOKINFO_H
#define PSKD_TOKINFO_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

struct pskd_tokinfo_special {
	char		*text;		/* UTF-8, NUL-terminated */
	size_t		 len;
	uint64_t	 id;
};

struct pskd_tokinfo {
	char		*name;		/* the encoding, or the file */
	/* "tiktoken", "trained", "char" or "tokenizer.json"; NULL: only V */
	const char	*kind;
	uint64_t	 nvocab;	/* V: one past the largest id */
	/*
	 * The id pskd-tok writes after each document when no -e or
	 * --no-eot is given (haseot 0: none, as for a tokenizer.json whose
	 * post-processor puts no single token after a text).
	 */
	int		 haseot;
	uint64_t	 eot;
	/* The pre-tokenizer's tiktoken pattern ("cl100k_base"), or NULL. */
	const char	*pattern;
	struct pskd_tokinfo_special *special;	/* in the vocabulary's order */
	size_t		 nspecial;
};

/*
 * The tokenizer of -E encoding and -v path, as pskd-tok opens it (either
 * may be NULL, not both): a tiktoken encoding's name needs no file; a
 * file is read whole.  0, or the exit status the error asks for
 * (PSKD_EXIT_DATA: a file is missing or bad; PSKD_EXIT_USAGE: an unknown
 * encoding, or one the file does not go with) with e set to a message
 * without the program's name ("-E foo: unknown encoding (...)").
 */
int	pskd_tokinfo_get(struct pskd_tokinfo *ti, const char *encoding,
	    const char *path, struct pskd_error *e);
/*
 * What a stream of V = nvocab ids tells when nothing else does: the
 * tiktoken encoding whose V that is (1), or (0) kind NULL and the
 * end-of-text id V - 1, where a character vocabulary and one trained with
 * one special token have <|endoftext|>.
 */
int	pskd_tokinfo_of_size(struct pskd_tokinfo *ti, uint64_t nvocab);
void	pskd_tokinfo_free(struct pskd_tokinfo *ti);

#endif
