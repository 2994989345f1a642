/*
 * fuzz-exact.c - what pskd-exact and pskd-decon parse and cut, on any
 * bytes.  The first byte picks:
 *   0  two text members (the rest cut at its first invalid UTF-8 byte,
 *      split at its first NUL) at every grain, raw and normalised: the
 *      units lie inside their member, in order; lines and paragraphs do
 *      not overlap, and a span's sentences are consecutive and in range.
 *   1  an index manifest (pskd_ixdir_parse, then x_manifest_parse): what
 *      is accepted is consistent (no empty segment, none of a later
 *      file than the next, a Bloom geometry in blocks).
 *   2  benchmark items (lines before the first NUL) and a document (the
 *      rest), n from the second byte: a document is found contaminated
 *      exactly when one of its n-grams, as normalised, is an item's, by a
 *      plain search over the normalised texts; the n-gram reported is one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "exact/exact.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
units(const unsigned char *p, size_t n)
{
	static const char *const grains[] = { "doc", "para", "line", "span:1",
	    "span:2", "span:3", "span:7" };
	struct x_params xp = { 0 };
	struct pskd_doc d;
	struct pskd_error e;
	struct pskd_buf line = { 0 };
	struct x_units u;
	const unsigned char *nul;
	size_t a, g, i, j, end[PSKD_DOC_MAXFIELDS];
	uint64_t all, want, w;
	int raw;

	n = pskd_utf8_check(p, n);
	nul = memchr(p, 0, n);
	a = nul ? (size_t)(nul - p) : n;
	memset(&d, 0, sizeof(d));
	pskd_buf_add(&line, "{\"text\":", 8);
	pskd_json_quote(&line, p, a);
	pskd_buf_add(&line, ",\"title\":", 9);
	pskd_json_quote(&line, nul ? nul + 1 : p, nul ? n - a - 1 : 0);
	pskd_buf_addc(&line, '}');
	if (pskd_doc_init(&d, "title,text", NULL, &e) == -1 ||
	    pskd_doc_parse(&d, line.p, line.len) == -1)
		abort();
	for (g = 0; g < sizeof(grains) / sizeof(grains[0]); g++)
		for (raw = 0; raw < 2; raw++) {
			if (x_grain_parse(grains[g], &xp) == -1)
				abort();
			xp.raw = raw;
			xp.norm = PSKD_NORM_ALL;
			x_units_init(&u, &xp);
			x_units_doc(&u, &d);
			memset(end, 0, sizeof(end));
			for (i = 0; i < u.n; i++) {
				const struct x_unit *x = &u.v[i];

				if (x->hash == 0 || x->member >= d.nf)
					abort();
				if (xp.grain == X_SPAN) {
					if (x->count == 0 || x->count > xp.span ||
					    x->first + x->count > u.nsent)
						abort();
					for (j = x->first; j < x->first +
					    x->count; j++)
						if (u.sent[j].member != x->member)
							abort();
					continue;
				}
				if (xp.grain == X_DOC) {
					if (u.n != 1 || x->off != 0 ||
					    x->end != d.textlen)
						abort();
					continue;
				}
				if (x->off > x->end || x->end >
				    d.f[x->member].value.len ||
				    x->off < end[x->member])
					abort();
				end[x->member] = x->end;
			}
			memset(end, 0, sizeof(end));
			for (j = 0; j < u.nsent; j++) {
				const struct x_piece *s = &u.sent[j];

				if (s->off >= s->end || s->end >
				    d.f[s->member].value.len ||
				    s->off < end[s->member])
					abort();
				end[s->member] = s->end;
			}
			/* Counting stops at what is wanted, or counts all. */
			all = x_words(&u, p, a, UINT64_MAX);
			for (want = 1; want < 64; want *= 3) {
				w = x_words(&u, p, a, want);
				if (all >= want ? w < want || w > all : w != all)
					abort();
			}
			x_units_free(&u);
		}
	pskd_doc_free(&d);
	pskd_buf_free(&line);
}

static void
manifest(const unsigned char *p, size_t n)
{
	struct x_index ix;
	struct pskd_buf body = { 0 };
	char err[512];
	size_t i;

	memset(&ix, 0, sizeof(ix));
	ix.d.kind = X_KIND;
	ix.d.version = X_VERSION;
	ix.nextfile = 1;
	if (pskd_ixdir_parse(&ix.d, p, n, &body, "fuzz/manifest", err,
	    sizeof(err)) == 0 && x_manifest_parse(&ix, (char *)body.p) == 0) {
		for (i = 0; i < ix.nseg; i++)
			if (ix.seg[i].n == 0 || ix.seg[i].id >= ix.nextfile)
				abort();
		if (ix.bloom && (ix.nbits == 0 || ix.nbits % X_BLOOM_BLOCK ||
		    ix.k == 0 || ix.k > X_BLOOM_MAXK))
			abort();
	}
	pskd_ix_inputs_free(&ix.d.inputs);
	free(ix.seg);
	pskd_buf_free(&body);
}

/* The n-grams of a normalised text, as offsets of its words. */
static size_t
wordstarts(const unsigned char *t, size_t len, size_t *w, size_t cap)
{
	size_t i, k = 0;

	for (i = 0; i < len && k < cap; i++)
		if (t[i] != ' ' && (i == 0 || t[i - 1] == ' '))
			w[k++] = i;
	return k;
}

static size_t
gram_end(size_t len, const size_t *w, size_t nw, size_t i, size_t n)
{
	return i + n < nw ? w[i + n] - 1 : len;
}

static void
decon(const unsigned char *p, size_t n)
{
	static size_t iw[4096], dw[4096];
	struct x_decon x;
	struct pskd_norm nm;
	struct pskd_buf it = { 0 }, dt = { 0 };
	struct x_match m;
	const unsigned char *nul, *q, *nl;
	size_t a, ni, nd, i, j, found = 0, ia, ie, da, de;
	uint32_t ng;

	if (n < 1)
		return;
	ng = (uint32_t)(p[0] % 5) + 1;
	p++, n--;
	n = pskd_utf8_check(p, n);
	nul = memchr(p, 0, n);
	a = nul ? (size_t)(nul - p) : n;
	x_decon_init(&x, ng, PSKD_NORM_ALL);
	pskd_norm_init(&nm, PSKD_NORM_ALL);
	x_decon_bench(&x, "fuzz", 4);
	/* The items, a line each; their normalised texts joined by '\n'. */
	for (q = p; q < p + a; q = nl + 1) {
		nl = memchr(q, '\n', (size_t)(p + a - q));
		if (nl == NULL)
			nl = p + a;
		x_decon_item(&x, "i", 1, q, (size_t)(nl - q));
		(void)pskd_norm_text(&nm, &it, q, (size_t)(nl - q), 1, NULL);
		pskd_buf_addc(&it, '\n');
		if (nl == p + a)
			break;
	}
	x_decon_ready(&x);
	q = nul ? nul + 1 : p + n;
	(void)pskd_norm_text(&nm, &dt, q, (size_t)(p + n - q), 1, NULL);
	nd = wordstarts(dt.p, dt.len, dw, 4096);
	if (x_decon_doc(&x, q, (size_t)(p + n - q), &m) > 0) {
		if (m.gram < x.ntext.p || m.gram + m.len > x.ntext.p +
		    x.ntext.len)
			abort();
		found = 1;
	}
	/* A plain search: an item line's n-gram equal to the document's. */
	{
		int hit = 0;
		const unsigned char *l = it.p, *e;

		while (!hit && l != NULL && l < it.p + it.len) {
			e = memchr(l, '\n', (size_t)(it.p + it.len - l));
			ni = wordstarts(l, (size_t)(e - l), iw, 4096);
			for (i = 0; !hit && i + ng <= ni; i++) {
				ia = iw[i];
				ie = gram_end((size_t)(e - l), iw, ni, i, ng);
				for (j = 0; j + ng <= nd; j++) {
					da = dw[j];
					de = gram_end(dt.len, dw, nd, j, ng);
					if (ie - ia == de - da &&
					    memcmp(l + ia, dt.p + da, ie - ia) == 0) {
						hit = 1;
						break;
					}
				}
			}
			l = e + 1;
		}
		if (nd < 4096 && hit != (int)found)
			abort();
	}
	x_decon_free(&x);
	free(nm.memo);
	pskd_buf_free(&it);
	pskd_buf_free(&dt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0: units(data + 1, size - 1); break;
	case 1: manifest(data + 1, size - 1); break;
	default: decon(data + 1, size - 1);
	}
	return 0;
}
