/*
 * xz.c - .xz files (the .xz file format, version 1.1.0) through liblzma,
 * block by block: in the held mode a block's bytes are held until it
 * ended and its check (CRC32, CRC64 or SHA-256, or none) matched, so a
 * file written by xz -T with many blocks is checked, and goes out, a
 * block at a time.  A check this liblzma cannot verify is refused at the
 * stream header, before any of the stream's bytes.  The stream's index
 * and footer are checked against the blocks read.  A stream (with the
 * padding after it) is a piece.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>

#include "unzst/unzst.h"

static lzma_stream xs = LZMA_STREAM_INIT;

static _Noreturn void
xz_fail(const char *name, struct unz_out *o, lzma_ret ret, const char *what)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		unz_fail(o, "%s: out of memory", name);
	case LZMA_OPTIONS_ERROR:
		unz_fail(o, "%s: unsupported xz options (%s)", name, what);
	default:
		unz_fail(o, "%s: corrupt xz data (%s)", name, what);
	}
}

static _Noreturn void
xz_error(struct unz_in *in, struct unz_out *o, lzma_ret ret, const char *what)
{
	xz_fail(in->r.name, o, ret, what);
}

/* Exactly n bytes of input, or the stream is truncated. */
static const unsigned char *
need(struct unz_in *in, struct unz_out *o, size_t n)
{
	const unsigned char *p;

	unz_need(in, o, n, &p, "xz stream");
	return p;
}

/* Feed a block to xs until it says LZMA_STREAM_END. */
static void
run(struct unz_in *in, struct unz_out *o)
{
	const unsigned char *p;
	unsigned char *dst;
	size_t room, got;
	lzma_ret ret;

	do {
		got = unz_need(in, o, 1, &p, "xz stream");
		xs.next_in = p;
		xs.avail_in = got;
		do {
			room = unz_room(o, &dst);
			xs.next_out = dst;
			xs.avail_out = room;
			ret = lzma_code(&xs, LZMA_RUN);
			unz_added(o, room - xs.avail_out);
			if (ret != LZMA_OK && ret != LZMA_STREAM_END)
				xz_error(in, o, ret, "block");
		} while (ret == LZMA_OK && (xs.avail_in > 0 ||
		    xs.avail_out == 0));
		pskd_reader_skip(&in->r, got - xs.avail_in);
	} while (ret != LZMA_STREAM_END);
}

static void
free_filters(lzma_filter *f)
{
	size_t i;

	for (i = 0; f[i].id != LZMA_VLI_UNKNOWN; i++) {
		free(f[i].options);
		f[i].options = NULL;
	}
}

/* One block, its header first; adds it to the index hash. */
static void
block(struct unz_in *in, struct unz_out *o, const lzma_stream_flags *sf,
    lzma_index_hash *ih)
{
	lzma_filter filters[LZMA_FILTERS_MAX + 1];
	const unsigned char *p;
	lzma_block b;
	lzma_ret ret;

	memset(&b, 0, sizeof(b));
	b.version = 1;
	b.check = sf->check;
	b.filters = filters;
	p = need(in, o, 1);
	b.header_size = lzma_block_header_size_decode(p[0]);
	p = need(in, o, b.header_size);
	if ((ret = lzma_block_header_decode(&b, NULL, p)) != LZMA_OK)
		xz_error(in, o, ret, "block header");
	pskd_reader_skip(&in->r, b.header_size);
	ret = lzma_block_decoder(&xs, &b);
	if (ret != LZMA_OK) {
		free_filters(filters);
		xz_error(in, o, ret, "block header");
	}
	unz_hold(o, 1);
	run(in, o);
	free_filters(filters);
	unz_commit(o, unz_offset(in));
	if (lzma_index_hash_append(ih, lzma_block_unpadded_size(&b),
	    b.uncompressed_size) != LZMA_OK)
		unz_fail(o, "%s: corrupt xz data (index)", in->r.name);
}

/* The index: lzma_index_hash_decode checks it against the blocks read. */
static void
index_check(struct unz_in *in, struct unz_out *o, lzma_index_hash *ih)
{
	const unsigned char *p;
	size_t pos, got;
	lzma_ret ret;

	do {
		got = unz_need(in, o, 1, &p, "xz stream");
		pos = 0;
		ret = lzma_index_hash_decode(ih, p, &pos, got);
		pskd_reader_skip(&in->r, pos);
		if (ret != LZMA_OK && ret != LZMA_STREAM_END)
			xz_error(in, o, ret, "index");
	} while (ret != LZMA_STREAM_END);
}

/* One stream: header, blocks, index, footer, then its padding. */
static void
stream(struct unz_in *in, struct unz_out *o)
{
	lzma_stream_flags sf, ff;
	lzma_index_hash *ih;
	const unsigned char *p;
	lzma_ret ret;

	p = need(in, o, LZMA_STREAM_HEADER_SIZE);
	if ((ret = lzma_stream_header_decode(&sf, p)) != LZMA_OK)
		xz_error(in, o, ret, "stream header");
	/*
	 * An ID the format reserves (xz -dc warns and decodes unverified):
	 * bytes nothing checks are refused before they go out.
	 */
	if (!lzma_check_is_supported(sf.check))
		unz_fail(o, "%s: unsupported xz check (ID %u)", in->r.name,
		    (unsigned)sf.check);
	pskd_reader_skip(&in->r, LZMA_STREAM_HEADER_SIZE);
	if ((ih = lzma_index_hash_init(NULL, NULL)) == NULL)
		unz_fail(o, "out of memory");
	/* Blocks until the index indicator, a zero byte. */
	while (need(in, o, 1)[0] != 0)
		block(in, o, &sf, ih);
	index_check(in, o, ih);
	p = need(in, o, LZMA_STREAM_HEADER_SIZE);
	if ((ret = lzma_stream_footer_decode(&ff, p)) != LZMA_OK)
		xz_error(in, o, ret, "stream footer");
	if (lzma_stream_flags_compare(&sf, &ff) != LZMA_OK ||
	    ff.backward_size != lzma_index_hash_size(ih))
		unz_fail(o, "%s: corrupt xz data (stream footer)", in->r.name);
	pskd_reader_skip(&in->r, LZMA_STREAM_HEADER_SIZE);
	lzma_index_hash_end(ih, NULL);
}

void
unz_xz(struct unz_in *in, struct unz_out *o)
{
	static const unsigned char magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	const unsigned char *p;
	ssize_t got;

	for (;;) {
		if (o->phase == UNZ_DONE)
			return;
		stream(in, o);
		/* Stream padding: zero bytes, four at a time. */
		while ((got = pskd_reader_peek(&in->r, 4, &p)) > 0 &&
		    p[0] == 0) {
			if (got < 4 || pskd_get_le32(p) != 0)
				unz_fail(o, "%s: corrupt xz data (stream "
				    "padding)", in->r.name);
			pskd_reader_skip(&in->r, 4);
		}
		if (got < 0)
			unz_fail(o, "%s: %s", in->r.name, strerror(errno));
		unz_piece_end(o, unz_offset(in));
		if (got == 0)
			return;
		if (got < 6 || memcmp(p, magic, 6) != 0) {
			if (memcmp(p, magic, (size_t)got < 6 ? (size_t)got : 6)
			    == 0)
				unz_fail(o, "%s: truncated xz stream",
				    in->r.name);
			unz_fail(o, "%s: byte %llu: trailing garbage after xz "
			    "data", in->r.name,
			    (unsigned long long)unz_offset(in));
		}
	}
}

void
unz_xz_free(void)
{
	lzma_end(&xs);
}

/* The streams of a seekable .xz file, from its indexes (nothing decoded). */
void
unz_xz_pieces(int fd, const char *name, uint64_t size, struct unz_out *o)
{
	lzma_stream fs = LZMA_STREAM_INIT;
	lzma_index *idx = NULL;
	lzma_index_iter it;
	unsigned char *buf;
	uint64_t pos = 0;
	ssize_t got;
	lzma_ret ret;

	if (lzma_file_info_decoder(&fs, &idx, UINT64_MAX, size) != LZMA_OK)
		unz_fail(o, "out of memory");
	buf = pskd_xmalloc(PSKD_BUFSIZE);
	do {
		got = pread(fd, buf, PSKD_BUFSIZE, (off_t)pos);
		if (got < 0)
			unz_fail(o, "%s: %s", name, strerror(errno));
		fs.next_in = buf;
		fs.avail_in = (size_t)got;
		ret = lzma_code(&fs, got == 0 ? LZMA_FINISH : LZMA_RUN);
		pos += (uint64_t)got - fs.avail_in;
		if (ret == LZMA_SEEK_NEEDED)
			pos = fs.seek_pos;
		else if (ret == LZMA_BUF_ERROR || (got == 0 && ret == LZMA_OK))
			unz_fail(o, "%s: truncated xz stream", name);
		else if (ret != LZMA_OK && ret != LZMA_STREAM_END)
			xz_fail(name, o, ret, "index");
	} while (ret != LZMA_STREAM_END);
	free(buf);
	lzma_end(&fs);
	lzma_index_iter_init(&it, idx);
	while (!lzma_index_iter_next(&it, LZMA_INDEX_ITER_STREAM))
		unz_piece_end(o, it.stream.compressed_offset +
		    it.stream.compressed_size + it.stream.padding);
	lzma_index_end(idx, NULL);
}
