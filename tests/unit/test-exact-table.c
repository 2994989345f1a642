/*
 * test-exact-table.c - pskd-exact's table of units (src/exact/table.c),
 * with and without values: every hash added is found with the value it
 * came with (0 without values), one added again is reported with its
 * first value, the slots hold the hashes ascending, each at or after its
 * home with no empty slot between; with a third of the hashes in one
 * narrow range at the top (runs that reach the top and make it grow);
 * and the memory a hash stays within pskd-exact(1)'s figures (15.8 and
 * 13.6 bytes) as the table grows past a million.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "exact/exact.h"
#include "check.h"

static uint64_t
next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The table's layout as table.c states it. */
static int
ordered(const struct x_table *t)
{
	uint64_t k, prev = 0;
	size_t i, home, n = 0, empty = SIZE_MAX;	/* the last empty slot */

	for (i = 0; i < t->size; i++) {
		if ((k = x_table_key(t, i)) == 0) {
			empty = i;
			continue;
		}
		home = (size_t)(((unsigned __int128)k * t->cap) >> 64);
		if (k <= prev || home > i || (empty != SIZE_MAX &&
		    empty >= home))
			return 0;
		prev = k;
		n++;
	}
	return n == t->n;
}

static void
contents(int vals, int clustered)
{
	size_t N = clustered ? 30000 : 200000;
	uint64_t *h = pskd_xcalloc(N, sizeof(*h)), x = 0x9e3779b97f4a7c15ULL;
	struct x_table t;
	size_t i, lost = 0, again = 0;
	uint32_t v;

	x_table_init(&t, vals);
	for (i = 0; i < N; i++) {
		h[i] = next(&x);
		/* The same top 24 bits, the highest: runs to the top. */
		if (clustered && i % 3 == 0)
			h[i] = 0xffffffULL << 40 | h[i] >> 24;
		h[i] |= 1;
		if (x_table_put(&t, h[i], (uint32_t)i, &v))
			lost++;
	}
	/* Each tenth added again: its first value back. */
	for (i = 0; i < N; i += 10)
		if (!x_table_put(&t, h[i], 7, &v) || v != (vals ? i : 0))
			again++;
	for (i = 0; i < N; i++)
		if (!x_table_find(&t, h[i], &v) || v != (vals ? i : 0))
			lost++;
	check(lost == 0 && t.n == N, "%s, %s: every hash found, with its "
	    "value", vals ? "values" : "no values", clustered ? "clustered" :
	    "random");
	check(again == 0, "%s, %s: a hash added again gives its first value",
	    vals ? "values" : "no values", clustered ? "clustered" : "random");
	check(!x_table_find(&t, 2, &v), "%s, %s: a hash not added is not found",
	    vals ? "values" : "no values", clustered ? "clustered" : "random");
	check(ordered(&t), "%s, %s: ascending, each at or after its home",
	    vals ? "values" : "no values", clustered ? "clustered" : "random");
	x_table_free(&t);
	free(h);
}

/* Bytes a hash at every size from 1,000,000 to 3,000,000 hashes. */
static void
memory(int vals, double most)
{
	struct x_table t;
	uint64_t x = 12345;
	double worst = 0, b;
	size_t i;
	uint32_t v;

	x_table_init(&t, vals);
	for (i = 1; i <= 3000000; i++) {
		(void)x_table_put(&t, next(&x) | 1, 0, &v);
		b = (double)x_table_memory(&t) / (double)i;
		if (i >= 1000000 && b > worst)
			worst = b;
	}
	check(worst <= most, "%s: at most %.1f bytes a hash (%.2f)",
	    vals ? "values" : "no values", most, worst);
	x_table_free(&t);
}

int
main(void)
{
	contents(1, 0);
	contents(1, 1);
	contents(0, 0);
	contents(0, 1);
	memory(1, 15.85);
	memory(0, 13.65);
	return check_status();
}
