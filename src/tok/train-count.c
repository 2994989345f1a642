/*
 * train-count.c - the pre-tokens of pskd-tok --train counted: distinct
 * byte strings with 64-bit counts (memory grows with the distinct ones,
 * not with the input), and for text that arrives in chunks (-r) where a
 * chunk may end so that its pieces are those of the whole text.
 */
#define _GNU_SOURCE		/* memrchr */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "train.h"

struct wc_entry {
	uint64_t	 hash;
	uint64_t	 count;		/* 0: an empty slot */
	size_t		 off;		/* into bytes */
	size_t		 len;
};

struct pskd_wordcount {
	struct wc_entry	*slot;
	size_t		 mask;
	size_t		 n;
	struct pskd_buf	 bytes;
};

struct pskd_wordcount *
pskd_wordcount_new(void)
{
	struct pskd_wordcount *wc = pskd_xcalloc(1, sizeof(*wc));

	wc->mask = (1u << 10) - 1;
	wc->slot = pskd_xcalloc(wc->mask + 1, sizeof(*wc->slot));
	return wc;
}

static void
wc_grow(struct pskd_wordcount *wc)
{
	size_t i, j, nmask = wc->mask * 2 + 1;
	struct wc_entry *ns = pskd_xcalloc(nmask + 1, sizeof(*ns));

	for (i = 0; i <= wc->mask; i++) {
		if (wc->slot[i].count == 0)
			continue;
		j = (size_t)wc->slot[i].hash & nmask;
		while (ns[j].count != 0)
			j = (j + 1) & nmask;
		ns[j] = wc->slot[i];
	}
	free(wc->slot);
	wc->slot = ns;
	wc->mask = nmask;
}

void
pskd_wordcount_add(struct pskd_wordcount *wc, const unsigned char *s,
    size_t n)
{
	uint64_t h = XXH3_64bits(s, n);
	size_t i = (size_t)h & wc->mask;
	struct wc_entry *e;

	for (;; i = (i + 1) & wc->mask) {
		e = &wc->slot[i];
		if (e->count == 0)
			break;
		if (e->hash == h && e->len == n &&
		    memcmp(wc->bytes.p + e->off, s, n) == 0) {
			e->count++;
			return;
		}
	}
	e->hash = h;
	e->count = 1;
	e->off = wc->bytes.len;
	e->len = n;
	pskd_buf_add(&wc->bytes, s, n);
	if (++wc->n * 2 > wc->mask)
		wc_grow(wc);
}

uint64_t
pskd_wordcount_get(const struct pskd_wordcount *wc, const unsigned char *s,
    size_t n)
{
	uint64_t h = XXH3_64bits(s, n);
	size_t i;

	for (i = (size_t)h & wc->mask; wc->slot[i].count != 0;
	    i = (i + 1) & wc->mask)
		if (wc->slot[i].hash == h && wc->slot[i].len == n &&
		    memcmp(wc->bytes.p + wc->slot[i].off, s, n) == 0)
			return wc->slot[i].count;
	return 0;
}

size_t
pskd_wordcount_size(const struct pskd_wordcount *wc)
{
	return wc->n;
}

void
pskd_wordcount_free(struct pskd_wordcount *wc)
{
	if (wc == NULL)
		return;
	free(wc->slot);
	pskd_buf_free(&wc->bytes);
	free(wc);
}

int
pskd_wordcount_next(const struct pskd_wordcount *wc, size_t *pos,
    const unsigned char **s, size_t *n, uint64_t *count)
{
	const struct wc_entry *e;

	for (; *pos <= wc->mask; (*pos)++) {
		e = &wc->slot[*pos];
		if (e->count == 0)
			continue;
		*s = wc->bytes.p + e->off;
		*n = e->len;
		*count = e->count;
		(*pos)++;
		return 1;
	}
	return 0;
}

/* Unicode White_Space, the \s of the patterns. */
static int
is_space(uint32_t c)
{
	return (c >= 9 && c <= 13) || c == 32 || c == 0x85 || c == 0xa0 ||
	    c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
	    c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/*
 * After a line break followed by a character that is not white space,
 * every pattern ends a piece (no alternative takes a line break and then
 * more, and the white-space alternatives stop before a non-space), and the
 * pieces before depend on nothing after that character.
 */
size_t
pskd_train_cut(const unsigned char *p, size_t n, size_t *look)
{
	const unsigned char *nl;
	size_t end = n ? n - 1 : 0, i, k;
	uint32_t c;

	while (end > 0 && (nl = memrchr(p, '\n', end)) != NULL) {
		i = (size_t)(nl - p) + 1;
		k = pskd_utf8_decode(p + i, n - i, &c);
		if (k > 0 && !is_space(c)) {
			*look = k;
			return i;
		}
		end = i - 1;
	}
	return 0;
}

size_t
pskd_wordcount_text(struct pskd_wordcount *wc, int pattern,
    const unsigned char *p, size_t n, size_t limit)
{
	size_t pos, end;

	for (pos = 0; pos < limit; pos = end) {
		end = pskd_pretok_next(pattern, p, n, pos);
		if (end > limit)
			break;
		pskd_wordcount_add(wc, p + pos, end - pos);
	}
	return pos;
}
