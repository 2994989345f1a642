/*
 * train-special.c - the companion file VOCAB.special of a trained
 * vocabulary (train-special.h): which ranks of VOCAB are special tokens,
 * and its pattern, in the section for that VOCAB.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

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

/*
 * A "pattern=NAME" or "ranks=HASH" line into c; NULL, or what is wrong
 * with it.  *ranks: it was a "ranks=" line (which begins a section).
 */
static const char *
parse_setting(const unsigned char *p, size_t n, struct pskd_companion *c,
    int *ranks)
{
	char name[32];
	uint64_t h = 0;
	size_t i;
	int d;

	*ranks = 0;
	if (n >= 6 && memcmp(p, "ranks=", 6) == 0) {
		if (n != 6 + 16)
			return "ranks= is 16 hex digits";
		for (i = 6; i < n; i++) {
			if ((d = p[i] >= '0' && p[i] <= '9' ? p[i] - '0' :
			    p[i] >= 'a' && p[i] <= 'f' ? p[i] - 'a' + 10 : -1) <
			    0)
				return "ranks= is 16 hex digits";
			h = h << 4 | (uint64_t)d;
		}
		*ranks = 1;
		c->hasranks = 1;
		c->ranks = h;
		return NULL;
	}
	if (n < 8 || memcmp(p, "pattern=", 8) != 0)
		return "expected \"TOKEN RANK\", \"pattern=NAME\" or "
		    "\"ranks=HASH\"";
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

/* A "TOKEN RANK" line added to c; NULL, or what is wrong with it. */
static const char *
add_token(const unsigned char *p, size_t n, struct pskd_companion *c)
{
	const char *why;
	size_t i;

	c->sp = pskd_xreallocarray(c->sp, c->n + 1, sizeof(*c->sp));
	if ((why = parse_line(p, n, &c->sp[c->n])) != NULL)
		return why;
	for (i = 0; i < c->n; i++) {
		if (c->sp[i].rank == c->sp[c->n].rank)
			why = "rank given twice";
		else if (strcmp(c->sp[i].text, c->sp[c->n].text) == 0)
			why = "token given twice";
	}
	c->n++;
	return why;
}

static void
empty(struct pskd_companion *c)
{
	memset(c, 0, sizeof(*c));
	c->pattern = -1;
}

/* A section read: kept in c if it is the one for ranks, else freed. */
static void
section(struct pskd_companion *cur, uint64_t ranks, struct pskd_companion *c,
    int *found)
{
	if (cur->hasranks && cur->ranks == ranks && !*found) {
		*c = *cur;
		*found = 1;
	} else
		pskd_special_free(cur);
	empty(cur);
}

int
pskd_special_parse(const unsigned char *p, size_t n, uint64_t ranks,
    struct pskd_companion *c, char *err, size_t errsize)
{
	struct pskd_companion cur;
	const unsigned char *nl;
	const char *why = NULL;
	uint64_t line = 0, *seen = NULL;
	size_t len, nseen = 0, i;
	int r, found = 0;

	empty(c);
	empty(&cur);
	while (n > 0 && why == NULL) {
		line++;
		nl = memchr(p, '\n', n);
		len = nl ? (size_t)(nl - p) : n;
		if (len >= 6 && memcmp(p, "ranks=", 6) == 0) {
			if (line > 1 && !cur.hasranks) {
				why = "ranks= after lines of no section";
				break;
			}
			section(&cur, ranks, c, &found);
		}
		if (memchr(p, ' ', len) != NULL)
			why = add_token(p, len, &cur);
		else if ((why = parse_setting(p, len, &cur, &r)) == NULL && r) {
			for (i = 0; i < nseen; i++)
				if (seen[i] == cur.ranks)
					why = "ranks given twice";
			seen = pskd_xreallocarray(seen, nseen + 1,
			    sizeof(*seen));
			seen[nseen++] = cur.ranks;
		}
		p += len + (nl != NULL);
		n -= len + (nl != NULL);
	}
	free(seen);
	if (why != NULL) {
		snprintf(err, errsize, "%llu: %s", (unsigned long long)line,
		    why);
		pskd_special_free(&cur);
		pskd_special_free(c);
		empty(c);
		return -1;
	}
	if (!cur.hasranks) {
		*c = cur;	/* no section: a file of older pskd-tok */
		return 1;
	}
	section(&cur, ranks, c, &found);
	return found;
}

uint64_t
pskd_special_hash(const unsigned char *p, size_t n)
{
	return XXH3_64bits(p, n);
}

int
pskd_special_load(const char *vocab, const unsigned char *p, size_t n,
    struct pskd_companion *c, struct pskd_error *e)
{
	struct pskd_buf b = { NULL, 0, 0 };
	char err[256], *path;
	size_t k;
	int rc;

	empty(c);
	k = strlen(vocab) + sizeof(".special");
	path = pskd_xmalloc(k);
	snprintf(path, k, "%s.special", vocab);
	if (pskd_slurp(path, 1u << 30, &b) == -1) {
		rc = errno == ENOENT ? 0 : -1;
		if (rc == -1)
			pskd_error_set(e, 0, "%s: %s", path, strerror(errno));
	} else if ((rc = pskd_special_parse(b.p, b.len, pskd_special_hash(p,
	    n), c, err, sizeof(err))) == -1) {
		pskd_error_set(e, 0, "%s:%s", path, err);
	} else if (rc == 0) {
		pskd_error_set(e, 0, "%s: written for another %s (it has no "
		    "section for these ranks)", path, vocab);
		rc = -1;
	} else if (c->hasranks && c->n == 0 && c->pattern == -1) {
		rc = 0;		/* the ranks of a VOCAB without companion */
	}
	pskd_buf_free(&b);
	free(path);
	return rc;
}

void
pskd_special_write(struct pskd_writer *w, const struct pskd_companion *c)
{
	size_t i;

	if (c->hasranks)
		pskd_writer_printf(w, "ranks=%016llx\n",
		    (unsigned long long)c->ranks);
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
