/*
 * vocab.h - the vocabularies pskd-tok encodes and decodes with, behind one
 * interface.  A kind of vocabulary (a character list, tiktoken ranks, a
 * vocabulary of pskd-tok --train, ...) is a row of the table in vocab.c:
 * how to recognise its files, load one, encode text, decode ids, name a
 * single token.  What every kind shares lives in struct pskd_vocab: the
 * special tokens, V, the pre-tokenizer.  A new format is one file with its
 * functions and one row of the table.
 */
#ifndef PSKD_VOCAB_H
#define PSKD_VOCAB_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "bpe.h"

#define PSKD_NOT_CHAR	UINT32_MAX	/* *badcp: invalid UTF-8 there */

/* decode()'s flags: where the ids stand in the text they decode. */
#define PSKD_DEC_FIRST	1	/* ids[0] starts a text */
#define PSKD_DEC_LAST	2	/* ids[n - 1] ends it */

/*
 * A special (or added) token: its text and id.  Decoding writes a special
 * token as its text between the texts the kind decodes; an inner one (a
 * tokenizer.json's added token that is not special) the kind decodes with
 * the tokens around it.
 */
struct pskd_vocab_special {
	const char	*text;
	size_t		 len;
	uint32_t	 id;
	int		 inner;
};

struct pskd_vocab;

struct pskd_vocab_kind {
	const char	*name;		/* "char", "tiktoken", ... */
	/*
	 * 1 when the file path, whose first bytes are head[0..n), is of this
	 * kind; NULL: only by name (-E).
	 */
	int	(*sniff)(const char *path, const unsigned char *head, size_t n);
	/*
	 * Load path (NULL: the file of the named encoding, or none), for the
	 * encoding named by -E (NULL: none given); set name, pattern,
	 * special, nspecial, nvocab.  Exits with a message on error.
	 */
	void	(*load)(struct pskd_vocab *v, const char *path,
		    const char *encoding);
	/*
	 * Append the ids of text s[0..n) to out, with special tokens matched
	 * only when allow (else their text is ordinary text).  -1 when a
	 * character cannot be encoded: *bad its offset, *badcp the character
	 * or PSKD_NOT_CHAR.
	 */
	int	(*encode)(struct pskd_vocab *v, const unsigned char *s,
		    size_t n, int allow, struct pskd_ids *out, size_t *bad,
		    uint32_t *badcp);
	/*
	 * Append the bytes of ids[0..n), ordinary tokens (no special one),
	 * to out; flags PSKD_DEC_*.  -1 with *bad the index of an id that
	 * is no token.
	 */
	int	(*decode)(struct pskd_vocab *v, const uint32_t *ids, size_t n,
		    int flags, struct pskd_buf *out, size_t *bad);
	/* The id of the one ordinary token text[0..n), or PSKD_RANK_NONE. */
	uint32_t (*token)(const struct pskd_vocab *v, const unsigned char *text,
		    size_t n);
};

struct pskd_vocab {
	const struct pskd_vocab_kind *kind;
	const char	*name;		/* for messages: the file or encoding */
	int		 pattern;	/* PSKD_PAT_* of the pre-tokenizer, or -1 */
	struct pskd_vocab_special *special;
	size_t		 nspecial;
	uint64_t	 nvocab;	/* V: one past the largest id */
	/*
	 * The tokens before and after each document when the kind says
	 * (template set: a tokenizer.json's post-processor); else none
	 * before and <|endoftext|> after.
	 */
	int		 template;
	uint32_t	*bos, *eos;
	size_t		 nbos, neos;
	void		*impl;		/* the kind's own state */
};

/* The kinds (vocab-*.c), in the order vocab.c tries them. */
extern const struct pskd_vocab_kind pskd_vocab_char, pskd_vocab_hf,
    pskd_vocab_trained, pskd_vocab_tiktoken;

/* 1 if name is an encoding of tiktoken's (-E), gpt2 included. */
int	pskd_vocab_is_encoding(const char *name);

/*
 * Open the vocabulary of -E encoding and -v path (either may be NULL; both
 * NULL: cl100k_base).  -E names a tiktoken encoding, char, or an installed
 * tokenizer.json (NAME.json where pskd_data_find looks).  Exits with a
 * message (status 1, or 2 for a bad -E).
 */
void	pskd_vocab_open(struct pskd_vocab *v, const char *encoding,
	    const char *path);
/*
 * The -E name of the tiktoken encoding whose V is nvocab, or NULL (pskd-tok
 * -d reading a stream without -E or -v).
 */
const char *pskd_vocab_guess(uint64_t nvocab);
/*
 * The id of token text t: a special token's, else a single ordinary
 * token's; PSKD_RANK_NONE if neither.
 */
uint32_t pskd_vocab_id(const struct pskd_vocab *v, const char *t);
/* The special token with id, or NULL. */
const struct pskd_vocab_special *pskd_vocab_special_id(
	    const struct pskd_vocab *v, uint64_t id);
/*
 * The first special token in s[from..n): its offset (n: none), *which its
 * index in v->special; the longest of those that start there.
 */
size_t	pskd_vocab_next_special(const struct pskd_vocab *v,
	    const unsigned char *s, size_t n, size_t from, size_t *which);
/*
 * A kind's encode() for special tokens found by pskd_vocab_next_special():
 * with allow, s[0..n) cut at them, the text between encoded by ordinary()
 * (whose -1 and *bad are passed on, *bad as an offset into s).
 */
typedef int pskd_vocab_ordinary_fn(struct pskd_vocab *v,
	    const unsigned char *s, size_t n, struct pskd_ids *out,
	    size_t *bad, uint32_t *badcp);
int	pskd_vocab_encode_split(struct pskd_vocab *v, const unsigned char *s,
	    size_t n, int allow, struct pskd_ids *out, size_t *bad,
	    uint32_t *badcp, pskd_vocab_ordinary_fn *ordinary);
/* The whole of a small file into b; exits on error. */
void	pskd_vocab_slurp(const char *path, struct pskd_buf *b);

#endif
