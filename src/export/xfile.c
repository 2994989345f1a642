/*
 * xfile.c - one file of an export.  Written, it goes through lib's
 * pskd_output, the one route of every output (a temporary renamed by
 * xfile_commit: never a half-written file under its name); checked, each
 * buffer is compared with the bytes of the file that is there.  Both hash
 * what passes, so the report is the same.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "export/export.h"

void
xfile_open(struct xfile *f, const char *path, int check, int late)
{
	memset(f, 0, sizeof(*f));
	f->path = pskd_xstrdup(path);
	f->check = check;
	if (check) {
		f->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (f->fd == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", path);
	} else {
		/* Never "-": every path is a prefix and a suffix. */
		pskd_output_open(&f->out, path, 1);
		f->fd = f->out.fd;
	}
	if (!late)
		f->hash = xhash_new();
	f->buf = xhash_buf();
}

/* pread n bytes at off, all of them or exit. */
static void
read_at(const struct xfile *f, unsigned char *p, size_t n, uint64_t off,
    const char *name)
{
	ssize_t got;
	size_t done = 0;

	while (done < n) {
		got = pread(f->fd, p + done, n - done, (off_t)(off + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", name);
		if (got == 0)
			pskd_fail_at(f->path, 0, "%llu bytes, shorter than "
			    "the export of this input",
			    (unsigned long long)(off + done));
		done += (size_t)got;
	}
}

static _Noreturn void
differs(const struct xfile *f, uint64_t off)
{
	pskd_fail_at(f->path, 0, "byte %llu differs from the export of "
	    "this input", (unsigned long long)off);
}

/*
 * --check: p[0..n) must be the bytes at off.  Bytes of the deferred range
 * (a count patched at the end) are kept, and compared by xfile_finish.
 */
static void
compare(struct xfile *f, const unsigned char *p, size_t n, uint64_t off)
{
	unsigned char *have = xhash_buf();
	uint64_t a;
	size_t i, j, k;

	for (i = 0; i < n; i += k) {
		k = n - i < XBUF ? n - i : XBUF;
		read_at(f, have, k, off + i, f->path);
		for (a = f->defer_off; a < f->defer_off + f->defer_len; a++)
			if (a >= off + i && a < off + i + k) {
				f->defer[a - f->defer_off] = p[a - off];
				have[a - off - i] = p[a - off];
			}
		if (memcmp(have, p + i, k) != 0) {
			for (j = 0; have[j] == p[i + j]; j++)
				;
			differs(f, off + i + j);
		}
	}
	xhash_putbuf(have);
}

void
xfile_defer(struct xfile *f, uint64_t off, size_t n)
{
	if (!f->check)
		return;
	f->defer_off = off;
	f->defer_len = n < sizeof(f->defer) ? n : sizeof(f->defer);
}

/*
 * Write-behind: the disk writes of each BEHIND bytes start as soon as they
 * are in the page cache (sync_file_range, which waits for nothing), so the
 * fsync of the commit waits for the last of them only, not for the file.
 */
#define BEHIND	(16 << 20)

static void
behind(struct xfile *f)
{
#ifdef SYNC_FILE_RANGE_WRITE
	off_t end;

	if (f->check || (end = lseek(f->fd, 0, SEEK_CUR)) - f->behind <
	    BEHIND)
		return;
	(void)sync_file_range(f->fd, f->behind, end - f->behind,
	    SYNC_FILE_RANGE_WRITE);
	f->behind = end;
#else
	(void)f;
#endif
}

/* The pending range, then the buffer, to the file. */
static void
flush(struct xfile *f)
{
	xfile_settle(f);
	if (f->len == 0)
		return;
	if (f->check)
		compare(f, f->buf, f->len, f->flushed);
	else if (pskd_write_all(f->fd, f->buf, f->len) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", f->path);
	f->flushed += f->len;
	behind(f);
	if (f->hash != NULL && f->len <= XHASH_SMALL)
		xhash_copy(f->hash, f->buf, f->len);	/* the buffer stays */
	else if (f->hash != NULL) {
		xhash_add(f->hash, f->buf, f->len);
		f->buf = xhash_buf();
	}
	f->len = 0;
}

unsigned char *
xfile_room(struct xfile *f, size_t n)
{
	if (XBUF - f->len < n)
		flush(f);
	return f->buf + f->len;
}

void
xfile_write(struct xfile *f, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	while (n > 0) {
		if (f->len == XBUF)
			flush(f);
		k = XBUF - f->len < n ? XBUF - f->len : n;
		memcpy(f->buf + f->len, s, k);
		f->len += k;
		s += k;
		n -= k;
	}
}

/*
 * The most of the input's bytes one write(2) takes.  Written from where
 * they lie, in the cache since the scan, they cost the kernel one copy, as
 * cat(1)'s do; copy_file_range(2) of the same bytes (8 MiB a call, file to
 * file) took more of the kernel's time: a GiB to Megatron files, removed
 * and synced before each run, medians of 8-10 alternated, 0.89-1.02 s
 * against 0.64-0.80 s so, cat+sync 0.61-0.75 s.  256 KiB or 4 MiB a
 * write were no better, 8 MiB worse.
 */
#define COPY_MAX	(1u << 20)

void
xfile_settle(struct xfile *f)
{
	if (f->cp_len == 0)
		return;
	if (pskd_write_all(f->fd, f->cp, f->cp_len) == -1) {
		/* Pages past the input's end now: it shrank since the scan. */
		if (errno == EFAULT)
			pskd_fail_at(f->src, 0, "the file shrank while it "
			    "was read");
		pskd_err(PSKD_EXIT_DATA, "%s", f->path);
	}
	behind(f);
	if (f->hash != NULL)
		xhash_borrow(f->hash, f->cp, f->cp_len);
	f->cp_len = 0;
}

void
xfile_copy(struct xfile *f, const unsigned char *p, size_t n, int stable)
{
	if (f->check || !stable) {
		xfile_write(f, p, n);
		return;
	}
	/* Buffered bytes, or bytes that do not follow, end the range. */
	if (f->len > 0 || (f->cp_len > 0 && p != f->cp + f->cp_len))
		flush(f);
	if (f->cp_len == 0)
		f->cp = p;
	f->cp_len += n;
	f->flushed += n;
	if (f->cp_len >= COPY_MAX)
		xfile_settle(f);
}

void
xfile_patch(struct xfile *f, uint64_t off, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	/* Bytes that were hashed change: hash the file again at the end. */
	if (off < f->flushed) {
		f->stale = 1;
		xfile_settle(f);
	}
	if (off < f->flushed) {
		k = f->flushed - off < n ? (size_t)(f->flushed - off) : n;
		if (f->check && off >= f->defer_off &&
		    off + k <= f->defer_off + f->defer_len)
			memcpy(f->defer + (off - f->defer_off), s, k);
		else if (f->check)
			compare(f, s, k, off);
		else if (pwrite(f->fd, s, k, (off_t)off) != (ssize_t)k)
			pskd_err(PSKD_EXIT_DATA, "%s", f->path);
		off += k;
		s += k;
		n -= k;
	}
	if (n > 0)
		memcpy(f->buf + (off - f->flushed), s, n);
}

int
xfile_readfd(struct xfile *f)
{
	int fd;

	flush(f);
	if (f->check)
		return f->fd;
	/* The temporary was opened write-only. */
	fd = open(f->out.of.tmp ? f->out.of.tmp : f->path, O_RDONLY |
	    O_CLOEXEC);
	if (fd == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", f->path);
	return fd;
}

void
xfile_read(struct xfile *f, int fd, void *p, size_t n, uint64_t off)
{
	ssize_t got;
	size_t done = 0;

	while (done < n) {
		got = pread(fd, (unsigned char *)p + done, n - done,
		    (off_t)(off + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			pskd_err(PSKD_EXIT_DATA, "%s", f->path);
		done += (size_t)got;
	}
}

/* The hash of a file patched while written: read it back. */
static void
hash_file(struct xfile *f)
{
	struct xhash *h = xhash_new();
	uint64_t off;
	size_t k;
	int fd = xfile_readfd(f);
	for (off = 0; off < f->flushed; off += k) {
		unsigned char *b = xhash_buf();

		k = f->flushed - off < XBUF ? (size_t)(f->flushed - off) : XBUF;
		xfile_read(f, fd, b, k, off);
		xhash_add(h, b, k);
	}
	if (fd != f->fd)
		close(fd);
	xhash_end(h, f->hex);
}

void
xfile_finish(struct xfile *f)
{
	unsigned char c;
	ssize_t got;

	flush(f);
	if (f->check) {
		do
			got = pread(f->fd, &c, 1, (off_t)f->flushed);
		while (got == -1 && errno == EINTR);
		if (got != 0)
			pskd_fail_at(f->path, 0, "longer than the export "
			    "of this input (%llu bytes)",
			    (unsigned long long)f->flushed);
		if (f->defer_len > 0) {
			unsigned char have[sizeof(f->defer)];
			size_t j;

			read_at(f, have, f->defer_len, f->defer_off, f->path);
			for (j = 0; j < f->defer_len; j++)
				if (have[j] != f->defer[j])
					differs(f, f->defer_off + j);
		}
	}
	if (f->hash != NULL) {
		xhash_end(f->hash, f->hex);
		f->hash = NULL;
	}
	if (f->hash == NULL && (f->stale || f->hex[0] == '\0'))
		hash_file(f);
	xhash_putbuf(f->buf);
	f->buf = NULL;
}

void
xfile_commit(struct xfile *f)
{
	/* The bytes went out through f's own buffers: none in this one. */
	struct pskd_writer none = { .fd = f->fd, .name = f->path };

	if (f->check) {
		close(f->fd);
		return;
	}
	pskd_output_close(&f->out, &none);
}
