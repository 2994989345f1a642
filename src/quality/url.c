/*
 * url.c - the url rule set: a document's url against blocklists of
 * domains (each matching its subdomains too), of URLs, and of banned
 * substrings.  A URL is read as scheme://userinfo@host:port/path?query
 * #fragment, every part but the host optional: the host is lowercased
 * (ASCII) and loses a final dot; scheme, userinfo, port and fragment are
 * not compared; an empty path is "/".  Banned substrings are compared as
 * datatrove's URLFilter compares its banned subwords: the URL and the
 * entry both reduced to their ASCII letters and digits, lowercased.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "quality/quality.h"
#include "quality/hset.h"

struct q_urls {
	struct q_hset	 domains, urls, subs;
	struct pskd_buf	 mem;		/* entries back to back */
	size_t		*off, *len;	/* entry k: mem.p + off[k], len[k] */
	size_t		 n, cap;
	size_t		 sublens[64];	/* the lengths of banned substrings */
	size_t		 nsublens;
	struct pskd_buf	 key, norm;	/* scratch of q_urls_check */
	int		 loaded;
};

struct q_urls *
q_urls_new(void)
{
	struct q_urls *u = pskd_xcalloc(1, sizeof(*u));

	q_hset_init(&u->domains, 64);
	q_hset_init(&u->urls, 64);
	q_hset_init(&u->subs, 64);
	return u;
}

void
q_urls_free(struct q_urls *u)
{
	if (u == NULL)
		return;
	q_hset_free(&u->domains);
	q_hset_free(&u->urls);
	q_hset_free(&u->subs);
	pskd_buf_free(&u->mem);
	pskd_buf_free(&u->key);
	pskd_buf_free(&u->norm);
	free(u->off);
	free(u->len);
	free(u);
}

int
q_urls_empty(const struct q_urls *u)
{
	return !u->loaded;
}

struct url {
	const unsigned char *host, *path;	/* path: from '/' or '?' */
	size_t		 hostlen, pathlen;
	int		 scheme;		/* "scheme://" */
};

/* Split s[0..n) into host and path (without the fragment). */
static void
url_split(const unsigned char *s, size_t n, struct url *u)
{
	const unsigned char *p = s, *end = s + n, *q, *a;
	size_t i;

	u->scheme = 0;
	for (i = 0; i + 2 < n; i++) {		/* scheme "://" */
		if (s[i] == ':' && s[i + 1] == '/' && s[i + 2] == '/') {
			p = s + i + 3;
			u->scheme = 1;
			break;
		}
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' &&
		    s[i] <= 'Z') && !(i > 0 && ((s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '+' || s[i] == '-' || s[i] == '.')))
			break;
	}
	if ((q = memchr(p, '#', (size_t)(end - p))) != NULL)
		end = q;
	for (q = p; q < end && *q != '/' && *q != '?'; q++)
		;
	u->path = q;
	u->pathlen = (size_t)(end - q);
	/* userinfo: up to the last '@' of the authority */
	for (a = q; a > p; a--)
		if (a[-1] == '@') {
			p = a;
			break;
		}
	/* port: ":digits" at the end, outside an IPv6 literal's brackets */
	for (a = q; a > p && a[-1] >= '0' && a[-1] <= '9'; a--)
		;
	if (a > p && a[-1] == ':')
		q = a - 1;
	else if (a == q && q > p && q[-1] == ':')
		q--;
	if (q > p && q[-1] == '.')
		q--;
	u->host = p;
	u->hostlen = (size_t)(q - p);
}

/* host lowercased, then (urls) the path or "/", into b. */
static void
url_key(struct pskd_buf *b, const struct url *u, int withpath)
{
	size_t i;

	b->len = 0;
	pskd_buf_reserve(b, u->hostlen + u->pathlen + 2);
	for (i = 0; i < u->hostlen; i++)
		b->p[b->len++] = (unsigned char)(u->host[i] >= 'A' &&
		    u->host[i] <= 'Z' ? u->host[i] | 0x20 : u->host[i]);
	if (!withpath)
		return;
	if (u->pathlen == 0 || u->path[0] != '/')
		b->p[b->len++] = '/';
	memcpy(b->p + b->len, u->path, u->pathlen);
	b->len += u->pathlen;
}

/* ASCII letters and digits of s, lowercased, into b. */
static void
normalize(struct pskd_buf *b, const unsigned char *s, size_t n)
{
	size_t i;

	b->len = 0;
	pskd_buf_reserve(b, n + 1);
	for (i = 0; i < n; i++) {
		if (s[i] >= 'A' && s[i] <= 'Z')
			b->p[b->len++] = (unsigned char)(s[i] | 0x20);
		else if ((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9'))
			b->p[b->len++] = s[i];
	}
}

struct probe {
	struct q_urls	*u;
	const unsigned char *p;
	size_t		 n;
};

static int
entry_eq(void *arg, size_t k)
{
	struct probe *pr = arg;

	return pr->u->len[k] == pr->n && memcmp(pr->u->mem.p + pr->u->off[k],
	    pr->p, pr->n) == 0;
}

/* Add entry p[0..n) to set h, once. */
static void
entry_add(struct q_urls *u, struct q_hset *h, const unsigned char *p, size_t n)
{
	struct probe pr = { u, p, n };
	size_t *slot;
	int found;

	/* the entries' bytes live in u->mem, which may move: offsets */
	slot = q_hset_find(h, XXH3_64bits(p, n), entry_eq, &pr, &found);
	if (found)
		return;
	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 256;
		u->off = pskd_xreallocarray(u->off, u->cap, sizeof(*u->off));
		u->len = pskd_xreallocarray(u->len, u->cap, sizeof(*u->len));
	}
	u->off[u->n] = u->mem.len;
	u->len[u->n] = n;
	*slot = u->n++;
	pskd_buf_add(&u->mem, p, n);
}

static int
contains(struct q_urls *u, struct q_hset *h, const unsigned char *p, size_t n)
{
	struct probe pr = { u, p, n };

	return q_hset_get(h, XXH3_64bits(p, n), entry_eq, &pr) != NULL;
}

/* One line of a list: 0, or -1 with why. */
static int
entry(struct q_urls *u, const unsigned char *p, size_t n, int substrings,
    const char **why)
{
	struct url url;
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] <= ' ' || p[i] == 0x7f) {
			*why = "white space or a control character inside "
			    "an entry";
			return -1;
		}
	if (substrings) {
		normalize(&u->norm, p, n);
		if (u->norm.len == 0) {
			*why = "a banned substring without a letter or digit";
			return -1;
		}
		for (i = 0; i < u->nsublens && u->sublens[i] != u->norm.len; i++)
			;
		if (i == u->nsublens) {
			if (u->nsublens == sizeof(u->sublens) /
			    sizeof(u->sublens[0])) {
				*why = "banned substrings of more than 64 "
				    "lengths";
				return -1;
			}
			u->sublens[u->nsublens++] = u->norm.len;
		}
		entry_add(u, &u->subs, u->norm.p, u->norm.len);
		return 0;
	}
	url_split(p, n, &url);
	if (url.hostlen == 0 || url.host[0] == '.' ||
	    memchr(url.host, '/', url.hostlen)) {
		*why = "not a domain or a URL (no host)";
		return -1;
	}
	/* a domain has no path and no "scheme://" */
	url_key(&u->key, &url, url.pathlen > 0 || url.scheme);
	entry_add(u, url.pathlen > 0 || url.scheme ? &u->urls : &u->domains,
	    u->key.p, u->key.len);
	return 0;
}

int
q_urls_parse(struct q_urls *u, const char *name, const unsigned char *p,
    size_t n, int substrings, struct pskd_error *e)
{
	const unsigned char *end = p + n, *nl, *a, *b;
	const char *why;
	uint64_t lineno = 0;
	size_t bad;

	bad = pskd_utf8_check(p, n);
	while (p < end) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		b = nl ? nl : end;
		if (bad < (size_t)(b - (end - n))) {
			pskd_error_set(e, 0, "%s:%llu: invalid UTF-8", name,
			    (unsigned long long)lineno);
			return -1;
		}
		a = p;
		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t' ||
		    b[-1] == '\r'))
			b--;
		if (a < b && *a != '#' && entry(u, a, (size_t)(b - a),
		    substrings, &why) == -1) {
			pskd_error_set(e, 0, "%s:%llu: %s", name,
			    (unsigned long long)lineno, why);
			return -1;
		}
		p = nl ? nl + 1 : end;
	}
	u->loaded = 1;
	return 0;
}

int
q_urls_load(struct q_urls *u, const char *path, int substrings,
    struct pskd_error *e)
{
	struct pskd_buf b = { 0 };
	int rc;

	if (pskd_slurp(path, 0, &b) == -1) {
		pskd_error_set(e, 0, "%s: %s", path, strerror(errno));
		pskd_buf_free(&b);
		return -1;
	}
	rc = q_urls_parse(u, path, b.p, b.len, substrings, e);
	pskd_buf_free(&b);
	return rc;
}

void
q_urls_check(struct q_urls *u, const unsigned char *s, size_t n,
    struct q_verdict *v)
{
	struct url url;
	size_t i, k, hostlen;
	const unsigned char *h;
	int withpath;

	v->name = NULL;
	url_split(s, n, &url);
	for (withpath = 0; withpath <= 1; withpath++) {
		if ((withpath ? u->urls.n : u->domains.n) == 0)
			continue;
		url_key(&u->key, &url, withpath);
		/* the host, then each domain it is a subdomain of */
		for (i = 0; i < url.hostlen; i++) {
			if (i > 0 && u->key.p[i - 1] != '.')
				continue;
			h = u->key.p + i;
			if (!contains(u, withpath ? &u->urls : &u->domains, h,
			    u->key.len - i))
				continue;
			hostlen = url.hostlen - i;
			q_verdict_str(v, withpath ? "url_listed" : "url_domain",
			    (const char *)s, n, "");
			snprintf(v->against, sizeof(v->against), "%.*s",
			    (int)(withpath ? u->key.len - i : hostlen),
			    (const char *)h);
			return;
		}
	}
	if (u->subs.n == 0)
		return;
	normalize(&u->norm, s, n);
	for (k = 0; k < u->nsublens; k++)
		for (i = 0; i + u->sublens[k] <= u->norm.len; i++)
			if (contains(u, &u->subs, u->norm.p + i,
			    u->sublens[k])) {
				q_verdict_str(v, "url_banned_substring",
				    (const char *)s, n, "");
				snprintf(v->against, sizeof(v->against), "%.*s",
				    (int)u->sublens[k],
				    (const char *)u->norm.p + i);
				return;
			}
}
