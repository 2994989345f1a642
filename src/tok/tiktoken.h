/*
 * tiktoken.h - the encodings of OpenAI's tiktoken (r50k_base, alias gpt2;
 * p50k_base; cl100k_base; o200k_base): their pre-tokenizer patterns,
 * special tokens and sizes, in one table (tiktoken-enc.c), which needs no
 * file: what pskd-tok, and through tokinfo.h the programs outside it, know
 * of an encoding by its name.
 */
#ifndef PSKD_TIKTOKEN_H
#define PSKD_TIKTOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "vocab.h"

#define PSKD_TIKTOKEN_MAXSPECIAL	5

struct pskd_tiktoken {
	const char	*name;
	int		 pattern;	/* PSKD_PAT_* */
	const char	*pattern_name;	/* the encoding it is named for */
	uint32_t	 nranks;	/* tokens in its ranks file */
	uint32_t	 nvocab;	/* V, tiktoken's n_vocab */
	uint32_t	 eot;		/* the id of <|endoftext|> */
	size_t		 nspecial;
	struct pskd_vocab_special special[PSKD_TIKTOKEN_MAXSPECIAL];
};

/* The encoding named name (gpt2: r50k_base), or NULL. */
const struct pskd_tiktoken *pskd_tiktoken_named(const char *name);
/*
 * The encoding of a ranks file: the one its file name starts with
 * ("cl100k_base", "cl100k_base.tiktoken"), else the one whose ranks file
 * holds ntokens tokens; NULL if neither.
 */
const struct pskd_tiktoken *pskd_tiktoken_of_file(const char *path,
	    uint32_t ntokens);
/* The encoding whose V is nvocab, or NULL. */
const struct pskd_tiktoken *pskd_tiktoken_of_size(uint64_t nvocab);
/* "r50k_base, p50k_base, cl100k_base, o200k_base": for messages. */
extern const char pskd_tiktoken_names[];

#endif
