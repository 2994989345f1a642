/*
 * table.c - the units this run saw, in memory (exact.h): an ordered
 * open-addressing table.  A hash h has its home at slot (h * cap) >> 64,
 * which grows with h, and sits at or after it with no empty slot between,
 * the occupied slots ascending.  So a lookup scans from the home to the
 * first hash not below h; an insertion shifts the run after its place up
 * to the next empty slot; and the table grows in place: the hashes are
 * packed against the top of the larger mapping (each moves up, none over
 * another not yet moved), then laid out again from the bottom, each at
 * its new home or just after the one before (each moves down; should
 * one have to move up, the room at the top doubles and they are packed
 * again).  A slot is 12 bytes, the hash and its value side by side (one
 * cache line holds a run of five), or the hash alone (8 bytes) when no
 * value is wanted, in one mapping that grows with mremap(2), without a
 * copy, so the memory is the table's: 13.5 to 15.8 bytes a hash between
 * 77 % and 90 % full (10.2 to 13.6 without values, 60 % to 80 %).
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include <errno.h>
#include <string.h>

#include "exact/exact.h"

/*
 * Grow by a sixth past 9/10 full, or without values by a third past 4/5:
 * less memory a hash than with them, and runs an insertion shifts far
 * shorter.
 */
#define LOAD_DEN	10
#define LOAD_NUM(t)	((t)->w > 8 ? 9 : 8)
#define GROW_DEN(t)	((t)->w > 8 ? 6 : 3)
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

static inline uint64_t
key(const struct x_table *t, size_t i)
{
	uint64_t k;

	memcpy(&k, t->slot + t->w * i, sizeof(k));
	return k;
}

static void
map_grow(struct x_table *t, size_t need)
{
	size_t n = (need + 4095) & ~(size_t)4095;
	void *q;

	if (n <= t->res)
		return;
	if (t->slot == NULL)
		q = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS, -1, 0);
	else
		q = mremap(t->slot, t->res, n, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		pskd_err(PSKD_EXIT_DATA, "the table of units (%zu bytes)", n);
	t->slot = q;
	t->res = n;
}

void
x_table_init(struct x_table *t, int vals)
{
	memset(t, 0, sizeof(*t));
	t->w = vals ? 12 : 8;
	t->cap = FIRST_CAP;
	t->size = FIRST_CAP + room(FIRST_CAP);
	map_grow(t, t->w * t->size);
}

void
x_table_free(struct x_table *t)
{
	if (t->slot != NULL)
		munmap(t->slot, t->res);
	memset(t, 0, sizeof(*t));
}

uint64_t
x_table_key(const struct x_table *t, size_t i)
{
	return key(t, i);
}

uint32_t
x_table_val(const struct x_table *t, size_t i)
{
	uint32_t v = 0;

	if (t->w > 8)
		memcpy(&v, t->slot + t->w * i + 8, sizeof(v));
	return v;
}

/* The slot of the first hash not below h from its home, its value. */
static inline size_t
seek(const struct x_table *t, uint64_t h, uint64_t *k)
{
	size_t i = home(h, t->cap);

	for (*k = 0; i < t->size && (*k = key(t, i)) != 0 && *k < h; i++)
		*k = 0;
	return i;
}

int
x_table_find(const struct x_table *t, uint64_t h, uint32_t *val)
{
	uint64_t k;
	size_t i = seek(t, h, &k);

	if (k == h) {
		*val = x_table_val(t, i);
		return 1;
	}
	return 0;
}

void
x_table_prefetch(const struct x_table *t, uint64_t h)
{
	const unsigned char *p = t->slot + t->w * home(h, t->cap);

	/* The run an insertion scans and shifts: about 20 slots. */
	__builtin_prefetch(p);
	__builtin_prefetch(p + 64);
	__builtin_prefetch(p + 128);
	__builtin_prefetch(p + 192);
}

size_t
x_table_memory(const struct x_table *t)
{
	return t->res;
}

/*
 * Slot a's entry (empty or not) to slot b, slot a left empty, when slot b
 * is empty or a itself: without a branch, since whether a slot is empty
 * is a coin toss at these loads (a line-grain run of the bench corpus:
 * 234 ms to 196, median).
 */
static inline void
move(struct x_table *t, size_t a, size_t b)
{
	unsigned char e[12];

	if (t->w > 8) {	/* sizes the compiler can inline */
		memcpy(e, t->slot + 12 * a, 12);
		memset(t->slot + 12 * a, 0, 8);
		memcpy(t->slot + 12 * b, e, 12);
	} else {
		memcpy(e, t->slot + 8 * a, 8);
		memset(t->slot + 8 * a, 0, 8);
		memcpy(t->slot + 8 * b, e, 8);
	}
}

/*
 * Pack the n hashes of slots [0, from) against the top of [0, to): each
 * slot to the lowest one not yet packed, j - 1, which is empty or the
 * slot itself, and only a hash takes it.
 */
static void
pack_top(struct x_table *t, size_t from, size_t to)
{
	size_t i = from, j = to, full;

	while (i > 0) {
		i--;
		full = key(t, i) != 0;
		j -= full;
		move(t, i, j - !full);
	}
}

/*
 * Lay the packed hashes out from the bottom with cap home slots, each at
 * its home or just after the one before: 0, or -1 at the first that would
 * have to move up (the room at the top is too small), those before it
 * laid out, the table still in order.
 */
static int
spread(struct x_table *t, size_t size, size_t cap)
{
	size_t r, p = 0, pos, h;

	for (r = size - t->n; r < size; r++) {
		h = home(key(t, r), cap);
		pos = h > p ? h : p;
		if (pos > r)
			return -1;
		move(t, r, pos);
		p = pos + 1;
	}
	return 0;
}

static void
grow(struct x_table *t)
{
	size_t cap = t->cap + t->cap / GROW_DEN(t), size = cap + room(cap);
	size_t from;

	from = t->size;
	for (;;) {
		map_grow(t, t->w * size);
		/* New pages of an anonymous mapping are zero: empty. */
		pack_top(t, from, size);
		if (spread(t, size, cap) == 0)
			break;
		from = size;
		size = cap + 2 * (size - cap);
	}
	t->cap = cap;
	t->size = size;
}

int
x_table_put(struct x_table *t, uint64_t h, uint32_t val, uint32_t *old)
{
	uint64_t k;
	size_t i, e;

	i = seek(t, h, &k);
	if (k == h) {
		*old = x_table_val(t, i);
		return 1;
	}
	if ((t->n + 1) * LOAD_DEN > t->cap * LOAD_NUM(t)) {
		grow(t);
		i = seek(t, h, &k);
	}
	for (;;) {
		for (e = i; e < t->size && key(t, e) != 0; e++)
			;
		if (e < t->size)
			break;
		grow(t);	/* the run reached the top */
		i = seek(t, h, &k);
	}
	if (e > i)
		memmove(t->slot + t->w * (i + 1), t->slot + t->w * i,
		    t->w * (e - i));
	memcpy(t->slot + t->w * i, &h, 8);
	if (t->w > 8)
		memcpy(t->slot + t->w * i + 8, &val, 4);
	t->n++;
	return 0;
}
