/*
 * pack.c - rows of whole documents (see pack.h and pskd-window(1), whose
 * PACKING section is the specification).
 *
 * --align bos keeps the document in progress in a stage of one row: it
 * goes into the row when it ends (or the row is padded first, when it
 * does not fit), and when it outgrows the stage it is a long document,
 * written in rows of its own that overlap by one token.
 *
 * --pack best-fit keeps up to N documents, each with at most a row of its
 * tokens (a longer one is never used past its first row: only a crop
 * takes from it), in the buffer of docbuf.c.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/pack.h"

void
pack_put(unsigned char *p, unsigned w, uint64_t v)
{
	switch (w) {
	case 1: p[0] = (unsigned char)v; break;
	case 2: pskd_put_le16(p, (uint16_t)v); break;
	case 4: pskd_put_le32(p, (uint32_t)v); break;
	default: pskd_put_le64(p, v); break;
	}
}

uint64_t
pack_get(const unsigned char *p, unsigned w)
{
	return w == 1 ? p[0] : w == 2 ? pskd_get_le16(p) : w == 4 ?
	    pskd_get_le32(p) : pskd_get_le64(p);
}

/* n values v of width w from p on (little-endian, as x86 and ARM store). */
void
pack_fill(unsigned char *p, unsigned w, uint64_t n, uint64_t v)
{
	uint64_t i;

	if (n == 0)
		return;
	pack_put(p, w, v);
	/* then doubling copies of what is filled: memcpy's vector code */
	for (i = 1; i < n; i *= 2)
		memcpy(p + i * w, p, (size_t)((n - i < i ? n - i : i) * w));
}

void
pack_init(struct pack *k, enum pack_mode mode, uint64_t R, unsigned w,
    size_t nbuf, uint64_t pad, void (*emit)(void *, const struct pack_row *),
    void *arg)
{
	size_t i;

	memset(k, 0, sizeof(*k));
	k->mode = mode;
	k->R = R;
	k->w = w;
	k->nbuf = nbuf;
	k->emit = emit;
	k->arg = arg;
	if (w > 0) {
		pack_put(k->pad, w, pad);
		/* rows of 4 MiB in all, at least two */
		k->nring = (size_t)((4u << 20) / (R * w));
		if (k->nring < 2)
			k->nring = 2;
		k->ring = pskd_xreallocarray(NULL, k->nring, (size_t)(R * w));
		k->row = k->ring;
	}
	k->len = pskd_xreallocarray(NULL, (size_t)R, sizeof(*k->len));
	if (mode == PACK_ALIGN) {
		if (w > 0)
			k->stage = pskd_xreallocarray(NULL, (size_t)R, w);
		return;
	}
	k->slot = pskd_xcalloc(nbuf + 2, sizeof(*k->slot));
	docbuf_init(&k->buf, k->slot, PACK_QUEUED);
	k->free = pskd_xreallocarray(NULL, nbuf + 1, sizeof(*k->free));
	for (i = 0; i <= nbuf; i++)
		k->free[i] = (uint32_t)(nbuf + 1 - i);
	k->nfree = nbuf + 1;
}

void
pack_free(struct pack *k)
{
	size_t i;

	if (k->slot != NULL)
		for (i = 0; i < k->nbuf + 2; i++)
			free(k->slot[i].tok);
	if (k->slot != NULL)
		docbuf_free(&k->buf);
	free(k->slot);
	free(k->free);
	free(k->stage);
	free(k->ring);
	free(k->len);
	memset(k, 0, sizeof(*k));
}

enum pack_mode
pack_option(const char *flag, const char *arg)
{
	int align = strcmp(flag, "--align") == 0;

	if (strcmp(arg, align ? "bos" : "best-fit") != 0) {
		pskd_warnx("%s %s: unknown %s (%s)", flag, arg, align ?
		    "alignment" : "packing", align ? "bos" : "best-fit");
		pskd_usage_error(NULL);
	}
	return align ? PACK_ALIGN : PACK_BESTFIT;
}

/* ---- rows ----------------------------------------------------------- */

static void
add_piece(struct pack *k, const unsigned char *tok, uint64_t n)
{
	if (k->w > 0)
		memcpy(k->row + k->p * k->w, tok, (size_t)(n * k->w));
	k->len[k->npieces++] = n;
	k->p += n;
}

/* The row goes out as it is, padded to R. */
static void
emit_row(struct pack *k)
{
	struct pack_row row;

	if (k->w > 0)
		pack_fill(k->row + k->p * k->w, k->w, k->R - k->p,
		    pack_get(k->pad, k->w));
	k->c.padded += k->R - k->p;
	k->c.kept += k->p - (uint64_t)k->ov;
	k->c.rows++;
	row.tok = k->row;
	row.len = k->len;
	row.npieces = k->npieces;
	row.fill = k->p;
	k->emit(k->arg, &row);
	k->p = 0;
	k->ov = 0;
	k->npieces = 0;
	if (k->w > 0) {
		k->at = (k->at + 1) % k->nring;
		k->row = k->ring + k->at * k->R * k->w;
	}
}

/* The row in progress is dropped: its tokens are cropped. */
static void
drop_row(struct pack *k)
{
	k->c.cropped += k->p - (uint64_t)k->ov;
	k->p = 0;
	k->ov = 0;
	k->npieces = 0;
}

/* The row in progress ends short: padded, or dropped if it has no target. */
static void
close_row(struct pack *k)
{
	if (k->p >= 2)
		emit_row(k);
	else
		drop_row(k);
}

void
pack_segments(unsigned char *out, unsigned sw, uint64_t R,
    const uint64_t *len, size_t npieces)
{
	uint64_t at = 0;
	size_t j;

	for (j = 0; j < npieces; j++) {
		pack_fill(out + at * sw, sw, len[j], j + 1);
		at += len[j];
	}
	pack_fill(out + at * sw, sw, R - at, 0);
}


int
pack_segments_read(const unsigned char *p, unsigned sw, uint64_t R,
    uint64_t *nseg, uint64_t *npad)
{
	uint64_t i, id, last = 0, pad = 0;

	for (i = 0; i < R; i++, p += sw) {
		id = pack_get(p, sw);
		if (pad || id == 0) {
			if (i == 0 || id != 0)
				return -1;
			pad++;
		} else if (id != last && id != last + 1)
			return -1;
		else
			last = id;
	}
	*nseg = last;
	*npad = pad;
	return 0;
}

/* ---- --align bos ------------------------------------------------------ */

/*
 * The stage holds a whole row of a document that goes on: the document is
 * longer than a row.  The row in progress is padded, the stage is a row of
 * its own, and its last token starts the stage again (the next row
 * overlaps it by one, as windows of stride T do).
 */
static void
align_overflow(struct pack *k)
{
	if (k->p > 0)
		close_row(k);
	k->ov = k->sov;
	add_piece(k, k->stage, k->R);
	emit_row(k);
	if (k->w > 0)
		memcpy(k->stage, k->stage + (k->R - 1) * k->w, k->w);
	k->sn = 1;
	k->sov = 1;
}

static void
align_data(struct pack *k, const unsigned char *tok, uint64_t n)
{
	uint64_t m;

	while (n > 0) {
		if (k->sn == k->R)
			align_overflow(k);
		m = k->R - k->sn < n ? k->R - k->sn : n;
		if (k->w > 0) {
			memcpy(k->stage + k->sn * k->w, tok,
			    (size_t)(m * k->w));
			tok += m * k->w;
		}
		k->sn += m;
		n -= m;
	}
}

static void
align_end(struct pack *k)
{
	uint64_t n = k->sn;

	if (!(k->sov && n == 1)) {
		/* A document that does not fit in what is left of the row. */
		if (k->p > 0 && n > k->R - k->p)
			close_row(k);
		if (k->p == 0)
			k->ov = k->sov;
		add_piece(k, k->stage, n);
		if (k->p == k->R)
			emit_row(k);
	}
	k->sn = 0;
	k->sov = 0;
}

/* ---- --pack best-fit: the buffer --------------------------------------- */

/* One choice of the rule: a whole document into the row, or a crop. */
static void
pick(struct pack *k)
{
	uint64_t rem = k->R - k->p;
	uint32_t x = docbuf_fit(&k->buf, rem);
	struct pack_slot *d;

	if (x != 0) {
		d = &k->slot[x];
		add_piece(k, d->tok, d->len);
	} else {
		x = docbuf_shortest(&k->buf);
		d = &k->slot[x];
		add_piece(k, d->tok, rem);
		k->c.cropped += d->len - rem;
	}
	docbuf_take(&k->buf, x);
	k->free[k->nfree++] = x;
	k->inbuf--;
	if (k->p == k->R)
		emit_row(k);
}

static void
bestfit_data(struct pack *k, const unsigned char *tok, uint64_t n)
{
	struct pack_slot *d;
	uint64_t m, cap;

	if (k->cur == 0) {
		k->cur = k->free[--k->nfree];
		k->slot[k->cur].len = 0;
	}
	d = &k->slot[k->cur];
	m = d->len < k->R ? k->R - d->len : 0;
	if (m > n)
		m = n;
	if (k->w > 0 && m > 0) {
		if (d->len + m > d->cap) {
			cap = d->cap ? d->cap : 64;
			while (cap < d->len + m)
				cap *= 2;
			if (cap > k->R)
				cap = k->R;
			d->tok = pskd_xreallocarray(d->tok, (size_t)cap, k->w);
			d->cap = cap;
		}
		memcpy(d->tok + d->len * k->w, tok, (size_t)(m * k->w));
	}
	d->len += n;
}

static void
bestfit_end(struct pack *k)
{
	uint32_t x = k->cur;

	k->cur = 0;
	k->slot[x].seq = k->seq++;
	docbuf_add(&k->buf, x);
	k->inbuf++;
	while (k->inbuf == k->nbuf)
		pick(k);
}

/* ---- the interface ---------------------------------------------------- */

void
pack_data(struct pack *k, const unsigned char *tok, uint64_t n)
{
	if (n == 0)
		return;
	k->dlen += n;
	k->c.tokens += n;
	if (k->mode == PACK_ALIGN)
		align_data(k, tok, n);
	else
		bestfit_data(k, tok, n);
}

void
pack_doc_end(struct pack *k)
{
	if (k->dlen == 0)
		return;
	k->c.docs++;
	k->dlen = 0;
	if (k->mode == PACK_ALIGN)
		align_end(k);
	else
		bestfit_end(k);
}

void
pack_finish(struct pack *k)
{
	pack_doc_end(k);
	if (k->mode == PACK_BESTFIT) {
		while (k->inbuf > 0)
			pick(k);
		drop_row(k);
	} else
		close_row(k);
}
