/*
 * eot.c - the end-of-text id pskd-tok writes after each document, for -E
 * and -v.  The rules are pskd-tok's, as pskd-tok(1) states them: the
 * tiktoken encodings' <|endoftext|> ids; a trained vocabulary names its
 * special tokens in the companion file VOCAB.special ("TOKEN RANK" lines);
 * any other ranks file is the encoding its file name starts with; in a
 * character vocabulary <|endoftext|> is the id after the last character.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "export/export.h"

static const struct {
	const char	*name;
	uint64_t	 eot;
} encodings[] = {
	{ "r50k_base", 50256 },
	{ "gpt2", 50256 },
	{ "p50k_base", 50256 },
	{ "cl100k_base", 100257 },
	{ "o200k_base", 199999 },
};
#define NENC (sizeof(encodings) / sizeof(encodings[0]))

static const char eot_text[] = "<|endoftext|>";

/* A whole small file into b; 0, or -1 with errno (ENOENT: no such file). */
static int
slurp(const char *path, struct pskd_buf *b)
{
	struct pskd_reader r;
	ssize_t got;

	if (pskd_reader_open(&r, path) == -1)
		return -1;
	do {
		pskd_buf_reserve(b, 65536);
		got = pskd_reader_read(&r, b->p + b->len, 65536);
		if (got > 0)
			b->len += (size_t)got;
	} while (got > 0);
	pskd_reader_close(&r);
	return got < 0 ? -1 : 0;
}

/* The rank of <|endoftext|> in VOCAB.special: 1 found, 0 no file. */
static int
special_file(const char *vocab, uint64_t *id)
{
	struct pskd_buf b = { 0 };
	const unsigned char *p, *nl, *sp;
	char *path;
	size_t n, len, line = 0;

	n = strlen(vocab) + sizeof(".special");
	path = pskd_xmalloc(n);
	snprintf(path, n, "%s.special", vocab);
	if (slurp(path, &b) == -1) {
		if (errno == ENOENT) {
			free(path);
			return 0;
		}
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	}
	for (p = b.p, n = b.len; n > 0; p += len + (nl != NULL),
	    n -= len + (nl != NULL)) {
		line++;
		nl = memchr(p, '\n', n);
		len = nl ? (size_t)(nl - p) : n;
		sp = memchr(p, ' ', len);
		if (sp == NULL || (size_t)(sp - p) != sizeof(eot_text) - 1 ||
		    memcmp(p, eot_text, sizeof(eot_text) - 1) != 0)
			continue;
		/* "<|endoftext|> RANK" */
		{
			char num[32];
			size_t k = len - (size_t)(sp - p) - 1;

			if (k == 0 || k >= sizeof(num))
				pskd_fail_at(path, line, "not \"TOKEN RANK\"");
			memcpy(num, sp + 1, k);
			num[k] = '\0';
			if (pskd_strtonum(num, 0, UINT32_MAX, 0, id) == -1)
				pskd_fail_at(path, line, "rank is not a "
				    "number below 2^32");
		}
		pskd_buf_free(&b);
		free(path);
		return 1;
	}
	pskd_fail_at(path, 0, "no %s among the special tokens (give -e ID)",
	    eot_text);
}

static int
encoding_eot(const char *name, size_t len, uint64_t *id)
{
	size_t i;

	for (i = 0; i < NENC; i++)
		if (strlen(encodings[i].name) == len &&
		    memcmp(encodings[i].name, name, len) == 0) {
			*id = encodings[i].eot;
			return 1;
		}
	return 0;
}

/* Characters in a character vocabulary: its lines. */
static uint64_t
count_chars(const char *vocab)
{
	struct pskd_buf b = { 0 };
	uint64_t n = 0;
	size_t i;

	if (slurp(vocab, &b) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", vocab);
	for (i = 0; i < b.len; i++)
		n += b.p[i] == '\n';
	if (b.len > 0 && b.p[b.len - 1] != '\n')
		n++;
	pskd_buf_free(&b);
	return n;
}

uint64_t
xeot_lookup(const char *encoding, const char *vocab)
{
	const char *base;
	uint64_t id;
	size_t i, n;

	if (encoding != NULL && strcmp(encoding, "char") == 0) {
		if (vocab == NULL)
			pskd_errx(PSKD_EXIT_USAGE, "-E char needs -v VOCAB "
			    "(the characters: <|endoftext|> follows them)");
		return count_chars(vocab);
	}
	if (vocab != NULL && special_file(vocab, &id))
		return id;
	if (encoding != NULL) {
		if (!encoding_eot(encoding, strlen(encoding), &id))
			pskd_errx(PSKD_EXIT_USAGE, "-E %s: unknown encoding "
			    "(r50k_base, p50k_base, cl100k_base, o200k_base "
			    "or char)", encoding);
		return id;
	}
	/* pskd-tok's rule: the encoding the file's name starts with. */
	base = strrchr(vocab, '/');
	base = base ? base + 1 : vocab;
	for (i = 0; i < NENC; i++) {
		n = strlen(encodings[i].name);
		if (strncmp(base, encodings[i].name, n) == 0 &&
		    (base[n] == '\0' || base[n] == '.') &&
		    encoding_eot(base, n, &id))
			return id;
	}
	pskd_errx(PSKD_EXIT_USAGE, "-v %s: cannot tell its end-of-text id "
	    "(no %s.special, and its name is not an encoding's); give -e ID "
	    "or -E ENCODING", vocab, vocab);
}
