/*
 * fetch.c - one shard from start to end: pick up what is on disk, run
 * attempts until the bytes verify (backing off after transient faults,
 * restarting from zero when the server cannot resume), then rename the
 * shard into place.
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "xfer.h"

/*
 * A fresh NAME.partial: whatever was at that name (a stale file, or a
 * symlink someone planted) is removed, not written through.
 */
static int
open_part(struct pskd_xfer *x)
{
	if ((unlink(x->part) == -1 && errno != ENOENT) ||
	    (x->fd = open(x->part, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0666)) == -1) {
		pskd_get_set_error(x->j, pskd_get_asprintf("%s: %s", x->part,
		    strerror(errno)));
		return -1;
	}
	x->opened = 1;
	return 0;
}

/*
 * Did pskd-get make the file at NAME?  The manifest records it as a
 * complete shard, or a checkpoint outlived its rename.
 */
static int
ours(const struct pskd_xfer *x)
{
	const struct pskd_shard *s = pskd_manifest_find(&x->g->old,
	    x->j->name);

	return (s && s->status == PSKD_SHARD_COMPLETE) || x->ref_sha[0];
}

/*
 * Something is at NAME, with no partial download of it: complete (1), or
 * to be downloaded again (0) when it is ours to replace, else -1.
 */
static int
existing(struct pskd_xfer *x, const char *path)
{
	struct pskd_get_job *j = x->j;
	int r = pskd_xfer_check_complete(x, path);

	if (r == 1) {
		/* A checkpoint that outlived the rename goes after the save. */
		if (x->ref_sha[0]) {
			j->done_ckpt = x->ckpt;
			x->ckpt = NULL;
		}
		return 1;
	}
	if (x->g->opt->resume_only) {
		pskd_get_set_error(j, pskd_xstrdup(r == 0 ? "does not match "
		    "the manifest or the list (--resume-only)" : "no "
		    "checkpoint and no sha256 to verify it (--resume-only)"));
		return -1;
	}
	if (!ours(x) && !x->g->opt->force) {
		pskd_get_set_error(j, pskd_get_asprintf("%s: exists and "
		    "pskd-get did not make it (--force replaces it)", path));
		return -1;
	}
	if (r == 0)
		pskd_get_warnx(x->g, "%s: does not match its sha256; "
		    "downloading again", path);
	/* Known bad, or not ours and --force: it goes now. */
	if (unlink(path) == -1) {
		pskd_get_set_error(j, pskd_get_asprintf("%s: %s", path,
		    strerror(errno)));
		return -1;
	}
	/* The checkpoint vouched for bytes that are no longer there. */
	if (x->ref_sha[0])
		(void)unlink(x->ckpt);
	return 0;
}

/*
 * Before the first attempt: resume a partial download, or find the shard
 * complete.  1 complete, 0 go on, -1 failed.
 */
static int
prepare(struct pskd_xfer *x, const char *path)
{
	struct stat st;
	int r;

	r = pskd_xfer_resume(x, path);
	if (r == -1)
		return -1;
	if (r == 0 && lstat(path, &st) == 0) {
		if ((r = existing(x, path)) != 0)
			return r;
	} else if (r == 0 && x->g->opt->resume_only) {
		pskd_get_set_error(x->j, pskd_xstrdup("no partial download to "
		    "resume (--resume-only)"));
		return -1;
	}
	if (x->fd == -1 && open_part(x) == -1)
		return -1;
	return 0;
}

/* The sha256 expected, and who said so: the list, or a server. */
static const char *
expected_sha(const struct pskd_xfer *x, const char **by)
{
	if (x->j->want_sha[0]) {
		*by = "the list";
		return x->j->want_sha;
	}
	if (x->announced[0]) {
		*by = x->announced_by;
		return x->announced;
	}
	*by = NULL;
	return NULL;
}

/* Verified: size, then sha256.  0 ok, -1 size, -2 sha256. */
static int
verified(struct pskd_xfer *x, char hex[PSKD_SHA256_HEX])
{
	struct pskd_get_job *j = x->j;
	const char *by, *sha = expected_sha(x, &by);

	pskd_sha256_peek(&x->h, hex);
	if (x->expected_known && x->have != x->expected)
		return -1;
	if (j->want_size_known && x->have != j->want_size)
		return -1;
	if (sha && strcmp(hex, sha) != 0)
		return -2;
	return 0;
}

/*
 * Rename NAME.partial to NAME, never over a file: one that appeared
 * during the download is not pskd-get's to replace.
 */
static int
rename_new(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* A file system without RENAME_NOREPLACE: link fails on EEXIST. */
	if (link(from, to) == -1)
		return -1;
	return unlink(from);
}

/*
 * The shard into place.  First a checkpoint that vouches for every byte,
 * so that a run stopped after the rename, or a rename that fails, loses
 * nothing; the checkpoint goes once the manifest records the shard
 * (j->done_ckpt).
 */
static int
finish(struct pskd_xfer *x, const char *path, const char *hex)
{
	struct pskd_get_job *j = x->j;

	if (x->fd != -1) {
		x->expected = x->have;
		x->expected_known = 1;
		x->vouched = UINT64_MAX;	/* != have: written */
		if (pskd_xfer_checkpoint(x) == -1)
			return -1;
		if (close(x->fd) == -1) {
			pskd_get_set_error(j, pskd_get_asprintf("%s: %s",
			    x->part, strerror(errno)));
			x->fd = -1;
			return -1;
		}
		x->fd = -1;
		if (rename_new(x->part, path) == -1 ||
		    pskd_fsync_dir(path) == -1) {
			pskd_get_set_error(j, pskd_get_asprintf("%s: %s", path,
			    strerror(errno)));
			return -1;
		}
		j->done_ckpt = x->ckpt;
		x->ckpt = NULL;
	}
	j->out.bytes = x->have;
	memcpy(j->out.sha256, hex, PSKD_SHA256_HEX);
	j->out.etag = x->etag ? pskd_xstrdup(x->etag) : NULL;
	j->out.sha256_from = j->want_sha[0] ? pskd_sha256_source("list") :
	    pskd_sha256_source(x->announced_by);
	return 0;
}

static double
backoff(const struct pskd_get_opt *opt, unsigned tries, double retry_after)
{
	double d;

	if (retry_after >= 0)
		return retry_after;
	d = opt->retry_wait * pow(2, (double)tries - 1);
	if (d > 60)
		d = 60;
	/* Jitter: a fleet of clients does not come back in step. */
	return d * (0.5 + (double)(random() % 1000) / 1000.0);
}

/*
 * The bytes are all there: do they verify?  0 yes, 1 download again, -1
 * give up (j->error set).
 */
static int
check_end(struct pskd_xfer *x, char hex[PSKD_SHA256_HEX], int *restarts)
{
	struct pskd_get_job *j = x->j;
	const char *by, *sha = expected_sha(x, &by);
	int r = verified(x, hex);

	if (r == 0)
		return 0;
	if (r == -2 && ((*restarts)++ > 0 || x->fd == -1)) {
		pskd_get_set_error(j, pskd_get_asprintf("sha256 %s, %s says "
		    "%s%s", hex, by, sha, x->fd == -1 ? "" :
		    " (after a full restart)"));
		/* Known bad bytes: nothing to resume. */
		if (x->fd != -1) {
			(void)unlink(x->ckpt);
			(void)unlink(x->part);
		}
		return -1;
	}
	if (r == -2)
		pskd_get_warnx(x->g, "%s: sha256 mismatch; downloading again",
		    j->url);
	if (r == -1 && x->fd == -1) {
		pskd_get_set_error(j, pskd_get_asprintf("%llu bytes, expected "
		    "%llu", (unsigned long long)x->have, (unsigned long long)
		    (j->want_size_known ? j->want_size : x->expected)));
		return -1;
	}
	return 1;
}

/* The message of a permanent fault. */
static void
failed(struct pskd_xfer *x, int status)
{
	struct pskd_get_job *j = x->j;

	if (j->error != NULL)
		return;
	if (x->why)
		pskd_get_set_error(j, pskd_xstrdup(x->why));
	else if (status)
		pskd_get_set_error(j, pskd_get_asprintf("HTTP %d", status));
	else
		pskd_get_set_error(j, pskd_xstrdup("failed"));
}

/* Attempts until the bytes verify.  0, or -1 with j->error set. */
static int
transfer(struct pskd_xfer *x, char hex[PSKD_SHA256_HEX])
{
	const struct pskd_get_opt *opt = x->g->opt;
	struct pskd_get_job *j = x->j;
	uint64_t best = 0, total;
	unsigned tries = 0;
	int restarts = 0, status = 0, r;
	enum pskd_xfer_outcome o;

	x->last_ckpt = pskd_get_now();
	if (x->expected_known && x->have == x->expected)
		o = XFER_DONE;	/* all there: killed before the rename */
	else
		o = XFER_RETRY;
	for (;;) {
		if (o != XFER_DONE)
			o = pskd_xfer_attempt(x, &total, &status);
		if (o == XFER_EXPIRED) {
			/*
			 * A signed URL used again after a fault has expired:
			 * the list's URL gives a fresh one.  Not a fault of
			 * its own (the one before it was counted).
			 */
			o = XFER_RETRY;
			continue;
		}
		if (o == XFER_RANGE_END) {
			/* Nothing past our bytes: complete only if verified. */
			if (total == x->have && (!x->expected_known ||
			    x->expected == total)) {
				x->expected = total;
				x->expected_known = 1;
				o = XFER_DONE;
			} else
				o = XFER_RESTART;
		}
		if (o == XFER_DONE) {
			r = check_end(x, hex, &restarts);
			if (r <= 0)
				return r;
			o = XFER_RESTART;
		}
		if (o == XFER_RESTART) {
			if (x->fd == -1) {
				o = XFER_FAIL;
			} else if (opt->resume_only && x->have > 0) {
				pskd_get_set_error(j, pskd_get_asprintf("%s: "
				    "the server cannot resume it "
				    "(--resume-only)", j->url));
				return -1;
			} else {
				if (pskd_xfer_rewind(x) == -1)
					return -1;
				if (++tries > opt->retries + 1) {
					pskd_get_set_error(j, pskd_xstrdup(
					    "gave up: the server never "
					    "resumed"));
					return -1;
				}
				o = XFER_RETRY;
				continue;
			}
		}
		if (o == XFER_FAIL) {
			failed(x, status);
			(void)pskd_xfer_checkpoint(x);
			return -1;
		}
		/* XFER_RETRY: a transient fault. */
		if (pskd_xfer_checkpoint(x) == -1)
			return -1;
		if (x->have > best) {
			best = x->have;
			tries = 0;
		}
		if (++tries > opt->retries) {
			if (x->why)
				pskd_get_set_error(j, pskd_get_asprintf("%s "
				    "(after %u retries)", x->why,
				    opt->retries));
			else
				pskd_get_set_error(j, pskd_get_asprintf("HTTP "
				    "%d (after %u retries)", status,
				    opt->retries));
			return -1;
		}
		if (tries > 1 || x->why == NULL || status != 0)
			pskd_get_sleep(backoff(opt, tries, x->retry_after));
	}
}

int
pskd_get_fetch(struct pskd_get *g, struct pskd_get_job *j)
{
	struct pskd_xfer x;
	char *path = NULL, hex[PSKD_SHA256_HEX];
	int r;

	memset(&x, 0, sizeof(x));
	x.g = g;
	x.j = j;
	x.fd = -1;
	pskd_sha256_init(&x.h);
	if (!g->opt->stream) {
		path = pskd_get_asprintf("%s/%s", g->opt->dir, j->name);
		x.part = pskd_get_asprintf("%s%s", path, PSKD_PARTIAL);
		x.ckpt = pskd_get_asprintf("%s%s", path, PSKD_CHECKPOINT);
		r = prepare(&x, path);
	} else
		r = 0;
	if (r == 0)
		r = transfer(&x, hex) == 0 && finish(&x, path, hex) == 0 ?
		    1 : -1;
	if (r == 1) {
		j->out.status = PSKD_SHARD_COMPLETE;
		r = 0;
	} else {
		if (x.fd != -1)
			close(x.fd);
		/* Nothing worth resuming: leave no empty NAME.partial. */
		if (x.opened && x.have == 0) {
			(void)unlink(x.part);
			(void)unlink(x.ckpt);
		}
		j->out.status = PSKD_SHARD_FAILED;
		j->out.bytes = 0;
		j->out.sha256[0] = '\0';
	}
	pskd_sha256_free(&x.h);
	free(x.etag);
	free(x.lastmod);
	free(x.again_url);
	free(x.again_etag);
	free(x.again_lastmod);
	free(x.part);
	free(x.ckpt);
	free(path);
	return r;
}
