/*
 * test-perm - the keyed permutation of src/batch/perm.c.
 *
 *   test-perm                      the checks, "ok - ..." lines
 *   test-perm at N SEED EPOCH POS...   the element at each position, one a
 *                                  line (tests/t/python-perm compares them
 *                                  with src/python/pskd.py)
 *   test-perm bench N              ns per index over positions 0..N-1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pskd.h"
#include "check.h"
#include "batch/perm.h"



/* Is 0..n-1 a permutation, and different from the identity? */
static int
is_perm(uint64_t n, uint64_t seed, uint64_t epoch)
{
	struct pskd_perm p;
	unsigned char *seen = pskd_xcalloc((size_t)n ? (size_t)n : 1, 1);
	uint64_t i, v;
	int ok = 1;

	pskd_perm_init(&p, n, seed, epoch);
	for (i = 0; i < n && ok; i++) {
		v = pskd_perm_at(&p, i);
		if (v >= n || seen[v])
			ok = 0;
		else
			seen[v] = 1;
	}
	free(seen);
	return ok;
}

static int
same_order(uint64_t n, uint64_t s1, uint64_t e1, uint64_t s2, uint64_t e2)
{
	struct pskd_perm a, b;
	uint64_t i;

	pskd_perm_init(&a, n, s1, e1);
	pskd_perm_init(&b, n, s2, e2);
	for (i = 0; i < n; i++)
		if (pskd_perm_at(&a, i) != pskd_perm_at(&b, i))
			return 0;
	return 1;
}

static int
range_agrees(uint64_t n, uint64_t seed, uint64_t first, uint64_t step,
    size_t count)
{
	struct pskd_perm p;
	uint64_t *out = pskd_xreallocarray(NULL, count, sizeof(*out));
	size_t k;
	int ok = 1;

	pskd_perm_init(&p, n, seed, 2);
	pskd_perm_range(&p, first, step, count, out);
	for (k = 0; k < count; k++)
		ok &= out[k] == pskd_perm_at(&p, first + k * step);
	free(out);
	return ok;
}

/* Known answers: pin the specification of pskd-shuffle(1). */
static const struct {
	uint64_t n, seed, epoch, pos, want;
} kat[] = {
/* n, seed, epoch, position, element: computed by src/python/pskd.py */
{ UINT64_C(1), UINT64_C(0), UINT64_C(1), UINT64_C(0), UINT64_C(0) },
{ UINT64_C(2), UINT64_C(0), UINT64_C(1), UINT64_C(0), UINT64_C(0) },
{ UINT64_C(2), UINT64_C(0), UINT64_C(1), UINT64_C(1), UINT64_C(1) },
{ UINT64_C(2), UINT64_C(5), UINT64_C(3), UINT64_C(0), UINT64_C(1) },
{ UINT64_C(2), UINT64_C(5), UINT64_C(3), UINT64_C(1), UINT64_C(0) },
{ UINT64_C(3), UINT64_C(1), UINT64_C(1), UINT64_C(0), UINT64_C(1) },
{ UINT64_C(3), UINT64_C(1), UINT64_C(1), UINT64_C(1), UINT64_C(0) },
{ UINT64_C(3), UINT64_C(1), UINT64_C(1), UINT64_C(2), UINT64_C(2) },
{ UINT64_C(1000), UINT64_C(42), UINT64_C(2), UINT64_C(0), UINT64_C(262) },
{ UINT64_C(1000), UINT64_C(42), UINT64_C(2), UINT64_C(1), UINT64_C(585) },
{ UINT64_C(1000), UINT64_C(42), UINT64_C(2), UINT64_C(999), UINT64_C(982) },
{ UINT64_C(1009), UINT64_C(7), UINT64_C(5), UINT64_C(0), UINT64_C(327) },
{ UINT64_C(1009), UINT64_C(7), UINT64_C(5), UINT64_C(500), UINT64_C(983) },
{ UINT64_C(1009), UINT64_C(7), UINT64_C(5), UINT64_C(1008), UINT64_C(525) },
{ UINT64_C(1048576), UINT64_C(1), UINT64_C(1), UINT64_C(0), UINT64_C(278127) },
{ UINT64_C(1048576), UINT64_C(1), UINT64_C(1), UINT64_C(1048575), UINT64_C(813556) },
{ UINT64_C(1048577), UINT64_C(3), UINT64_C(2), UINT64_C(0), UINT64_C(681844) },
{ UINT64_C(1048577), UINT64_C(3), UINT64_C(2), UINT64_C(1048576), UINT64_C(837572) },
{ UINT64_C(4294967301), UINT64_C(9), UINT64_C(4), UINT64_C(4294967300), UINT64_C(65989688) },
{ UINT64_C(18446744073709551615), UINT64_C(0), UINT64_C(1), UINT64_C(0), UINT64_C(6359225113637263292) },
{ UINT64_C(18446744073709551615), UINT64_C(0), UINT64_C(1), UINT64_C(18446744073709551614), UINT64_C(17125804466714458629) },
{ UINT64_C(18446744073709551615), UINT64_C(18446744073709551615), UINT64_C(18446744073709551615), UINT64_C(18446744073709551614), UINT64_C(9720021031570673312) },
};

static void
checks(void)
{
	static const uint64_t sizes[] = { 1000, 1021, 4096, 4097, 65536,
	    (1u << 20) + 1 };
	struct pskd_perm p;
	char what[128];
	uint64_t n, i, v;
	size_t k;
	int ok;

	ok = 1;
	for (n = 0; n <= 300; n++)
		ok &= is_perm(n, n * 7, 1 + n % 3);
	check(ok, "every n from 0 to 300 is permuted");
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		snprintf(what, sizeof(what), "n=%llu is permuted (3 epochs)",
		    (unsigned long long)sizes[k]);
		check(is_perm(sizes[k], 42, 1) && is_perm(sizes[k], 42, 2) &&
		    is_perm(sizes[k], 0, 3), what);
	}
	check(same_order(1000, 5, 2, 5, 2), "same seed and epoch, same order");
	check(!same_order(1000, 5, 1, 5, 2), "another epoch, another order");
	check(!same_order(1000, 5, 1, 6, 1), "another seed, another order");
	check(!same_order(2, 5, 1, 5, 2) || !same_order(2, 5, 1, 5, 3),
	    "n=2 is not fixed across epochs");

	/* The largest domain: 32-bit halves, no overflow, lands below n. */
	n = UINT64_MAX;
	pskd_perm_init(&p, n, 1, 1);
	check(p.lo == 32 && p.maskl == 0xffffffffu && p.maskr == 0xffffffffu,
	    "n=2^64-1: two 32-bit halves");
	ok = 1;
	for (i = n - 1000; i != 0; i++) {
		v = pskd_perm_at(&p, i);
		ok &= v < n;
	}
	check(ok, "n=2^64-1: the last 1000 positions land in range");
	ok = range_agrees(1000, 1, 0, 1, 1000);
	ok &= range_agrees(1000003, 7, 3, 1, 5000);
	ok &= range_agrees(1000003, 7, 3, 4, 5000);
	ok &= range_agrees(1, 7, 0, 1, 1);
	ok &= range_agrees(UINT64_MAX, 9, UINT64_MAX - 3000, 1, 3000);
	check(ok, "pskd_perm_range agrees with pskd_perm_at");
	pskd_perm_init(&p, (uint64_t)1 << 32, 3, 1);
	check(p.lo == 16 && p.maskl == 0xffff, "n=2^32: two 16-bit halves");
	pskd_perm_init(&p, ((uint64_t)1 << 32) + 1, 3, 1);
	check(p.lo == 16 && p.maskl == 0x1ffff,
	    "n=2^32+1: halves of 17 and 16 bits");

	ok = 1;
	for (k = 0; k < sizeof(kat) / sizeof(kat[0]); k++) {
		pskd_perm_init(&p, kat[k].n, kat[k].seed, kat[k].epoch);
		v = pskd_perm_at(&p, kat[k].pos);
		if (v != kat[k].want) {
			printf("# n=%llu seed=%llu epoch=%llu pos=%llu: %llu, "
			    "want %llu\n", (unsigned long long)kat[k].n,
			    (unsigned long long)kat[k].seed,
			    (unsigned long long)kat[k].epoch,
			    (unsigned long long)kat[k].pos,
			    (unsigned long long)v,
			    (unsigned long long)kat[k].want);
			ok = 0;
		}
	}
	snprintf(what, sizeof(what), "%zu known answers of the specification",
	    sizeof(kat) / sizeof(kat[0]));
	check(ok, what);
}

static uint64_t
num(const char *s)
{
	return strtoull(s, NULL, 0);
}

int
main(int argc, char **argv)
{
	struct pskd_perm p;
	struct timespec t0, t1;
	uint64_t n, i, sum = 0, blk[1024];
	double ns;
	size_t m;
	int k;

	if (argc >= 5 && strcmp(argv[1], "at") == 0) {
		pskd_perm_init(&p, num(argv[2]), num(argv[3]), num(argv[4]));
		for (k = 5; k < argc; k++)
			printf("%llu\n", (unsigned long long)pskd_perm_at(&p,
			    num(argv[k])));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "bench") == 0) {
		n = num(argv[2]);
		pskd_perm_init(&p, n, 42, 1);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		for (i = 0; i < n; i += m) {
			m = n - i < 1024 ? (size_t)(n - i) : 1024;
			pskd_perm_range(&p, i, 1, m, blk);
			for (k = 0; k < (int)m; k++)
				sum += blk[k];
		}
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 +
		    (double)(t1.tv_nsec - t0.tv_nsec);
		printf("%.1f ns/index (n=%llu, checksum %llu)\n",
		    ns / (double)n, (unsigned long long)n,
		    (unsigned long long)sum);
		return 0;
	}
	checks();
	return check_status();
}
