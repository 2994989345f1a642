/*
 * codec.c - a page's bytes through its codec, with the Debian libraries:
 * libsnappy, zlib, libzstd, libbrotlidec, liblz4.  A page must decompress
 * to exactly the size its header claims: no more (the buffer holds no
 * more) and no less.
 */
#include <stdlib.h>
#include <string.h>

#include <brotli/decode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_decompressBound */
#include <zstd.h>

#include "pskd.h"
#include "parquet/codec.h"
#include "parquet/meta.h"

static ZSTD_DCtx *zd;
static z_stream zs;
static int zs_ready;

static int
gunzip(const unsigned char *src, size_t n, unsigned char *dst, size_t want,
    const char **err)
{
	int ret;

	if (!zs_ready) {
		/* 15 + 32: a gzip or a zlib header, whichever it is. */
		if (inflateInit2(&zs, 15 + 32) != Z_OK) {
			*err = "out of memory";
			return -1;
		}
		zs_ready = 1;
	} else
		inflateReset(&zs);
	zs.next_in = (unsigned char *)src;
	zs.avail_in = (uInt)n;
	zs.next_out = dst;
	zs.avail_out = (uInt)want;
	for (;;) {
		ret = inflate(&zs, Z_FINISH);
		if (ret == Z_STREAM_END && zs.avail_in > 0 && zs.avail_out > 0) {
			/* Another gzip member follows. */
			inflateReset(&zs);
			continue;
		}
		break;
	}
	if (ret != Z_STREAM_END || zs.avail_out != 0 || zs.avail_in != 0) {
		*err = ret == Z_STREAM_END || ret == Z_BUF_ERROR ?
		    "GZIP page not of the size its header says" :
		    "corrupt GZIP page";
		return -1;
	}
	return 0;
}

/* Hadoop's LZ4 framing: blocks of (BE32 size, BE32 compressed, data). */
static int
hadoop_lz4(const unsigned char *src, size_t n, unsigned char *dst,
    size_t want)
{
	size_t done = 0, usize, csize;
	int got;

	while (n >= 8) {
		usize = (size_t)src[0] << 24 | (size_t)src[1] << 16 |
		    (size_t)src[2] << 8 | src[3];
		csize = (size_t)src[4] << 24 | (size_t)src[5] << 16 |
		    (size_t)src[6] << 8 | src[7];
		src += 8;
		n -= 8;
		if (csize > n || usize > want - done || csize > INT32_MAX)
			return -1;
		got = LZ4_decompress_safe((const char *)src,
		    (char *)dst + done, (int)csize, (int)usize);
		if (got < 0 || (size_t)got != usize)
			return -1;
		done += usize;
		src += csize;
		n -= csize;
	}
	return n == 0 && done == want ? 0 : -1;
}

/*
 * Could n bytes of codec give want bytes?  Asked before the memory for
 * them is taken, so a header that claims a gigabyte gets no gigabyte.
 * Brotli has no bound: it grows its buffer as it goes instead.
 */
static int
plausible(int codec, const unsigned char *src, size_t n, size_t want)
{
	unsigned long long bound;
	size_t len;

	switch (codec) {
	case PQ_SNAPPY:
		return snappy_uncompressed_length((const char *)src, n, &len) ==
		    SNAPPY_OK && len == want;
	case PQ_GZIP:
		return want / 1032 <= n + 64;	/* deflate's best ratio */
	case PQ_LZ4:
	case PQ_LZ4_RAW:
		return want / 255 <= n + 64;	/* LZ4's */
	case PQ_ZSTD:
		bound = ZSTD_decompressBound(src, n);
		return bound != ZSTD_CONTENTSIZE_ERROR && want <= bound;
	default:
		return 1;
	}
}

static unsigned char *
reserve(unsigned char **buf, size_t *cap, size_t n)
{
	if (n > *cap || *buf == NULL) {
		free(*buf);
		*buf = pskd_xmalloc(n ? n : 1);
		*cap = n;
		pskd_prefault(*buf, n);
	}
	return *buf;
}

/* Brotli into a buffer that doubles up to want, no further. */
static int
unbrotli(const unsigned char *src, size_t n, unsigned char **buf,
    size_t *cap, size_t want)
{
	BrotliDecoderState *st;
	BrotliDecoderResult r;
	size_t in_left = n, out_left, done = 0, size;
	const uint8_t *in = src;
	uint8_t *out;

	if ((st = BrotliDecoderCreateInstance(NULL, NULL, NULL)) == NULL)
		return -1;
	size = want < (1u << 20) ? want : 1u << 20;
	if (*buf == NULL || *cap < size)
		reserve(buf, cap, size);
	for (;;) {
		out = *buf + done;
		out_left = *cap - done < want - done ? *cap - done : want - done;
		r = BrotliDecoderDecompressStream(st, &in_left, &in, &out_left,
		    &out, NULL);
		done = (size_t)(out - *buf);
		if (r != BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT || done == want)
			break;
		size = *cap * 2 < want ? *cap * 2 : want;
		*buf = pskd_xrealloc(*buf, size);
		*cap = size;
	}
	BrotliDecoderDestroyInstance(st);
	return r == BROTLI_DECODER_RESULT_SUCCESS && done == want &&
	    in_left == 0 ? 0 : -1;
}

int
pq_decompress(int codec, const unsigned char *src, size_t n,
    unsigned char **buf, size_t *cap, size_t want, const char **err)
{
	unsigned char *dst;
	size_t len;
	int got;

	*err = NULL;
	if (codec == PQ_LZO) {
		*err = "LZO codec not supported";
		return -1;
	}
	if (codec < PQ_UNCOMPRESSED || codec > PQ_LZ4_RAW) {
		*err = "unknown codec";
		return -1;
	}
	if (!plausible(codec, src, n, want)) {
		*err = "page cannot decompress to the size its header says";
		return -1;
	}
	if (codec == PQ_BROTLI) {
		if (unbrotli(src, n, buf, cap, want) == -1) {
			*err = "corrupt BROTLI page, or not of its size";
			return -1;
		}
		return 0;
	}
	dst = reserve(buf, cap, want);
	switch (codec) {
	case PQ_UNCOMPRESSED:
		if (n != want) {
			*err = "uncompressed page not of the size its header says";
			return -1;
		}
		memcpy(dst, src, n);
		return 0;
	case PQ_SNAPPY:
		len = want;
		if (snappy_uncompress((const char *)src, n, (char *)dst,
		    &len) != SNAPPY_OK || len != want) {
			*err = "corrupt SNAPPY page, or not of its size";
			return -1;
		}
		return 0;
	case PQ_GZIP:
		return gunzip(src, n, dst, want, err);
	case PQ_ZSTD:
		if (zd == NULL && (zd = ZSTD_createDCtx()) == NULL) {
			*err = "out of memory";
			return -1;
		}
		len = ZSTD_decompressDCtx(zd, dst, want, src, n);
		if (ZSTD_isError(len) || len != want) {
			*err = "corrupt ZSTD page, or not of its size";
			return -1;
		}
		return 0;
	case PQ_LZ4:
		/* Hadoop's framing, or (some older writers) a bare block. */
		if (hadoop_lz4(src, n, dst, want) == 0)
			return 0;
		/* FALLTHROUGH */
	default:	/* PQ_LZ4_RAW */
		if (n > INT32_MAX || want > INT32_MAX) {
			*err = "LZ4 page too large";
			return -1;
		}
		got = LZ4_decompress_safe((const char *)src, (char *)dst,
		    (int)n, (int)want);
		if (got < 0 || (size_t)got != want) {
			*err = "corrupt LZ4 page, or not of its size";
			return -1;
		}
		return 0;
	}
}

void
pq_codec_free(void)
{
	ZSTD_freeDCtx(zd);
	zd = NULL;
	if (zs_ready)
		inflateEnd(&zs);
	zs_ready = 0;
}
