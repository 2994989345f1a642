/*
 * vocab.c - which kind of vocabulary a file is, where a named one is
 * installed, its file read once, and what every kind shares: special
 * tokens by text, where a text may be cut.
 */
#define _GNU_SOURCE		/* memmem */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tiktoken.h"
#include "vocab.h"

/* Tried in this order on a -v file; the last takes any file. */
static const struct pskd_vocab_kind *const kinds[] = {
	&pskd_vocab_char,
	&pskd_vocab_hf,
	&pskd_vocab_tiktoken,
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* The whole of path into b: 0, or PSKD_EXIT_DATA with e set. */
static int
slurp(const char *path, struct pskd_buf *b, struct pskd_error *e)
{
	/* "-" is a file of that name here, not the standard input. */
	if (pskd_slurp(strcmp(path, "-") == 0 ? "./-" : path,
	    PSKD_VOCAB_MAXFILE, b) == 0)
		return 0;
	if (errno == EFBIG)
		pskd_error_set(e, 0, "%s: larger than 4 GiB", path);
	else
		pskd_error_set(e, 0, "%s: %s", path, strerror(errno));
	return PSKD_EXIT_DATA;
}

/*
 * Without -v, the file of -E (or cl100k_base): a tiktoken encoding's ranks
 * or an installed tokenizer.json, found by name; into path.
 */
static int
find(struct pskd_vocab *v, const char *encoding, char **path,
    struct pskd_error *e)
{
	const struct pskd_tiktoken *t;
	char *tried;

	if (encoding == NULL)
		encoding = "cl100k_base";
	if ((t = pskd_tiktoken_named(encoding)) != NULL) {
		v->kind = &pskd_vocab_tiktoken;
		v->name = t->name;
		v->byname = 1;
		if ((*path = pskd_data_find(t->name, ".tiktoken", &tried)) ==
		    NULL) {
			pskd_error_set(e, 0, "%s.tiktoken: not found in %s "
			    "(give -v FILE, or run make deps)", t->name, tried);
			free(tried);
			return PSKD_EXIT_DATA;
		}
	} else if ((*path = pskd_data_find(encoding, ".json", &tried)) !=
	    NULL) {
		v->kind = &pskd_vocab_hf;
		v->name = *path;
		v->byname = 1;
	} else {
		free(tried);
		pskd_error_set(e, 0, "-E %s: unknown encoding (%s or char)",
		    encoding, pskd_tiktoken_names);
		return PSKD_EXIT_USAGE;
	}
	free(tried);
	return 0;
}

int
pskd_vocab_open(struct pskd_vocab *v, const char *encoding, const char *path,
    struct pskd_error *e)
{
	struct pskd_buf b = { 0 };
	char *found = NULL;
	size_t i;
	int rc, chars = encoding != NULL && strcmp(encoding, "char") == 0;

	memset(v, 0, sizeof(*v));
	v->pattern = -1;
	if (chars && path == NULL) {
		pskd_error_set(e, 0, "-E char needs -v FILE (make one with "
		    "--build-vocab)");
		return PSKD_EXIT_USAGE;
	}
	if (path == NULL && (rc = find(v, encoding, &found, e)) != 0)
		return rc;
	if (found != NULL)
		path = found;
	else
		v->name = path;
	if ((rc = slurp(path, &b, e)) != 0) {
		/* A bad -E is said first (a tiktoken -E with a -v file). */
		if (encoding != NULL && !chars && !v->byname &&
		    pskd_tiktoken_named(encoding) == NULL) {
			pskd_error_set(e, 0, "-E %s: unknown encoding (%s or "
			    "char)", encoding, pskd_tiktoken_names);
			rc = PSKD_EXIT_USAGE;
		}
		goto out;
	}
	if (chars)
		v->kind = &pskd_vocab_char;
	/* A character vocabulary only when -E is none or char. */
	for (i = encoding == NULL ? 0 : 1; i < NKINDS && v->kind == NULL; i++)
		if (kinds[i]->sniff == NULL || kinds[i]->sniff(b.p, b.len))
			v->kind = kinds[i];
	rc = v->kind->load(v, path, b.p, b.len, v->kind == &pskd_vocab_hf &&
	    v->byname ? NULL : encoding, e);
out:
	pskd_buf_free(&b);
	/* found stays: v->name may be it. */
	return rc;
}

void
pskd_vocab_free(struct pskd_vocab *v)
{
	if (v->kind != NULL && v->kind->free != NULL && v->impl != NULL)
		v->kind->free(v);
	memset(v, 0, sizeof(*v));
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

/*
 * The first special token in s[from..n): its offset (n: none), *which its
 * index in v->special; the longest of those that start there.
 */
static size_t
next_special(const struct pskd_vocab *v, const unsigned char *s,
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
		at = next_special(v, s, n, pos, &k);
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

/*
 * Before t[p] when t[p-1] is a newline and t[p] printable ASCII but '/'
 * (o200k takes a '/' after newlines into the piece), or when t[p] is a
 * space between two ASCII letters: the pieces of every pattern end there,
 * and no special token (which holds no white space) spans it.
 */
size_t
pskd_vocab_cut_pattern(int pattern, const unsigned char *t, size_t n,
    int bytes)
{
	size_t p;

	(void)pattern;
	(void)bytes;
	if (n < 3)
		return 0;
	for (p = n - 2; p > 0; p--) {
		if (t[p - 1] == '\n' && t[p] > ' ' && t[p] < 0x7f &&
		    t[p] != '/')
			return p;
		if (t[p] == ' ' && ((t[p - 1] | 0x20) >= 'a' &&
		    (t[p - 1] | 0x20) <= 'z') && ((t[p + 1] | 0x20) >= 'a' &&
		    (t[p + 1] | 0x20) <= 'z'))
			return p;
	}
	return 0;
}
