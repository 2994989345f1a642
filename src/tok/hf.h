/*
 * hf.h - Hugging Face tokenizer.json files: a BPE model with the pipeline
 * HF tokenizers runs around it (added tokens, normalizers, pre-tokenizers,
 * the post-processor's tokens around a text, decoders), loaded by
 * hf-load*.c, run by hf-vocab.c with the parts in hf-added.c, hf-norm.c,
 * hf-regex.c, hf-pretok.c, hf-bpe.c and hf-decode.c.  What a file asks for
 * that is not here is refused when it is loaded, never run differently.
 */
#ifndef PSKD_HF_H
#define PSKD_HF_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "bpe.h"
#include "bpe-ranks.h"

/* A compiled regular expression (PCRE2, JIT when it can). */
struct pskd_hf_regex;

/*
 * Compile an HF pattern: its \s and \S (outside [...]) mean White_Space as
 * Oniguruma's do, and \p{L}, \p{N} and o200k's letter classes are given
 * the classes of build/gen/ucd.h (Unicode 16.0, as the tokenizers npm
 * module has them), so that PCRE2's older tables do not show.  NULL with
 * a message in err on failure.
 */
struct pskd_hf_regex *pskd_hf_regex_new(const char *pattern, size_t len,
	    int literal, char *err, size_t errsize);
void	pskd_hf_regex_free(struct pskd_hf_regex *re);
/*
 * Every match in s[0..n) as HF's find_iter gives them (Oniguruma's: an
 * empty match right after the previous match is skipped): start and end
 * pairs into *v (grown as needed), their number in *k: 0, or -1 when
 * PCRE2 gives up on the text (its match limit, its JIT stack), with why
 * in err.
 */
int	pskd_hf_regex_all(struct pskd_hf_regex *re, const unsigned char *s,
	    size_t n, size_t **v, size_t *cap, size_t *k, char *err,
	    size_t errsize);

/* Split behaviours (SplitDelimiterBehavior). */
enum { HF_REMOVED, HF_ISOLATED, HF_MERGED_PREV, HF_MERGED_NEXT,
    HF_CONTIGUOUS };

/* Normalizers. */
enum { HF_N_NFC, HF_N_NFD, HF_N_NFKC, HF_N_NFKD, HF_N_LOWER, HF_N_STRIP,
    HF_N_PREPEND, HF_N_REPLACE };

struct pskd_hf_norm {
	int		 type;
	int		 left, right;	/* Strip */
	char		*a;		/* Prepend's text; Replace's string */
	size_t		 alen;
	char		*b;		/* Replace's content */
	size_t		 blen;
	struct pskd_hf_regex *re;	/* Replace */
	uint64_t	 line;		/* where the file has it */
};

/* Pre-tokenizers. */
enum { HF_P_BYTELEVEL, HF_P_SPLIT, HF_P_METASPACE, HF_P_DIGITS,
    HF_P_PUNCT, HF_P_WHITESPACE, HF_P_WSPLIT };
/* Their names in a file, and the normalizers' (by HF_N_*). */
extern const char *const pskd_hf_pretok_names[], *const pskd_hf_norm_names[];
/* Metaspace's prepend_scheme. */
enum { HF_PREPEND_ALWAYS, HF_PREPEND_FIRST, HF_PREPEND_NEVER };

struct pskd_hf_pretok {
	int		 type;
	int		 behavior;	/* Split, Punctuation */
	int		 invert;	/* Split */
	int		 prefix_space;	/* ByteLevel */
	int		 use_regex;	/* ByteLevel */
	int		 individual;	/* Digits */
	int		 prepend;	/* Metaspace: HF_PREPEND_* */
	int		 split;		/* Metaspace */
	char		 rep[4];	/* Metaspace's replacement (UTF-8) */
	size_t		 replen;
	int		 fast;		/* PSKD_PAT_* cutting as re, or -1 */
	struct pskd_hf_regex *re;	/* Split; ByteLevel's own */
	uint64_t	 line;		/* where the file has it */
};

/* Decoders. */
enum { HF_D_BYTELEVEL, HF_D_BYTEFALLBACK, HF_D_FUSE, HF_D_STRIP,
    HF_D_REPLACE, HF_D_METASPACE };

struct pskd_hf_dec {
	int		 type;
	char		*a;		/* Replace's pattern, Strip's content,
					   Metaspace's replacement */
	size_t		 alen;
	char		*b;		/* Replace's content */
	size_t		 blen;
	int		 start, stop;	/* Strip */
	int		 prepend;	/* Metaspace */
};

/* An added token. */
struct pskd_hf_added {
	char		*text;
	size_t		 len;
	uint32_t	 id;
	unsigned char	 special, single_word, lstrip, rstrip, normalized;
};

/* ▁ (U+2581), Metaspace's stand-in for a space, in UTF-8. */
#define PSKD_HF_BARCP	0x2581
#define PSKD_HF_BAR	"\xe2\x96\x81"
#define PSKD_HF_BARLEN	3

/*
 * Where words may be cut (hf-cuts.c): before a ▁ when metacut and
 * barafter[c] of the byte c before it (128: any byte >= 128), and around
 * the ASCII characters with alone[].  Bytes only: a compiled file holds
 * it as it is (hf-compiled.c).
 */
struct pskd_hf_cuts {
	unsigned char	 metacut;
	unsigned char	 barafter[129];
	unsigned char	 alone[128];
	unsigned char	 stop[256];	/* the first bytes of both */
};

/* The merges: (left, right) -> (rank, new id), open addressing. */
struct pskd_hf_mslot {
	uint64_t	 key;		/* (left << 32 | right) + 1; 0: empty */
	uint32_t	 rank;
	uint32_t	 id;
};

struct pskd_hf_merges {
	struct pskd_hf_mslot *slot;
	size_t		 mask;
	size_t		 n;
};

struct pskd_hf {
	/* The model: BPE. */
	struct pskd_ranks vocab;	/* a token's bytes -> its id */
	int		 bytelevel;	/* tokens stored as bytes, the
					   ByteLevel alphabet undone */
	/*
	 * The merges: for a vocabulary of characters in a table by pair; for
	 * a byte-level one by the token each makes, since bpe.c finds a merge
	 * by its result: the merges that make token c are k = mstart[c] ..
	 * mstart[c + 1] - 1, the left part mleft[k], the rank mrank[k].
	 */
	struct pskd_hf_merges merges;
	uint32_t	*mstart, *mleft, *mrank;
	uint32_t	 unk;		/* PSKD_RANK_NONE: no unk_token */
	int		 fuse_unk, byte_fallback, ignore_merges;
	int		 apart;		/* a merge's token: its parts' bytes
					   joined, not always (bpe.c's msplit) */
	char		*prefix, *suffix;	/* continuing_subword_prefix,
						   end_of_word_suffix */
	size_t		 prefixlen, suffixlen;
	uint32_t	 fallback[256];	/* <0xNN>'s id, or PSKD_RANK_NONE */
	struct pskd_hf_cuts cut;
	/* The token of each character below PSKD_HF_CHARS, or NONE. */
#define PSKD_HF_CHARS	2048
	uint32_t	 charid[PSKD_HF_CHARS];
	uint32_t	 metaid;	/* the token of PSKD_HF_BAR, or NONE */
	/* The pipeline. */
	struct pskd_hf_norm *norm;
	size_t		 nnorm;
	struct pskd_hf_pretok *pre;
	size_t		 npre;
	struct pskd_hf_dec *dec;
	size_t		 ndec;
	struct pskd_hf_added *added;
	size_t		 nadded;
	int		 anynormalized;	/* added tokens with normalized */
	uint32_t	*bos, *eos;	/* the post-processor's tokens */
	size_t		 nbos, neos;
	uint64_t	 nvocab;	/* V */
	/* A compiled file's splits, for pskd_bpe_init_hf (which takes
	   them). */
	struct pskd_bpe_splits splits;
	/* Where the model's vocab and merges are in the file read (what
	   pskd_hf_compile leaves out). */
	size_t		 vocabat, vocablen, mergesat, mergeslen;
};

/*
 * Read a tokenizer.json from p[0..n): 0, or -1 with "LINE: message" in err
 * when it is malformed or asks for what is not supported.
 */
int	pskd_hf_parse(struct pskd_hf *hf, const unsigned char *p, size_t n,
	    char *err, size_t errsize);
/*
 * Free what pskd_hf_parse made, also after it failed (what it had read
 * then; the tables of the part it was reading are left behind).
 */
void	pskd_hf_free(struct pskd_hf *hf);
/* 1 when head[0..n), a file's first bytes, looks like a tokenizer.json. */
int	pskd_hf_sniff(const unsigned char *head, size_t n);

/*
 * A compiled tokenizer.json (hf-compiled.c, pskd-tok --compile): the
 * tables of hf, loaded from json[0..n), with e's splits (a byte-level
 * vocabulary's engine, or NULL), and the rest of that file, into out; read back by pskd_hf_parse_compiled as pskd_hf_parse reads the file
 * (its errors " why", or "LINE: why" of the JSON it holds).  Its sniff:
 * 1 when head[0..n) begins one.
 */
void	pskd_hf_compile(const struct pskd_hf *hf, const struct pskd_bpe *e,
	    const unsigned char *json, size_t n, struct pskd_buf *out);
int	pskd_hf_parse_compiled(struct pskd_hf *hf, const unsigned char *p,
	    size_t n, char *err, size_t errsize);
int	pskd_hf_compiled_sniff(const unsigned char *head, size_t n);
extern int pskd_hf_compiled_nosum;	/* the fuzz target's: no checksum */

/* The ByteLevel alphabet: the character of byte b, and back (-1: none). */
uint32_t pskd_hf_byte_char(unsigned b);
int	pskd_hf_char_byte(uint32_t cp);
/* The same as a table by code point, below PSKD_HF_ALPHABET_END. */
#define PSKD_HF_ALPHABET_END	0x144
const int16_t *pskd_hf_char_bytes(void);

/* A merge's slot key (0: an empty slot), and its pair back. */
static inline uint64_t
pskd_hf_mkey(uint32_t a, uint32_t b)
{
	return ((uint64_t)a << 32 | b) + 1;
}

static inline void
pskd_hf_mpair(uint64_t key, uint32_t *a, uint32_t *b)
{
	*a = (uint32_t)((key - 1) >> 32);
	*b = (uint32_t)(key - 1);
}

/* Merges: the rank of (a, b) with *id the token it makes, or NONE. */
static inline uint32_t
pskd_hf_merge(const struct pskd_hf_merges *m, uint32_t a, uint32_t b,
    uint32_t *id)
{
	uint64_t k = pskd_hf_mkey(a, b), h;
	size_t i;

	h = (k ^ k >> 29) * 0xbf58476d1ce4e5b9ULL;
	for (i = (size_t)(h >> 32) & m->mask;; i = (i + 1) & m->mask) {
		if (m->slot[i].key == k) {
			*id = m->slot[i].id;
			return m->slot[i].rank;
		}
		if (m->slot[i].key == 0)
			return PSKD_RANK_NONE;
	}
}
/* Fetch the slot of (a, b) ahead of pskd_hf_merge(). */
static inline void
pskd_hf_merge_prefetch(const struct pskd_hf_merges *m, uint32_t a, uint32_t b)
{
	uint64_t k = pskd_hf_mkey(a, b), h;

	h = (k ^ k >> 29) * 0xbf58476d1ce4e5b9ULL;
	__builtin_prefetch(&m->slot[(size_t)(h >> 32) & m->mask]);
}
/*
 * An empty table for about n merges; it grows as merges are added (3/4
 * full at most).
 */
void	pskd_hf_merges_init(struct pskd_hf_merges *m, size_t n);
/* Add a merge; a pair given again takes the later rank (as HF does). */
void	pskd_hf_merges_add(struct pskd_hf_merges *m, uint32_t a, uint32_t b,
	    uint32_t rank, uint32_t id);
void	pskd_hf_merges_free(struct pskd_hf_merges *m);

/* Scratch of the merge loop. */
struct pskd_hf_scratch {
	uint32_t	*nx, *pv, *rk, *nw;
	uint64_t	*heap;
	size_t		 cap;
	int		 avx2;		/* hf-bpe.c's lowest_avx2 */
};


/*
 * The model on one word w[0..n) (after the pre-tokenizers), for a
 * vocabulary that is not byte-level: characters to tokens (unk, byte
 * fallback), merges; the ids appended to out.
 */
struct pskd_hf_words;
struct pskd_hf_words *pskd_hf_words_new(const struct pskd_hf *hf);
void	pskd_hf_words_free(struct pskd_hf_words *w);
void	pskd_hf_word(struct pskd_hf_words *w, const unsigned char *s,
	    size_t n, struct pskd_ids *out);
/*
 * The same for k words s[at[i] .. at[i + 1]) (k <= PSKD_HF_BATCH) of a
 * text s[0..len), their cache entries fetched together.
 */
#define PSKD_HF_BATCH	32
void	pskd_hf_word_batch(struct pskd_hf_words *w, const unsigned char *s,
	    size_t len, const size_t *at, size_t k, struct pskd_ids *out);

/*
 * A normalized text may be at most PSKD_HF_GROWTH times as long as the
 * text, and PSKD_HF_SLACK bytes (the most NFKD makes of one character is
 * 11 times its bytes): a Sequence of normalizers that each make the text
 * longer is stopped there.
 */
#define PSKD_HF_GROWTH	16
#define PSKD_HF_SLACK	4096

/*
 * Normalize s[0..n) into out (replacing it): 0, or -1 with "LINE: the
 * normalizer TYPE: why" in err (LINE: where the file has it).
 */
int	pskd_hf_normalize(const struct pskd_hf *hf, const unsigned char *s,
	    size_t n, struct pskd_buf *out, char *err, size_t errsize);
/*
 * 1 when the normalizers leave s[0..n) as it is, as far as a quick look
 * tells (only NFC is looked at: 0 for the others, which may still).
 */
int	pskd_hf_normal_already(const struct pskd_hf *hf,
	    const unsigned char *s, size_t n);

/* Pieces of a text: [off, off + len) of a buffer, and where they began. */
struct pskd_hf_piece {
	size_t		 off, len;
	int		 first;		/* at the start of the text */
};

struct pskd_hf_pieces {
	struct pskd_hf_piece *v;
	size_t		 n, cap;
	struct pskd_buf	 buf;		/* their bytes */
};

/*
 * The pre-tokenizers on s[0..n) (one text between added tokens; first:
 * it starts the document): the pieces into p (replacing it).  0, or -1
 * with "LINE: the pre-tokenizer TYPE: why" in err.
 */
int	pskd_hf_pretokenize(const struct pskd_hf *hf, const unsigned char *s,
	    size_t n, int first, struct pskd_hf_pieces *p, char *err,
	    size_t errsize);

/*
 * The added tokens as a trie of their bytes (hf-added.c): those matched
 * on the text as it is, or (normalized) on the normalized text.
 */
struct pskd_hf_anode {
	int32_t		 token;		/* index into hf->added, or -1 */
	uint32_t	 nedge;
	unsigned char	*eb;		/* edge bytes */
	uint32_t	*ec;		/* their children */
};

struct pskd_hf_atrie {
	struct pskd_hf_anode *node;
	size_t		 nnode;
	int32_t		 root[256];	/* the child of the root by byte */
	int		 nfirst;	/* bytes with a child at the root */
	unsigned char	 first;		/* the one, when nfirst is 1 */
	struct pskd_byteset firsts;	/* all of them */
	int		 allspecial;
};

/* 0, or -1 with the normalizer's error in err. */
int	pskd_hf_atrie_build(struct pskd_hf_atrie *t, const struct pskd_hf *hf,
	    int normalized, char *err, size_t errsize);
/*
 * The next added token in s[*from..n) of trie t, as HF's find_matches:
 * leftmost, the longest there; special ones only with allow (else
 * skipped, the search going on after them); single_word ones only between
 * non-word characters; lstrip and rstrip take the white space beside
 * them (lstrip not back past *from, the end of the previous one).
 * Returns 1 with [*a, *b) and the token in *which.
 */
int	pskd_hf_next_added(const struct pskd_hf *hf,
	    const struct pskd_hf_atrie *t, const unsigned char *s, size_t n,
	    size_t *from, int allow, size_t *a, size_t *b, size_t *which);

/* The lists of tokens the decoders pass on (hf-decode.c). */
struct pskd_hf_decoder {
	struct pskd_buf	 dbuf[2];
	size_t		*dtok[2];	/* token i: off, len pairs */
	size_t		 dcap[2];
	size_t		 ntok[2];
};

/*
 * HF's decode of a run of ids (flags: vocab.h's PSKD_DEC_*) appended to
 * out; -1 with *bad the index of an id that is no token.
 */
int	pskd_hf_decode(const struct pskd_hf *hf, struct pskd_hf_decoder *h,
	    const uint32_t *ids, size_t n, int flags, struct pskd_buf *out,
	    size_t *bad);

#endif
