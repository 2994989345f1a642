/*
 * lid.h - pskd-lid's family (src/lid): a fastText model checked and
 * loaded (check.c, model.c, over the shim ft.cc), a document's text as
 * the model's input rows (text.c, with the token cache of words.c), and
 * the members a kept document gets (members.c).
 */
#ifndef LID_H
#define LID_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "lid/ft.h"

/* ---- check.c: the model file read through before the library is ---- */

struct lid_model_info {
	int32_t	 version;	/* 11 or 12 */
	int32_t	 dim, wordngrams, loss, bucket, minn, maxn;
	int32_t	 nwords, nlabels;
	int64_t	 pruned;	/* buckets kept by quantize -cutoff; -1: all */
	int	 quant, qout;	/* quantized input, output matrix */
	uint64_t size;		/* bytes */
};

/*
 * Read the model on fd (from where it is) to its end and check it as
 * check.c says; 0, or -1 with e set ("truncated in the dictionary (at
 * byte 812)").  name is for the reader only.
 */
int	lid_model_check(int fd, const char *name, struct lid_model_info *m,
	    struct pskd_error *e);

/* ---- model.c: -m FILE or -m NAME, checked and loaded ---------------- */

struct lid_model {
	char		*path;		/* the file read */
	struct lid_ft	*ft;
	struct lid_model_info info;
	int32_t		 nlabels;
	const char	**label;	/* each without the model's prefix */
	size_t		*labellen;
	size_t		 prefixlen;
};

/*
 * arg: a path (it holds a '/', ends in .bin or .ftz, or names a file that
 * exists), or a name (lid176)
 * looked up as NAME.ftz, then NAME.bin, where pskd_data_find looks.  0,
 * or -1 with e set to a message that starts with the path.
 */
int	lid_model_open(struct lid_model *m, const char *arg,
	    struct pskd_error *e);
/* The index of label s[0..n), given with its prefix or without; -1. */
int32_t	lid_model_label(const struct lid_model *m, const char *s, size_t n);
void	lid_model_close(struct lid_model *m);

/* ---- words.c: a token's kind, hash and rows, remembered ------------- */

struct lid_word;

/*
 * The tokens seen, each with what lid_ft_token said of it, in a table of
 * bounded size: when it fills (LID_WORDS_MAX tokens or LID_WORDS_ROWS
 * rows), it starts again empty.  It changes how fast, never what.
 */
#define LID_WORDS_SLOTS	(1u << 18)
#define LID_WORDS_MAX	(LID_WORDS_SLOTS / 2)
#define LID_WORDS_ROWS	(4u << 20)
#define LID_WORDS_LONG	64		/* longer tokens are not kept */

struct lid_words {
	uint32_t	*slot;		/* 1 + index in word, 0: empty */
	struct lid_word	*word;
	size_t		 n;
	struct pskd_buf	 toks;		/* the tokens' bytes */
	struct pskd_buf	 rows;		/* their rows, int32_t */
};

void	lid_words_init(struct lid_words *w);
void	lid_words_free(struct lid_words *w);
/*
 * Token tok[0..len): LID_TOK_WORD with its hash in *h and its rows
 * appended to rows, or LID_TOK_LABEL; -1 (e) when fastText fails.
 */
int	lid_words_get(struct lid_words *w, struct lid_ft *ft,
	    const unsigned char *tok, size_t len, uint32_t *h,
	    struct pskd_buf *rows, struct pskd_error *e);

/* ---- text.c: a document's text as the model's input ---------------- */

/*
 * The text as datatrove's LanguageFilter gives it to fastText (every
 * '\n' a space), and fastText's predict then reads it (tokens split at
 * space, tab, '\n', '\v', '\f', '\r' and NUL, up to the first token "</s>",
 * then the end of line "</s>"): the rows once, predictions from them.
 */
struct lid_text {
	struct lid_model *m;
	int		 direct;	/* PSKD_LID_CACHE=0: Dictionary::getLine */
	struct lid_words words;
	struct pskd_buf	 rows;		/* int32_t */
	struct pskd_buf	 hashes;	/* int32_t, the words' */
	struct pskd_buf	 line;		/* direct: the prepared line */
	struct lid_pred	*pred;		/* room for nlabels */
	size_t		 npred;
};

void	lid_text_init(struct lid_text *t, struct lid_model *m);
void	lid_text_free(struct lid_text *t);
/* The rows of text[0..n) (valid UTF-8); 0 or -1 (e). */
int	lid_text_set(struct lid_text *t, const unsigned char *text, size_t n,
	    struct pskd_error *e);
/*
 * fastText's predict on them: k labels (-1: all) with its threshold, into
 * t->pred[0..t->npred), best first; 0 or -1 (e).  A probability that is
 * not a finite number is an error.
 */
int	lid_text_predict(struct lid_text *t, int32_t k, float threshold,
	    struct pskd_error *e);

/* ---- members.c: the members a kept document gets ------------------- */

#define LID_MAXMEMBERS	3

/*
 * Members written into a line: each that the line has already (at the
 * top level; the last of a name given twice) gets its new value in its
 * place; the others are appended after its last member, in their order.
 */
struct lid_members {
	size_t		 n;
	const char	*name[LID_MAXMEMBERS];
	int		 field[LID_MAXMEMBERS];	/* in struct pskd_doc's f */
	struct pskd_buf	 value[LID_MAXMEMBERS];	/* JSON text, set by caller */
	struct pskd_buf	 line;		/* the line with them */
	struct pskd_buf	 mid, tail;
};

/* Names (top-level member names) to find in every line d parses. */
int	lid_members_init(struct lid_members *mm, struct pskd_doc *d,
	    const char *const *name, size_t n);
/* line[0..len), which d parsed, with the values: into mm->line. */
void	lid_members_apply(struct lid_members *mm, const struct pskd_doc *d,
	    const unsigned char *line, size_t len);
void	lid_members_free(struct lid_members *mm);
/* JSON text of a probability: the float's value, shortest round trip. */
void	lid_score_json(struct pskd_buf *b, float p);

#endif /* LID_H */
