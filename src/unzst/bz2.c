/*
 * bz2.c - bzip2 streams through libbz2.  libbz2 checks each block's CRC
 * and the stream's combined CRC, but says nothing of where blocks end in
 * the output, so a stream's bytes are held until its end; concatenated
 * streams (pbzip2, or cat) are pieces of their own.
 */
#include <errno.h>
#include <string.h>

#include <bzlib.h>

#include "unzst/unzst.h"

static bz_stream bs;
static int bs_ready;

static _Noreturn void
bz_error(struct unz_in *in, struct unz_out *o, int ret)
{
	switch (ret) {
	case BZ_MEM_ERROR:
		unz_fail(o, "%s: out of memory", in->r.name);
	case BZ_DATA_ERROR_MAGIC:
		unz_fail(o, "%s: byte %llu: not a bzip2 stream", in->r.name,
		    (unsigned long long)unz_offset(in));
	default:
		unz_fail(o, "%s: corrupt bzip2 data (%s)", in->r.name,
		    ret == BZ_DATA_ERROR ? "CRC or block data" : "libbz2");
	}
}

static void
stream_reset(struct unz_out *o)
{
	if (bs_ready)
		BZ2_bzDecompressEnd(&bs);
	memset(&bs, 0, sizeof(bs));
	if (BZ2_bzDecompressInit(&bs, 0, 0) != BZ_OK)
		unz_fail(o, "out of memory");
	bs_ready = 1;
}

void
unz_bzip2(struct unz_in *in, struct unz_out *o)
{
	const unsigned char *p;
	unsigned char *dst;
	size_t room;
	ssize_t got;
	int ret, inside = 0;

	unz_hold(o, 1);
	for (;;) {
		if (o->phase == UNZ_DONE)
			return;
		got = pskd_reader_peek(&in->r, inside ? 1 : 3, &p);
		if (got < 0)
			unz_fail(o, "%s: %s", in->r.name, strerror(errno));
		if (got == 0)
			break;
		if (!inside) {
			if (memcmp(p, "BZh", (size_t)got < 3 ? (size_t)got : 3))
				unz_fail(o, "%s: byte %llu: trailing garbage "
				    "after bzip2 data", in->r.name,
				    (unsigned long long)unz_offset(in));
			stream_reset(o);
			inside = 1;
		}
		bs.next_in = (char *)p;
		bs.avail_in = got > UINT32_MAX ? UINT32_MAX : (unsigned)got;
		do {
			room = unz_room(o, &dst);
			bs.next_out = (char *)dst;
			bs.avail_out = room > UINT32_MAX ? UINT32_MAX :
			    (unsigned)room;
			ret = BZ2_bzDecompress(&bs);
			unz_added(o, room - bs.avail_out);
			if (ret == BZ_STREAM_END)
				inside = 0;
			else if (ret != BZ_OK)
				bz_error(in, o, ret);
		} while (inside && (bs.avail_in > 0 || bs.avail_out == 0));
		pskd_reader_skip(&in->r, (size_t)got - bs.avail_in);
		if (!inside) {
			unz_commit(o, unz_offset(in));
			unz_piece_end(o, unz_offset(in));
		}
	}
	if (inside)
		unz_fail(o, "%s: truncated bzip2 stream", in->r.name);
}

void
unz_bzip2_free(void)
{
	if (bs_ready)
		BZ2_bzDecompressEnd(&bs);
	bs_ready = 0;
}
