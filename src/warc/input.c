/*
 * input.c - a WARC file's decoded bytes, pulled as the record reader needs
 * them.  A gzip file is one or more members (Common Crawl's .warc.gz: one a
 * record), a zstd file one or more frames (the WARC zstd convention: one a
 * record, an optional dictionary first in a skippable frame); a plain file
 * is its own bytes.  Decoded bytes are "checked" once the member or frame
 * holding them has ended and zlib or libzstd has verified it, which is
 * when the program may write what came from them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libdeflate.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_WINDOWLOG_MAX */
#include <zstd.h>
#include <zstd_errors.h>

#include "warc/warc.h"

#define CHUNK		(256u << 10)	/* decoded bytes asked for at once */
#define DICT_MAGIC	0x184D2A5Du	/* WARC zstd: the dictionary frame */
#define DICT_MAX	(64u << 20)
#define FAST_IN		(1u << 20)	/* compressed bytes of a fast member */
#define FAST_OUT	(16u << 20)	/* the decoded buffer it may grow to */

static int
fail(struct wi *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct wi *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* The file offset of the next unread byte of the file. */
static uint64_t
file_pos(const struct wi *w)
{
	return w->base + w->r.offset;
}

const char *
wi_format_name(enum wi_format f)
{
	switch (f) {
	case WI_GZIP: return "gzip";
	case WI_ZSTD: return "zstd";
	default: return "plain";
	}
}

static enum wi_format
sniff(const unsigned char *p, size_t n)
{
	if (n == 0)
		return WI_EMPTY;
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return WI_GZIP;
	if (n >= 4 && (pskd_get_le32(p) == 0xFD2FB528u ||
	    (pskd_get_le32(p) & 0xFFFFFFF0u) == 0x184D2A50u))
		return WI_ZSTD;
	return WI_PLAIN;
}

/* A WARC zstd dictionary frame at the start: loaded, and skipped. */
static int
zstd_dictionary(struct wi *w)
{
	const unsigned char *p;
	ssize_t got;
	size_t n, ret;

	got = pskd_reader_peek(&w->r, 8, &p);
	if (got < 8 || pskd_get_le32(p) != DICT_MAGIC)
		return got < 0 ? fail(w, "%s", strerror(errno)) : 0;
	n = pskd_get_le32(p + 4);
	if (n > DICT_MAX)
		return fail(w, "zstd dictionary of %zu bytes (more than 64 MiB)",
		    n);
	got = pskd_reader_peek(&w->r, 8 + n, &p);
	if (got < 0)
		return fail(w, "%s", strerror(errno));
	if ((size_t)got < 8 + n)
		return fail(w, "truncated zstd dictionary");
	p += 8;
	if (n >= 4 && pskd_get_le32(p) == 0xFD2FB528u) {
		/* The dictionary itself compressed, as the convention allows. */
		struct pskd_buf dict = { 0 };
		ZSTD_DCtx *z = ZSTD_createDCtx();
		ZSTD_inBuffer ib = { p, n, 0 };
		ZSTD_outBuffer ob;

		if (z == NULL)
			return fail(w, "out of memory");
		do {
			if (dict.len == DICT_MAX) {
				ret = (size_t)-ZSTD_error_dictionary_corrupted;
				break;
			}
			pskd_buf_reserve(&dict, 1 << 16);
			ob.dst = dict.p + dict.len;
			ob.size = dict.cap - dict.len > DICT_MAX - dict.len ?
			    DICT_MAX - dict.len : dict.cap - dict.len;
			ob.pos = 0;
			ret = ZSTD_decompressStream(z, &ob, &ib);
			dict.len += ob.pos;
		} while (!ZSTD_isError(ret) && ret != 0 &&
		    (ib.pos < ib.size || ob.pos == ob.size));
		ZSTD_freeDCtx(z);
		if (ZSTD_isError(ret) || ret != 0) {
			pskd_buf_free(&dict);
			return fail(w, "corrupt zstd dictionary");
		}
		ret = ZSTD_DCtx_loadDictionary(w->zd, dict.p, dict.len);
		pskd_buf_free(&dict);
	} else
		ret = ZSTD_DCtx_loadDictionary(w->zd, p, n);
	if (ZSTD_isError(ret))
		return fail(w, "zstd dictionary: %s", ZSTD_getErrorName(ret));
	pskd_reader_skip(&w->r, 8 + n);
	return 0;
}

static int start(struct wi *w);

int
wi_open(struct wi *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	if (pskd_reader_open(&w->r, path) == -1) {
		w->name = path;
		return fail(w, "%s", strerror(errno));
	}
	return start(w);
}

int
wi_fdopen(struct wi *w, int fd, const char *name)
{
	memset(w, 0, sizeof(*w));
	pskd_reader_fdopen(&w->r, fd, name);
	return start(w);
}

/* The format of the file just opened, and its decoder. */
static int
start(struct wi *w)
{
	const unsigned char *p;
	ssize_t got;

	w->name = w->r.name;
	w->cap = 2 * CHUNK;
	w->buf = pskd_xmalloc(w->cap);
	got = pskd_reader_peek(&w->r, 4, &p);
	if (got < 0)
		return fail(w, "%s", strerror(errno));
	w->fmt = sniff(p, (size_t)got);
	if (w->fmt == WI_GZIP) {
		w->zs = pskd_xcalloc(1, sizeof(z_stream));
		if (inflateInit2((z_stream *)w->zs, 16 + MAX_WBITS) != Z_OK)
			return fail(w, "out of memory");
	} else if (w->fmt == WI_ZSTD) {
		if ((w->zd = ZSTD_createDCtx()) == NULL)
			return fail(w, "out of memory");
		ZSTD_DCtx_setParameter(w->zd, ZSTD_d_windowLogMax,
		    ZSTD_WINDOWLOG_MAX);
		return zstd_dictionary(w);
	}
	return 0;
}

void
wi_close(struct wi *w)
{
	if (w->zs != NULL) {
		inflateEnd(w->zs);
		free(w->zs);
	}
	ZSTD_freeDCtx(w->zd);
	if (w->fast != NULL)
		libdeflate_free_decompressor(w->fast);
	w->fast = NULL;
	free(w->buf);
	free(w->pieces);
	pskd_reader_close(&w->r);
	w->zs = w->zd = NULL;
	w->buf = NULL;
	w->pieces = NULL;
}

int
wi_seek(struct wi *w, uint64_t off)
{
	struct pskd_reader *r = &w->r;
	const unsigned char *p;
	struct stat st;
	ssize_t got;

	if (off == 0)
		return 0;
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    lseek(r->fd, (off_t)off, SEEK_SET) != -1) {
		r->pos = r->end = 0;
		r->eof = 0;
		w->base = off - r->offset;
	} else {
		while (file_pos(w) < off) {
			got = pskd_reader_peek(r, 1, &p);
			if (got < 0)
				return fail(w, "%s", strerror(errno));
			if (got == 0)
				break;
			pskd_reader_skip(r, off - file_pos(w) < (uint64_t)got ?
			    (size_t)(off - file_pos(w)) : (size_t)got);
		}
	}
	if (w->fmt == WI_PLAIN || w->fmt == WI_EMPTY)
		w->dpos = w->checked = file_pos(w);
	got = pskd_reader_peek(r, 4, &p);
	if (got < 0)
		return fail(w, "%s", strerror(errno));
	if (got > 0 && w->fmt != WI_PLAIN && sniff(p, (size_t)got) != w->fmt)
		return fail(w, "not the start of a %s %s",
		    wi_format_name(w->fmt), w->fmt == WI_GZIP ? "member" :
		    "frame");
	return 0;
}

static void
piece_start(struct wi *w)
{
	if (w->npieces == w->piecescap) {
		w->piecescap = w->piecescap ? 2 * w->piecescap : 16;
		w->pieces = pskd_xreallocarray(w->pieces, w->piecescap,
		    sizeof(*w->pieces));
	}
	w->pieces[w->npieces].d = w->dpos + (w->end - w->pos);
	w->pieces[w->npieces].f = file_pos(w);
	w->npieces++;
	w->inside = 1;
}

static void
piece_end(struct wi *w)
{
	w->inside = 0;
	w->checked = w->dpos + (w->end - w->pos);
}

/* Room for CHUNK more decoded bytes after the held ones. */
static void
room(struct wi *w)
{
	if (w->cap - w->end >= CHUNK)
		return;
	if (w->pos > 0) {
		memmove(w->buf, w->buf + w->pos, w->end - w->pos);
		w->end -= w->pos;
		w->pos = 0;
	}
	while (w->cap - w->end < CHUNK) {
		w->cap *= 2;
		w->buf = pskd_xrealloc(w->buf, w->cap);
	}
}

static int
fill_plain(struct wi *w)
{
	const unsigned char *p;
	ssize_t got;
	size_t n;

	got = pskd_reader_peek(&w->r, 1, &p);
	if (got < 0)
		return fail(w, "%s", strerror(errno));
	if (got == 0) {
		w->eof = 1;
		return 0;
	}
	n = (size_t)got < w->cap - w->end ? (size_t)got : w->cap - w->end;
	memcpy(w->buf + w->end, p, n);
	pskd_reader_skip(&w->r, n);
	w->end += n;
	w->checked = w->dpos + (w->end - w->pos);
	return 0;
}

/*
 * A whole member at once through libdeflate, two to three times zlib's
 * speed, when all of it is in the reader's buffer (Common Crawl's members
 * are a record each, tens of KiB): 1 done, 0 not (too long, cut short or
 * corrupt: zlib reads it then, and says why).  libdeflate checks the
 * CRC-32 and the length as zlib does.
 */
static int
fast_member(struct wi *w)
{
	const unsigned char *p;
	ssize_t got;
	size_t in, out, avail;
	enum libdeflate_result r;

	if (w->fast == NULL &&
	    (w->fast = libdeflate_alloc_decompressor()) == NULL)
		return 0;
	/* What is buffered, refilled only when little is (no memmove). */
	got = pskd_reader_peek(&w->r, 1, &p);
	if (got >= 0 && got < (ssize_t)(FAST_IN / 16))
		got = pskd_reader_peek(&w->r, FAST_IN, &p);
	if (got < 18)
		return 0;
	for (;;) {
		avail = w->cap - w->end;
		r = libdeflate_gzip_decompress_ex(w->fast, p, (size_t)got,
		    w->buf + w->end, avail, &in, &out);
		if (r != LIBDEFLATE_INSUFFICIENT_SPACE || w->cap >= FAST_OUT)
			break;
		w->cap *= 2;
		w->buf = pskd_xrealloc(w->buf, w->cap);
	}
	if (r != LIBDEFLATE_SUCCESS)
		return 0;
	piece_start(w);
	w->end += out;
	pskd_reader_skip(&w->r, in);
	piece_end(w);
	return 1;
}

static int
fill_gzip(struct wi *w)
{
	z_stream *zs = w->zs;
	const unsigned char *p;
	ssize_t got;
	size_t avail;
	int ret;

	got = pskd_reader_peek(&w->r, w->inside ? 1 : 2, &p);
	if (got < 0)
		return fail(w, "%s", strerror(errno));
	if (!w->inside) {
		if (got == 0) {
			w->eof = 1;
			return 0;
		}
		if (got < 2 || p[0] != 0x1f || p[1] != 0x8b)
			return fail(w, "byte %llu: not a gzip member",
			    (unsigned long long)file_pos(w));
		if (fast_member(w))
			return 0;
		inflateReset(zs);
		piece_start(w);
	}
	if (got == 0)
		return fail(w, "truncated gzip member");
	zs->next_in = (unsigned char *)p;
	zs->avail_in = got > UINT32_MAX ? UINT32_MAX : (uInt)got;
	avail = w->cap - w->end;
	zs->next_out = w->buf + w->end;
	zs->avail_out = avail > UINT32_MAX ? UINT32_MAX : (uInt)avail;
	ret = inflate(zs, Z_NO_FLUSH);
	w->end += avail - zs->avail_out;
	pskd_reader_skip(&w->r, (size_t)got - zs->avail_in);
	if (ret == Z_STREAM_END)
		piece_end(w);
	else if (ret == Z_MEM_ERROR)
		return fail(w, "out of memory");
	else if (ret != Z_OK && ret != Z_BUF_ERROR)
		return fail(w, "corrupt gzip member (%s)",
		    zs->msg ? zs->msg : "unknown error");
	return 0;
}

static int
fill_zstd(struct wi *w)
{
	ZSTD_inBuffer ib;
	ZSTD_outBuffer ob;
	const unsigned char *p;
	ssize_t got;
	size_t ret;

	got = pskd_reader_peek(&w->r, 4, &p);
	if (got < 0)
		return fail(w, "%s", strerror(errno));
	if (!w->inside) {
		if (got == 0) {
			w->eof = 1;
			return 0;
		}
		if (sniff(p, (size_t)got) != WI_ZSTD)
			return fail(w, "byte %llu: not a zstd frame",
			    (unsigned long long)file_pos(w));
		piece_start(w);
	}
	if (got == 0)
		return fail(w, "truncated zstd frame");
	ib.src = p;
	ib.size = (size_t)got;
	ib.pos = 0;
	ob.dst = w->buf + w->end;
	ob.size = w->cap - w->end;
	ob.pos = 0;
	ret = ZSTD_decompressStream(w->zd, &ob, &ib);
	w->end += ob.pos;
	pskd_reader_skip(&w->r, ib.pos);
	if (ZSTD_isError(ret))
		return fail(w, "corrupt zstd frame (%s)", ZSTD_getErrorName(ret));
	if (ret == 0)
		piece_end(w);
	return 0;
}

/* Decode some more bytes (or reach the end): 0, or -1. */
static int
fill(struct wi *w)
{
	size_t before = w->end;
	int inside = w->inside;

	room(w);
	do {
		switch (w->fmt) {
		case WI_EMPTY:
			w->eof = 1;
			return 0;
		case WI_PLAIN:
			if (fill_plain(w) == -1)
				return -1;
			break;
		case WI_GZIP:
			if (fill_gzip(w) == -1)
				return -1;
			break;
		case WI_ZSTD:
			if (fill_zstd(w) == -1)
				return -1;
			break;
		}
		/* Until bytes came out, a piece ended, or the file did. */
	} while (w->end == before && !w->eof && w->inside == inside &&
	    w->inside);
	return 0;
}

ssize_t
wi_peek(struct wi *w, size_t n, const unsigned char **p)
{
	while (w->end - w->pos < n && !w->eof) {
		if (w->cap - w->pos < n + CHUNK) {
			/* Make room for n held bytes at once. */
			room(w);
			while (w->cap < n + CHUNK) {
				w->cap *= 2;
				w->buf = pskd_xrealloc(w->buf, w->cap);
			}
		}
		if (fill(w) == -1)
			return -1;
	}
	*p = w->buf + w->pos;
	return (ssize_t)(w->end - w->pos);
}

void
wi_skip(struct wi *w, size_t n)
{
	w->pos += n;
	w->dpos += n;
}

int
wi_discard(struct wi *w, uint64_t n)
{
	size_t k;

	for (;;) {
		k = w->end - w->pos < n ? w->end - w->pos : (size_t)n;
		wi_skip(w, k);
		n -= k;
		if (n == 0)
			return 0;
		if (w->eof)
			return fail(w, "short");
		if (fill(w) == -1)
			return -1;
	}
}

int
wi_check(struct wi *w, uint64_t d)
{
	while (w->checked < d && !w->eof) {
		room(w);
		if (fill(w) == -1)
			return -1;
	}
	if (w->checked < d)
		return fail(w, "truncated %s %s", wi_format_name(w->fmt),
		    w->fmt == WI_GZIP ? "member" : "frame");
	return 0;
}

int
wi_piece_rest(struct wi *w)
{
	size_t k;

	for (;;) {
		for (k = 0; k < w->npieces; k++)
			if (w->pieces[k].d > w->dpos)
				return wi_discard(w, w->pieces[k].d - w->dpos);
		if (!w->inside)
			return wi_discard(w, w->checked - w->dpos);
		room(w);
		if (fill(w) == -1)
			return -1;
	}
}

uint64_t
wi_file_offset(struct wi *w, uint64_t d, int *first)
{
	size_t k = 0;

	if (w->fmt == WI_PLAIN || w->fmt == WI_EMPTY || w->npieces == 0) {
		*first = 1;
		return d;
	}
	while (k + 1 < w->npieces && w->pieces[k + 1].d <= d)
		k++;
	if (k > 0) {
		memmove(w->pieces, w->pieces + k,
		    (w->npieces - k) * sizeof(*w->pieces));
		w->npieces -= k;
	}
	*first = w->pieces[0].d == d;
	return w->pieces[0].f;
}
