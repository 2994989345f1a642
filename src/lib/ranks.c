/*
 * ranks.c - tiktoken ranks files: parse, look tokens up by their bytes
 * (XXH3 and open addressing), write lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "pskd.h"
#include "ranks.h"

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static inline uint64_t
hash_bytes(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

static int
b64val(unsigned c)
{
	if (c >= 'A' && c <= 'Z')
		return (int)(c - 'A');
	if (c >= 'a' && c <= 'z')
		return (int)(c - 'a' + 26);
	if (c >= '0' && c <= '9')
		return (int)(c - '0' + 52);
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decode standard base64 (padded) from s[0..n) into out; length or -1. */
static long
unbase64(const unsigned char *s, size_t n, unsigned char *out)
{
	unsigned v[4];
	size_t i, o = 0, k, pad = 0;
	int d;

	if (n == 0 || n % 4 != 0)
		return -1;
	if (s[n - 1] == '=')
		pad = s[n - 2] == '=' ? 2 : 1;
	for (i = 0; i < n; i += 4) {
		for (k = 0; k < 4; k++) {
			if (i + k >= n - pad) {
				v[k] = 0;
				continue;
			}
			if ((d = b64val(s[i + k])) < 0)
				return -1;
			v[k] = (unsigned)d;
		}
		out[o++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		out[o++] = (unsigned char)(v[1] << 4 | v[2] >> 2);
		out[o++] = (unsigned char)(v[2] << 6 | v[3]);
	}
	return (long)(o - pad);
}

#define AHEAD	16	/* inserts prefetched ahead */
#define HUGE_PAGE	(2u << 20)

static int
fail(char *err, size_t errsize, uint64_t line, const char *msg)
{
	snprintf(err, errsize, "%llu: %s", (unsigned long long)line, msg);
	return -1;
}

/* The slot key of p[0..n) and its hash. */
static uint64_t
key_of(const unsigned char *p, size_t n, uint64_t *k0, uint32_t *k1)
{
	if (n <= PSKD_RANK_SHORT) {
		pskd_ranks_key(p, n, k0, k1);
		return pskd_ranks_keyhash(*k0, *k1);
	}
	*k0 = hash_bytes(p, n);
	*k1 = 0xffu << 24;
	return pskd_ranks_keyhash(*k0, *k1);
}

/*
 * Insert rank, whose key and hash are given; -1 if a token with the same
 * bytes is there already.
 */
static int
insert(struct pskd_ranks *r, uint32_t rank, uint64_t k0, uint32_t k1,
    uint64_t h)
{
	const unsigned char *p = r->bytes + r->off[rank];
	size_t n = r->len[rank], i;
	struct pskd_rslot *s;

	for (i = h & r->mask;; i = (i + 1) & r->mask) {
		s = &r->slot[i];
		if (s->k1 == 0)
			break;
		if (s->k0 == k0 && s->k1 == k1 && r->len[s->rank] == n &&
		    memcmp(r->bytes + r->off[s->rank], p, n) == 0)
			return -1;
	}
	s->k0 = k0;
	s->k1 = k1;
	s->rank = rank;
	return 0;
}

int
pskd_ranks_parse(struct pskd_ranks *r, const unsigned char *p, size_t n,
    char *err, size_t errsize)
{
	const unsigned char *line, *end = p + n, *nl, *sp;
	uint32_t *roff = NULL, *rlen = NULL, *rank = NULL;
	struct {
		uint64_t	 h, k0;
		uint32_t	 k1;
	} *hk = NULL;
	size_t cap = 0, nt = 0, used = 0, i, size;
	uint64_t lineno = 0, v;
	long k;

	memset(r, 0, sizeof(*r));
	/* Decoded tokens are at most 3/4 of the file. */
	r->bytes = pskd_xmalloc(n / 4 * 3 + 4);
	for (line = p; line < end; line = nl + 1) {
		lineno++;
		nl = memchr(line, '\n', (size_t)(end - line));
		if (nl == NULL)
			nl = end;
		if (nl == line)
			continue;
		sp = memchr(line, ' ', (size_t)(nl - line));
		if (sp == NULL)
			goto bad_line;
		if ((k = unbase64(line, (size_t)(sp - line), r->bytes + used)) <= 0)
			goto bad_token;
		v = 0;
		if (sp + 1 == nl)
			goto bad_rank;
		for (sp++; sp < nl; sp++) {
			if (*sp < '0' || *sp > '9' || v > PSKD_RANK_MAX)
				goto bad_rank;
			v = v * 10 + (uint64_t)(*sp - '0');
		}
		if (v > PSKD_RANK_MAX)
			goto bad_rank;
		if (nt == cap) {
			cap = cap ? cap * 2 : 1024;
			roff = pskd_xreallocarray(roff, cap, sizeof(*roff));
			rlen = pskd_xreallocarray(rlen, cap, sizeof(*rlen));
			rank = pskd_xreallocarray(rank, cap, sizeof(*rank));
		}
		roff[nt] = (uint32_t)used;
		rlen[nt] = (uint32_t)k;
		rank[nt++] = (uint32_t)v;
		used += (size_t)k;
		if ((size_t)k > r->maxlen)
			r->maxlen = (size_t)k;
		if (r->n <= v)
			r->n = (uint32_t)v + 1;
	}
	if (nt == 0) {
		fail(err, errsize, lineno, "no tokens");
		goto out;
	}
	r->ntokens = (uint32_t)nt;
	r->off = pskd_xcalloc(r->n, sizeof(uint32_t));
	r->len = pskd_xcalloc(r->n, sizeof(uint32_t));
	for (size = 16; size < nt * 2; size *= 2)
		;
	r->slot = pskd_huge_alloc(size * sizeof(*r->slot));
	r->mask = size - 1;
	/* Keys first, then the inserts with their slots prefetched. */
	hk = pskd_xreallocarray(NULL, nt, sizeof(*hk));
	for (i = 0; i < nt; i++) {
		hk[i].h = key_of(r->bytes + roff[i], rlen[i], &hk[i].k0,
		    &hk[i].k1);
		if (i >= AHEAD)
			__builtin_prefetch(&r->slot[hk[i - AHEAD].h & r->mask]);
	}
	for (i = 0; i < nt; i++) {
		if (i + AHEAD < nt)
			__builtin_prefetch(&r->slot[hk[i + AHEAD].h & r->mask]);
		if (r->len[rank[i]] != 0) {
			snprintf(err, errsize, "rank %u given twice", rank[i]);
			goto out;
		}
		r->off[rank[i]] = roff[i];
		r->len[rank[i]] = rlen[i];
		if (insert(r, rank[i], hk[i].k0, hk[i].k1, hk[i].h) == -1) {
			snprintf(err, errsize, "rank %u: the same token as an "
			    "earlier line", rank[i]);
			goto out;
		}
	}
	free(hk);
	free(roff);
	free(rlen);
	free(rank);
	return 0;

bad_line:
	fail(err, errsize, lineno, "expected \"BASE64 RANK\"");
	goto out;
bad_token:
	fail(err, errsize, lineno, "invalid base64 token");
	goto out;
bad_rank:
	fail(err, errsize, lineno, "invalid rank");
out:
	free(hk);
	free(roff);
	free(rlen);
	free(rank);
	pskd_ranks_free(r);
	return -1;
}

int
pskd_ranks_load(struct pskd_ranks *r, const char *path, char *err,
    size_t errsize)
{
	struct stat st;
	unsigned char *p;
	ssize_t got;
	int fd, rc, e;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		e = errno;
		if (fd != -1)
			close(fd);
		snprintf(err, errsize, "%s", strerror(e));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)1 << 32) {
		close(fd);
		snprintf(err, errsize, "not a regular file of at most 4 GiB");
		return -1;
	}
	p = pskd_xmalloc((size_t)st.st_size + 1);
	got = pskd_read_full(fd, p, (size_t)st.st_size + 1);
	e = errno;
	close(fd);
	if (got < 0) {
		free(p);
		snprintf(err, errsize, "%s", strerror(e));
		return -1;
	}
	rc = pskd_ranks_parse(r, p, (size_t)got, err, errsize);
	free(p);
	return rc;
}

void
pskd_ranks_free(struct pskd_ranks *r)
{
	free(r->bytes);
	free(r->off);
	free(r->len);
	if (r->slot != NULL)
		pskd_huge_free(r->slot, (r->mask + 1) * sizeof(*r->slot));
	memset(r, 0, sizeof(*r));
}

void *
pskd_huge_alloc(size_t n)
{
	void *p;

	if (n < HUGE_PAGE)
		return pskd_xcalloc(1, n);
	n = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (p == MAP_FAILED)
		pskd_err(PSKD_EXIT_DATA, "mmap %zu bytes", n);
#ifdef MADV_HUGEPAGE
	(void)madvise(p, n, MADV_HUGEPAGE);
#endif
	return p;
}

void
pskd_huge_free(void *p, size_t n)
{
	if (n < HUGE_PAGE) {
		free(p);
		return;
	}
	n = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	munmap(p, n);
}

uint32_t
pskd_ranks_find(const struct pskd_ranks *r, const void *p, size_t n)
{
	uint64_t k0, h;
	uint32_t k1;

	if (n == 0 || n > r->maxlen)
		return PSKD_RANK_NONE;
	h = key_of(p, n, &k0, &k1);
	if (n <= PSKD_RANK_SHORT)
		return pskd_ranks_find_key(r, k0, k1, h);
	return pskd_ranks_find_long(r, p, n, k0);
}

uint32_t
pskd_ranks_find_long(const struct pskd_ranks *r, const void *p, size_t n,
    uint64_t xxh)
{
	const struct pskd_rslot *s;
	uint64_t h;
	uint32_t k1 = 0xffu << 24;
	size_t i;

	if (n > r->maxlen)
		return PSKD_RANK_NONE;
	h = pskd_ranks_keyhash(xxh, k1);
	for (i = h & r->mask;; i = (i + 1) & r->mask) {
		s = &r->slot[i];
		if (s->k1 == 0)
			return PSKD_RANK_NONE;
		if (s->k0 == xxh && s->k1 == k1 && r->len[s->rank] == n &&
		    memcmp(r->bytes + r->off[s->rank], p, n) == 0)
			return s->rank;
	}
}

void
pskd_ranks_line(struct pskd_buf *b, const void *p, size_t n, uint32_t rank)
{
	const unsigned char *s = p;
	unsigned v;
	size_t i;
	char num[16];
	int k;

	pskd_buf_reserve(b, (n + 2) / 3 * 4 + 16);
	for (i = 0; i < n; i += 3) {
		v = (unsigned)s[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		b->p[b->len++] = (unsigned char)b64[v >> 18];
		b->p[b->len++] = (unsigned char)b64[v >> 12 & 63];
		b->p[b->len++] = i + 1 < n ? (unsigned char)b64[v >> 6 & 63] : '=';
		b->p[b->len++] = i + 2 < n ? (unsigned char)b64[v & 63] : '=';
	}
	k = snprintf(num, sizeof(num), " %u\n", rank);
	pskd_buf_add(b, num, (size_t)k);
}
