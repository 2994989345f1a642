/*
 * hset.h - an open-addressing hash set of indexes (into the caller's
 * array), found by a 64-bit hash and confirmed by the caller's equality.
 */
#ifndef QUALITY_HSET_H
#define QUALITY_HSET_H

#include <stddef.h>
#include <stdint.h>

struct q_hset {
	uint64_t	*key;		/* the hash; 0 marks an empty slot */
	size_t		*val;
	size_t		 mask, n;
};

/* Room for about n entries (it grows past them). */
void	q_hset_init(struct q_hset *h, size_t n);
/*
 * The slot of the entry with hash k for which eq(arg, index) holds
 * (*found 1), or the slot where such an entry goes (*found 0: the caller
 * stores its index there; the set counts it).
 */
size_t	*q_hset_find(struct q_hset *h, uint64_t k, int (*eq)(void *, size_t),
	    void *arg, int *found);
/* The slot of the entry with hash k for which eq holds, or NULL. */
size_t	*q_hset_get(const struct q_hset *h, uint64_t k,
	    int (*eq)(void *, size_t), void *arg);
void	q_hset_clear(struct q_hset *h);
/* Emptied, and made smaller when far larger than n entries need. */
void	q_hset_reset(struct q_hset *h, size_t n);
void	q_hset_free(struct q_hset *h);

#endif
