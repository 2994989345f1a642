/*
 * resume.c - what a shard already has on disk: a partial download whose
 * checkpointed prefix is hashed again before it is resumed, or a complete
 * shard verified against the old manifest or the list without a request.
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "xfer.h"

/*
 * A run stopped between renaming the shard into place and removing its
 * checkpoint: the checkpoint says what the shard must hash to.  It stays
 * until the manifest records the shard (fetch.c hands it to the worker as
 * j->done_ckpt), or the shard proves not to be those bytes: a run stopped
 * while the shard is hashed again finds it as this one did.  One that
 * vouches for no whole shard of this URL is no evidence, and goes.
 */
static void
interrupted_finish(struct pskd_xfer *x, const struct pskd_buf *b)
{
	struct pskd_checkpoint c;
	char err[256];

	if (pskd_checkpoint_parse(&c, b->p, b->len, err, sizeof(err)) == 0) {
		if (strcmp(c.url, x->j->url) == 0 && c.expected_known &&
		    c.expected == c.verified) {
			memcpy(x->ref_sha, c.sha256, sizeof(c.sha256));
			x->ref_size = c.verified;
		}
		pskd_checkpoint_clear(&c);
	}
	if (x->ref_sha[0] == '\0')
		(void)unlink(x->ckpt);
}

/*
 * The checkpoint's prefix, re-hashed, must match; anything after it is cut
 * off.
 */
int
pskd_xfer_resume(struct pskd_xfer *x, const char *path)
{
	struct pskd_buf b = { NULL, 0, 0 };
	struct pskd_checkpoint c;
	char err[256], hex[PSKD_SHA256_HEX];
	struct stat st;
	int64_t n;
	int r = 0;

	if (pskd_slurp(x->ckpt, PSKD_CHECKPOINT_MAX, &b) == -1) {
		pskd_buf_free(&b);
		return 0;
	}
	if (lstat(x->part, &st) == -1 && errno == ENOENT &&
	    lstat(path, &st) == 0) {
		interrupted_finish(x, &b);
		pskd_buf_free(&b);
		return 0;
	}
	if (pskd_checkpoint_parse(&c, b.p, b.len, err, sizeof(err)) == -1) {
		pskd_get_warnx(x->g, "%s: %s; starting again", x->ckpt, err);
		goto out;
	}
	if (strcmp(c.url, x->j->url) != 0) {
		pskd_get_warnx(x->g, "%s: for another URL; starting again",
		    x->ckpt);
		goto out;
	}
	/* Never through a symlink planted at NAME.partial. */
	x->fd = open(x->part, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (x->fd == -1) {
		pskd_get_warnx(x->g, "%s: %s; starting again", x->part,
		    errno == ELOOP ? "a symbolic link" : strerror(errno));
		goto out;
	}
	if (fstat(x->fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    fcntl(x->fd, F_SETFL, 0) == -1) {
		pskd_get_warnx(x->g, "%s: not a regular file; starting again",
		    x->part);
		close(x->fd);
		x->fd = -1;
		goto out;
	}
	x->opened = 1;
	n = pskd_sha256_fd(&x->h, x->fd, c.verified);
	if (n >= 0 && (uint64_t)n == c.verified)
		pskd_sha256_peek(&x->h, hex);
	if (n < 0 || (uint64_t)n != c.verified || strcmp(hex, c.sha256) != 0) {
		pskd_get_warnx(x->g, "%s: the first %llu bytes are not the "
		    "ones checkpointed; starting again", x->part,
		    (unsigned long long)c.verified);
		close(x->fd);
		x->fd = -1;
		pskd_sha256_free(&x->h);
		pskd_sha256_init(&x->h);
		goto out;
	}
	if (ftruncate(x->fd, (off_t)c.verified) == -1 ||
	    lseek(x->fd, (off_t)c.verified, SEEK_SET) == -1) {
		pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->part,
		    strerror(errno)));
		r = -1;
		goto out;
	}
	x->have = x->vouched = x->flushed = c.verified;
	x->j->have = x->have;
	x->expected = c.expected;
	x->expected_known = c.expected_known;
	x->etag = c.etag;
	x->lastmod = c.last_modified;
	c.etag = c.last_modified = NULL;
	r = 1;
out:
	pskd_checkpoint_clear(&c);	/* parsed or zeroed by the parser */
	pskd_buf_free(&b);
	return r;
}

/* The size and sha256 the shard must have, from what we know of it. */
static const char *
reference(struct pskd_xfer *x, const struct pskd_shard *s, uint64_t *size,
    int *size_known)
{
	const struct pskd_get_job *j = x->j;
	const char *sha = NULL;

	*size = 0;
	*size_known = 0;
	if (s && s->status == PSKD_SHARD_COMPLETE &&
	    strcmp(s->url, j->url) == 0 && s->sha256[0]) {
		sha = s->sha256;
		*size = s->bytes;
		*size_known = 1;
	}
	if (sha == NULL && x->ref_sha[0]) {
		sha = x->ref_sha;
		*size = x->ref_size;
		*size_known = 1;
	}
	if (j->want_sha[0]) {
		if (sha && strcmp(sha, j->want_sha) != 0)
			return "";
		sha = j->want_sha;
	}
	if (j->want_size_known) {
		if (*size_known && *size != j->want_size)
			return "";
		*size = j->want_size;
		*size_known = 1;
	}
	return sha;
}

int
pskd_xfer_check_complete(struct pskd_xfer *x, const char *path)
{
	struct pskd_get_job *j = x->j;
	struct pskd_shard *s = pskd_manifest_find(&x->g->old, j->name);
	const char *sha;
	char hex[PSKD_SHA256_HEX];
	struct pskd_sha256 h;
	struct stat st;
	uint64_t size;
	int fd, size_known;
	int64_t n;

	sha = reference(x, s, &size, &size_known);
	if (sha == NULL)
		return -1;
	if (*sha == '\0')	/* the list and the manifest disagree */
		return 0;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		if (fd != -1)
			close(fd);
		return 0;
	}
	if (size_known && (uint64_t)st.st_size != size) {
		close(fd);
		return 0;
	}
	pskd_sha256_init(&h);
	n = pskd_sha256_fd(&h, fd, (uint64_t)st.st_size);
	close(fd);
	pskd_sha256_peek(&h, hex);
	pskd_sha256_free(&h);
	if (n != st.st_size || strcmp(hex, sha) != 0)
		return 0;
	j->out.bytes = (uint64_t)n;
	memcpy(j->out.sha256, hex, sizeof(hex));
	if (s && strcmp(s->url, j->url) == 0 && strcmp(s->sha256, hex) == 0) {
		j->out.etag = s->etag ? pskd_xstrdup(s->etag) : NULL;
		j->out.sha256_from = s->sha256_from;
		if (s->extra.len > 0)
			pskd_buf_add(&j->out.extra, s->extra.p, s->extra.len);
	}
	if (j->want_sha[0])
		j->out.sha256_from = pskd_sha256_source("list");
	return 1;
}
