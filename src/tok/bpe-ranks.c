/*
 * bpe-ranks.c - tiktoken ranks files: parse, look tokens up by their bytes
 * (XXH3 and open addressing), write lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "pskd.h"
#include "bpe-ranks.h"

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static inline uint64_t
hash_bytes(const void *p, size_t n)
{
	return XXH3_64bits(p, n);
}

/* The value of each base64 character (b64 above); 64: not one. */
static const unsigned char b64dec[256] = {
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 62, 64, 64, 64, 63,
	52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 64, 64, 64, 64, 64, 64,
	64,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14,
	15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 64, 64, 64, 64, 64,
	64, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
	41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
	64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
};

/*
 * Decode standard base64 (padded) from s[0..n) into out; length or -1.
 * The padding is one or two '=' at the end; the bits they leave over are
 * not checked (as they never were).
 */
static long
unbase64(const unsigned char *s, size_t n, unsigned char *out)
{
	unsigned v, a, b, c, d;
	size_t i, o = 0, pad = 0, full;

	if (n == 0 || n % 4 != 0)
		return -1;
	if (s[n - 1] == '=')
		pad = s[n - 2] == '=' ? 2 : 1;
	full = pad ? n - 4 : n;		/* quads without padding */
	for (i = 0; i < full; i += 4) {
		a = b64dec[s[i]];
		b = b64dec[s[i + 1]];
		c = b64dec[s[i + 2]];
		d = b64dec[s[i + 3]];
		if ((a | b | c | d) & 64)
			return -1;
		v = a << 18 | b << 12 | c << 6 | d;
		out[o++] = (unsigned char)(v >> 16);
		out[o++] = (unsigned char)(v >> 8);
		out[o++] = (unsigned char)v;
	}
	if (pad) {
		a = b64dec[s[i]];
		b = b64dec[s[i + 1]];
		c = pad == 1 ? b64dec[s[i + 2]] : 0;
		if ((a | b | c) & 64)
			return -1;
		v = a << 18 | b << 12 | c << 6;
		out[o++] = (unsigned char)(v >> 16);
		if (pad == 1)
			out[o++] = (unsigned char)(v >> 8);
	}
	return (long)o;
}

#define AHEAD	16	/* inserts prefetched ahead */
#define HUGE_PAGE	(2u << 20)

static int
fail(char *err, size_t errsize, uint64_t line, const char *msg)
{
	snprintf(err, errsize, "%llu: %s", (unsigned long long)line, msg);
	return -1;
}

uint64_t
pskd_ranks_xxh(const void *p, size_t n)
{
	return hash_bytes(p, n);
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

/* A token's slot key and its hash, computed ahead of its insert. */
struct rkey {
	uint64_t	 h, k0;
	uint32_t	 k1;
};

/* Record a token at its rank and insert it: -1 with err if not new. */
static int
insert_one(struct pskd_ranks *r, uint32_t rank, uint32_t off, uint32_t len,
    const struct rkey *q, char *err, size_t errsize)
{
	if (r->len[rank] != 0) {
		snprintf(err, errsize, "rank %u given twice", rank);
		return -1;
	}
	r->off[rank] = off;
	r->len[rank] = len;
	if (insert(r, rank, q->k0, q->k1, q->h) == -1) {
		snprintf(err, errsize, "rank %u: the same token as an earlier "
		    "line", rank);
		return -1;
	}
	return 0;
}

/* Lines in p[0..n): the most tokens a file can hold. */
static size_t
count_lines(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n, *nl;
	size_t k = 1;

	for (; (nl = memchr(p, '\n', (size_t)(end - p))) != NULL; p = nl + 1)
		k++;
	return k;
}

/*
 * Insert every token in file order, each key computed AHEAD inserts
 * early into a ring and its slot prefetched then.
 */
static int
insert_all(struct pskd_ranks *r, const uint32_t *roff, const uint32_t *rlen,
    const uint32_t *rank, size_t nt, char *err, size_t errsize)
{
	struct rkey ring[AHEAD], *q;
	size_t i, j;

	for (i = 0; i < nt + AHEAD; i++) {
		q = &ring[i % AHEAD];
		j = i - AHEAD;		/* the token whose key q holds */
		if (i >= AHEAD && insert_one(r, rank[j], roff[j], rlen[j], q,
		    err, errsize) == -1)
			return -1;
		if (i < nt) {
			q->h = pskd_ranks_keyof(r->bytes + roff[i], rlen[i], &q->k0,
			    &q->k1);
			__builtin_prefetch(&r->slot[q->h & r->mask]);
		}
	}
	return 0;
}

/* The lookup table of nt tokens, r->n and r->bytes set. */
static int
table(struct pskd_ranks *r, const uint32_t *roff, const uint32_t *rlen,
    const uint32_t *rank, size_t nt, char *err, size_t errsize)
{
	size_t size;

	r->ntokens = (uint32_t)nt;
	r->off = pskd_xcalloc(r->n, sizeof(uint32_t));
	r->len = pskd_xcalloc(r->n, sizeof(uint32_t));
	for (size = 16; size < nt * 2; size *= 2)
		;
	r->slot = pskd_huge_alloc(size * sizeof(*r->slot));
	r->mask = size - 1;
	return insert_all(r, roff, rlen, rank, nt, err, errsize);
}

int
pskd_ranks_build(struct pskd_ranks *r, unsigned char *bytes,
    const uint32_t *off, const uint32_t *len, const uint32_t *rank, size_t nt,
    char *err, size_t errsize)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->bytes = bytes;
	for (i = 0; i < nt; i++) {
		if (rank[i] >= PSKD_RANK_MAX) {
			snprintf(err, errsize, "id %u is too large", rank[i]);
			pskd_ranks_free(r);
			return -1;
		}
		if (rank[i] >= r->n)
			r->n = rank[i] + 1;
		if (len[i] > r->maxlen)
			r->maxlen = len[i];
		if (len[i] == 0) {
			snprintf(err, errsize, "id %u: an empty token", rank[i]);
			pskd_ranks_free(r);
			return -1;
		}
	}
	if (table(r, off, len, rank, nt, err, errsize) == -1) {
		pskd_ranks_free(r);
		return -1;
	}
	return 0;
}

int
pskd_ranks_parse(struct pskd_ranks *r, const unsigned char *p, size_t n,
    char *err, size_t errsize)
{
	const unsigned char *line, *end = p + n, *nl, *sp;
	uint32_t *roff, *rlen, *rank;
	size_t cap, nt = 0, used = 0;
	uint64_t lineno = 0, v;
	long k;

	memset(r, 0, sizeof(*r));
	/* Decoded tokens are at most 3/4 of the file; a token a line. */
	r->bytes = pskd_xmalloc(n / 4 * 3 + 4);
	cap = count_lines(p, n);
	roff = pskd_xreallocarray(NULL, cap, sizeof(*roff));
	rlen = pskd_xreallocarray(NULL, cap, sizeof(*rlen));
	rank = pskd_xreallocarray(NULL, cap, sizeof(*rank));
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
	if (table(r, roff, rlen, rank, nt, err, errsize) == -1)
		goto out;
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
	free(roff);
	free(rlen);
	free(rank);
	pskd_ranks_free(r);
	return -1;
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
	h = pskd_ranks_keyof(p, n, &k0, &k1);
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
