/* reader.c - buffered input through read(2), with line splitting. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"

void
pskd_reader_fdopen(struct pskd_reader *r, int fd, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->name = name;
	r->cap = r->base = pskd_bufsize();
	r->buf = pskd_xmalloc(r->cap);
	pskd_pipe_grow(fd);
}

int
pskd_reader_open(struct pskd_reader *r, const char *path)
{
	int fd;

	if (path == NULL || strcmp(path, "-") == 0) {
		pskd_reader_fdopen(r, 0, "<stdin>");
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return -1;
	pskd_reader_fdopen(r, fd, path);
	r->owned = 1;
	return 0;
}

void
pskd_reader_close(struct pskd_reader *r)
{
	if (r->owned)
		close(r->fd);
	free(r->buf);
	r->buf = NULL;
}

/*
 * Read more input after r->end, first moving the unconsumed bytes to the
 * front and growing the buffer when they fill it.  Returns bytes added,
 * 0 at EOF, -1 on error.
 */
static ssize_t
fill(struct pskd_reader *r)
{
	size_t grow;
	ssize_t n;

	if (r->eof)
		return 0;
	if (r->refill != NULL)
		r->refill(r->refill_arg);
	if (r->pos > 0 && (r->end == r->cap || r->pos == r->end ||
	    r->pos >= r->cap / 2)) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->end -= r->pos;
		r->pos = 0;
	}
	if (r->end == r->cap) {
		if (r->cap > SIZE_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		/* With max, no more than a line of max needs. */
		grow = r->cap * 2;
		if (r->max != 0 && r->max < SIZE_MAX - r->base &&
		    grow > r->max + r->base && r->cap < r->max + r->base)
			grow = r->max + r->base;
		r->buf = pskd_xrealloc(r->buf, grow);
		r->cap = grow;
	}
	/*
	 * A long input fills it all: fault it in at once (pskd_prefault);
	 * not what it grows by for a long line, which may stay unused.
	 */
	if (!r->faulted) {
		pskd_prefault(r->buf, r->cap);
		r->faulted = 1;
	}
	for (;;) {
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n >= 0)
			break;
		if (errno != EINTR)
			return -1;
	}
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return n;
}

/*
 * Read past the rest of a line cut at r->max, up to its newline.  0, or -1
 * on a read error.
 */
static int
skip_rest(struct pskd_reader *r)
{
	unsigned char *nl;
	ssize_t got;

	for (;;) {
		nl = memchr(r->buf + r->pos, '\n', r->end - r->pos);
		if (nl != NULL) {
			r->offset += (size_t)(nl - (r->buf + r->pos)) + 1;
			r->pos = (size_t)(nl - r->buf) + 1;
			r->skip = 0;
			return 0;
		}
		r->offset += r->end - r->pos;
		r->pos = r->end;
		if ((got = fill(r)) < 0)
			return -1;
		if (got == 0) {
			r->skip = 0;
			r->noeol = 1;
			return 0;
		}
	}
}

int
pskd_reader_line(struct pskd_reader *r, const unsigned char **line,
    size_t *len)
{
	unsigned char *nl;
	size_t scanned = 0, n;
	ssize_t got;

	if (r->skip && skip_rest(r) == -1)
		return -1;
	r->cut = 0;
	if (r->cap > PSKD_KEEP_GROWN && r->end - r->pos < r->base / 2) {
		/* Grown past the keep for a long line: back to its size at open. */
		if (r->refill != NULL)
			r->refill(r->refill_arg);
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->end -= r->pos;
		r->pos = 0;
		r->buf = pskd_xrealloc(r->buf, r->base);
		r->cap = r->base;
	}
	for (;;) {
		nl = memchr(r->buf + r->pos + scanned, '\n',
		    r->end - r->pos - scanned);
		if (nl != NULL)
			break;
		scanned = r->end - r->pos;
		if (r->max != 0 && scanned > r->max) {
			/* Too long: its first max bytes, the rest skipped. */
			*line = r->buf + r->pos;
			*len = r->max;
			r->offset += scanned;
			r->pos = r->end;
			r->lineno++;
			r->noeol = 0;
			r->cut = 1;
			r->skip = 1;
			return 1;
		}
		got = fill(r);
		if (got < 0)
			return -1;
		if (got == 0) {
			if (r->end == r->pos)
				return 0;
			/* A last line without a newline. */
			*line = r->buf + r->pos;
			*len = r->end - r->pos;
			r->offset += *len;
			r->pos = r->end;
			r->lineno++;
			r->noeol = 1;
			if (r->max != 0 && *len > r->max) {
				*len = r->max;
				r->cut = 1;
			}
			return 1;
		}
	}
	n = (size_t)(nl - (r->buf + r->pos));
	*line = r->buf + r->pos;
	*len = n;
	r->pos += n + 1;
	r->offset += n + 1;
	r->lineno++;
	r->noeol = 0;
	if (r->max != 0 && n > r->max) {
		*len = r->max;		/* held already, but over max all the same */
		r->cut = 1;
	}
	return 1;
}

ssize_t
pskd_reader_peek(struct pskd_reader *r, size_t n, const unsigned char **p)
{
	ssize_t got;

	while (r->end - r->pos < n) {
		if (r->refill != NULL)
			r->refill(r->refill_arg);
		if (r->pos > 0 && r->cap - r->pos < n) {
			memmove(r->buf, r->buf + r->pos, r->end - r->pos);
			r->end -= r->pos;
			r->pos = 0;
		}
		while (r->cap < n) {
			r->buf = pskd_xrealloc(r->buf, r->cap * 2);
			r->cap *= 2;
		}
		got = fill(r);
		if (got < 0)
			return -1;
		if (got == 0)
			break;
	}
	*p = r->buf + r->pos;
	return (ssize_t)(r->end - r->pos);
}

void
pskd_reader_skip(struct pskd_reader *r, size_t n)
{
	if (n > r->end - r->pos)
		n = r->end - r->pos;
	r->pos += n;
	r->offset += n;
}

ssize_t
pskd_reader_read(struct pskd_reader *r, void *dst, size_t n)
{
	unsigned char *q = dst;
	size_t done = 0, k;
	ssize_t got;

	while (done < n) {
		if (r->pos == r->end) {
			/* Large reads bypass the buffer. */
			if (n - done >= r->cap && !r->eof) {
				got = pskd_read_full(r->fd, q + done, n - done);
				if (got < 0)
					return -1;
				if ((size_t)got < n - done)
					r->eof = 1;
				done += (size_t)got;
				r->offset += (uint64_t)got;
				break;
			}
			r->pos = r->end = 0;
			got = fill(r);
			if (got < 0)
				return -1;
			if (got == 0)
				break;
		}
		k = r->end - r->pos;
		if (k > n - done)
			k = n - done;
		memcpy(q + done, r->buf + r->pos, k);
		r->pos += k;
		r->offset += k;
		done += k;
	}
	return (ssize_t)done;
}
