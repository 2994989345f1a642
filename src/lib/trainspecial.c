/*
 * trainspecial.c - the companion file VOCAB.special of a trained
 * vocabulary: which ranks of VOCAB are special tokens.
 */
#include <errno.h>
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

static _Noreturn void
bad(const char *name, uint64_t line, const char *what)
{
	pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", name,
	    (unsigned long long)line, what);
}

/* "TOKEN RANK": the token and its rank, or a message. */
static void
parse_line(const char *name, uint64_t lineno, const unsigned char *p,
    size_t n, struct pskd_special *s)
{
	const unsigned char *sp = memchr(p, ' ', n);
	uint64_t rank = 0;
	size_t i;

	if (sp == NULL)
		bad(name, lineno, "expected \"TOKEN RANK\"");
	if (!pskd_special_valid(p, (size_t)(sp - p)))
		bad(name, lineno, "a special token is UTF-8 text without "
		    "white space");
	i = (size_t)(sp - p) + 1;
	if (i == n)
		bad(name, lineno, "missing rank");
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9' || rank > UINT32_MAX)
			bad(name, lineno, "rank is not a number below 2^32");
		rank = rank * 10 + (uint64_t)(p[i] - '0');
	}
	if (rank > UINT32_MAX)
		bad(name, lineno, "rank is not a number below 2^32");
	s->len = (size_t)(sp - p);
	s->text = pskd_xstrndup((const char *)p, s->len);
	s->rank = (uint32_t)rank;
}

size_t
pskd_special_load(const char *vocab, struct pskd_special **sp)
{
	struct pskd_reader r;
	struct pskd_special *s = NULL;
	const unsigned char *line;
	size_t n = 0, i, len;
	char *path;
	int rc;

	*sp = NULL;
	len = strlen(vocab) + sizeof(".special");
	path = pskd_xmalloc(len);
	memcpy(path, vocab, strlen(vocab));
	memcpy(path + strlen(vocab), ".special", sizeof(".special"));
	if (pskd_reader_open(&r, path) == -1) {
		if (errno == ENOENT) {
			free(path);
			return 0;
		}
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	}
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		s = pskd_xreallocarray(s, n + 1, sizeof(*s));
		parse_line(path, r.lineno, line, len, &s[n]);
		for (i = 0; i < n; i++) {
			if (s[i].rank == s[n].rank)
				bad(path, r.lineno, "rank given twice");
			if (strcmp(s[i].text, s[n].text) == 0)
				bad(path, r.lineno, "token given twice");
		}
		n++;
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_reader_close(&r);
	free(path);
	*sp = s;
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
