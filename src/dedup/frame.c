/* frame.c - the frame stream of the dedup programs; see pskd-frames(5). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"

static const char *const kind_name[] = { "frame", "shingle", "signature" };
static const char *const kind_maker[] = { "pskd-shingle", "pskd-shingle",
    "pskd-minhash" };

size_t
pskd_frame_value_size(unsigned kind)
{
	return kind == PSKD_FRAME_SHINGLES ? 8 : 4;
}

void
pskd_frame_header_encode(unsigned char *o, const struct pskd_frame_params *fp)
{
	memcpy(o, PSKD_FRAME_MAGIC, 4);
	pskd_put_le16(o + 4, fp->rejects ? PSKD_FRAME_VERSION_REJECTS :
	    PSKD_FRAME_VERSION);
	pskd_put_le16(o + 6, fp->kind);
	pskd_put_le32(o + 8, fp->unit);
	pskd_put_le32(o + 12, fp->n);
	pskd_put_le32(o + 16, fp->norm);
	pskd_put_le32(o + 20, fp->k);
	pskd_put_le64(o + 24, fp->shingle_seed);
	pskd_put_le64(o + 32, fp->minhash_seed);
	pskd_put_le32(o + 40, fp->family);
	pskd_put_le32(o + 44, 0);
}

static void
not_kind(unsigned want, char *err, size_t errsize)
{
	if (want > PSKD_FRAME_SIGNATURES)
		want = 0;
	snprintf(err, errsize, "not a %s stream (pipe %s into it)",
	    kind_name[want], kind_maker[want]);
}

int
pskd_frame_header_parse(const unsigned char *p, size_t n, unsigned want,
    struct pskd_frame_params *fp, char *err, size_t errsize)
{
	uint16_t version;

	if (n < 4 || memcmp(p, PSKD_FRAME_MAGIC, 4) != 0) {
		not_kind(want, err, errsize);
		return -1;
	}
	if (n < PSKD_FRAME_HEADER_SIZE) {
		snprintf(err, errsize, "truncated frame header (%zu of %d "
		    "bytes)", n, PSKD_FRAME_HEADER_SIZE);
		return -1;
	}
	version = pskd_get_le16(p + 4);
	if (version != PSKD_FRAME_VERSION &&
	    version != PSKD_FRAME_VERSION_REJECTS) {
		snprintf(err, errsize, "frame stream version %u not supported",
		    version);
		return -1;
	}
	fp->kind = pskd_get_le16(p + 6);
	fp->unit = pskd_get_le32(p + 8);
	fp->n = pskd_get_le32(p + 12);
	fp->norm = pskd_get_le32(p + 16);
	fp->k = pskd_get_le32(p + 20);
	fp->shingle_seed = pskd_get_le64(p + 24);
	fp->minhash_seed = pskd_get_le64(p + 32);
	fp->family = pskd_get_le32(p + 40);
	fp->rejects = version == PSKD_FRAME_VERSION_REJECTS;
	if (fp->kind != PSKD_FRAME_SHINGLES &&
	    fp->kind != PSKD_FRAME_SIGNATURES) {
		snprintf(err, errsize, "unknown frame stream kind %u", fp->kind);
		return -1;
	}
	if (want != 0 && fp->kind != want) {
		not_kind(want, err, errsize);
		return -1;
	}
	if (fp->unit > PSKD_UNIT_CHARS || fp->n == 0 ||
	    (fp->norm & ~(uint32_t)PSKD_NORM_ALL) != 0 ||
	    pskd_get_le32(p + 44) != 0) {
		snprintf(err, errsize, "invalid shingle parameters in the "
		    "frame header");
		return -1;
	}
	if (fp->kind == PSKD_FRAME_SHINGLES ? (fp->k != 0 || fp->family != 0 ||
	    fp->minhash_seed != 0) : (fp->k == 0 || fp->k > 65536 ||
	    fp->family < PSKD_FAMILY_CLASSIC || fp->family > PSKD_FAMILY_OPH)) {
		snprintf(err, errsize, "invalid signature parameters in the "
		    "frame header");
		return -1;
	}
	return 0;
}

const char *
pskd_frame_params_differ(const struct pskd_frame_params *a,
    const struct pskd_frame_params *b)
{
	if (a->kind != b->kind)
		return "stream kind";
	if (a->unit != b->unit || a->n != b->n)
		return "shingle width";
	if (a->norm != b->norm)
		return "normalisation";
	if (a->shingle_seed != b->shingle_seed)
		return "shingle hash seed";
	if (a->k != b->k)
		return "k";
	if (a->family != b->family)
		return "minhash family";
	if (a->minhash_seed != b->minhash_seed)
		return "minhash seed";
	return NULL;
}

static const char disorder[] = "shingle values not strictly increasing";

/* 1 if the n shingle values at p are strictly increasing. */
static int
ascending(const unsigned char *p, size_t n)
{
	uint64_t prev, v;
	size_t i;
	int bad = 0;

	if (n == 0)
		return 1;
	/* No early exit: a branch-free loop is quicker on valid streams. */
	for (i = 1, prev = pskd_get_le64(p); i < n; i++, prev = v) {
		v = pskd_get_le64(p + 8 * i);
		bad |= v <= prev;
	}
	return !bad;
}

/* pskd_frame_parse(), checking the order of shingle values if asked. */
static ssize_t
parse(const unsigned char *p, size_t n, const struct pskd_frame_params *fp,
    struct pskd_frame *f, int order, char *err, size_t errsize)
{
	uint64_t idlen, linelen, count, size;
	size_t vs = pskd_frame_value_size(fp->kind);

	if (n < PSKD_FRAME_HEAD_SIZE)
		return 0;
	idlen = pskd_get_le32(p);
	linelen = pskd_get_le32(p + 4);
	count = pskd_get_le32(p + 8);
	f->rejected = fp->rejects && (idlen & PSKD_FRAME_REJECTED) != 0;
	if (f->rejected) {
		idlen &= ~(uint64_t)PSKD_FRAME_REJECTED;
		if (count != 0) {
			snprintf(err, errsize, "a rejected document with "
			    "values");
			return -1;
		}
	}
	if (idlen > PSKD_FRAME_MAX_ID) {
		snprintf(err, errsize, "id of %llu bytes is too long",
		    (unsigned long long)idlen);
		return -1;
	}
	if (fp->kind == PSKD_FRAME_SIGNATURES && count != 0 &&
	    count != fp->k) {
		snprintf(err, errsize, "%llu signature components, not %u",
		    (unsigned long long)count, fp->k);
		return -1;
	}
	size = PSKD_FRAME_HEAD_SIZE + idlen + linelen + count * vs;
	if (size > (uint64_t)SSIZE_MAX) {
		snprintf(err, errsize, "frame of %llu bytes is too large",
		    (unsigned long long)size);
		return -1;
	}
	if (size > n)
		return 0;
	f->idlen = (size_t)idlen;
	f->id = p + PSKD_FRAME_HEAD_SIZE;
	f->linelen = (size_t)linelen;
	f->line = f->id + f->idlen;
	f->count = (uint32_t)count;
	f->values = f->line + f->linelen;
	if (order && fp->kind == PSKD_FRAME_SHINGLES &&
	    !ascending(f->values, f->count)) {
		snprintf(err, errsize, "%s", disorder);
		return -1;
	}
	return (ssize_t)size;
}

ssize_t
pskd_frame_parse(const unsigned char *p, size_t n,
    const struct pskd_frame_params *fp, struct pskd_frame *f, char *err,
    size_t errsize)
{
	return parse(p, n, fp, f, 1, err, errsize);
}

int
pskd_frame_reader_open(struct pskd_frame_reader *fr, const char *path,
    unsigned want)
{
	const unsigned char *p;
	ssize_t got;

	memset(fr, 0, sizeof(*fr));
	if (pskd_reader_open(&fr->r, path) == -1)
		return -1;
	got = pskd_reader_peek(&fr->r, PSKD_FRAME_HEADER_SIZE, &p);
	if (got < 0)
		return -1;
	if (pskd_frame_header_parse(p, (size_t)got < PSKD_FRAME_HEADER_SIZE ?
	    (size_t)got : PSKD_FRAME_HEADER_SIZE, want, &fr->fp, fr->err,
	    sizeof(fr->err)) == -1)
		return -1;
	pskd_reader_skip(&fr->r, PSKD_FRAME_HEADER_SIZE);
	return 0;
}

void
pskd_frame_fail(const struct pskd_frame_reader *fr, const char *path)
{
	const char *name = fr->r.name ? fr->r.name : path ? path : "<stdin>";

	if (fr->err[0] == '\0')
		pskd_err(PSKD_EXIT_DATA, "%s", name);
	pskd_errx(PSKD_EXIT_DATA, "%s: %s", name, fr->err);
}

/* A frame larger than the reader's buffer: copy it in, growing as it comes. */
static int
read_big(struct pskd_frame_reader *fr, size_t size)
{
	size_t chunk;
	ssize_t got;

	fr->body.len = 0;
	while (fr->body.len < size) {
		chunk = size - fr->body.len;
		if (chunk > pskd_bufsize())
			chunk = pskd_bufsize();
		pskd_buf_reserve(&fr->body, chunk);
		got = pskd_reader_read(&fr->r, fr->body.p + fr->body.len, chunk);
		if (got < 0)
			return -1;
		fr->body.len += (size_t)got;
		if ((size_t)got < chunk)
			return 0;
	}
	return 1;
}

/* 1 if the next frame is whole in the reader's buffer: no read will move it. */
static int
buffered(const struct pskd_frame_reader *fr)
{
	const unsigned char *p = fr->r.buf + fr->r.pos;
	size_t have = fr->r.end - fr->r.pos;

	return have >= PSKD_FRAME_HEAD_SIZE && PSKD_FRAME_HEAD_SIZE +
	    (uint64_t)pskd_get_le32(p) + pskd_get_le32(p + 4) +
	    (uint64_t)pskd_get_le32(p + 8) *
	    pskd_frame_value_size(fr->fp.kind) <= have;
}

static int
next(struct pskd_frame_reader *fr, struct pskd_frame *f, int order)
{
	const unsigned char *p;
	uint64_t size;
	uint32_t idw;
	ssize_t got, used;
	size_t vs = pskd_frame_value_size(fr->fp.kind);

	fr->err[0] = '\0';
	if (fr->relay != NULL && !buffered(fr))
		pskd_frame_relay_flush(fr->relay);
	got = pskd_reader_peek(&fr->r, PSKD_FRAME_HEAD_SIZE, &p);
	if (got < 0)
		return -1;
	if (got == 0)
		return 0;
	if (got < PSKD_FRAME_HEAD_SIZE)
		goto truncated;
	idw = pskd_get_le32(p);
	if (fr->fp.rejects)
		idw &= ~PSKD_FRAME_REJECTED;
	size = PSKD_FRAME_HEAD_SIZE + (uint64_t)idw + pskd_get_le32(p + 4) +
	    (uint64_t)pskd_get_le32(p + 8) * vs;
	if (size <= fr->r.cap) {
		got = pskd_reader_peek(&fr->r, (size_t)size, &p);
		if (got < 0)
			return -1;
	} else {
		/* Check the lengths before reading that many bytes. */
		used = parse(p, (size_t)got, &fr->fp, f, order, fr->err,
		    sizeof(fr->err));
		if (used < 0)
			goto bad;
		if (size > SIZE_MAX)
			goto truncated;
		switch (read_big(fr, (size_t)size)) {
		case -1: return -1;
		case 0: goto truncated;
		}
		p = fr->body.p;
		got = (ssize_t)fr->body.len;
	}
	used = parse(p, (size_t)got, &fr->fp, f, order, fr->err,
	    sizeof(fr->err));
	if (used < 0)
		goto bad;
	if (used == 0)
		goto truncated;
	f->raw = p;
	f->rawlen = (size_t)used;
	if (p != fr->body.p)
		pskd_reader_skip(&fr->r, (size_t)used);
	fr->nframes++;
	return 1;
truncated:
	snprintf(fr->err, sizeof(fr->err), "frame %llu: truncated",
	    (unsigned long long)fr->nframes + 1);
	return -1;
bad:
	{
		char msg[sizeof(fr->err)];

		memcpy(msg, fr->err, sizeof(msg));
		snprintf(fr->err, sizeof(fr->err), "frame %llu: %.200s",
		    (unsigned long long)fr->nframes + 1, msg);
	}
	return -1;
}

int
pskd_frame_next(struct pskd_frame_reader *fr, struct pskd_frame *f)
{
	return next(fr, f, 1);
}

int
pskd_frame_next_unordered(struct pskd_frame_reader *fr, struct pskd_frame *f)
{
	return next(fr, f, 0);
}

int
pskd_frame_disorder(struct pskd_frame_reader *fr)
{
	snprintf(fr->err, sizeof(fr->err), "frame %llu: %s",
	    (unsigned long long)fr->nframes, disorder);
	return -1;
}

void
pskd_frame_reader_close(struct pskd_frame_reader *fr)
{
	if (fr->relay != NULL)
		pskd_frame_relay_flush(fr->relay);
	fr->relay = NULL;
	pskd_reader_close(&fr->r);
	pskd_buf_free(&fr->body);
}

void
pskd_frame_write_header(struct pskd_writer *w,
    const struct pskd_frame_params *fp)
{
	unsigned char h[PSKD_FRAME_HEADER_SIZE];

	pskd_frame_header_encode(h, fp);
	pskd_writer_write(w, h, sizeof(h));
}

static void
encode_head(unsigned char *h, size_t *idlen, size_t linelen, uint32_t count,
    int rejected)
{
	if (*idlen > PSKD_FRAME_MAX_ID)
		*idlen = PSKD_FRAME_MAX_ID;	/* callers check; never overflow */
	if (linelen > UINT32_MAX)
		pskd_errx(PSKD_EXIT_DATA, "a line of %zu bytes is longer than "
		    "a frame can carry", linelen);
	pskd_put_le32(h, (uint32_t)*idlen | (rejected ? PSKD_FRAME_REJECTED :
	    0));
	pskd_put_le32(h + 4, (uint32_t)linelen);
	pskd_put_le32(h + 8, count);
}

static void
write_head(struct pskd_writer *w, const unsigned char *id, size_t idlen,
    const unsigned char *line, size_t linelen, uint32_t count)
{
	unsigned char h[PSKD_FRAME_HEAD_SIZE];

	encode_head(h, &idlen, linelen, count, 0);
	pskd_writer_write(w, h, sizeof(h));
	pskd_writer_write(w, id, idlen);
	pskd_writer_write(w, line, linelen);
}

/*
 * Room for n bytes at the end of w's buffer, to encode values straight into
 * it rather than through a copy; NULL if w must flush first (or failed).
 */
static unsigned char *
room(struct pskd_writer *w, size_t n)
{
	unsigned char *p;

	if (w->error || n > w->cap - w->len)
		return NULL;
	p = w->buf + w->len;
	w->len += n;
	w->total += n;
	return p;
}

void
pskd_frame_write_u64(struct pskd_writer *w, const unsigned char *id,
    size_t idlen, const unsigned char *line, size_t linelen,
    const uint64_t *v, uint32_t count)
{
	unsigned char b[8 * 64], *p;
	uint32_t i, j;

	write_head(w, id, idlen, line, linelen, count);
	if ((p = room(w, 8 * (size_t)count)) != NULL) {
		for (i = 0; i < count; i++)
			pskd_put_le64(p + 8 * (size_t)i, v[i]);
		return;
	}
	for (i = 0; i < count; i += j) {
		for (j = 0; j < 64 && i + j < count; j++)
			pskd_put_le64(b + 8 * j, v[i + j]);
		pskd_writer_write(w, b, 8 * (size_t)j);
	}
}

void
pskd_frame_write_u32(struct pskd_writer *w, const unsigned char *id,
    size_t idlen, const unsigned char *line, size_t linelen,
    const uint32_t *v, uint32_t count)
{
	unsigned char b[4 * 128], *p;
	uint32_t i, j;

	write_head(w, id, idlen, line, linelen, count);
	if ((p = room(w, 4 * (size_t)count)) != NULL) {
		for (i = 0; i < count; i++)
			pskd_put_le32(p + 4 * (size_t)i, v[i]);
		return;
	}
	for (i = 0; i < count; i += j) {
		for (j = 0; j < 128 && i + j < count; j++)
			pskd_put_le32(b + 4 * j, v[i + j]);
		pskd_writer_write(w, b, 4 * (size_t)j);
	}
}

void
pskd_frame_values_u64(const struct pskd_frame *f, uint64_t *out)
{
	uint32_t i;

	for (i = 0; i < f->count; i++)
		out[i] = pskd_get_le64(f->values + 8 * (size_t)i);
}

void
pskd_frame_values_u32(const struct pskd_frame *f, uint32_t *out)
{
	uint32_t i;

	for (i = 0; i < f->count; i++)
		out[i] = pskd_get_le32(f->values + 4 * (size_t)i);
}

void
pskd_frame_relay_init(struct pskd_frame_relay *rl, struct pskd_writer *w)
{
	/* What w holds already goes out first, as the first segment. */
	memset(rl, 0, sizeof(*rl));
	rl->w = w;
	rl->cap = w->cap;
}

void
pskd_frame_relay_attach(struct pskd_frame_relay *rl,
    struct pskd_frame_reader *fr)
{
	fr->relay = rl;
}

/* The writer's bytes since the last segment become an iovec. */
static void
close_segment(struct pskd_frame_relay *rl)
{
	struct pskd_writer *w = rl->w;

	if (w->len > rl->seg) {
		rl->iov[rl->niov].iov_base = w->buf + rl->seg;
		rl->iov[rl->niov].iov_len = w->len - rl->seg;
		rl->niov++;
	}
	rl->seg = w->len;
}

int
pskd_frame_relay_flush(struct pskd_frame_relay *rl)
{
	struct pskd_writer *w = rl->w;
	struct iovec *v = rl->iov;
	int n;
	ssize_t r;

	close_segment(rl);
	n = rl->niov;
	while (n > 0 && w->error == 0) {
		r = writev(w->fd, v, n);
		if (r < 0) {
			if (errno != EINTR)
				w->error = errno;
			continue;
		}
		if (r == 0) {
			w->error = EIO;
			break;
		}
		/* A short write: skip what went, go on from there. */
		for (; n > 0 && (size_t)r >= v->iov_len; v++, n--)
			r -= (ssize_t)v->iov_len;
		if (n > 0) {
			v->iov_base = (unsigned char *)v->iov_base + r;
			v->iov_len -= (size_t)r;
		}
	}
	rl->niov = 0;
	w->len = rl->seg = 0;
	if (w->cap > PSKD_KEEP_GROWN) {
		/* Back to its size after a frame past the keep. */
		w->buf = pskd_xrealloc(w->buf, rl->cap);
		w->cap = rl->cap;
	}
	return w->error ? -1 : 0;
}

/* Room for n more bytes in the writer's buffer, flushing to make it. */
static unsigned char *
own(struct pskd_frame_relay *rl, size_t n)
{
	struct pskd_writer *w = rl->w;
	unsigned char *p;

	if (n > w->cap - w->len)
		pskd_frame_relay_flush(rl);
	if (n > w->cap) {
		w->buf = pskd_xrealloc(w->buf, n);
		w->cap = n;
	}
	p = w->buf + w->len;
	w->len += n;
	w->total += n;
	return p;
}

/* A reference to bytes outside the writer's buffer, still valid now. */
static void
ref(struct pskd_frame_relay *rl, const unsigned char *p, size_t n)
{
	if (n == 0)
		return;
	close_segment(rl);
	rl->iov[rl->niov].iov_base = (void *)(uintptr_t)p;
	rl->iov[rl->niov].iov_len = n;
	rl->niov++;
	rl->w->total += n;
	/* Room for the next frame's segment and line. */
	if (rl->niov > PSKD_RELAY_IOV - 2)
		pskd_frame_relay_flush(rl);
}

void
pskd_frame_relay_u32(struct pskd_frame_relay *rl, const struct pskd_frame *f,
    const uint32_t *v, uint32_t count)
{
	unsigned char *p;
	size_t idlen = f->idlen;
	uint32_t i;

	p = own(rl, PSKD_FRAME_HEAD_SIZE + (idlen > PSKD_FRAME_MAX_ID ?
	    PSKD_FRAME_MAX_ID : idlen));
	encode_head(p, &idlen, f->linelen, f->rejected ? 0 : count,
	    f->rejected);
	if (f->rejected)
		count = 0;
	memcpy(p + PSKD_FRAME_HEAD_SIZE, f->id, idlen);
	ref(rl, f->line, f->linelen);
	p = own(rl, 4 * (size_t)count);
	for (i = 0; i < count; i++)
		pskd_put_le32(p + 4 * (size_t)i, v[i]);
}

static void
relay_refill(void *arg)
{
	pskd_frame_relay_flush(arg);
}

void
pskd_frame_relay_watch(struct pskd_frame_relay *rl, struct pskd_reader *r)
{
	r->refill = relay_refill;
	r->refill_arg = rl;
}

unsigned char *
pskd_frame_relay_begin(struct pskd_frame_relay *rl, const unsigned char *id,
    size_t idlen, const unsigned char *line, size_t linelen, uint32_t max)
{
	struct pskd_writer *w = rl->w;
	size_t hl;

	if (idlen > PSKD_FRAME_MAX_ID)
		idlen = PSKD_FRAME_MAX_ID;
	hl = PSKD_FRAME_HEAD_SIZE + idlen;
	/* Room now for all of it, so that nothing is flushed before _end. */
	if (rl->niov > PSKD_RELAY_IOV - 4 ||
	    hl + 8 * (size_t)max > w->cap - w->len)
		pskd_frame_relay_flush(rl);
	rl->head = own(rl, hl + 8 * (size_t)max);
	w->len -= 8 * (size_t)max;
	w->total -= 8 * (size_t)max;
	encode_head(rl->head, &idlen, linelen, max, 0);
	memcpy(rl->head + PSKD_FRAME_HEAD_SIZE, id, idlen);
	ref(rl, line, linelen);
	rl->max = max;
	return own(rl, 8 * (size_t)max);
}

void
pskd_frame_relay_end(struct pskd_frame_relay *rl, uint32_t count)
{
	struct pskd_writer *w = rl->w;

	if (count > rl->max)
		abort();	/* more than the caller made room for */
	pskd_put_le32(rl->head + 8, count);
	w->len -= 8 * (size_t)(rl->max - count);
	w->total -= 8 * (size_t)(rl->max - count);
	rl->head = NULL;
}

void
pskd_frame_relay_line(struct pskd_frame_relay *rl, const unsigned char *line,
    size_t len)
{
	ref(rl, line, len);
	*own(rl, 1) = '\n';
}

void
pskd_frame_relay_rejected(struct pskd_frame_relay *rl,
    const unsigned char *id, size_t idlen, const unsigned char *line,
    size_t linelen)
{
	(void)pskd_frame_relay_begin(rl, id, idlen, line, linelen, 0);
	rl->head[3] |= PSKD_FRAME_REJECTED >> 24;
	pskd_frame_relay_end(rl, 0);
}
