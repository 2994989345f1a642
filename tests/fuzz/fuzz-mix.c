/*
 * fuzz-mix - pskd-mix's weights and order (src/batch/mix.c) on arbitrary
 * bytes.
 *
 * Input: a byte of sources k - 1 (k up to 8), a byte of world - 1 (up to
 * 8), a byte of rank (mod world), two of the epoch's length - 1 (up to
 * 4096), a byte of epoch - 1 (up to 4), a byte of the slice's first
 * position, eight of seed, k bytes of the sources' samples - 1, then the
 * weights as text, separated by ':'.  Every piece of that text goes
 * through mix_weight_parse, and what it takes must print back as the same
 * billionths.  When k weights above 0 are taken and mix_init accepts
 * them: position by position (mix_step) the draws are the closed form
 * (mix_counts) at every prefix, each source's count within its bound of
 * its share, the epoch's draws of each its C_s; and the slice of rank of
 * world computed a block at a time (mix_draws) is the one sought position
 * by position (mix_slice, mix_seek, mix_step, mix_sample), every sample
 * below its source's count.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/mix.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define HEAD	15
#define MAXK	8

static struct mix x, y;

/* The weights of the text, up to MAXK; -1 when one is not a weight. */
static int
weights(const uint8_t *p, size_t n, uint64_t *nano, size_t *k)
{
	char s[64], back[64];
	size_t i = 0, j, m;
	uint64_t v, w;
	int good = 1;

	*k = 0;
	while (i <= n) {
		for (j = i; j < n && p[j] != ':'; j++)
			;
		m = j - i < sizeof(s) - 1 ? j - i : sizeof(s) - 1;
		memcpy(s, p + i, m);
		s[m] = '\0';
		if (memchr(s, '\0', m) == NULL && mix_weight_parse(s, &v) == 0) {
			snprintf(back, sizeof(back), "%" PRIu64 ".%09" PRIu64,
			    v / 1000000000, v % 1000000000);
			if (mix_weight_parse(back, &w) != 0 || w != v)
				abort();
			if (v == 0)
				good = 0;
			else if (*k < MAXK)
				nano[(*k)++] = v;
		} else
			good = 0;
		i = j + 1;
	}
	return good ? 0 : -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t n[MAXK], nano[MAXK], cnt[MAXK], seen[MAXK] = { 0 };
	uint64_t len, seed = 0, epoch, world, rank, u, u0, m, t, d, total = 0;
	uint64_t sample[MIX_BLOCK], want;
	uint32_t src[MIX_BLOCK];
	size_t k, nk, s, i, count;
	char err[200];

	if (size < HEAD)
		return 0;
	k = 1 + data[0] % MAXK;
	world = 1 + data[1] % 8;
	rank = data[2] % world;
	len = 1 + (((uint64_t)data[3] << 8 | data[4]) & 4095);
	epoch = 1 + data[5] % 4;
	u0 = data[6];
	for (i = 0; i < 8; i++)
		seed = seed << 8 | data[7 + i];
	if (size < HEAD + k)
		return 0;
	for (s = 0; s < k; s++)
		n[s] = 1 + (uint64_t)data[HEAD + s];
	if (weights(data + HEAD + k, size - HEAD - k, nano, &nk) == -1 ||
	    nk != k)
		return 0;
	if (mix_init(&x, k, n, nano, len, seed, epoch, err,
	    sizeof(err)) == -1)
		return 0;
	memcpy(&y, &x, sizeof(x));
	for (s = 0; s < k; s++)
		total += x.src[s].m;

	for (t = 0; t <= len; t++) {
		mix_counts(&x, t, cnt);
		for (s = 0; s < k; s++)
			if (cnt[s] != seen[s] || fabs((double)cnt[s] -
			    (double)x.src[s].m * (double)t / (double)total) >
			    x.src[s].bound + 1e-9)
				abort();
		if (t == len)
			break;
		s = mix_step(&x, &d);
		if (s >= k || d != seen[s])
			abort();
		seen[s]++;
	}
	for (s = 0; s < k; s++)
		if (seen[s] != x.src[s].per)
			abort();

	m = len / world;
	for (u = u0 < m ? u0 : m; u < m; u += count) {
		count = m - u < MIX_BLOCK ? (size_t)(m - u) : MIX_BLOCK;
		mix_draws(&y, rank, world, u, count, src, sample);
		for (i = 0; i < count; i++) {
			t = mix_slice(&x, rank, world, u + i);
			if (t >= len)
				abort();
			mix_seek(&x, t);
			s = mix_step(&x, &d);
			want = mix_sample(&x, s, d);
			if (src[i] != s || sample[i] != want || want >= n[s])
				abort();
		}
	}
	return 0;
}
