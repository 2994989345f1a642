/*
 * xfer.c - one attempt at a shard: start curl, judge the final response's
 * status and headers, take the body into NAME.partial (or stdout) while
 * hashing it, and write the checkpoints that vouch for what is on disk.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "curl.h"
#include "xfer.h"

#define WRITEBACK	(8u << 20)	/* start writeback every 8 MiB */

static void
restart_state(struct pskd_xfer *x)
{
	x->flushed = 0;
	pskd_sha256_free(&x->h);
	pskd_sha256_init(&x->h);
	x->have = 0;
	x->j->have = 0;
	x->expected_known = 0;
	free(x->etag);
	free(x->lastmod);
	x->etag = x->lastmod = NULL;
}

int
pskd_xfer_checkpoint(struct pskd_xfer *x)
{
	struct pskd_checkpoint c;
	struct pskd_buf b = { NULL, 0, 0 };
	struct pskd_outfile o;
	int r = -1;

	x->last_ckpt = pskd_get_now();
	if (x->fd == -1 || x->vouched == x->have)
		return 0;
	if (fdatasync(x->fd) == -1) {
		pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->part,
		    strerror(errno)));
		return -1;
	}
	memset(&c, 0, sizeof(c));
	c.url = x->j->url;
	c.verified = x->have;
	c.expected = x->expected;
	c.expected_known = x->expected_known;
	pskd_sha256_peek(&x->h, c.sha256);
	c.etag = x->etag;
	c.last_modified = x->lastmod;
	pskd_checkpoint_encode(&c, &b);
	/* The temporaries' table of pskd_outfile is not for threads. */
	pthread_mutex_lock(&x->g->mu);
	if (pskd_outfile_open(&o, x->ckpt) == 0) {
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
		x->vouched = x->have;
	pskd_buf_free(&b);
	return r;
}

/*
 * The old bytes are cut off, and the checkpoint vouches for none before a
 * new byte is written.
 */
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

/* Store n body bytes: to the shard (or stdout) and the running hash. */
static int
store(struct pskd_xfer *x, const unsigned char *p, size_t n)
{
	if (x->skip > 0) {
		/* Bytes already written: hashed again, compared, not written. */
		size_t k = x->skip < n ? (size_t)x->skip : n;
		char hex[PSKD_SHA256_HEX];

		pskd_sha256_update(&x->h, p, k);
		x->have += k;
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
	if (x->fd == -1) {
		if (pskd_write_all(1, p, n) == -1)
			pskd_err(PSKD_EXIT_DATA, "<stdout>");
	} else if (pskd_write_all(x->fd, p, n) == -1) {
		int e = errno;

		/* Only whole, synced chunks are ever vouched for. */
		(void)ftruncate(x->fd, (off_t)x->have);
		pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->part,
		    strerror(e)));
		return -1;
	}
	pskd_sha256_update(&x->h, p, n);
	x->have += n;
	x->j->have = x->have;
	x->j->expected = x->expected_known ? x->expected : 0;
	/*
	 * Start writing the bytes back now, without waiting: the disk works
	 * while the network does, and the fdatasync of a checkpoint or of
	 * the end waits only for what is still in flight.
	 */
	if (x->fd != -1 && x->have - x->flushed >= WRITEBACK) {
		(void)sync_file_range(x->fd, (off_t)x->flushed,
		    (off_t)(x->have - x->flushed), SYNC_FILE_RANGE_WRITE);
		x->flushed = x->have;
	}
	return 0;
}

/* A 200 to a request from byte `from` > 0. */
static enum pskd_xfer_outcome
whole_again(struct pskd_xfer *x, const struct pskd_http *hd, uint64_t from)
{
	if (x->fd != -1) {
		if (x->g->opt->resume_only)
			return XFER_RESTART;
		return pskd_xfer_rewind(x) == -1 ? XFER_FAIL : XFER_DONE;
	}
	/* stdout cannot rewind: drop what we have. */
	if (x->etag && hd->etag && strcmp(x->etag, hd->etag) != 0) {
		x->why = "the remote file changed during the transfer";
		return XFER_FAIL;
	}
	x->skip = from;
	pskd_sha256_peek(&x->h, x->prefix_sha);
	pskd_sha256_free(&x->h);
	pskd_sha256_init(&x->h);
	x->have = 0;
	return XFER_DONE;
}

/* What to make of the final response's status and headers. */
static enum pskd_xfer_outcome
judge(struct pskd_xfer *x, struct pskd_http *hd)
{
	enum pskd_xfer_outcome o;
	uint64_t from = x->have;
	int st = hd->status;

	if (st == 0) {				/* file:// */
		if (!hd->length_known)
			return XFER_FAIL;
		if ((from > 0 && x->lastmod && hd->lastmod &&
		    strcmp(x->lastmod, hd->lastmod) != 0) ||
		    from > hd->length) {
			x->why = "the remote file changed during the transfer";
			return XFER_RESTART;
		}
		hd->range_total = hd->length;
		hd->range_total_known = 1;
		st = from > 0 ? 206 : 200;
		hd->range_start = from;
		hd->range_known = 1;
	}
	if (st == 200) {
		if (from > 0 && (o = whole_again(x, hd, from)) != XFER_DONE)
			return o;
		x->expected_known = hd->length_known;
		x->expected = hd->length;
	} else if (st == 206) {
		if (!hd->range_known || hd->range_start != from) {
			x->why = "a range that starts elsewhere";
			return x->fd == -1 ? XFER_RETRY : XFER_RESTART;
		}
		if (hd->range_total_known) {
			if (x->expected_known && x->expected !=
			    hd->range_total) {
				x->why = "the remote file changed during the "
				    "transfer";
				return x->fd == -1 ? XFER_FAIL : XFER_RESTART;
			}
			x->expected_known = 1;
			x->expected = hd->range_total;
		}
	} else if (st == 416) {
		return XFER_RANGE_END;
	} else {
		x->retry_after = hd->retry_after;
		x->why = NULL;
		return st == 429 || st == 408 || st >= 500 ? XFER_RETRY :
		    XFER_FAIL;
	}
	if (x->j->want_size_known && x->expected_known &&
	    x->expected != x->j->want_size) {
		pskd_get_set_error(x->j, pskd_get_asprintf("the server "
		    "announces %llu bytes, the list says %llu",
		    (unsigned long long)x->expected,
		    (unsigned long long)x->j->want_size));
		return XFER_FAIL;
	}
	/*
	 * The validators of the bytes we now hold; one that could not be
	 * recorded as it is (not UTF-8, control characters) is none.
	 */
	if (hd->etag && !pskd_record_text_ok(hd->etag)) {
		free(hd->etag);
		hd->etag = NULL;
	}
	if (hd->lastmod && !pskd_record_text_ok(hd->lastmod)) {
		free(hd->lastmod);
		hd->lastmod = NULL;
	}
	if (hd->etag || hd->lastmod || from == 0) {
		free(x->etag);
		free(x->lastmod);
		x->etag = hd->etag ? pskd_xstrdup(hd->etag) : NULL;
		x->lastmod = hd->lastmod ? pskd_xstrdup(hd->lastmod) : NULL;
	}
	return XFER_DONE;
}

/* Why curl failed says what to do. */
static enum pskd_xfer_outcome
curl_failed(struct pskd_xfer *x, int code)
{
	x->why = pskd_curl_strerror(code);
	if (x->why == NULL)
		x->why = "curl failed";
	return pskd_curl_permanent(code) ? XFER_FAIL : XFER_RETRY;
}

/* Would n more bytes go past the list's size? */
static int
past_size(const struct pskd_xfer *x, size_t n)
{
	const struct pskd_get_job *j = x->j;

	return j->want_size_known && (x->have > j->want_size ||
	    n > j->want_size - x->have);
}

/* Read the body into the shard until curl ends, a fault or a stall. */
static enum pskd_xfer_outcome
body(struct pskd_xfer *x, int fd)
{
	const struct pskd_get_opt *opt = x->g->opt;
	struct pollfd pfd = { fd, POLLIN, 0 };
	double t0 = pskd_get_now(), lastp = 0;
	uint64_t got0 = x->have;
	enum pskd_xfer_outcome o = XFER_DONE;
	unsigned char *buf;
	ssize_t got;
	int r;

	buf = pskd_xmalloc(PSKD_BUFSIZE);
	for (;;) {
		r = poll(&pfd, 1, (int)(opt->stall * 1000));
		if (r == -1 && errno == EINTR)
			continue;
		if (r == 0) {
			x->why = "stalled";
			o = XFER_RETRY;
			break;
		}
		got = read(fd, buf, PSKD_BUFSIZE);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (past_size(x, (size_t)got)) {
			/* An endless body: keep what fits, fail the shard. */
			(void)store(x, buf, (size_t)(x->j->want_size -
			    x->have));
			pskd_get_set_error(x->j, pskd_get_asprintf("more than "
			    "the list's %llu bytes",
			    (unsigned long long)x->j->want_size));
			o = XFER_FAIL;
			break;
		}
		if (store(x, buf, (size_t)got) == -1) {
			o = XFER_FAIL;
			break;
		}
		if (x->expected_known && x->have > x->expected) {
			x->why = "more bytes than the server announced";
			o = x->fd == -1 ? XFER_FAIL : XFER_RESTART;
			break;
		}
		if (pskd_get_now() - x->last_ckpt >= opt->ckpt_every &&
		    pskd_xfer_checkpoint(x) == -1) {
			o = XFER_FAIL;
			break;
		}
		if (pskd_get_now() - lastp > 0.25) {
			lastp = pskd_get_now();
			pskd_get_progress(x->g, x->j, t0, got0, 0);
		}
	}
	free(buf);
	return o;
}

enum pskd_xfer_outcome
pskd_xfer_attempt(struct pskd_xfer *x, uint64_t *total, int *status)
{
	struct pskd_curl c;
	struct pskd_http hd;
	enum pskd_xfer_outcome o;
	int code, stalled;

	x->why = NULL;
	x->retry_after = -1;
	*status = 0;
	if (pskd_curl_start(&c, x->j->url, x->have, x->etag ? x->etag :
	    x->lastmod, "pskd-get/" PSKD_VERSION) == -1) {
		if (errno == ENOENT)
			pskd_err(PSKD_EXIT_DATA, "curl (the curl package)");
		/* This shard's curl could not start; the others go on. */
		pskd_get_set_error(x->j, pskd_get_asprintf("curl: %s",
		    strerror(errno)));
		return XFER_FAIL;
	}
	if (pskd_curl_headers(&c, &hd, x->g->opt->stall, &stalled) == -1) {
		code = pskd_curl_end(&c, stalled);
		pskd_http_free(&hd);
		if (stalled) {
			x->why = "stalled";
			return XFER_RETRY;
		}
		return curl_failed(x, code);
	}
	*status = hd.status;
	o = judge(x, &hd);
	if (o == XFER_RANGE_END)
		*total = hd.range_total_known ? hd.range_total : UINT64_MAX;
	pskd_http_free(&hd);
	if (o == XFER_DONE)
		o = body(x, c.body);
	code = pskd_curl_end(&c, o != XFER_DONE);
	if (o != XFER_DONE)
		return o;
	if (code != 0)
		return curl_failed(x, code);
	if (x->expected_known && x->have < x->expected) {
		x->why = "connection closed before the end";
		return XFER_RETRY;
	}
	return XFER_DONE;
}
