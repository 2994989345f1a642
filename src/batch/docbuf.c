/* docbuf.c - the best-fit buffer (see docbuf.h). */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/docbuf.h"
#include "batch/perm.h"

void
docbuf_init(struct docbuf *b, struct pack_slot *s, uint64_t cap)
{
	memset(b, 0, sizeof(*b));
	b->s = s;
	b->cap = cap;
	b->head = pskd_xcalloc((size_t)cap + 1, sizeof(*b->head));
	b->tail = pskd_xcalloc((size_t)cap + 1, sizeof(*b->tail));
	b->nbits = (size_t)(cap / 64 + 1);
	b->ntop = b->nbits / 64 + 1;
	b->bits = pskd_xcalloc(b->nbits, sizeof(*b->bits));
	b->top = pskd_xcalloc(b->ntop, sizeof(*b->top));
}

void
docbuf_free(struct docbuf *b)
{
	free(b->head);
	free(b->tail);
	free(b->bits);
	free(b->top);
	memset(b, 0, sizeof(*b));
}

/* ---- the treap of long documents ----------------------------------------- */

static int
slot_less(const struct pack_slot *a, const struct pack_slot *b)
{
	return a->len < b->len || (a->len == b->len && a->seq < b->seq);
}

/* Split t into the slots before x (*a) and x with the ones after (*b). */
static void
split(struct pack_slot *s, uint32_t t, const struct pack_slot *x,
    uint32_t *a, uint32_t *b)
{
	if (t == 0) {
		*a = *b = 0;
	} else if (slot_less(&s[t], x)) {
		split(s, s[t].r, x, &s[t].r, b);
		*a = t;
	} else {
		split(s, s[t].l, x, a, &s[t].l);
		*b = t;
	}
}

/* Every slot of a before every slot of b. */
static uint32_t
merge(struct pack_slot *s, uint32_t a, uint32_t b)
{
	if (a == 0 || b == 0)
		return a ? a : b;
	if (s[a].prio > s[b].prio) {
		s[a].r = merge(s, s[a].r, b);
		return a;
	}
	s[b].l = merge(s, a, s[b].l);
	return b;
}

static void
tree_add(struct docbuf *b, uint32_t x)
{
	struct pack_slot *s = b->s;
	uint32_t l, r;

	s[x].l = s[x].r = 0;
	s[x].prio = pskd_perm_mix(s[x].seq);
	split(s, b->root, &s[x], &l, &r);
	b->root = merge(s, merge(s, l, x), r);
}

static void
tree_take(struct docbuf *b, uint32_t x)
{
	struct pack_slot *s = b->s, next = s[x];
	uint32_t l, r, m, c;

	split(s, b->root, &s[x], &l, &r);
	next.seq++;		/* the key just after x's */
	split(s, r, &next, &m, &c);
	b->root = merge(s, l, c);
}

static uint32_t
tree_fit(const struct docbuf *b, uint64_t rem)
{
	const struct pack_slot *s = b->s;
	uint32_t x, best = 0;
	uint64_t len;

	for (x = b->root; x != 0; )
		if (s[x].len <= rem) {
			best = x;
			x = s[x].r;
		} else
			x = s[x].l;
	if (best == 0)
		return 0;
	len = s[best].len;
	for (x = b->root; x != 0; )
		if (s[x].len >= len) {
			if (s[x].len == len)
				best = x;
			x = s[x].l;
		} else
			x = s[x].r;
	return best;
}

/* ---- the queues of short ones -------------------------------------------- */

static void
set_bit(struct docbuf *b, uint64_t len)
{
	b->bits[len / 64] |= (uint64_t)1 << (len % 64);
	b->top[len / 4096] |= (uint64_t)1 << (len / 64 % 64);
}

static void
clear_bit(struct docbuf *b, uint64_t len)
{
	b->bits[len / 64] &= ~((uint64_t)1 << (len % 64));
	if (b->bits[len / 64] == 0)
		b->top[len / 4096] &= ~((uint64_t)1 << (len / 64 % 64));
}

/* The largest length with a queue at most rem (<= cap), or 0. */
static uint64_t
largest(const struct docbuf *b, uint64_t rem)
{
	size_t w = (size_t)(rem / 64), t;
	uint64_t m = b->bits[w] & (rem % 64 == 63 ? UINT64_MAX :
	    ((uint64_t)1 << (rem % 64 + 1)) - 1);

	if (m != 0)
		return (uint64_t)w * 64 + 63 - (uint64_t)__builtin_clzll(m);
	/* the words below w that have a bit, through their summary */
	t = w / 64;
	m = b->top[t] & (((uint64_t)1 << (w % 64)) - 1);
	while (m == 0) {
		if (t == 0)
			return 0;
		m = b->top[--t];
	}
	w = t * 64 + 63 - (size_t)__builtin_clzll(m);
	return (uint64_t)w * 64 + 63 - (uint64_t)__builtin_clzll(b->bits[w]);
}

/* The smallest length with a queue, or 0. */
static uint64_t
smallest(const struct docbuf *b)
{
	size_t t, w;

	for (t = 0; t < b->ntop; t++)
		if (b->top[t] != 0) {
			w = t * 64 + (size_t)__builtin_ctzll(b->top[t]);
			return (uint64_t)w * 64 +
			    (uint64_t)__builtin_ctzll(b->bits[w]);
		}
	return 0;
}

/* ---- the buffer --------------------------------------------------------- */

void
docbuf_add(struct docbuf *b, uint32_t x)
{
	uint64_t len = b->s[x].len;

	if (len > b->cap) {
		tree_add(b, x);
		return;
	}
	b->s[x].next = 0;
	if (b->head[len] == 0) {
		b->head[len] = x;
		set_bit(b, len);
	} else
		b->s[b->tail[len]].next = x;
	b->tail[len] = x;
}

uint32_t
docbuf_fit(const struct docbuf *b, uint64_t rem)
{
	uint32_t x;
	uint64_t len;

	if (rem > b->cap && (x = tree_fit(b, rem)) != 0)
		return x;
	len = largest(b, rem < b->cap ? rem : b->cap);
	return len == 0 ? 0 : b->head[len];
}

uint32_t
docbuf_shortest(const struct docbuf *b)
{
	uint64_t len = smallest(b);
	uint32_t x;

	if (len != 0)
		return b->head[len];
	for (x = b->root; b->s[x].l != 0; x = b->s[x].l)
		;
	return x;
}

void
docbuf_take(struct docbuf *b, uint32_t x)
{
	uint64_t len = b->s[x].len;

	if (len > b->cap) {
		tree_take(b, x);
		return;
	}
	/* x is the head of its queue: fit and shortest give heads */
	b->head[len] = b->s[x].next;
	if (b->head[len] == 0)
		clear_bit(b, len);
}
