/*
 * out.c - pskd-unzst's output: decoded bytes go out 128 KiB at a time,
 * or in the held mode once their unit ended whole and checked, held in
 * memory up to a limit and then in an unlinked temporary file; a --range
 * keeps only the lines that start inside it.
 */
#define _GNU_SOURCE		/* O_TMPFILE, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "unzst/unzst.h"

void
unz_out_init(struct unz_out *o, int fd, const char *name, size_t max)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->name = name;
	/*
	 * Streamed bytes go out 128 KiB at a time, as zstd -dc writes them:
	 * a consumer downstream runs while the next ones decode.  1 MiB
	 * writes into a pipe ran 2-3x slower on a loaded 2-core machine
	 * (tests/bench/unzst.sh).  A held unit grows the buffer up to max.
	 */
	o->cap = UNZ_CHUNK;
	o->max = max < o->cap ? o->cap : max;
	o->buf = pskd_xmalloc(o->cap);
	o->spill = -1;
	o->phase = UNZ_ALL;
	o->end = UINT64_MAX;
}

void
unz_out_free(struct unz_out *o)
{
	free(o->buf);
	o->buf = NULL;
	if (o->spill != -1)
		close(o->spill);
	o->spill = -1;
	free(o->pieces);
	o->pieces = NULL;
}

static _Noreturn void
out_error(struct unz_out *o)
{
	pskd_err(PSKD_EXIT_DATA, "%s", o->name);
}

static void
put(struct unz_out *o, const unsigned char *p, size_t n)
{
	if (n > 0 && o->fd != -1 && pskd_write_all(o->fd, p, n) == -1)
		out_error(o);
}

/*
 * Checked bytes, through the --range filter: in UNZ_SKIP drop all up to
 * and with the first newline, in UNZ_TAIL write all up to and with it.
 */
static void
emit(struct unz_out *o, const unsigned char *p, size_t n)
{
	const unsigned char *nl;
	size_t k;

	while (n > 0) {
		switch (o->phase) {
		case UNZ_ALL:
		case UNZ_BODY:
			put(o, p, n);
			return;
		case UNZ_DONE:
			return;
		case UNZ_SKIP:
		case UNZ_TAIL:
			nl = memchr(p, '\n', n);
			k = nl ? (size_t)(nl - p) + 1 : n;
			if (o->phase == UNZ_TAIL)
				put(o, p, k);
			if (nl != NULL)
				o->phase = o->phase == UNZ_SKIP ? UNZ_BODY :
				    UNZ_DONE;
			p += k;
			n -= k;
			break;
		}
	}
}

static int
spill_open(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	if (fd != -1)
		return fd;
#endif
	path = pskd_xmalloc(strlen(dir) + 32);
	sprintf(path, "%s/.pskd-unzst.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd != -1)
		unlink(path);
	free(path);
	return fd;
}

/* The spilled bytes go out: sendfile when nothing needs looking at. */
static void
emit_spilled(struct unz_out *o)
{
	off_t off = 0;
	ssize_t got;
	size_t n;

	while ((uint64_t)off < o->spilled && o->phase != UNZ_DONE) {
		n = o->spilled - (uint64_t)off > (1u << 30) ? 1u << 30 :
		    (size_t)(o->spilled - (uint64_t)off);
		if (o->fd != -1 && (o->phase == UNZ_ALL ||
		    o->phase == UNZ_BODY)) {
			got = sendfile(o->fd, o->spill, &off, n);
			if (got > 0)
				continue;
			if (got == -1 && errno != EINVAL && errno != ENOSYS)
				out_error(o);
		}
		/* No sendfile to this output, or a line to find: read. */
		if (n > o->cap)
			n = o->cap;
		got = pread(o->spill, o->buf, n, off);
		if (got <= 0)
			pskd_errx(PSKD_EXIT_DATA, "temporary file: %s",
			    got == 0 ? "shorter than written" :
			    strerror(errno));
		emit(o, o->buf, (size_t)got);
		off += got;
	}
	o->spilled = 0;
	if (ftruncate(o->spill, 0) == -1)
		pskd_err(PSKD_EXIT_DATA, "temporary file");
}

/* Write the held bytes (also spilled ones), through the --range filter. */
static void
flush_held(struct unz_out *o)
{
	if (o->spilled > 0) {
		/* emit_spilled reuses buf: write the held bytes after it. */
		if (o->len > 0 && pskd_write_all(o->spill, o->buf, o->len) == -1)
			pskd_err(PSKD_EXIT_DATA, "temporary file");
		o->spilled += o->len;
		o->len = 0;
		emit_spilled(o);
	}
	emit(o, o->buf, o->len);
	o->len = 0;
}

void
unz_hold(struct unz_out *o, int hold)
{
	o->hold = hold && o->held;
	if (!o->hold)
		flush_held(o);
}

size_t
unz_room(struct unz_out *o, unsigned char **p)
{
	if (o->len == o->cap) {
		if (!o->hold || o->fd == -1) {
			flush_held(o);
		} else if (o->cap < o->max) {
			o->cap = o->cap * 2 > o->max ? o->max : o->cap * 2;
			o->buf = pskd_xrealloc(o->buf, o->cap);
		} else {
			/* Memory is full of unchecked bytes: spill them. */
			if (o->spill == -1 && (o->spill = spill_open()) == -1)
				pskd_err(PSKD_EXIT_DATA, "temporary file in %s",
				    getenv("TMPDIR") ? getenv("TMPDIR") :
				    "/tmp");
			if (pskd_write_all(o->spill, o->buf, o->len) == -1)
				pskd_err(PSKD_EXIT_DATA, "temporary file");
			o->spilled += o->len;
			o->len = 0;
		}
	}
	*p = o->buf + o->len;
	return o->cap - o->len;
}

void
unz_added(struct unz_out *o, size_t n)
{
	o->len += n;
}

void
unz_commit(struct unz_out *o, uint64_t off)
{
	/* A unit that ends past a --range's end straddles it. */
	if ((o->phase == UNZ_SKIP || o->phase == UNZ_BODY) && off > o->end)
		unz_fail(o, "%s: --range: byte %llu is not the end of a piece",
		    o->inname, (unsigned long long)o->end);
	flush_held(o);
}

void
unz_piece_end(struct unz_out *o, uint64_t off)
{
	if (o->pieces != NULL) {
		if (o->npieces == o->piecescap) {
			o->piecescap *= 2;
			o->pieces = pskd_xreallocarray(o->pieces, o->piecescap,
			    sizeof(*o->pieces));
		}
		o->pieces[o->npieces++] = off;
	}
	if ((o->phase != UNZ_SKIP && o->phase != UNZ_BODY) || off < o->end)
		return;
	if (off > o->end)
		unz_fail(o, "%s: --range: byte %llu is not the end of a piece",
		    o->inname, (unsigned long long)o->end);
	/* At the range's end: finish the line under way, if any. */
	o->phase = o->phase == UNZ_SKIP ? UNZ_DONE : UNZ_TAIL;
}

size_t
unz_need(struct unz_in *in, struct unz_out *o, size_t n,
    const unsigned char **p, const char *what)
{
	ssize_t got;

	got = pskd_reader_peek(&in->r, n, p);
	if (got < 0)
		unz_fail(o, "%s: %s", in->r.name, strerror(errno));
	if ((size_t)got < n)
		unz_fail(o, "%s: truncated %s", in->r.name, what);
	return (size_t)got;
}

void
unz_fail(struct unz_out *o, const char *fmt, ...)
{
	va_list ap;

	/*
	 * Streamed bytes go out as far as they decoded; held bytes, whose
	 * unit failed, do not.
	 */
	if (!o->hold)
		flush_held(o);
	o->len = 0;
	o->spilled = 0;
	va_start(ap, fmt);
	pskd_vwarnx(fmt, ap);
	va_end(ap);
	exit(PSKD_EXIT_DATA);
}
