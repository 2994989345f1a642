/*
 * fuzz-pack - the document rows of pskd-window (src/batch/pack.c) and the
 * segment ids of the windows that carry them, on arbitrary bytes.
 *
 * Input: a byte of mode (bit 0: best-fit, else --align bos), a byte of
 * T - 1 (T up to 64), a byte of the buffer N - 1 (N up to 16) whose top
 * four bits, when not 0, bring the longest length the buffer queues down
 * from R to them (so that its treap of longer ones is used too), then a
 * token stream of u8 tokens whose end-of-text id is 255.  Every row must
 * hold R = T + 1 tokens, its pieces summing to its fill and its padding
 * the rest, and its segment ids must read back (pack_segments_read) as its
 * pieces and padding; best-fit rows must be full and equal, byte for byte,
 * those of a plain list buffer scanned as pskd-window(1) states the rule;
 * the tokens kept and cropped must add up to the input's, the padding to
 * the rows'.  The bytes after the first 3 are also read as a row of
 * segment ids: what reads must write back the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAXR	65
#define MAXN	16

/* The reference: best-fit over a list, rows written to ref[]. */
struct ref {
	const uint8_t	*doc[MAXN];
	size_t		 len[MAXN];
	size_t		 n;
	uint8_t		 row[MAXR];
	size_t		 p;
	uint8_t		*out;		/* rows, back to back */
	size_t		 nout;
};

static void
ref_pick(struct ref *f, size_t R)
{
	size_t i, best = MAXN, rem = R - f->p, m;

	for (i = 0; i < f->n; i++)
		if (f->len[i] <= rem && (best == MAXN ||
		    f->len[i] > f->len[best]))
			best = i;
	if (best == MAXN) {
		for (best = 0, i = 1; i < f->n; i++)
			if (f->len[i] < f->len[best])
				best = i;
		m = rem;
	} else
		m = f->len[best];
	memcpy(f->row + f->p, f->doc[best], m);
	f->p += m;
	memmove(f->doc + best, f->doc + best + 1, (f->n - best - 1) *
	    sizeof(f->doc[0]));
	memmove(f->len + best, f->len + best + 1, (f->n - best - 1) *
	    sizeof(f->len[0]));
	f->n--;
	if (f->p == R) {
		memcpy(f->out + f->nout * R, f->row, R);
		f->nout++;
		f->p = 0;
	}
}

struct got {
	size_t		 R;
	int		 bestfit;
	uint8_t		*out;
	size_t		 nout;
	uint64_t	 padded;
};

static void
emit(void *arg, const struct pack_row *row)
{
	struct got *g = arg;
	unsigned char seg[MAXR];
	uint64_t sum = 0, nseg, npad;
	size_t i;

	for (i = 0; i < row->npieces; i++) {
		if (row->len[i] == 0)
			abort();
		sum += row->len[i];
	}
	if (sum != row->fill || row->fill > g->R || (g->bestfit &&
	    row->fill != g->R) || row->fill < 2)
		abort();
	pack_segments(seg, 1, g->R, row->len, row->npieces);
	if (pack_segments_read(seg, 1, g->R, &nseg, &npad) == -1 ||
	    nseg != row->npieces || npad != g->R - row->fill)
		abort();
	for (i = row->fill; i < g->R; i++)
		if (row->tok[i] != 255)
			abort();
	g->padded += g->R - row->fill;
	memcpy(g->out + g->nout * g->R, row->tok, g->R);
	g->nout++;
}

/* A row of segment ids read back writes back the same. */
static void
segments(const uint8_t *p, size_t n)
{
	unsigned char back[MAXR];
	uint64_t len[MAXR], nseg, npad, i, at, run;

	if (n == 0 || n > MAXR || pack_segments_read(p, 1, n, &nseg,
	    &npad) == -1)
		return;
	for (i = 0, at = 0; i < nseg; i++) {
		for (run = 0; at < n - npad && p[at] == i + 1; at++)
			run++;
		len[i] = run;
	}
	pack_segments(back, 1, n, len, (size_t)nseg);
	if (memcmp(back, p, n) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pack k;
	struct got g;
	struct ref f;
	size_t R, N, i, start, ntok;
	int bestfit;

	if (size < 3)
		return 0;
	segments(data + 3, size - 3);
	bestfit = data[0] & 1;
	R = (size_t)(data[1] % 64) + 2;
	N = (size_t)(data[2] % MAXN) + 1;
	data += 3;
	ntok = size - 3;
	memset(&g, 0, sizeof(g));
	g.R = R;
	g.bestfit = bestfit;
	/* A row holds a token of the input it did not share: ntok rows. */
	g.out = malloc((ntok + 1) * R);
	memset(&f, 0, sizeof(f));
	f.out = malloc((ntok + 1) * R);
	pack_init(&k, bestfit ? PACK_BESTFIT : PACK_ALIGN, R, 1, N, 255, emit,
	    &g);
	if (bestfit && data[-1] >> 4 != 0) {
		docbuf_free(&k.buf);
		docbuf_init(&k.buf, k.slot, (uint64_t)(data[-1] >> 4));
	}
	for (start = 0, i = 0; i < ntok; i++)
		if (data[i] == 255 || i + 1 == ntok) {
			pack_data(&k, data + start, i + 1 - start);
			pack_doc_end(&k);
			if (bestfit) {
				f.doc[f.n] = data + start;
				f.len[f.n++] = i + 1 - start;
				if (f.n == N)
					ref_pick(&f, R);
			}
			start = i + 1;
		}
	pack_finish(&k);
	while (bestfit && f.n > 0)
		ref_pick(&f, R);
	if (k.c.tokens != ntok || k.c.kept + k.c.cropped != ntok ||
	    k.c.padded != g.padded || k.c.rows != g.nout)
		abort();
	if (bestfit && (f.nout != g.nout || (g.nout > 0 &&
	    memcmp(f.out, g.out, g.nout * R) != 0)))
		abort();
	pack_free(&k);
	free(g.out);
	free(f.out);
	return 0;
}
