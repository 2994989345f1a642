/*
 * vocab.h - the vocabularies pskd-tok encodes and decodes with, behind one
 * interface.  A kind of vocabulary (a character list, tiktoken ranks, a
 * vocabulary of pskd-tok --train, a tokenizer.json) is a row of the table
 * in vocab.c: how to recognise its files, load one, encode text, decode
 * ids, name a single token, where a text may be cut.  What every kind
 * shares lives in struct pskd_vocab: the special tokens, V, the
 * pre-tokenizer.  A new format is one file with its functions and one row
 * of the table.
 *
 * Opening a vocabulary reads its file once (pskd_whole_open) and reports
 * what is wrong through a struct pskd_error; it never exits (but for
 * memory, as everywhere).
 */
#ifndef PSKD_VOCAB_H
#define PSKD_VOCAB_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "bpe.h"

/* encode()'s *badcp: invalid UTF-8 there; the tokenizer failed (v->why). */
#define PSKD_NOT_CHAR	UINT32_MAX
#define PSKD_NOT_DONE	(UINT32_MAX - 1)

/* decode()'s flags: where the ids stand in the text they decode. */
#define PSKD_DEC_FIRST	1	/* ids[0] starts a text */
#define PSKD_DEC_LAST	2	/* ids[n - 1] ends it */

/* The largest vocabulary file read (a tokenizer.json of 4 GiB). */
#define PSKD_VOCAB_MAXFILE	((size_t)1 << 32)

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
	 * 1 when a file whose bytes are p[0..n) is of this kind; NULL: any
	 * file (the last row) or only by name (-E).
	 */
	int	(*sniff)(const unsigned char *p, size_t n);
	/*
	 * Load the vocabulary whose file path (for messages and companion
	 * files) holds p[0..n), for the encoding named by -E (NULL: none
	 * given); set pattern, special, nspecial, nvocab.  0, or the exit
	 * status the error asks for (PSKD_EXIT_DATA: the file;
	 * PSKD_EXIT_USAGE: the options) with e set.
	 */
	int	(*load)(struct pskd_vocab *v, const char *path,
		    const unsigned char *p, size_t n, const char *encoding,
		    struct pskd_error *e);
	/* Before the first encode(): 0, or an exit status with e set. */
	int	(*ready)(struct pskd_vocab *v, struct pskd_error *e);
	/*
	 * Append the ids of text s[0..n) to out, with special tokens matched
	 * only when allow (else their text is ordinary text).  -1 when the
	 * text cannot be encoded: *bad the offset, *badcp the character not
	 * in the vocabulary, PSKD_NOT_CHAR (not UTF-8) or PSKD_NOT_DONE (a
	 * step of the tokenizer failed on the text: v->why says which).
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
	/*
	 * Where text that goes on after s[0..n) may be cut so that encoding
	 * the two parts one after the other gives the ids of the whole: the
	 * offset of the last such place, or 0 (none, or the kind cuts
	 * nowhere).  s may hold bytes that are not UTF-8 (-b).
	 */
	size_t	(*cut)(const struct pskd_vocab *v, const unsigned char *s,
		    size_t n);
	void	(*free)(struct pskd_vocab *v);
};

struct pskd_vocab {
	const struct pskd_vocab_kind *kind;
	const char	*name;		/* for messages: the file or encoding */
	int		 byname;	/* its file found by the encoding */
	int		 pattern;	/* PSKD_PAT_*, or -1: none */
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
	char		 why[512];	/* encode()'s PSKD_NOT_DONE */
	void		*impl;		/* the kind's own state */
};

/* The kinds, in the order vocab.c tries them on a -v file. */
extern const struct pskd_vocab_kind pskd_vocab_char, pskd_vocab_hf,
    pskd_vocab_trained, pskd_vocab_tiktoken;

/*
 * Open the vocabulary of -E encoding and -v path (either may be NULL; both
 * NULL: cl100k_base).  -E names a tiktoken encoding, char, or an installed
 * tokenizer.json (NAME.json where pskd_data_find looks); a -v file is
 * recognised by its bytes (a character a line: a character vocabulary).
 * 0, or the exit status the error asks for (1, or 2 for a bad -E or -v)
 * with e set.
 */
int	pskd_vocab_open(struct pskd_vocab *v, const char *encoding,
	    const char *path, struct pskd_error *e);
void	pskd_vocab_free(struct pskd_vocab *v);
/*
 * pskd-tok --compile: the vocabulary of -E encoding and -v path, which
 * must be a tokenizer.json (or a compiled one), compiled into out
 * (hf-compiled.c); 0, or an exit status with e set, as pskd_vocab_open.
 * pskd_hf_vocab_compile: the tokenizer.json kind's part, v loaded from
 * p[0..n).
 */
int	pskd_vocab_compile(const char *encoding, const char *path,
	    struct pskd_buf *out, struct pskd_error *e);
void	pskd_hf_vocab_compile(const struct pskd_vocab *v,
	    const unsigned char *p, size_t n, struct pskd_buf *out);
/*
 * The id of token text t: a special token's, else a single ordinary
 * token's; PSKD_RANK_NONE if neither.
 */
uint32_t pskd_vocab_id(const struct pskd_vocab *v, const char *t);
/*
 * A kind's encode() for special tokens: with allow, s[0..n) cut at them
 * (the leftmost, the longest of those there), the text between encoded by
 * ordinary() (whose -1 and *bad are passed on, *bad as an offset into s).
 */
typedef int pskd_vocab_ordinary_fn(struct pskd_vocab *v,
	    const unsigned char *s, size_t n, struct pskd_ids *out,
	    size_t *bad, uint32_t *badcp);
int	pskd_vocab_encode_split(struct pskd_vocab *v, const unsigned char *s,
	    size_t n, int allow, struct pskd_ids *out, size_t *bad,
	    uint32_t *badcp, pskd_vocab_ordinary_fn *ordinary);
/*
 * Kinds' cut(): the places where the pieces of a tiktoken pattern
 * (bpe-pretok.h's PSKD_PAT_*) end whatever follows, or any boundary
 * between two characters (a character vocabulary); never inside a special
 * token.
 */
size_t	pskd_vocab_cut_pattern(const struct pskd_vocab *v, int pattern,
	    const unsigned char *s, size_t n);
size_t	pskd_vocab_cut_chars(const struct pskd_vocab *v,
	    const unsigned char *s, size_t n);

#endif
