/*
 * vocab-char.c - character vocabularies (-E char -v FILE, charvocab.h): a
 * character is a token, <|endoftext|> the one after the last.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "charvocab.h"
#include "vocab.h"

static void
char_load(struct pskd_vocab *v, const char *path, const char *encoding)
{
	static struct pskd_vocab_special eot = { "<|endoftext|>", 13, 0, 0 };
	struct pskd_charvocab *cv;
	struct pskd_buf b = { 0 };
	char err[256];

	(void)encoding;
	if (path == NULL)
		pskd_errx(PSKD_EXIT_USAGE, "-E char needs -v FILE (make one "
		    "with --build-vocab)");
	v->name = path;
	cv = pskd_xcalloc(1, sizeof(*cv));
	pskd_vocab_slurp(path, &b);
	if (pskd_charvocab_parse(cv, b.p, b.len, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s:%s", path, err);
	pskd_buf_free(&b);
	eot.id = cv->n;
	v->special = &eot;
	v->nspecial = 1;
	v->nvocab = (uint64_t)cv->n + 1;
	v->impl = cv;
}

static int
char_ordinary(struct pskd_vocab *v, const unsigned char *s, size_t n,
    struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	const struct pskd_charvocab *cv = v->impl;
	size_t i, k;
	uint32_t cp;

	pskd_ids_reserve(out, n);
	for (i = 0; i < n; i += k) {
		k = pskd_utf8_decode(s + i, n - i, &cp);
		if (k == 0 || cv->id[cp] == 0) {
			*bad = i;
			*badcp = k ? cp : PSKD_NOT_CHAR;
			return -1;
		}
		out->v[out->n++] = cv->id[cp] - 1;
	}
	return 0;
}

static int
char_encode(struct pskd_vocab *v, const unsigned char *s, size_t n, int allow,
    struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	return pskd_vocab_encode_split(v, s, n, allow, out, bad, badcp,
	    char_ordinary);
}

static int
char_decode(struct pskd_vocab *v, const uint32_t *ids, size_t n, int flags,
    struct pskd_buf *out, size_t *bad)
{
	const struct pskd_charvocab *cv = v->impl;
	size_t i;

	(void)flags;
	pskd_buf_reserve(out, 4 * n);
	for (i = 0; i < n; i++) {
		if (ids[i] >= cv->n) {
			*bad = i;
			return -1;
		}
		out->len += pskd_utf8_encode(cv->chars[ids[i]],
		    out->p + out->len);
	}
	return 0;
}

static uint32_t
char_token(const struct pskd_vocab *v, const unsigned char *t, size_t n)
{
	const struct pskd_charvocab *cv = v->impl;
	uint32_t cp;

	if (pskd_utf8_decode(t, n, &cp) == n && cv->id[cp] != 0)
		return cv->id[cp] - 1;
	return PSKD_RANK_NONE;
}

const struct pskd_vocab_kind pskd_vocab_char = {
	.name = "char",
	.sniff = NULL,
	.load = char_load,
	.encode = char_encode,
	.decode = char_decode,
	.token = char_token,
};
