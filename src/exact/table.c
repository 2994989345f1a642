/*
 * table.c - the units this run saw, in memory (exact.h): an ordered
 * open-addressing table.  A hash h has its home at slot (h * cap) >> 64,
 * which grows with h, and sits at or after it with no empty slot between,
 * the occupied slots ascending.  So a lookup scans from the home to the
 * first hash not below h; an insertion shifts the run after its place up
 * to the next empty slot; and the table grows in place: the hashes are
 * packed against the top of the larger mapping (each moves up, none over
 * another not yet moved), then laid out again from the bottom, each at
 * its new home or just after the one before (each moves down).  The
 * mappings grow with mremap(2), without a copy, so the memory is the
 * table's: 12 bytes a slot, 13.3 to 16 bytes a hash between 75 % and
 * 90 % full.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include <errno.h>
#include <string.h>

#include "exact/exact.h"

#define LOAD_NUM	9	/* grow past 9/10 full */
#define LOAD_DEN	10
#define FIRST_CAP	4096

static size_t
room(size_t cap)
{
	return 1024 + cap / 64;
}

static inline size_t
home(uint64_t h, size_t cap)
{
	return (size_t)(((unsigned __int128)h * cap) >> 64);
}

static void *
map_grow(void *p, size_t *res, size_t need)
{
	size_t n = (need + 4095) & ~(size_t)4095;
	void *q;

	if (n <= *res)
		return p;
	if (p == NULL)
		q = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);
	else
		q = mremap(p, *res, n, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		pskd_err(PSKD_EXIT_DATA, "the table of units (%zu bytes)", n);
	*res = n;
	return q;
}

static void
resize(struct x_table *t, size_t size)
{
	t->key = map_grow(t->key, &t->keyres, size * sizeof(*t->key));
	t->val = map_grow(t->val, &t->valres, size * sizeof(*t->val));
}

void
x_table_init(struct x_table *t)
{
	memset(t, 0, sizeof(*t));
	t->cap = FIRST_CAP;
	t->size = FIRST_CAP + room(FIRST_CAP);
	resize(t, t->size);
}

void
x_table_free(struct x_table *t)
{
	if (t->key != NULL)
		munmap(t->key, t->keyres);
	if (t->val != NULL)
		munmap(t->val, t->valres);
	memset(t, 0, sizeof(*t));
}

int
x_table_find(const struct x_table *t, uint64_t h, uint32_t *val)
{
	size_t i = home(h, t->cap);

	while (i < t->size && t->key[i] != 0 && t->key[i] < h)
		i++;
	if (i < t->size && t->key[i] == h) {
		*val = t->val[i];
		return 1;
	}
	return 0;
}

void
x_table_prefetch(const struct x_table *t, uint64_t h)
{
	__builtin_prefetch(&t->key[home(h, t->cap)]);
}

size_t
x_table_memory(const struct x_table *t)
{
	return t->keyres + t->valres;
}

/* Entry from slot a to slot b (b free, or a itself). */
static inline void
move(struct x_table *t, size_t a, size_t b)
{
	if (a == b)
		return;
	t->key[b] = t->key[a];
	t->val[b] = t->val[a];
	t->key[a] = 0;
}

/* Pack the n hashes of slots [0, from) against the top of [0, to). */
static void
pack_top(struct x_table *t, size_t from, size_t to)
{
	size_t i = from, j = to;

	while (i > 0)
		if (t->key[--i] != 0)
			move(t, i, --j);
}

/*
 * Whether the packed hashes fit laid out from the bottom with cap home
 * slots: each no higher than where it is packed.
 */
static int
fits(const struct x_table *t, size_t size, size_t cap)
{
	size_t r, p = 0, pos;

	for (r = size - t->n; r < size; r++) {
		pos = home(t->key[r], cap);
		if (pos < p)
			pos = p;
		if (pos > r)
			return 0;
		p = pos + 1;
	}
	return 1;
}

static void
spread(struct x_table *t, size_t size, size_t cap)
{
	size_t r, p = 0, pos;

	for (r = size - t->n; r < size; r++) {
		pos = home(t->key[r], cap);
		if (pos < p)
			pos = p;
		move(t, r, pos);
		p = pos + 1;
	}
}

static void
grow(struct x_table *t)
{
	size_t cap = t->cap + t->cap / 5, size = cap + room(cap), from;

	from = t->size;
	for (;;) {
		resize(t, size);
		/* New pages of an anonymous mapping are zero: empty. */
		pack_top(t, from, size);
		if (fits(t, size, cap))
			break;
		from = size;
		size = cap + 2 * (size - cap);
	}
	spread(t, size, cap);
	t->cap = cap;
	t->size = size;
}

void
x_table_add(struct x_table *t, uint64_t h, uint32_t val)
{
	size_t i, e;

	if ((t->n + 1) * LOAD_DEN > t->cap * LOAD_NUM)
		grow(t);
	for (;;) {
		i = home(h, t->cap);
		while (i < t->size && t->key[i] != 0 && t->key[i] < h)
			i++;
		for (e = i; e < t->size && t->key[e] != 0; e++)
			;
		if (e < t->size)
			break;
		grow(t);	/* the run reached the top */
	}
	if (e > i) {
		memmove(t->key + i + 1, t->key + i, (e - i) * sizeof(*t->key));
		memmove(t->val + i + 1, t->val + i, (e - i) * sizeof(*t->val));
	}
	t->key[i] = h;
	t->val[i] = val;
	t->n++;
}
