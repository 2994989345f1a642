/*
 * trainspecial.c - the companion file VOCAB.special of a trained
 * vocabulary: which ranks of VOCAB are special tokens.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "bpetrain.h"

int
pskd_special_valid(const unsigned char *text, size_t n)
{
	size_t i;

	if (n == 0 || pskd_utf8_check(text, n) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r'))
			return 0;
	return 1;
}

/* One "TOKEN RANK" line into s; NULL, or what is wrong with it. */
static const char *
parse_line(const unsigned char *p, size_t n, struct pskd_special *s)
{
	const unsigned char *sp = memchr(p, ' ', n);
	uint64_t rank = 0;
	size_t i;

	if (sp == NULL)
		return "expected \"TOKEN RANK\"";
	if (!pskd_special_valid(p, (size_t)(sp - p)))
		return "a special token is UTF-8 text without white space";
	i = (size_t)(sp - p) + 1;
	if (i == n)
		return "missing rank";
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9' || rank > UINT32_MAX)
			return "rank is not a number below 2^32";
		rank = rank * 10 + (uint64_t)(p[i] - '0');
	}
	if (rank > UINT32_MAX)
		return "rank is not a number below 2^32";
	s->len = (size_t)(sp - p);
	s->text = pskd_xstrndup((const char *)p, s->len);
	s->rank = (uint32_t)rank;
	return NULL;
}

int
pskd_special_parse(const unsigned char *p, size_t n, struct pskd_special **sp,
    size_t *nsp, char *err, size_t errsize)
{
	struct pskd_special *s = NULL;
	const unsigned char *nl;
	const char *why = NULL;
	size_t k = 0, i, len;
	uint64_t line = 0;

	while (n > 0 && why == NULL) {
		line++;
		nl = memchr(p, '\n', n);
		len = nl ? (size_t)(nl - p) : n;
		s = pskd_xreallocarray(s, k + 1, sizeof(*s));
		if ((why = parse_line(p, len, &s[k])) != NULL)
			break;
		for (i = 0; i < k && why == NULL; i++) {
			if (s[i].rank == s[k].rank)
				why = "rank given twice";
			else if (strcmp(s[i].text, s[k].text) == 0)
				why = "token given twice";
		}
		k++;
		p += len + (nl != NULL);
		n -= len + (nl != NULL);
	}
	if (why != NULL) {
		snprintf(err, errsize, "%llu: %s", (unsigned long long)line,
		    why);
		pskd_special_free(s, k);
		*sp = NULL;
		*nsp = 0;
		return -1;
	}
	*sp = s;
	*nsp = k;
	return 0;
}

size_t
pskd_special_load(const char *vocab, struct pskd_special **sp)
{
	struct pskd_reader r;
	struct pskd_buf b = { NULL, 0, 0 };
	char err[256], *path;
	size_t n;
	ssize_t got;

	*sp = NULL;
	n = strlen(vocab) + sizeof(".special");
	path = pskd_xmalloc(n);
	snprintf(path, n, "%s.special", vocab);
	if (pskd_reader_open(&r, path) == -1) {
		if (errno == ENOENT) {
			free(path);
			return 0;
		}
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	}
	do {
		pskd_buf_reserve(&b, PSKD_BUFSIZE);
		if ((got = pskd_reader_read(&r, b.p + b.len, PSKD_BUFSIZE)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", path);
		b.len += (size_t)got;
	} while (got > 0);
	pskd_reader_close(&r);
	if (pskd_special_parse(b.p, b.len, sp, &n, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s:%s", path, err);
	pskd_buf_free(&b);
	free(path);
	return n;
}

void
pskd_special_free(struct pskd_special *sp, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(sp[i].text);
	free(sp);
}
