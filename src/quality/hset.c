/*
 * hset.c - the hash set of hset.h: linear probing, kept at most half full.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "quality/hset.h"

void
q_hset_init(struct q_hset *h, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n && cap < ((size_t)1 << 40))
		cap *= 2;
	h->key = pskd_xcalloc(cap, sizeof(*h->key));
	h->val = pskd_xmalloc(cap * sizeof(*h->val));
	h->mask = cap - 1;
	h->n = 0;
}

static void
grow(struct q_hset *h)
{
	uint64_t *key = h->key;
	size_t *val = h->val, cap = h->mask + 1, i, j;

	h->key = pskd_xcalloc(2 * cap, sizeof(*h->key));
	h->val = pskd_xmalloc(2 * cap * sizeof(*h->val));
	h->mask = 2 * cap - 1;
	for (i = 0; i < cap; i++) {
		if (key[i] == 0)
			continue;
		for (j = key[i] & h->mask; h->key[j] != 0; j = (j + 1) & h->mask)
			;
		h->key[j] = key[i];
		h->val[j] = val[i];
	}
	free(key);
	free(val);
}

size_t *
q_hset_find(struct q_hset *h, uint64_t k, int (*eq)(void *, size_t),
    void *arg, int *found)
{
	size_t i;

	if (k == 0)
		k = 1;
	if (2 * (h->n + 1) > h->mask + 1)
		grow(h);
	for (i = k & h->mask; h->key[i] != 0; i = (i + 1) & h->mask) {
		if (h->key[i] == k && eq(arg, h->val[i])) {
			*found = 1;
			return &h->val[i];
		}
	}
	*found = 0;
	h->key[i] = k;
	h->n++;
	return &h->val[i];
}

size_t *
q_hset_get(const struct q_hset *h, uint64_t k, int (*eq)(void *, size_t),
    void *arg)
{
	size_t i;

	if (k == 0)
		k = 1;
	for (i = k & h->mask; h->key[i] != 0; i = (i + 1) & h->mask)
		if (h->key[i] == k && eq(arg, h->val[i]))
			return &h->val[i];
	return NULL;
}

void
q_hset_clear(struct q_hset *h)
{
	memset(h->key, 0, (h->mask + 1) * sizeof(*h->key));
	h->n = 0;
}

void
q_hset_reset(struct q_hset *h, size_t n)
{
	if (h->mask + 1 > 8 * n && h->mask + 1 > 4096) {
		q_hset_free(h);
		q_hset_init(h, n);
	} else
		q_hset_clear(h);
}

void
q_hset_free(struct q_hset *h)
{
	free(h->key);
	free(h->val);
	memset(h, 0, sizeof(*h));
}
