/*
 * vocab.c - which kind of vocabulary a file is, where a named one is
 * installed, and what every kind shares: special tokens by text and by id.
 */
#define _GNU_SOURCE		/* memmem */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "vocab.h"

/* Tried in this order on a -v file; the last takes any file. */
static const struct pskd_vocab_kind *const kinds[] = {
	&pskd_vocab_hf,
	&pskd_vocab_trained,
	&pskd_vocab_tiktoken,
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

void
pskd_vocab_slurp(const char *path, struct pskd_buf *b)
{
	struct pskd_reader r;
	ssize_t got;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	do {
		pskd_buf_reserve(b, PSKD_BUFSIZE);
		if ((got = pskd_reader_read(&r, b->p + b->len, PSKD_BUFSIZE)) <
		    0)
			pskd_err(PSKD_EXIT_DATA, "%s", path);
		b->len += (size_t)got;
	} while (got > 0);
	pskd_reader_close(&r);
}

/* The first bytes of path, for the kinds' sniff(); 0 if it cannot be read. */
static size_t
head_of(const char *path, unsigned char *head, size_t size)
{
	struct pskd_reader r;
	ssize_t got;

	if (pskd_reader_open(&r, path) == -1)
		return 0;
	got = pskd_reader_read(&r, head, size);
	pskd_reader_close(&r);
	return got > 0 ? (size_t)got : 0;
}

void
pskd_vocab_open(struct pskd_vocab *v, const char *encoding, const char *path)
{
	unsigned char head[256];
	char *found = NULL, *tried;
	size_t i, n = 0;

	memset(v, 0, sizeof(*v));
	v->pattern = -1;
	if (path == NULL && encoding != NULL && strcmp(encoding, "char") != 0 &&
	    !pskd_vocab_is_encoding(encoding) &&
	    (found = pskd_data_find(encoding, ".json", &tried)) != NULL) {
		/* An installed tokenizer.json, by its name. */
		free(tried);
		v->kind = &pskd_vocab_hf;
		v->kind->load(v, found, NULL);
		return;
	}
	if (encoding != NULL && strcmp(encoding, "char") == 0) {
		v->kind = &pskd_vocab_char;
	} else if (path != NULL) {
		n = head_of(path, head, sizeof(head));
		for (i = 0; i < NKINDS && v->kind == NULL; i++)
			if (kinds[i]->sniff == NULL ||
			    kinds[i]->sniff(path, head, n))
				v->kind = kinds[i];
	} else
		v->kind = &pskd_vocab_tiktoken;
	v->kind->load(v, path, encoding);
}

uint32_t
pskd_vocab_id(const struct pskd_vocab *v, const char *t)
{
	size_t i, n = strlen(t);

	for (i = 0; i < v->nspecial; i++)
		if (v->special[i].len == n &&
		    memcmp(v->special[i].text, t, n) == 0)
			return v->special[i].id;
	if (n == 0)
		return PSKD_RANK_NONE;
	return v->kind->token(v, (const unsigned char *)t, n);
}

const struct pskd_vocab_special *
pskd_vocab_special_id(const struct pskd_vocab *v, uint64_t id)
{
	size_t i;

	for (i = 0; i < v->nspecial; i++)
		if (v->special[i].id == id)
			return &v->special[i];
	return NULL;
}

size_t
pskd_vocab_next_special(const struct pskd_vocab *v, const unsigned char *s,
    size_t n, size_t from, size_t *which)
{
	const unsigned char *p;
	size_t i, best = n, blen = 0;

	for (i = 0; i < v->nspecial; i++) {
		p = memmem(s + from, n - from, v->special[i].text,
		    v->special[i].len);
		if (p != NULL && ((size_t)(p - s) < best ||
		    ((size_t)(p - s) == best && v->special[i].len > blen))) {
			best = (size_t)(p - s);
			blen = v->special[i].len;
			*which = i;
		}
	}
	return best;
}

int
pskd_vocab_encode_split(struct pskd_vocab *v, const unsigned char *s,
    size_t n, int allow, struct pskd_ids *out, size_t *bad, uint32_t *badcp,
    pskd_vocab_ordinary_fn *ordinary)
{
	size_t pos = 0, at, k = 0;

	if (!allow)
		return ordinary(v, s, n, out, bad, badcp);
	while (pos < n) {
		at = pskd_vocab_next_special(v, s, n, pos, &k);
		if (ordinary(v, s + pos, at - pos, out, bad, badcp) == -1) {
			*bad += pos;
			return -1;
		}
		if (at == n)
			break;
		pskd_ids_push(out, v->special[k].id);
		pos = at + v->special[k].len;
	}
	return 0;
}

