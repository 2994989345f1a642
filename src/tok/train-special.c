/*
 * train-special.c - the companion file VOCAB.special of a trained
 * vocabulary: which ranks of VOCAB are special tokens, and its pattern.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "train-special.h"

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

/* A "pattern=NAME" line into c; NULL, or what is wrong with it. */
static const char *
parse_setting(const unsigned char *p, size_t n, struct pskd_companion *c)
{
	char name[32];

	if (n < 8 || memcmp(p, "pattern=", 8) != 0)
		return "expected \"TOKEN RANK\" or \"pattern=NAME\"";
	if (c->pattern != -1)
		return "pattern given twice";
	if (n - 8 >= sizeof(name))
		return "unknown pattern";
	memcpy(name, p + 8, n - 8);
	name[n - 8] = '\0';
	if ((c->pattern = pskd_pretok_pattern(name)) == -1)
		return "unknown pattern";
	return NULL;
}

int
pskd_special_parse(const unsigned char *p, size_t n, struct pskd_companion *c,
    char *err, size_t errsize)
{
	struct pskd_special *s = NULL;
	const unsigned char *nl;
	const char *why = NULL;
	size_t k = 0, i, len;
	uint64_t line = 0;

	c->pattern = -1;
	while (n > 0 && why == NULL) {
		line++;
		nl = memchr(p, '\n', n);
		len = nl ? (size_t)(nl - p) : n;
		if (memchr(p, ' ', len) == NULL) {
			why = parse_setting(p, len, c);
		} else {
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
		}
		p += len + (nl != NULL);
		n -= len + (nl != NULL);
	}
	c->sp = s;
	c->n = k;
	if (why != NULL) {
		snprintf(err, errsize, "%llu: %s", (unsigned long long)line,
		    why);
		pskd_special_free(c);
		return -1;
	}
	return 0;
}

int
pskd_special_load(const char *vocab, struct pskd_companion *c,
    struct pskd_error *e)
{
	struct pskd_buf b = { NULL, 0, 0 };
	char err[256], *path;
	size_t n;
	int rc = 1;

	memset(c, 0, sizeof(*c));
	c->pattern = -1;
	n = strlen(vocab) + sizeof(".special");
	path = pskd_xmalloc(n);
	snprintf(path, n, "%s.special", vocab);
	if (pskd_slurp(path, 1u << 30, &b) == -1) {
		if (errno == ENOENT)
			rc = 0;
		else {
			pskd_error_set(e, 0, "%s: %s", path, strerror(errno));
			rc = -1;
		}
	} else if (pskd_special_parse(b.p, b.len, c, err, sizeof(err)) == -1) {
		pskd_error_set(e, 0, "%s:%s", path, err);
		rc = -1;
	}
	pskd_buf_free(&b);
	free(path);
	return rc;
}

void
pskd_special_write(struct pskd_writer *w, const struct pskd_companion *c)
{
	size_t i;

	if (c->pattern != -1) {
		pskd_writer_puts(w, "pattern=");
		pskd_writer_puts(w, pskd_pretok_name(c->pattern));
		pskd_writer_putc(w, '\n');
	}
	for (i = 0; i < c->n; i++) {
		pskd_writer_write(w, c->sp[i].text, c->sp[i].len);
		pskd_writer_putc(w, ' ');
		pskd_writer_u64(w, c->sp[i].rank);
		pskd_writer_putc(w, '\n');
	}
}

void
pskd_special_free(struct pskd_companion *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->sp[i].text);
	free(c->sp);
	c->sp = NULL;
	c->n = 0;
}
