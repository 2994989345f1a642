/*
 * words.c - what fastText's dictionary says of a token (its kind, its
 * hash, the input rows of the word and its character n-grams), asked once
 * per distinct token and remembered.  Computing a word's n-grams is most
 * of fastText's predict (lid.176: three quarters of it, a hash table
 * lookup per n-gram), and the words of a corpus repeat; the rows given
 * back are the ones fastText's getLine would add, in its order, so the
 * predictions are the same bits.  Open addressing on XXH3 of the token;
 * when the table or its rows fill, it is emptied and fills again.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "pskd.h"
#include "lid/lid.h"

struct lid_word {
	uint64_t	 key;		/* XXH3 of the token */
	uint32_t	 tok, len;	/* its bytes in toks */
	uint32_t	 row, nrows;	/* its rows in rows (int32_t units) */
	uint32_t	 h;		/* fastText's hash */
	int		 kind;		/* LID_TOK_* */
};

void
lid_words_init(struct lid_words *w)
{
	memset(w, 0, sizeof(*w));
	w->slot = pskd_xcalloc(LID_WORDS_SLOTS, sizeof(*w->slot));
	w->word = pskd_xcalloc(LID_WORDS_MAX, sizeof(*w->word));
}

void
lid_words_free(struct lid_words *w)
{
	free(w->slot);
	free(w->word);
	pskd_buf_free(&w->toks);
	pskd_buf_free(&w->rows);
	memset(w, 0, sizeof(*w));
}

static void
empty(struct lid_words *w)
{
	memset(w->slot, 0, LID_WORDS_SLOTS * sizeof(*w->slot));
	w->n = 0;
	w->toks.len = 0;
	w->rows.len = 0;
}

/* The rows of word x, appended to rows. */
static void
give(const struct lid_words *w, const struct lid_word *x,
    struct pskd_buf *rows)
{
	pskd_buf_add(rows, w->rows.p + (size_t)x->row * sizeof(int32_t),
	    (size_t)x->nrows * sizeof(int32_t));
}

int
lid_words_get(struct lid_words *w, struct lid_ft *ft,
    const unsigned char *tok, size_t len, uint32_t *h, struct pskd_buf *rows,
    struct pskd_error *e)
{
	uint64_t key;
	struct lid_word *x;
	size_t i, before;
	int kind;

	if (len > LID_WORDS_LONG)
		return lid_ft_token(ft, (const char *)tok, len, h, rows, e);
	key = XXH3_64bits(tok, len);
	for (i = key & (LID_WORDS_SLOTS - 1); w->slot[i] != 0;
	    i = (i + 1) & (LID_WORDS_SLOTS - 1)) {
		x = &w->word[w->slot[i] - 1];
		if (x->key == key && x->len == len &&
		    memcmp(w->toks.p + x->tok, tok, len) == 0) {
			*h = x->h;
			if (x->kind == LID_TOK_WORD)
				give(w, x, rows);
			return x->kind;
		}
	}
	before = rows->len;
	if ((kind = lid_ft_token(ft, (const char *)tok, len, h, rows,
	    e)) == -1)
		return -1;
	if (w->n == LID_WORDS_MAX || w->rows.len / sizeof(int32_t) +
	    (rows->len - before) / sizeof(int32_t) > LID_WORDS_ROWS) {
		empty(w);
		for (i = key & (LID_WORDS_SLOTS - 1); w->slot[i] != 0;
		    i = (i + 1) & (LID_WORDS_SLOTS - 1))
			;
	}
	x = &w->word[w->n];
	x->key = key;
	x->tok = (uint32_t)w->toks.len;
	x->len = (uint32_t)len;
	x->row = (uint32_t)(w->rows.len / sizeof(int32_t));
	x->nrows = (uint32_t)((rows->len - before) / sizeof(int32_t));
	x->h = kind == LID_TOK_WORD ? *h : 0;
	x->kind = kind;
	pskd_buf_add(&w->toks, tok, len);
	pskd_buf_add(&w->rows, rows->p + before, rows->len - before);
	w->slot[i] = (uint32_t)++w->n;
	return kind;
}
