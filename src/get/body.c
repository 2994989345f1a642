/*
 * body.c - a response's body into NAME.partial (or stdout), and the
 * checkpoints that vouch for what is on disk.
 *
 * Into the file the bytes move from curl's pipe with splice(2), without a
 * copy through this process, while hasher.c hashes them back from the page
 * cache on a second thread; a checkpoint vouches for the prefix hashed so
 * far, after an fdatasync.  Writeback is started every 8 MiB so that the
 * syncs wait only for what is still in flight.  To stdout the bytes are
 * read, written and hashed here (a pipe cannot be read back).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "xfer.h"

#define WRITEBACK	(8u << 20)	/* start writeback every 8 MiB */
#define SPLICE_MAX	(1u << 20)	/* bytes moved a call */

static void
set_have(struct pskd_xfer *x, uint64_t n)
{
	x->have = n;
	/* Read by the progress thread without a lock. */
	__atomic_store_n(&x->j->have, n, __ATOMIC_RELAXED);
	__atomic_store_n(&x->j->expected, x->expected_known ? x->expected :
	    0, __ATOMIC_RELAXED);
}

static void
restart_state(struct pskd_xfer *x)
{
	x->flushed = 0;
	pskd_sha256_free(&x->h);
	pskd_sha256_init(&x->h);
	set_have(x, 0);
	x->expected_known = 0;
	free(x->etag);
	free(x->lastmod);
	x->etag = x->lastmod = NULL;
	x->announced[0] = '\0';
	x->announced_by = NULL;
}

/* The record itself: it vouches for `verified` bytes hashing to hex. */
static int
write_checkpoint(struct pskd_xfer *x, uint64_t verified, const char *hex)
{
	struct pskd_checkpoint c;
	struct pskd_buf b = { NULL, 0, 0 };
	struct pskd_outfile o;
	int r = -1;

	memset(&c, 0, sizeof(c));
	c.url = x->j->url;
	c.verified = verified;
	c.expected = x->expected;
	c.expected_known = x->expected_known;
	memcpy(c.sha256, hex, PSKD_SHA256_HEX);
	c.etag = x->etag;
	c.last_modified = x->lastmod;
	pskd_checkpoint_encode(&c, &b);
	/* The temporaries' table of pskd_outfile is not for threads. */
	pthread_mutex_lock(&x->g->mu);
	if (pskd_unlink_odd(x->ckpt) == 0 &&
	    pskd_outfile_open(&o, x->ckpt) == 0) {
		if (pskd_write_all(o.fd, b.p, b.len) == 0)
			r = pskd_outfile_commit(&o);
		else
			pskd_outfile_abort(&o);
	}
	pthread_mutex_unlock(&x->g->mu);
	if (r == -1)
		pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->ckpt,
		    strerror(errno)));
	else
		x->vouched = verified;
	pskd_buf_free(&b);
	return r;
}

static int
sync_part(struct pskd_xfer *x)
{
	if (fdatasync(x->fd) == 0)
		return 0;
	pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->part,
	    strerror(errno)));
	return -1;
}

int
pskd_xfer_checkpoint(struct pskd_xfer *x)
{
	char hex[PSKD_SHA256_HEX];

	x->last_ckpt = pskd_get_now();
	if (x->fd == -1 || x->vouched == x->have)
		return 0;
	if (sync_part(x) == -1)
		return -1;
	pskd_sha256_peek(&x->h, hex);
	return write_checkpoint(x, x->have, hex);
}

int
pskd_xfer_rewind(struct pskd_xfer *x)
{
	restart_state(x);
	/* First vouch for nothing, then cut: a crash between is harmless. */
	x->vouched = UINT64_MAX;	/* differs from have: write it */
	if (pskd_xfer_checkpoint(x) == -1)
		return -1;
	if (ftruncate(x->fd, 0) == -1 || lseek(x->fd, 0, SEEK_SET) == -1) {
		pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->part,
		    strerror(errno)));
		return -1;
	}
	return 0;
}

/* Stream mode: n body bytes to stdout and the running hash. */
static int
store(struct pskd_xfer *x, const unsigned char *p, size_t n)
{
	if (x->skip > 0) {
		/* Bytes already out: hashed again, compared, not written. */
		size_t k = x->skip < n ? (size_t)x->skip : n;
		char hex[PSKD_SHA256_HEX];

		pskd_sha256_update(&x->h, p, k);
		set_have(x, x->have + k);
		x->skip -= k;
		p += k;
		n -= k;
		if (x->skip == 0) {
			pskd_sha256_peek(&x->h, hex);
			if (strcmp(hex, x->prefix_sha) != 0) {
				pskd_get_set_error(x->j, pskd_xstrdup("the "
				    "remote file changed during the "
				    "transfer"));
				return -1;
			}
		}
	}
	if (n == 0)
		return 0;
	if (pskd_write_all(1, p, n) == -1)
		pskd_err(PSKD_EXIT_DATA, "<stdout>");
	pskd_sha256_update(&x->h, p, n);
	set_have(x, x->have + n);
	return 0;
}

/* How many more bytes may come: past the list's size is a fault. */
static uint64_t
room(const struct pskd_xfer *x)
{
	const struct pskd_get_job *j = x->j;

	if (!j->want_size_known)
		return UINT64_MAX;
	return x->have >= j->want_size ? 0 : j->want_size - x->have;
}

static enum pskd_xfer_outcome
too_long(struct pskd_xfer *x)
{
	pskd_get_set_error(x->j, pskd_get_asprintf("more than the list's "
	    "%llu bytes", (unsigned long long)x->j->want_size));
	return XFER_FAIL;
}

/* Wait for the pipe: 0 readable, -1 stalled. */
static int
wait_pipe(struct pskd_xfer *x, int fd)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	int r;

	while ((r = poll(&pfd, 1, (int)(x->g->opt->stall * 1000))) == -1 &&
	    errno == EINTR)
		;
	if (r == 0) {
		x->why = "stalled";
		return -1;
	}
	return 0;
}

/* Stream mode: read, write to stdout, hash. */
static enum pskd_xfer_outcome
body_stream(struct pskd_xfer *x, int fd)
{
	enum pskd_xfer_outcome o = XFER_DONE;
	unsigned char *buf = pskd_xmalloc(PSKD_BUFSIZE);
	ssize_t got;

	for (;;) {
		if (wait_pipe(x, fd) == -1) {
			o = XFER_RETRY;
			break;
		}
		got = read(fd, buf, PSKD_BUFSIZE);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (store(x, buf, (size_t)got) == -1) {
			o = XFER_FAIL;
			break;
		}
		if (x->expected_known && x->have > x->expected) {
			x->why = "more bytes than the server announced";
			o = XFER_FAIL;
			break;
		}
	}
	free(buf);
	return o;
}

/* pwrite all n bytes at off; 0, or -1 with errno. */
static int
pwrite_all(int fd, const unsigned char *p, size_t n, uint64_t off)
{
	ssize_t w;

	while (n > 0) {
		w = pwrite(fd, p, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/*
 * Move up to n bytes from the pipe to the file at x->have: splice, or
 * read and write where the file system cannot splice.  Bytes moved, 0 at
 * the end of the body, -1 on an error (errno; EAGAIN: nothing yet).
 */
static ssize_t
move(struct pskd_xfer *x, int fd, size_t n, unsigned char **buf)
{
	loff_t off = (loff_t)x->have;
	ssize_t got;

	if (*buf == NULL) {
		got = splice(fd, NULL, x->fd, &off, n, SPLICE_F_MOVE |
		    SPLICE_F_NONBLOCK);
		if (got >= 0 || errno != EINVAL)
			return got;
		*buf = pskd_xmalloc(SPLICE_MAX);
	}
	got = read(fd, *buf, n < SPLICE_MAX ? n : SPLICE_MAX);
	if (got > 0 && pwrite_all(x->fd, *buf, (size_t)got,
	    x->have) == -1)
		return -1;
	return got;
}

/* A checkpoint of what the hasher has done, if the last one is old. */
static int
checkpoint_due(struct pskd_xfer *x, struct pskd_hasher *hs)
{
	char hex[PSKD_SHA256_HEX];
	uint64_t n;

	if (pskd_get_now() - x->last_ckpt < x->g->opt->ckpt_every)
		return 0;
	x->last_ckpt = pskd_get_now();
	n = pskd_hasher_peek(hs, hex);
	if (n == x->vouched)
		return 0;
	/* The sync covers every byte written, so the hashed ones too. */
	if (sync_part(x) == -1)
		return -1;
	return write_checkpoint(x, n, hex);
}

/* Into the file: splice, hash on the side, checkpoint now and then. */
static enum pskd_xfer_outcome
body_file(struct pskd_xfer *x, int fd)
{
	enum pskd_xfer_outcome o = XFER_DONE;
	struct pskd_hasher hs;
	unsigned char *buf = NULL;
	uint64_t left;
	ssize_t got;
	int e;

	pskd_hasher_start(&hs, x->fd, &x->h, x->have);
	for (;;) {
		left = room(x);
		/* One byte past the list's size is enough to know. */
		got = move(x, fd, left < SPLICE_MAX ? (size_t)left + 1 :
		    SPLICE_MAX, &buf);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN) {
			if (wait_pipe(x, fd) == -1) {
				o = XFER_RETRY;
				break;
			}
			continue;
		}
		if (got < 0) {
			e = errno;
			/* Only whole, synced bytes are ever vouched for. */
			(void)ftruncate(x->fd, (off_t)x->have);
			pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s",
			    x->part, strerror(e)));
			o = XFER_FAIL;
			break;
		}
		if (got == 0)
			break;
		if ((uint64_t)got > left) {
			/* An endless body: keep what fits, fail the shard. */
			(void)ftruncate(x->fd, (off_t)(x->have + left));
			set_have(x, x->have + left);
			pskd_hasher_feed(&hs, x->have);
			o = too_long(x);
			break;
		}
		set_have(x, x->have + (uint64_t)got);
		pskd_hasher_feed(&hs, x->have);
		/*
		 * curl writes a few KiB at a time: let the pipe fill a little
		 * so that each splice moves a lot (the pipe holds 1 MiB, so
		 * curl does not wait).
		 */
		if ((size_t)got < SPLICE_MAX / 4)
			pskd_get_sleep(0.001);
		if (x->expected_known && x->have > x->expected) {
			x->why = "more bytes than the server announced";
			o = XFER_RESTART;
			break;
		}
		if (x->have - x->flushed >= WRITEBACK) {
			(void)sync_file_range(x->fd, (off_t)x->flushed,
			    (off_t)(x->have - x->flushed),
			    SYNC_FILE_RANGE_WRITE);
			x->flushed = x->have;
		}
		if (checkpoint_due(x, &hs) == -1) {
			o = XFER_FAIL;
			break;
		}
	}
	if (pskd_hasher_finish(&hs) == -1) {
		pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->part,
		    strerror(errno)));
		o = XFER_FAIL;
	}
	(void)lseek(x->fd, (off_t)x->have, SEEK_SET);
	free(buf);
	return o;
}

enum pskd_xfer_outcome
pskd_xfer_body(struct pskd_xfer *x, int fd)
{
	return x->fd == -1 ? body_stream(x, fd) : body_file(x, fd);
}
