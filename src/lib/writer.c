/* writer.c - buffered output through write(2) with a sticky error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"

void
pskd_writer_init(struct pskd_writer *w, int fd, const char *name)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->name = name;
	w->cap = pskd_bufsize();
	w->buf = pskd_xmalloc(w->cap);
	/* One call, not a page fault at a time (see pskd_prefault). */
	pskd_prefault(w->buf, w->cap);
	pskd_pipe_grow(fd);
}

int
pskd_writer_flush(struct pskd_writer *w)
{
	if (w->error)
		return -1;
	if (w->len > 0 && pskd_write_all(w->fd, w->buf, w->len) == -1) {
		w->error = errno;
		return -1;
	}
	w->len = 0;
	return 0;
}

void
pskd_writer_write(struct pskd_writer *w, const void *p, size_t n)
{
	w->total += n;
	if (w->error || n == 0)
		return;
	if (n <= w->cap - w->len) {
		memcpy(w->buf + w->len, p, n);
		w->len += n;
		return;
	}
	if (pskd_writer_flush(w) == -1)
		return;
	if (n >= w->cap) {
		if (pskd_write_all(w->fd, p, n) == -1)
			w->error = errno;
		return;
	}
	memcpy(w->buf, p, n);
	w->len = n;
}

void
pskd_writer_putc(struct pskd_writer *w, int c)
{
	unsigned char b = (unsigned char)c;

	if (w->len < w->cap && !w->error) {
		w->buf[w->len++] = b;
		w->total++;
		return;
	}
	pskd_writer_write(w, &b, 1);
}

void
pskd_writer_puts(struct pskd_writer *w, const char *s)
{
	pskd_writer_write(w, s, strlen(s));
}

void
pskd_writer_printf(struct pskd_writer *w, const char *fmt, ...)
{
	char small[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		pskd_writer_write(w, small, (size_t)n);
		return;
	}
	big = pskd_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	pskd_writer_write(w, big, (size_t)n);
	free(big);
}

void
pskd_writer_u64(struct pskd_writer *w, uint64_t v)
{
	char tmp[20];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	pskd_writer_write(w, tmp + i, sizeof(tmp) - i);
}

int
pskd_writer_close(struct pskd_writer *w)
{
	int r = pskd_writer_flush(w);

	free(w->buf);
	w->buf = NULL;
	w->cap = 0;
	if (close(w->fd) == -1 && r == 0) {
		w->error = errno;
		r = -1;
	}
	return r;
}

void
pskd_writer_finish(struct pskd_writer *w)
{
	if (pskd_writer_close(w) == -1) {
		errno = w->error;
		pskd_err(PSKD_EXIT_DATA, "%s", w->name);
	}
}
