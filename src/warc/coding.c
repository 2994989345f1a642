/*
 * coding.c - HTTP content codings (RFC 9110, 8.4.1): gzip and deflate
 * through zlib, br through brotli's decoder, zstd through libzstd.  Each
 * decodes at most max bytes (a small body may expand a thousandfold) and
 * keeps what it decoded before an error: a body Common Crawl cut short is
 * still worth its first part.  "deflate" is meant to be the zlib format,
 * but servers send raw deflate too; both are read, as browsers do.
 */
#include <string.h>

#include <brotli/decode.h>
#include <zlib.h>
#include <zstd.h>

#include "warc/warc.h"

#define OUTSTEP	(64u << 10)

static z_stream zs;
static int zs_mode;		/* the windowBits zs was set up with; 0 none */
static ZSTD_DCtx *zd;

/* Room in out for more bytes, at most what max still allows. */
static size_t
grow(struct pskd_buf *out, size_t max)
{
	size_t want = max - out->len < OUTSTEP ? max - out->len : OUTSTEP;

	pskd_buf_reserve(out, want);
	return want;
}

static int
inflate_with(int bits, const unsigned char *p, size_t n, size_t max,
    struct pskd_buf *out)
{
	size_t room;
	int ret;

	if (zs_mode != bits) {
		if (zs_mode != 0)
			inflateEnd(&zs);
		memset(&zs, 0, sizeof(zs));
		if (inflateInit2(&zs, bits) != Z_OK) {
			zs_mode = 0;
			return -1;
		}
		zs_mode = bits;
	} else
		inflateReset(&zs);
	zs.next_in = (unsigned char *)p;
	zs.avail_in = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	for (;;) {
		if (out->len == max)
			return 1;
		room = grow(out, max);
		zs.next_out = out->p + out->len;
		zs.avail_out = (uInt)room;
		ret = inflate(&zs, Z_NO_FLUSH);
		out->len += room - zs.avail_out;
		if (ret == Z_STREAM_END)
			return 0;
		if (ret == Z_BUF_ERROR && zs.avail_in == 0)
			return 0;	/* cut short: what there is */
		if (ret != Z_OK && ret != Z_BUF_ERROR)
			return -1;
	}
}

static int
brotli(const unsigned char *p, size_t n, size_t max, struct pskd_buf *out)
{
	BrotliDecoderState *s = BrotliDecoderCreateInstance(NULL, NULL, NULL);
	BrotliDecoderResult r;
	size_t avail_in = n, room, avail;
	const uint8_t *next_in = p;
	uint8_t *next_out;
	int ret = -1;

	if (s == NULL)
		return -1;
	for (;;) {
		if (out->len == max) {
			ret = 1;
			break;
		}
		room = grow(out, max);
		avail = room;
		next_out = out->p + out->len;
		r = BrotliDecoderDecompressStream(s, &avail_in, &next_in,
		    &avail, &next_out, NULL);
		out->len += room - avail;
		if (r == BROTLI_DECODER_RESULT_SUCCESS) {
			ret = 0;
			break;
		}
		if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
			ret = 0;	/* cut short */
			break;
		}
		if (r == BROTLI_DECODER_RESULT_ERROR)
			break;
	}
	BrotliDecoderDestroyInstance(s);
	return ret;
}

static int
zstd(const unsigned char *p, size_t n, size_t max, struct pskd_buf *out)
{
	ZSTD_inBuffer ib = { p, n, 0 };
	ZSTD_outBuffer ob;
	size_t ret, room;

	if (zd == NULL && (zd = ZSTD_createDCtx()) == NULL)
		return -1;
	ZSTD_DCtx_reset(zd, ZSTD_reset_session_only);
	for (;;) {
		if (out->len == max)
			return 1;
		room = grow(out, max);
		ob.dst = out->p + out->len;
		ob.size = room;
		ob.pos = 0;
		ret = ZSTD_decompressStream(zd, &ob, &ib);
		out->len += ob.pos;
		if (ZSTD_isError(ret))
			return -1;
		if (ib.pos == ib.size && ob.pos < room)
			return 0;	/* all of it, or cut short */
	}
}

int
coding_decode(enum coding c, const unsigned char *p, size_t n, size_t max,
    struct pskd_buf *out)
{
	int r;

	switch (c) {
	case CODING_GZIP:
		/* 32: a zlib stream too, as some servers send for "gzip". */
		return inflate_with(32 + MAX_WBITS, p, n, max, out);
	case CODING_DEFLATE:
		r = inflate_with(MAX_WBITS, p, n, max, out);
		if (r == -1 && out->len == 0)
			r = inflate_with(-MAX_WBITS, p, n, max, out);
		return r;
	case CODING_BR:
		return brotli(p, n, max, out);
	case CODING_ZSTD:
		return zstd(p, n, max, out);
	}
	return -1;
}

void
coding_free(void)
{
	if (zs_mode != 0)
		inflateEnd(&zs);
	zs_mode = 0;
	ZSTD_freeDCtx(zd);
	zd = NULL;
}
