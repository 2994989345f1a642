/*
 * test-mix.c - pskd-mix's order (src/batch/mix.c): position by position
 * (mix_step) it is its closed form (mix_counts) at every prefix, from any
 * position it is sought at (mix_seek); each source's share of every
 * prefix is within the bound the tree guarantees, under one sample for up
 * to four sources whatever the weights; weights parse as pskd-mix(1) says;
 * the draws of a source follow its own permutation, epoch after epoch.
 *
 *   test-mix bench N         ns per position (source and sample) over N,
 *                            of sources of 10^8 samples each, as test-perm
 *                            bench 100000000 times the permutation
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "batch/mix.h"

/* Steps against the closed form and the bounds, for positions 0..len. */
static int
walk(size_t k, const uint64_t *nano, uint64_t len, double *worst)
{
	static struct mix x;
	uint64_t n[MIX_MAXSRC], cnt[MIX_MAXSRC], seen[MIX_MAXSRC] = { 0 };
	uint64_t t, d, total = 0;
	char err[200];
	size_t s, i;
	double dev;

	for (s = 0; s < k; s++)
		n[s] = 1 + check_rnd(50);
	if (mix_init(&x, k, n, nano, len, 7, 1, err, sizeof(err)) == -1) {
		printf("# %s\n", err);
		return 0;
	}
	for (s = 0; s < k; s++)
		total += x.src[s].m;
	*worst = 0;
	for (t = 0; t <= len; t++) {
		mix_counts(&x, t, cnt);
		for (s = 0; s < k; s++) {
			if (cnt[s] != seen[s])
				return 0;
			dev = fabs((double)cnt[s] - (double)x.src[s].m *
			    (double)t / (double)total);
			if (dev > x.src[s].bound + 1e-9)
				return 0;
			if (dev > *worst)
				*worst = dev;
		}
		if (t == len)
			break;
		s = mix_step(&x, &d);
		if (d != seen[s])
			return 0;
		seen[s]++;
	}
	for (s = 0; s < k; s++)
		if (x.src[s].per != seen[s])
			return 0;
	/* Sought anywhere, the steps go on the same. */
	for (i = 0; i < 20; i++) {
		uint64_t a = check_rnd(len), b, da, db;
		size_t sa, sb;
		static struct mix y;

		memcpy(&y, &x, sizeof(x));
		mix_seek(&x, a);
		mix_seek(&y, 0);
		while (y.t < a)
			(void)mix_step(&y, &db);
		sa = mix_step(&x, &da);
		sb = mix_step(&y, &db);
		if (sa != sb || da != db)
			return 0;
		b = x.t;
		(void)b;
	}
	return 1;
}

static void
weights(void)
{
	uint64_t v;

	check(mix_weight_parse("0.7", &v) == 0 && v == 700000000,
	    "0.7 is 700000000 billionths");
	check(mix_weight_parse("3", &v) == 0 && v == 3000000000ULL,
	    "3 is 3000000000 billionths");
	check(mix_weight_parse("0.000000001", &v) == 0 && v == 1,
	    "nine digits after the point");
	check(mix_weight_parse("0.0000000001", &v) == -1 &&
	    mix_weight_parse(".5", &v) == -1 &&
	    mix_weight_parse("1.", &v) == -1 &&
	    mix_weight_parse("1e3", &v) == -1 &&
	    mix_weight_parse("-1", &v) == -1 &&
	    mix_weight_parse("", &v) == -1 &&
	    mix_weight_parse("1000000001", &v) == -1,
	    "ten digits after the point, .5, 1., 1e3, -1, '' and 10^9+1 are "
	    "not weights");
}

static void
draws(void)
{
	static struct mix x;
	struct pskd_perm p;
	uint64_t n[2] = { 5, 1000 }, nano[2] = { 1, 1 }, d, j, e;
	char err[200];
	size_t s;
	int ok = 1, seen = 0;

	/* Source 0 has 5 samples and half of 2000 positions: 200 epochs. */
	if (mix_init(&x, 2, n, nano, 2000, 9, 3, err, sizeof(err)) == -1) {
		check(0, "%s", err);
		return;
	}
	for (j = 0; j < 2000; j++) {
		s = mix_step(&x, &d);
		if (s != 0)
			continue;
		/* Epoch 3 of the mix: draws 2 x 1000 on of source 0. */
		e = (2000 + d) / 5 + 1;
		pskd_perm_init(&p, 5, 9, e);
		ok &= mix_sample(&x, 0, d) == pskd_perm_at(&p, (2000 + d) % 5);
		seen++;
	}
	check(ok && seen == 1000, "a small source repeats under its own "
	    "permutation, epoch after epoch (1000 draws of 5 samples)");
}

int
main(int argc, char **argv)
{
	uint64_t nano[MIX_MAXSRC];
	double worst;
	size_t k, s;
	int trial, ok;

	if (argc == 3 && strcmp(argv[1], "bench") == 0) {
		static struct mix x;
		uint64_t n[4] = { 100000000, 100000000, 100000000,
		    100000000 };
		uint64_t w[4] = { 700000000, 300000000, 50000000, 20000000 };
		uint64_t len = strtoull(argv[2], NULL, 0), t, sum = 0;
		struct timespec t0, t1;
		char err[200];

		uint32_t bs[MIX_BLOCK];
		uint64_t bv[MIX_BLOCK];
		size_t m, i;

		for (k = 2; k <= 4; k += 2) {
			mix_init(&x, k, n, w, len, 42, 1, err, sizeof(err));
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
			for (t = 0; t < len; t += m) {
				m = len - t < MIX_BLOCK ? (size_t)(len - t) :
				    MIX_BLOCK;
				mix_draws(&x, 0, 1, t, m, bs, bv);
				for (i = 0; i < m; i++)
					sum += bv[i] + bs[i];
			}
			clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
			printf("%.1f ns/position (%zu sources, %llu positions, "
			    "checksum %llu)\n", ((double)(t1.tv_sec -
			    t0.tv_sec) * 1e9 + (double)(t1.tv_nsec -
			    t0.tv_nsec)) / (double)len, k,
			    (unsigned long long)len, (unsigned long long)sum);
		}
		return 0;
	}
	weights();
	for (k = 1; k <= 8; k++) {
		ok = 1;
		for (trial = 0; trial < 40; trial++) {
			for (s = 0; s < k; s++)
				nano[s] = 1 + check_rnd(trial % 2 ? 10 : 100000);
			ok &= walk(k, nano, 1 + check_rnd(3000), &worst);
			for (s = 0; k <= 4 && s < k; s++) {
				static struct mix x;
				uint64_t n[MIX_MAXSRC];
				char err[200];
				size_t i;

				for (i = 0; i < k; i++)
					n[i] = 1;
				mix_init(&x, k, n, nano, 10, 0, 1, err,
				    sizeof(err));
				ok &= x.src[s].bound < 1;
			}
		}
		check(ok, "%zu source%s: steps equal the closed form at every "
		    "prefix, within the bound%s", k, k > 1 ? "s" : "",
		    k <= 4 ? " (under one sample)" : "");
	}
	draws();
	return check_status();
}
