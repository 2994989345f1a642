/*
 * ft.h - the C face of libfasttext (ft.cc, the one C++ file of pskd): a
 * model loaded by fastText's own code, the kind of a token and its input
 * rows as fastText's Dictionary gives them, and fastText's predict.  No
 * exception crosses it: a failure is -1 (or NULL) and a message in a
 * struct pskd_error.  Compiled as C and as C++.
 */
#ifndef LID_FT_H
#define LID_FT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pskd_buf;
struct pskd_error;
struct lid_ft;

/* One prediction: a label's index (0 .. nlabels-1) and its probability. */
struct lid_pred {
	int32_t	 label;
	float	 prob;
};

/* What a token is to the model's dictionary (fastText's getLine). */
enum lid_tok {
	LID_TOK_WORD,		/* a word: its rows and its hash count */
	LID_TOK_LABEL		/* a label ("__label__en"): left out */
};

/*
 * Load the model from fd (read from its start to its end) with fastText's
 * FastText::loadModel.  lid_model_check (model.c) has read the same bytes
 * first: the library is never handed a file it could loop or crash on.
 */
struct lid_ft *lid_ft_load(int fd, struct pskd_error *e);
void	lid_ft_free(struct lid_ft *ft);
int32_t	lid_ft_nlabels(const struct lid_ft *ft);
/* Label i as the model has it ("__label__en"), NUL-terminated. */
const char *lid_ft_label(const struct lid_ft *ft, int32_t i);
/* The model's label prefix (its -label argument, "__label__"). */
const char *lid_ft_prefix(const struct lid_ft *ft);

/*
 * Token tok[0..len) (no separator in it): LID_TOK_WORD with its fastText
 * hash in *h and its input rows (int32_t) appended to rows, or
 * LID_TOK_LABEL; -1 on error.
 */
int	lid_ft_token(struct lid_ft *ft, const char *tok, size_t len,
	    uint32_t *h, struct pskd_buf *rows, struct pskd_error *e);
/* The rows of the word n-grams of a line's word hashes, appended. */
int	lid_ft_ngrams(struct lid_ft *ft, const int32_t *hashes, size_t n,
	    struct pskd_buf *rows, struct pskd_error *e);
/*
 * FastText::predict on rows[0..n): at most k labels (-1: all) whose
 * probability passes fastText's threshold test, best first, into out
 * (room for nlabels); *nout of them.  0 or -1.
 */
int	lid_ft_predict(struct lid_ft *ft, const int32_t *rows, size_t n,
	    int32_t k, float threshold, struct lid_pred *out, size_t *nout,
	    struct pskd_error *e);
/*
 * The same from a line of text, through fastText's own Dictionary::getLine
 * (what python's model.predict runs): line[0..n) ends in its one '\n'.
 */
int	lid_ft_predict_line(struct lid_ft *ft, const char *line, size_t n,
	    int32_t k, float threshold, struct lid_pred *out, size_t *nout,
	    struct pskd_error *e);

#ifdef __cplusplus
}
#endif

#endif /* LID_FT_H */
