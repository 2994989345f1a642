/*
 * docbuf.h - the buffer of --pack best-fit (src/batch/pack.c): documents
 * by (length, arrival), with the longest of at most some length and the
 * shortest, each the earliest of its length, found in a few steps.
 *
 * A length up to cap has a queue of its documents in arrival order and a
 * bit in a two-level bitmap of the lengths that have one; a longer one (a
 * row may be longer than cap) goes into a treap by (length, arrival).
 * Every length in the queues is below every length in the treap.
 */
#ifndef PSKD_DOCBUF_H
#define PSKD_DOCBUF_H

#include <stdint.h>

struct pack_slot {
	uint64_t	 len;		/* tokens of the document */
	uint64_t	 seq;		/* its arrival */
	uint32_t	 next;		/* queue: the next of its length */
	uint32_t	 l, r;		/* treap: children */
	uint64_t	 prio;		/* treap: heap order */
	unsigned char	*tok;		/* its first min(len, R) tokens */
	uint64_t	 cap;		/* tokens tok has room for */
};

struct docbuf {
	struct pack_slot *s;		/* the slots; 0 is none */
	uint64_t	 cap;		/* lengths 1..cap in queues */
	uint32_t	*head, *tail;	/* cap + 1 each */
	uint64_t	*bits;		/* a bit a length with a queue */
	uint64_t	*top;		/* a bit a word of bits that is not 0 */
	size_t		 nbits, ntop;	/* words */
	uint32_t	 root;		/* the treap */
};

/* Lengths up to cap queued; the rest in the treap. */
void	docbuf_init(struct docbuf *b, struct pack_slot *s, uint64_t cap);
void	docbuf_free(struct docbuf *b);
void	docbuf_add(struct docbuf *b, uint32_t x);
/* The longest of at most rem tokens, the earliest of it; 0: none. */
uint32_t docbuf_fit(const struct docbuf *b, uint64_t rem);
/* The shortest, the earliest of it (the buffer is not empty). */
uint32_t docbuf_shortest(const struct docbuf *b);
/* Take out x, which fit or shortest returned. */
void	docbuf_take(struct docbuf *b, uint32_t x);

#endif /* PSKD_DOCBUF_H */
