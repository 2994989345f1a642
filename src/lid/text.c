/*
 * text.c - a document's text as fastText's input, and its predictions.
 *
 * datatrove's LanguageFilter (and FineWeb) gives fastText the text with
 * every '\n' replaced by a space; python's model.predict then appends a
 * '\n', and fastText's Dictionary::getLine reads the line: tokens are the
 * runs of bytes between space, '\t', '\n', '\v', '\f', '\r' and NUL; the
 * '\n' at the end is the token "</s>" (EOS), and a token "</s>" ends the
 * line wherever it is.  Each word token adds its rows (its own, if the
 * dictionary has it, and its character n-grams'), its hash goes to the
 * word n-grams, a label token adds nothing.  This file does that walk
 * over the text as it is (the '\n's are separators like the spaces that
 * replace them), asking words.c for each token; with PSKD_LID_CACHE=0 it
 * builds the line instead and fastText's getLine reads it.  Either way
 * fastText's predict gets the same rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "lid/lid.h"

static const char eos[] = "</s>";

/* Dictionary::readWord's separators. */
static int
sep(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' ||
	    c == '\f' || c == '\0';
}

void
lid_text_init(struct lid_text *t, struct lid_model *m)
{
	const char *env = getenv("PSKD_LID_CACHE");

	memset(t, 0, sizeof(*t));
	t->m = m;
	t->direct = env != NULL && strcmp(env, "0") == 0;
	if (!t->direct)
		lid_words_init(&t->words);
	t->pred = pskd_xcalloc((size_t)m->nlabels, sizeof(*t->pred));
}

void
lid_text_free(struct lid_text *t)
{
	if (!t->direct)
		lid_words_free(&t->words);
	pskd_buf_free(&t->rows);
	pskd_buf_free(&t->hashes);
	pskd_buf_free(&t->line);
	free(t->pred);
	memset(t, 0, sizeof(*t));
}

/* One token; 1 when it was "</s>", which ends the line. */
static int
token(struct lid_text *t, const unsigned char *p, size_t n,
    struct pskd_error *e)
{
	uint32_t h;
	int32_t hh;
	int kind;

	kind = lid_words_get(&t->words, t->m->ft, p, n, &h, &t->rows, e);
	if (kind == -1)
		return -1;
	if (kind == LID_TOK_WORD) {
		hh = (int32_t)h;	/* getLine keeps the hashes as int32_t */
		pskd_buf_add(&t->hashes, &hh, sizeof(hh));
	}
	return n == 4 && memcmp(p, eos, 4) == 0;
}

static int
walk(struct lid_text *t, const unsigned char *text, size_t n,
    struct pskd_error *e)
{
	size_t i = 0, start;
	int rc;

	t->rows.len = 0;
	t->hashes.len = 0;
	for (;;) {
		while (i < n && sep(text[i]))
			i++;
		if (i == n)
			break;
		for (start = i; i < n && !sep(text[i]); i++)
			;
		if ((rc = token(t, text + start, i - start, e)) != 0)
			return rc == 1 ? 0 : -1;
	}
	/* The end of the line. */
	return token(t, (const unsigned char *)eos, 4, e) == -1 ? -1 : 0;
}

int
lid_text_set(struct lid_text *t, const unsigned char *text, size_t n,
    struct pskd_error *e)
{
	size_t i;

	if (!t->direct) {
		if (walk(t, text, n, e) == -1)
			return -1;
		return lid_ft_ngrams(t->m->ft, (const int32_t *)t->hashes.p,
		    t->hashes.len / sizeof(int32_t), &t->rows, e);
	}
	t->line.len = 0;
	pskd_buf_reserve(&t->line, n + 1);
	for (i = 0; i < n; i++)
		t->line.p[i] = text[i] == '\n' ? ' ' : text[i];
	t->line.p[n] = '\n';
	t->line.len = n + 1;
	return 0;
}

int
lid_text_predict(struct lid_text *t, int32_t k, float threshold,
    struct pskd_error *e)
{
	size_t i;
	int rc;

	if (t->direct)
		rc = lid_ft_predict_line(t->m->ft, (const char *)t->line.p,
		    t->line.len, k, threshold, t->pred, &t->npred, e);
	else
		rc = lid_ft_predict(t->m->ft, (const int32_t *)t->rows.p,
		    t->rows.len / sizeof(int32_t), k, threshold, t->pred,
		    &t->npred, e);
	if (rc == -1)
		return -1;
	for (i = 0; i < t->npred; i++)
		if (!isfinite(t->pred[i].prob)) {
			pskd_error_set(e, 0, "the model gives a probability "
			    "that is not a number");
			return -1;
		}
	return 0;
}
