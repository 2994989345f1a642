/*
 * zstd.c - zstd frames (RFC 8878) through libzstd's streaming decoder.
 * In the held mode a frame is held until it ended and its content
 * checksum, if it has one, matched.  Skippable frames are skipped.
 * Every frame is a piece.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_getFrameHeader, window max */
#include <zstd.h>
#include <zstd_errors.h>

#include "unzst/unzst.h"

static ZSTD_DCtx *zd;

static _Noreturn void
zstd_error(struct unz_in *in, struct unz_out *o, size_t ret, uint64_t off)
{
	const char *name = in->r.name;

	switch (ZSTD_getErrorCode(ret)) {
	case ZSTD_error_prefix_unknown:
		unz_fail(o, "%s: byte %llu: not a zstd frame", name,
		    (unsigned long long)off);
	case ZSTD_error_checksum_wrong:
		unz_fail(o, "%s: zstd checksum mismatch (corrupt data)", name);
	case ZSTD_error_frameParameter_windowTooLarge:
		unz_fail(o, "%s: zstd window too large", name);
	case ZSTD_error_memory_allocation:
		unz_fail(o, "%s: out of memory", name);
	default:
		unz_fail(o, "%s: corrupt zstd data (%s)", name,
		    ZSTD_getErrorName(ret));
	}
}

/* At the start of a frame, which is held (-H).  0 at the end of input. */
static int
frame_start(struct unz_in *in, struct unz_out *o)
{
	ZSTD_frameHeader h;
	const unsigned char *p;
	ssize_t got;
	size_t ret;

	got = pskd_reader_peek(&in->r, ZSTD_FRAMEHEADERSIZE_MAX, &p);
	if (got < 0)
		unz_fail(o, "%s: %s", in->r.name, strerror(errno));
	if (got == 0)
		return 0;
	/* A bad header other than the magic the decoder reports itself. */
	ret = ZSTD_getFrameHeader(&h, p, (size_t)got);
	if (ZSTD_isError(ret) &&
	    ZSTD_getErrorCode(ret) == ZSTD_error_prefix_unknown)
		zstd_error(in, o, ret, unz_offset(in));
	if (!ZSTD_isError(ret) && ret > 0)
		unz_fail(o, "%s: truncated zstd frame", in->r.name);
	unz_hold(o, 1);
	return 1;
}

void
unz_zstd(struct unz_in *in, struct unz_out *o)
{
	ZSTD_inBuffer ib;
	ZSTD_outBuffer ob;
	const unsigned char *p;
	unsigned char *dst;
	size_t ret;
	int inside = 0;

	if (zd == NULL) {
		if ((zd = ZSTD_createDCtx()) == NULL)
			unz_fail(o, "out of memory");
		/* Frames made with --long=31 are legal; allow their window. */
		ZSTD_DCtx_setParameter(zd, ZSTD_d_windowLogMax,
		    ZSTD_WINDOWLOG_MAX);
	}
	ZSTD_DCtx_reset(zd, ZSTD_reset_session_only);
	for (;;) {
		if (!inside) {
			if (o->phase == UNZ_DONE || !frame_start(in, o))
				break;
			inside = 1;
		}
		ib.size = unz_need(in, o, 1, &p, "zstd frame");
		ib.src = p;
		ib.pos = 0;
		/*
		 * Until the input is used up and the output did not fill:
		 * the decoder may hold bytes back when it runs out of room.
		 * It stops at the end of a frame and returns 0.  A call
		 * that fails reports none of what it decoded: at most a
		 * block's worth a call (libzstd's own output size) keeps
		 * what a bad checksum costs to the last block, as for zstd
		 * -dc, and takes no whole-frame shortcut.
		 */
		do {
			ob.size = unz_room(o, &dst);
			if (ob.size > ZSTD_BLOCKSIZE_MAX)
				ob.size = ZSTD_BLOCKSIZE_MAX;
			ob.dst = dst;
			ob.pos = 0;
			ret = ZSTD_decompressStream(zd, &ob, &ib);
			unz_added(o, ob.pos);
			if (ZSTD_isError(ret))
				zstd_error(in, o, ret, unz_offset(in) + ib.pos);
		} while (ret != 0 && (ib.pos < ib.size || ob.pos == ob.size));
		pskd_reader_skip(&in->r, ib.pos);
		if (ret == 0) {
			inside = 0;
			unz_commit(o, unz_offset(in));
			unz_piece_end(o, unz_offset(in));
		}
	}
}

void
unz_zstd_free(void)
{
	ZSTD_freeDCtx(zd);
	zd = NULL;
}

/* Read exactly n bytes at off; 0, or -1 when the file ends before. */
static int
read_at(int fd, const char *name, struct unz_out *o, void *p, size_t n,
    uint64_t off)
{
	ssize_t got;
	size_t done = 0;

	while (done < n) {
		got = pread(fd, (char *)p + done, n - done, (off_t)(off + done));
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			unz_fail(o, "%s: %s", name, strerror(errno));
		if (got == 0)
			return -1;
		done += (size_t)got;
	}
	return 0;
}

void
unz_zstd_pieces(int fd, const char *name, struct unz_out *o)
{
	unsigned char hdr[ZSTD_FRAMEHEADERSIZE_MAX], b[3];
	ZSTD_frameHeader h;
	uint64_t off = 0, bsize;
	ssize_t got;
	size_t ret;
	uint32_t bh;
	int last;

	for (;;) {
		got = pread(fd, hdr, sizeof(hdr), (off_t)off);
		if (got == -1)
			unz_fail(o, "%s: %s", name, strerror(errno));
		if (got == 0)
			break;
		ret = ZSTD_getFrameHeader(&h, hdr, (size_t)got);
		if (ZSTD_isError(ret))
			unz_fail(o, "%s: byte %llu: not a zstd frame", name,
			    (unsigned long long)off);
		if (ret > 0)
			unz_fail(o, "%s: truncated zstd frame", name);
		if (h.frameType == ZSTD_skippableFrame) {
			off += ZSTD_SKIPPABLEHEADERSIZE + (uint64_t)h.frameContentSize;
		} else {
			/* The blocks: 3-byte headers, then their sizes. */
			off += h.headerSize;
			do {
				if (read_at(fd, name, o, b, 3, off) == -1)
					unz_fail(o, "%s: truncated zstd frame",
					    name);
				bh = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
				    (uint32_t)b[2] << 16;
				last = bh & 1;
				if ((bh >> 1 & 3) == 3)
					unz_fail(o, "%s: corrupt zstd data "
					    "(reserved block type)", name);
				bsize = (bh >> 1 & 3) == 1 ? 1 : bh >> 3;
				off += 3 + bsize;
			} while (!last);
			if (h.checksumFlag)
				off += 4;
		}
		/* The last byte must exist: else the frame is cut short. */
		if (read_at(fd, name, o, b, 1, off - 1) == -1)
			unz_fail(o, "%s: truncated zstd frame", name);
		/*
		 * A skippable frame (pzstd's size hints) goes with the frame
		 * after it: a range never ends between the two.
		 */
		if (h.frameType != ZSTD_skippableFrame)
			unz_piece_end(o, off);
	}
	if (o->npieces == 0 || o->pieces[o->npieces - 1] != off)
		unz_piece_end(o, off);
}
