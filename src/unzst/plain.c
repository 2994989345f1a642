/*
 * plain.c - a file in no compressed format, copied (-f).  Every byte
 * offset is the end of a piece, so a --range may end anywhere.
 */
#include <errno.h>
#include <string.h>

#include "unzst/unzst.h"

void
unz_copy(struct unz_in *in, struct unz_out *o)
{
	const unsigned char *p;
	unsigned char *dst;
	uint64_t off;
	size_t n, room;
	ssize_t got;

	unz_hold(o, 0);
	while (o->phase != UNZ_DONE) {
		got = pskd_reader_peek(&in->r, 1, &p);
		if (got < 0)
			unz_fail(o, "%s: %s", in->r.name, strerror(errno));
		if (got == 0)
			break;
		n = (size_t)got;
		off = unz_offset(in);
		if (off < o->end && o->end - off < n)
			n = (size_t)(o->end - off);
		room = unz_room(o, &dst);
		if (n > room)
			n = room;
		memcpy(dst, p, n);
		unz_added(o, n);
		pskd_reader_skip(&in->r, n);
		if (unz_offset(in) == o->end) {
			unz_commit(o, o->end);
			unz_piece_end(o, o->end);
		}
	}
	unz_commit(o, unz_offset(in));
}
