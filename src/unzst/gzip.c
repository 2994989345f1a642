/*
 * gzip.c - gzip members (RFC 1952) through zlib.  A member's bytes are
 * held until zlib has checked its CRC-32 and length, at its end; every
 * member is a piece.
 */
#include <errno.h>
#include <string.h>

#include <zlib.h>

#include "unzst/unzst.h"

static z_stream zs;
static int zs_ready;

static _Noreturn void
gzip_error(struct unz_in *in, struct unz_out *o, int ret)
{
	if (ret == Z_MEM_ERROR)
		unz_fail(o, "%s: out of memory", in->r.name);
	unz_fail(o, "%s: corrupt gzip data (%s)", in->r.name,
	    zs.msg ? zs.msg : "unknown error");
}

void
unz_gzip(struct unz_in *in, struct unz_out *o)
{
	const unsigned char *p;
	unsigned char *dst;
	size_t room;
	ssize_t got;
	int ret, inside = 0;

	if (!zs_ready) {
		if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
			unz_fail(o, "out of memory");
		zs_ready = 1;
	}
	unz_hold(o, 1);
	for (;;) {
		if (o->phase == UNZ_DONE)
			return;
		got = pskd_reader_peek(&in->r, inside ? 1 : 2, &p);
		if (got < 0)
			unz_fail(o, "%s: %s", in->r.name, strerror(errno));
		if (got == 0)
			break;
		if (!inside) {
			/* Another member, or trailing garbage. */
			if (p[0] != 0x1f || (got > 1 && p[1] != 0x8b))
				unz_fail(o, "%s: byte %llu: trailing garbage "
				    "after gzip data", in->r.name,
				    (unsigned long long)unz_offset(in));
			inflateReset(&zs);
			inside = 1;
		}
		zs.next_in = (unsigned char *)p;
		zs.avail_in = got > UINT32_MAX ? UINT32_MAX : (uInt)got;
		/*
		 * Go on while input remains or the output filled up: inflate
		 * may hold decoded bytes back when it runs out of room.
		 */
		do {
			room = unz_room(o, &dst);
			zs.next_out = dst;
			zs.avail_out = room > UINT32_MAX ? UINT32_MAX :
			    (uInt)room;
			ret = inflate(&zs, Z_NO_FLUSH);
			unz_added(o, room - zs.avail_out);
			if (ret == Z_STREAM_END)
				inside = 0;
			else if (ret != Z_OK && ret != Z_BUF_ERROR)
				gzip_error(in, o, ret);
		} while (inside && (zs.avail_in > 0 || zs.avail_out == 0));
		pskd_reader_skip(&in->r, (size_t)got - zs.avail_in);
		if (!inside) {
			unz_commit(o, unz_offset(in));
			unz_piece_end(o, unz_offset(in));
		}
	}
	if (inside)
		unz_fail(o, "%s: truncated gzip member", in->r.name);
}

void
unz_gzip_free(void)
{
	if (zs_ready)
		inflateEnd(&zs);
	zs_ready = 0;
}
