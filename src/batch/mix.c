/*
 * mix.c - pskd-mix's order (see mix.h and pskd-mix(1), THE ORDER).
 *
 * A node of weight m whose left child weighs a sends its event i (its
 * i-th position, from 0) left when floor((2a(i+1) + m) / 2m) exceeds
 * floor((2ai + m) / 2m), the count of its first i events that went left:
 * the left child's count is its share a i / m rounded to the nearest.
 * Walking position by position keeps (2ai + m) mod 2m at each node, so
 * a step is an addition and a comparison a level; any position is a
 * closed form a level (mix_seek).  With the reduced weights below 2^31
 * every product fits in 64 bits.
 */
#include <stdio.h>
#include <string.h>

#include "batch/mix.h"

#define GOLDEN	UINT64_C(0x9e3779b97f4a7c15)

int
mix_weight_parse(const char *s, uint64_t *nano)
{
	uint64_t whole = 0, frac = 0;
	int digits = 0, fd = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (whole > UINT64_C(1000000000))
			return -1;
		whole = whole * 10 + (uint64_t)(*s - '0');
	}
	if (digits == 0 || whole > UINT64_C(1000000000))
		return -1;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9' && fd < 9; s++, fd++)
			frac = frac * 10 + (uint64_t)(*s - '0');
		if (fd == 0)
			return -1;
		for (; fd < 9; fd++)
			frac *= 10;
	}
	if (*s != '\0')
		return -1;
	*nano = whole * UINT64_C(1000000000) + frac;
	return 0;
}

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	uint64_t t;

	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* floor((a2 c + m) / m2), without overflow (a2 (m2 - 1) + m < 2^64). */
static inline uint64_t
share(const struct mix_node *n, uint64_t c)
{
	return n->a2 * (c / n->m2) + (n->a2 * (c % n->m2) + n->m) / n->m2;
}

/* ---- the tree ----------------------------------------------------------- */

struct plan {
	size_t		 k;
	size_t		 order[MIX_MAXSRC];	/* sources, heaviest first */
	uint64_t	 sum[MIX_MAXSRC + 1];	/* prefix sums of weights */
	double		 best[MIX_MAXSRC][MIX_MAXSRC];
	/* the split of a run: its left part's length less one */
	unsigned char	 cut[MIX_MAXSRC][MIX_MAXSRC];
};

/*
 * The slack of the subtree over sources a..b of the order: how much more
 * the sum of 1/weight over a leaf's ancestors may grow before its bound
 * reaches one sample, for its tightest leaf; the split that leaves the
 * most, the first of equals.  At the root no 1/weight is taken.
 */
static double
slack(struct plan *p, size_t a, size_t b, int root)
{
	double v, s1, s2, best = 0;
	size_t c;
	int first = 1;

	for (c = a; c < b; c++) {
		s1 = p->best[a][c];
		s2 = p->best[c + 1][b];
		v = s1 < s2 ? s1 : s2;
		if (!root)
			v -= 1.0 / (double)(p->sum[b + 1] - p->sum[a]);
		if (first || v > best) {
			best = v;
			p->cut[a][b] = (unsigned char)(c - a);
			first = 0;
		}
	}
	return best;
}

/* The nodes of sources a..b in preorder from x->node[*next]; its index. */
static int
build(struct mix *x, const struct plan *p, size_t a, size_t b, size_t *next,
    double inv)
{
	struct mix_node *n;
	size_t c, me, s;
	uint64_t w = p->sum[b + 1] - p->sum[a];

	if (a == b) {
		s = p->order[a];
		x->src[s].bound = (1.0 + (double)x->src[s].m * inv) / 2;
		return ~(int)s;
	}
	me = (*next)++;
	n = &x->node[me];
	c = a + p->cut[a][b];
	n->m = w;
	n->m2 = 2 * w;
	n->a2 = 2 * (p->sum[c + 1] - p->sum[a]);
	if (me != 0)
		inv += 1.0 / (double)w;
	n->child[0] = build(x, p, a, c, next, inv);
	n->child[1] = build(x, p, c + 1, b, next, inv);
	return (int)me;
}

static void
plan_tree(struct mix *x)
{
	static struct plan p;
	size_t i, j, len, t;

	p.k = x->k;
	for (i = 0; i < x->k; i++)
		p.order[i] = i;
	/* Heaviest first, then in the order given (insertion: k <= 256). */
	for (i = 1; i < x->k; i++)
		for (j = i; j > 0 && x->src[p.order[j]].m >
		    x->src[p.order[j - 1]].m; j--) {
			t = p.order[j];
			p.order[j] = p.order[j - 1];
			p.order[j - 1] = t;
		}
	p.sum[0] = 0;
	for (i = 0; i < x->k; i++) {
		p.sum[i + 1] = p.sum[i] + x->src[p.order[i]].m;
		p.best[i][i] = 1.0 / (double)x->src[p.order[i]].m;
	}
	for (len = 2; len < x->k; len++)
		for (i = 0; i + len <= x->k; i++)
			p.best[i][i + len - 1] = slack(&p, i, i + len - 1, 0);
	if (x->k >= 2)
		(void)slack(&p, 0, x->k - 1, 1);
	i = 0;
	x->root = build(x, &p, 0, x->k - 1, &i, 0.0);
	if (x->k == 1)
		x->src[0].bound = 0;
}

/* ---- positions ------------------------------------------------------- */

int
mix_init(struct mix *x, size_t k, const uint64_t *n, const uint64_t *nano,
    uint64_t len, uint64_t seed, uint64_t epoch, char *err, size_t errsize)
{
	uint64_t g = 0, total = 0, cnt[MIX_MAXSRC];
	size_t s;

	memset(x, 0, sizeof(*x));
	x->k = k;
	x->len = len;
	x->seed = seed;
	x->epoch = epoch;
	for (s = 0; s < k; s++)
		g = gcd(nano[s], g);
	for (s = 0; s < k; s++) {
		x->src[s].n = n[s];
		x->src[s].m = nano[s] / g;
		total += x->src[s].m;
		if (total >= MIX_MAXWEIGHT) {
			snprintf(err, errsize, "the weights' ratios need whole "
			    "numbers summing past 2^31: give coarser weights");
			return -1;
		}
	}
	plan_tree(x);
	mix_counts(x, len, cnt);
	for (s = 0; s < k; s++) {
		x->src[s].per = cnt[s];
		if (cnt[s] != 0 && epoch - 1 > UINT64_MAX / cnt[s]) {
			snprintf(err, errsize, "epoch %llu: its draws overflow "
			    "64 bits", (unsigned long long)epoch);
			return -1;
		}
		x->src[s].base = (epoch - 1) * cnt[s];
	}
	mix_seek(x, 0);
	return 0;
}

/* Counts below node (or leaf) v of its c events, and the nodes' states. */
static void
descend(struct mix *x, int v, uint64_t c, uint64_t *cnt, int set)
{
	struct mix_node *n;
	uint64_t l;

	if (v < 0) {
		cnt[~v] = c;
		return;
	}
	n = &x->node[v];
	l = share(n, c);
	if (set) {
		n->i = c;
		n->rem = (n->a2 * (c % n->m2) + n->m) % n->m2;
	}
	descend(x, n->child[0], l, cnt, set);
	descend(x, n->child[1], c - l, cnt, set);
}

void
mix_counts(const struct mix *x, uint64_t t, uint64_t *cnt)
{
	descend((struct mix *)(uintptr_t)x, x->root, t, cnt, 0);
}

void
mix_seek(struct mix *x, uint64_t t)
{
	uint64_t cnt[MIX_MAXSRC];
	size_t s;

	descend(x, x->root, t, cnt, 1);
	for (s = 0; s < x->k; s++)
		x->src[s].cnt = cnt[s];
	x->t = t;
}

static inline size_t
step(struct mix *x, uint64_t *draw)
{
	struct mix_node *n;
	int v = x->root;
	uint64_t left;
	size_t s;

	while (v >= 0) {
		n = &x->node[v];
		left = n->rem + n->a2 >= n->m2;
		n->rem += n->a2 - (left ? n->m2 : 0);
		n->i++;
		v = n->child[!left];
	}
	s = (size_t)~v;
	*draw = x->src[s].cnt++;
	x->t++;
	return s;
}

size_t
mix_step(struct mix *x, uint64_t *draw)
{
	return step(x, draw);
}

/*
 * Draw number draw of source s: its q = k div n and r = k mod n, by steps
 * from the last draw when it is near.  1 when its permutation must change
 * (to epoch q + 1), which the caller does with reinit after using the old.
 */
static int
locate(struct mix *x, size_t s, uint64_t draw)
{
	struct mix_src *src = &x->src[s];
	uint64_t k = src->base + draw, q = src->q, d;
	int change;

	if (!src->ready || draw < src->last || draw - src->last >= src->n) {
		q = k / src->n;
		src->r = k % src->n;
	} else {
		d = draw - src->last;
		src->r += d;
		if (src->r >= src->n) {
			src->r -= src->n;
			q++;
		}
	}
	change = !src->ready || q != src->q;
	src->q = q;
	src->last = draw;
	src->ready = 1;
	return change;
}

static void
reinit(struct mix *x, size_t s)
{
	pskd_perm_init(&x->src[s].perm, x->src[s].n, x->seed + s,
	    x->src[s].q + 1);
}

uint64_t
mix_sample(struct mix *x, size_t s, uint64_t draw)
{
	if (locate(x, s, draw))
		reinit(x, s);
	return pskd_perm_at(&x->src[s].perm, x->src[s].r);
}

/*
 * The samples of the items listed by source (their places in the block
 * and positions in the source's permutation): a source at a time, so that
 * its permutation is computed a block at a time.
 */
static void
samples(struct mix *x, uint64_t *sample)
{
	struct mix_src *src;
	size_t s, j;

	for (s = 0; s < x->k; s++) {
		src = &x->src[s];
		if (src->nlist == 0)
			continue;
		pskd_perm_list(&src->perm, src->list, src->nlist, src->list);
		for (j = 0; j < src->nlist; j++)
			sample[src->at[j]] = src->list[j];
		src->nlist = 0;
	}
}

void
mix_draws(struct mix *x, uint64_t rank, uint64_t world, uint64_t u,
    size_t count, uint32_t *src, uint64_t *sample)
{
	struct mix_src *m;
	uint64_t t, draw;
	size_t i, s;

	for (i = 0; i < count; i++) {
		t = world == 1 ? u + i : mix_slice(x, rank, world, u + i);
		if (t != x->t) {
			if (t < x->t || t - x->t > 64)
				mix_seek(x, t);
			while (x->t < t)
				(void)step(x, &draw);
		}
		s = step(x, &draw);
		if (locate(x, s, draw)) {
			/* The samples before use the permutation as it was. */
			samples(x, sample);
			reinit(x, s);
		}
		m = &x->src[s];
		m->at[m->nlist] = (uint32_t)i;
		m->list[m->nlist++] = m->r;
		src[i] = (uint32_t)s;
	}
	samples(x, sample);
}

uint64_t
mix_slice(const struct mix *x, uint64_t rank, uint64_t world, uint64_t u)
{
	uint64_t key, rot;

	if (world == 1 || x->k == 1)
		return world * u + rank;	/* one file: pskd-shuffle's */
	key = pskd_perm_mix(pskd_perm_mix(x->seed + GOLDEN) ^ x->epoch);
	rot = pskd_perm_mix(key ^ u) % world;
	return world * u + (rank + rot) % world;
}
