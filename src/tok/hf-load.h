/*
 * hf-load.h - what the readers of a tokenizer.json share (hf-load.c, the
 * file and the helpers; hf-load-pipeline.c, the normalizers,
 * pre-tokenizers, decoders, added tokens and post-processor;
 * hf-load-model.c, the model's vocab and merges): where a load is, and
 * the helpers that read one value or end the load with "LINE: message".
 */
#ifndef PSKD_HF_LOAD_H
#define PSKD_HF_LOAD_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "hf.h"
#include "hf-json.h"

/* Where a load is: its walk, scratch strings, where to go on an error. */
struct ld {
	struct pskd_jscan j;
	struct pskd_buf	 s, key;
	const unsigned char *vocab, *merges;	/* where they start */
	size_t		 vocablen, mergeslen;	/* and their extent */
	int		 model_seen;
	/*
	 * The vocab and merges are read where the walk meets them when
	 * what their reading needs came before (direct: a tokenizer.json,
	 * not a compiled one's tables; pre_seen, the pre-tokenizer; the
	 * model's affixes, each set or not): one walk, not a pass by the
	 * brackets first.  Else later, as the file allows.
	 */
	int		 direct, pre_seen, prefix_seen, suffix_seen;
	int		 settled, vocab_read, merges_read;
	const int16_t	*back;		/* pskd_hf_char_bytes(), for names */
	/* A vocabulary of characters' merges as read (left, right, token;
	   hf-load-model.c's mlist), kept for ld_cuts. */
	uint32_t	*mlist;
	size_t		 nmlist;
	const unsigned char *start;		/* of the file */
	jmp_buf		 fail;			/* ld_die() returns here */
	char		*err;			/* with "LINE: message" */
	size_t		 errsize;
	char		*unk;			/* the model's unk_token */
	const unsigned char *lineat;		/* ld_line's last place */
	uint64_t	 line;			/* and its line */
};

/* End the load: "LINE: why" in l->err, back to pskd_hf_parse. */
_Noreturn void ld_die(struct ld *l, const char *why);
/* "WHAT TYPE is not supported", the same way. */
_Noreturn void ld_unsupported(struct ld *l, const char *what,
	    const char *type);
/* A second walk from p, its lines counted from the file's start. */
void	ld_walk_from(struct ld *l, const unsigned char *p);
/* The line (from 1) of the walk's place in the file. */
uint64_t ld_line(struct ld *l);
/* End the load if the walk found the document malformed. */
void	ld_check(struct ld *l);
/* The next value, which must be one: a string (a copy, *len its length
 * when len is not NULL), true or false, a whole number in [min, max]. */
char	*ld_string(struct ld *l, size_t *len);
int	ld_boolean(struct ld *l);
int64_t	ld_integer(struct ld *l, int64_t min, int64_t max);
/* Is the member just read (l->key) named name? */
int	ld_key_is(const struct ld *l, const char *name);
/* The "type" member, which files put first. */
char	*ld_type_of(struct ld *l);

/* What the vocab and merges are read by, from what came before them
 * (the ByteLevel flag, the affixes as stored): once. */
void	ld_settle(struct ld *l, struct pskd_hf *hf);

/* The parts of the file, each read where the walk finds it. */
void	ld_normalizer(struct ld *l, struct pskd_hf *hf);
void	ld_pretokenizer(struct ld *l, struct pskd_hf *hf);
void	ld_decoder(struct ld *l, struct pskd_hf *hf);
void	ld_added_tokens(struct ld *l, struct pskd_hf *hf);
void	ld_post_processor(struct ld *l, struct pskd_hf *hf);
/* The model's options; its vocab and merges only found (l->vocab ...). */
void	ld_model(struct ld *l, struct pskd_hf *hf, char **unk);
/* Then, in a second walk, the vocab and the merges. */
void	ld_vocab(struct ld *l, struct pskd_hf *hf);
void	ld_merges(struct ld *l, struct pskd_hf *hf);
/* Where words may be cut (hf-cuts.c): once the vocab, merges, unk and
   <0xNN> tokens, charid and metaid are known; the n merges as l->mlist
   holds them. */
void	ld_cuts(struct pskd_hf *hf, const uint32_t *mlist, size_t n);
/*
 * The tables of a compiled tokenizer (hf-compiled.c), checked, read in
 * place of the file's vocab and merges and of what hf-cuts.c works out
 * from them.
 */
struct ld_tables {
	int		 bytelevel, apart;
	struct pskd_ranks vocab;
	uint32_t	*mstart, *mleft, *mrank;	/* byte-level */
	uint64_t	 nm;
	struct pskd_bpe_splits splits;			/* bpe.c's, of them */
	struct pskd_hf_merges merges;			/* characters */
	struct pskd_hf_cuts cut;
};
void	ld_tables_free(struct ld_tables *t);
/*
 * pskd_hf_parse, with the tables of t when it is not NULL (which the
 * load then owns; t is left empty).
 */
int	ld_parse(struct pskd_hf *hf, const unsigned char *p, size_t n,
	    struct ld_tables *t, char *err, size_t errsize);
/* A token's text as the vocabulary keeps it (undone if byte-level). */
void	ld_as_stored(const struct pskd_hf *hf, const unsigned char *s,
	    size_t n, struct pskd_buf *out);

#endif
