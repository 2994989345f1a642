/*
 * pskd-unzst - zstd or gzip input (sniffed by its magic bytes) to plain
 * bytes, like zstdcat.  Concatenated and skippable zstd frames (and so pzstd
 * files) and multi-member gzip files decode as one stream.  A truncated or
 * corrupt input is an error only after everything decodable was written,
 * so the output is always a prefix of the true output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_WINDOWLOG_MAX */
#include <zstd.h>
#include <zstd_errors.h>

#include "pskd.h"

static const char usage_text[] = "pskd-unzst [-f] [file ...]";

enum format { FMT_EMPTY, FMT_ZSTD, FMT_GZIP, FMT_OTHER };

static struct pskd_writer out;
static ZSTD_DCtx *zd;
static z_stream zs;
static int zs_ready;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -f, --force           copy input in neither format unchanged\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

/* Write what was decoded so far, then die with the cause. */
static _Noreturn void
fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static _Noreturn void
fail(const char *fmt, ...)
{
	va_list ap;

	if (pskd_writer_flush(&out) == -1) {
		errno = out.error;
		pskd_err(PSKD_EXIT_DATA, "%s", out.name);
	}
	va_start(ap, fmt);
	pskd_vwarnx(fmt, ap);
	va_end(ap);
	exit(PSKD_EXIT_DATA);
}

/* Room at the end of the output buffer, flushing it when full. */
static size_t
out_room(void)
{
	if (out.len == out.cap && pskd_writer_flush(&out) == -1) {
		errno = out.error;
		pskd_err(PSKD_EXIT_DATA, "%s", out.name);
	}
	return out.cap - out.len;
}

static void
out_added(size_t n)
{
	out.len += n;
	out.total += n;
}

static enum format
sniff(const unsigned char *p, size_t n, int force)
{
	static const unsigned char zmagic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	uint32_t m;

	if (n == 0)
		return FMT_EMPTY;
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return FMT_GZIP;
	if (n >= 4) {
		m = pskd_get_le32(p);
		if (m == ZSTD_MAGICNUMBER ||
		    (m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START)
			return FMT_ZSTD;
		return FMT_OTHER;
	}
	/*
	 * Too short for a whole magic number: with -f, data to copy; else
	 * a truncated magic number, when it is the start of one.
	 */
	if (force)
		return FMT_OTHER;
	if (n == 1 && p[0] == 0x1f)
		return FMT_GZIP;
	if (memcmp(p, zmagic, n) == 0)
		return FMT_ZSTD;
	if (n >= 2 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a &&
	    (n < 3 || p[2] == 0x4d))
		return FMT_ZSTD;
	return FMT_OTHER;
}

static void
zstd_error(const char *name, size_t ret, uint64_t off)
{
	switch (ZSTD_getErrorCode(ret)) {
	case ZSTD_error_prefix_unknown:
		fail("%s: byte %llu: not a zstd frame", name,
		    (unsigned long long)off);
	case ZSTD_error_checksum_wrong:
		fail("%s: zstd checksum mismatch (corrupt data)", name);
	case ZSTD_error_frameParameter_windowTooLarge:
		fail("%s: zstd window too large", name);
	case ZSTD_error_memory_allocation:
		fail("%s: out of memory", name);
	default:
		fail("%s: corrupt zstd data (%s)", name,
		    ZSTD_getErrorName(ret));
	}
}

/* One call of the decoder with as much output room as the buffer has. */
static size_t
zstd_step(struct pskd_reader *r, ZSTD_inBuffer *ib, size_t *made)
{
	ZSTD_outBuffer ob;
	size_t ret;

	ob.size = out_room();
	ob.dst = out.buf + out.len;
	ob.pos = 0;
	ret = ZSTD_decompressStream(zd, &ob, ib);
	out_added(ob.pos);
	if (ZSTD_isError(ret))
		zstd_error(r->name, ret, r->offset + ib->pos);
	*made = ob.pos;
	return ret;
}

static void
unzstd(struct pskd_reader *r)
{
	ZSTD_inBuffer ib;
	const unsigned char *p;
	size_t ret = 0, made;
	ssize_t got;

	if (zd == NULL) {
		if ((zd = ZSTD_createDCtx()) == NULL)
			pskd_errx(PSKD_EXIT_DATA, "out of memory");
		/* Frames made with --long=31 are legal; allow their window. */
		ZSTD_DCtx_setParameter(zd, ZSTD_d_windowLogMax,
		    ZSTD_WINDOWLOG_MAX);
	}
	ZSTD_DCtx_reset(zd, ZSTD_reset_session_only);
	while ((got = pskd_reader_peek(r, 1, &p)) > 0) {
		ib.src = p;
		ib.size = (size_t)got;
		ib.pos = 0;
		while (ib.pos < ib.size)
			ret = zstd_step(r, &ib, &made);
		pskd_reader_skip(r, ib.pos);
	}
	if (got < 0)
		fail("%s: %s", r->name, strerror(errno));
	/*
	 * At the end of input (ret is 0 after a whole frame), the decoder
	 * may still hold output back if it ran out of room: drain it.
	 */
	ib.src = NULL;
	ib.size = ib.pos = 0;
	made = 1;
	while (ret != 0 && made > 0)
		ret = zstd_step(r, &ib, &made);
	if (ret != 0)
		fail("%s: truncated zstd frame", r->name);
}

static void
gzip_error(const char *name, int ret)
{
	if (ret == Z_MEM_ERROR)
		fail("%s: out of memory", name);
	fail("%s: corrupt gzip data (%s)", name, zs.msg ? zs.msg :
	    "unknown error");
}

static void
ungzip(struct pskd_reader *r)
{
	const unsigned char *p;
	size_t room;
	ssize_t got;
	int ret, ended = 0;

	if (!zs_ready) {
		if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
			pskd_errx(PSKD_EXIT_DATA, "out of memory");
		zs_ready = 1;
	} else
		inflateReset(&zs);
	for (;;) {
		got = pskd_reader_peek(r, ended ? 2 : 1, &p);
		if (got < 0)
			fail("%s: %s", r->name, strerror(errno));
		if (got == 0)
			break;
		if (ended) {
			/* Another member, or trailing garbage. */
			if (p[0] != 0x1f || (got > 1 && p[1] != 0x8b))
				fail("%s: byte %llu: trailing garbage after "
				    "gzip data", r->name,
				    (unsigned long long)r->offset);
			inflateReset(&zs);
			ended = 0;
		}
		zs.next_in = (unsigned char *)p;
		zs.avail_in = got > UINT32_MAX ? UINT32_MAX : (uInt)got;
		/*
		 * Go on while input remains or the output filled up: inflate
		 * may hold decoded bytes back when it runs out of room.
		 */
		do {
			room = out_room();
			zs.next_out = out.buf + out.len;
			zs.avail_out = room > UINT32_MAX ? UINT32_MAX :
			    (uInt)room;
			ret = inflate(&zs, Z_NO_FLUSH);
			out_added(room - zs.avail_out);
			if (ret == Z_STREAM_END)
				ended = 1;
			else if (ret != Z_OK && ret != Z_BUF_ERROR)
				gzip_error(r->name, ret);
		} while (!ended && (zs.avail_in > 0 || zs.avail_out == 0));
		pskd_reader_skip(r, (size_t)got - zs.avail_in);
	}
	if (!ended)
		fail("%s: truncated gzip member", r->name);
}

static void
copy(struct pskd_reader *r)
{
	const unsigned char *p;
	ssize_t got;

	while ((got = pskd_reader_peek(r, 1, &p)) > 0) {
		pskd_writer_write(&out, p, (size_t)got);
		pskd_reader_skip(r, (size_t)got);
		if (out.error) {
			errno = out.error;
			pskd_err(PSKD_EXIT_DATA, "%s", out.name);
		}
	}
	if (got < 0)
		fail("%s: %s", r->name, strerror(errno));
}

static void
unzst(const char *path, int force)
{
	struct pskd_reader r;
	const unsigned char *p;
	ssize_t got;

	if (pskd_reader_open(&r, path) == -1)
		fail("%s: %s", path, strerror(errno));
	got = pskd_reader_peek(&r, 4, &p);
	if (got < 0)
		fail("%s: %s", r.name, strerror(errno));
	switch (sniff(p, (size_t)got, force)) {
	case FMT_EMPTY:
		break;
	case FMT_ZSTD:
		unzstd(&r);
		break;
	case FMT_GZIP:
		ungzip(&r);
		break;
	case FMT_OTHER:
		if (!force)
			fail("%s: not in zstd or gzip format", r.name);
		copy(&r);
		break;
	}
	pskd_reader_close(&r);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, force = 0, i;

	pskd_setprogname(argv[0]);
	while ((c = getopt_long(argc, argv, "f", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': force = 1; break;
		case 'h': usage(); break;
		case 'V': puts("pskd-unzst " PSKD_VERSION); return 0;
		default: pskd_usage_error(usage_text);
		}
	}
	argc -= optind;
	argv += optind;

	pskd_writer_init(&out, 1, "<stdout>");
	if (argc == 0)
		unzst(NULL, force);
	for (i = 0; i < argc; i++)
		unzst(argv[i], force);
	pskd_writer_finish(&out);
	ZSTD_freeDCtx(zd);
	if (zs_ready)
		inflateEnd(&zs);
	return 0;
}
