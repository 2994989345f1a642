/*
 * pskd-get - resumable, verified shard downloads through the curl program.
 *
 * Each shard is fetched into DIR/NAME.partial by a curl process spawned
 * with an argument vector; the body comes from curl's stdout, the headers
 * from a second pipe (--dump-header).  Every byte is hashed as it lands;
 * NAME.partial.json vouches for a prefix only after the bytes were
 * fdatasync'd, and a restart re-hashes that prefix before it resumes with
 * Range and If-Range.  A shard is complete when its size (and sha256, when
 * the list gives one) is verified; then it is renamed to NAME and the
 * manifest and its lock are rewritten atomically.
 */
#define _GNU_SOURCE
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "pskd.h"
#include "get/curl.h"
#include "get/manifest.h"
#include "get/sha256.h"

static const char usage_text[] =
    "pskd-get [-Pq] [-d dir] [-j jobs] [--checkpoint-interval s] "
    "[--resume-only]\n"
    "                [--retries n] [--retry-wait s] [--stall-timeout s] "
    "[list ...]\n"
    "       pskd-get [-Pq] [-d dir] [-s sha256] -u url\n"
    "       pskd-get --verify [-d dir]\n"
    "       pskd-get [-d dir] --annotate file key=json ...";

static struct {
	const char	*dir;		/* -d */
	int		 stream;	/* -u without -d: bytes to stdout */
	long		 jobs;		/* -j */
	int		 resume_only;
	long		 retries;
	double		 retry_wait;
	double		 stall;		/* seconds without a byte */
	double		 ckpt_every;	/* seconds between checkpoints */
} opt = { NULL, 0, 1, 0, 5, 1.0, 60.0, 2.0 };

struct job {
	char		*url;
	char		*name;
	char		 want_sha[PSKD_SHA256_HEX];	/* from the list */
	uint64_t	 want_size;
	int		 want_size_known;
	int		 kept;		/* -u -d: another shard of the manifest */
	struct pskd_shard out;	/* what the manifest says of it */
	char		*error;		/* why it failed */
	uint64_t	 have;		/* progress */
	uint64_t	 expected;
};

static struct job *jobs;
static size_t njobs, nextjob;
static struct pskd_manifest old;	/* the folder's manifest before */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t done_bytes;		/* of finished shards, for progress */
static size_t ndone;

/* ---- small helpers ---------------------------------------------------- */

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -d, --cache-dir DIR         the shard folder (default .)\n"
	    "  -j, --jobs N                shards at once (default 1)\n"
	    "  -P, --progress              progress even when stderr is not "
	    "a terminal\n"
	    "  -q, --quiet                 no progress\n"
	    "  -s, --sha256 HEX            the expected sha256 of -u's URL\n"
	    "  -u, --url URL               fetch one URL\n"
	    "      --checkpoint-interval S seconds between checkpoints "
	    "(default 2)\n"
	    "      --resume-only           never start a shard from byte 0\n"
	    "      --retries N             transient faults in a row before "
	    "a shard fails (default 5)\n"
	    "      --retry-wait S          first backoff (default 1)\n"
	    "      --stall-timeout S       seconds without data that count "
	    "as a fault (default 60)\n"
	    "      --verify                check the folder against its "
	    "manifest\n"
	    "      --annotate FILE         add key=json members to FILE's "
	    "shard record\n"
	    "      --help                  this text\n"
	    "      --version               the version\n");
	exit(0);
}

static char *
xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		pskd_errx(PSKD_EXIT_DATA, "out of memory");
	return s;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
sleep_for(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static double
parse_seconds(const char *name, const char *s, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !(v >= 0) || v > max) {
		pskd_warnx("%s: '%s' is not a number of seconds from 0 to %g",
		    name, s, max);
		pskd_usage_error(usage_text);
	}
	return v;
}

static long
parse_count(const char *name, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v < min ||
	    v > max) {
		pskd_warnx("%s: '%s' is not a whole number from %ld to %ld",
		    name, s, min, max);
		pskd_usage_error(usage_text);
	}
	return v;
}

static void
set_error(struct job *j, char *msg)
{
	free(j->error);
	j->error = msg;
}

/* ---- the list --------------------------------------------------------- */

static int
scheme_ok(const char *url)
{
	return strncasecmp(url, "http://", 7) == 0 ||
	    strncasecmp(url, "https://", 8) == 0 ||
	    strncasecmp(url, "file://", 7) == 0;
}

static int
name_taken(const char *name, size_t upto)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (jobs[i].name && strcmp(jobs[i].name, name) == 0)
			return 1;
	return 0;
}

/*
 * A safe file name from the last segment of the URL's path: characters
 * outside [A-Za-z0-9._+-] become '_', leading dots too; names the folder
 * keeps for itself get a '_'; the nth shard of a name gets "-n" before its
 * first dot.
 */
static char *
shard_name(const char *url, size_t index)
{
	const char *p = strstr(url, "://"), *end, *seg;
	char base[PSKD_NAME_MAX + 1], *name, *dot;
	size_t n = 0, k;

	p = p ? p + 3 : url;
	end = p + strcspn(p, "?#");
	seg = end;
	while (seg > p && seg[-1] != '/')
		seg--;
	if (seg == p)			/* "http://host": no path at all */
		seg = end;
	for (; seg < end && n < PSKD_NAME_MAX - 16; seg++) {
		char c = *seg;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		    c == '-' || c == '+'))
			c = '_';
		if (c == '.' && n == 0)
			c = '_';
		base[n++] = c;
	}
	base[n] = '\0';
	if (n == 0)
		snprintf(base, sizeof(base), "index");
	else if (!pskd_shard_name_ok(base))
		strcat(base, "_");
	name = pskd_xstrdup(base);
	for (k = 2; name_taken(name, index) || !pskd_shard_name_ok(name);
	    k++) {
		free(name);
		dot = strchr(base, '.');
		if (dot == NULL)
			name = xasprintf("%s-%zu", base, k);
		else
			name = xasprintf("%.*s-%zu%s", (int)(dot - base),
			    base, k, dot);
	}
	return name;
}

static struct job *
add_job(void)
{
	static size_t cap;

	if (njobs == cap) {
		cap = cap ? 2 * cap : 64;
		jobs = pskd_xreallocarray(jobs, cap, sizeof(*jobs));
	}
	memset(&jobs[njobs], 0, sizeof(jobs[0]));
	return &jobs[njobs++];
}

static void
read_list(const char *path)
{
	struct pskd_reader r;
	const unsigned char *line;
	char *copy, *f[4], *save, *end, *tok;
	size_t len, nf;
	struct job *j;
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (memchr(line, '\0', len) != NULL)
			pskd_errx(PSKD_EXIT_DATA, "%s:%llu: a NUL byte",
			    r.name, (unsigned long long)r.lineno);
		copy = pskd_xstrndup((const char *)line, len);
		nf = 0;
		for (tok = strtok_r(copy, " \t\r", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t\r", &save))
			if (nf < 4)
				f[nf++] = tok;
		if (nf == 0 || f[0][0] == '#') {
			free(copy);
			continue;
		}
		if (nf > 3)
			pskd_errx(PSKD_EXIT_DATA, "%s:%llu: expected URL "
			    "[SHA256 [SIZE]]", r.name,
			    (unsigned long long)r.lineno);
		if (!scheme_ok(f[0]))
			pskd_errx(PSKD_EXIT_DATA, "%s:%llu: not an http, https "
			    "or file URL", r.name,
			    (unsigned long long)r.lineno);
		j = add_job();
		j->url = pskd_xstrdup(f[0]);
		if (nf > 1 && strcmp(f[1], "-") != 0) {
			if (!pskd_sha256_valid(f[1], strlen(f[1])))
				pskd_errx(PSKD_EXIT_DATA, "%s:%llu: '%s' is "
				    "not a sha256 (64 hex digits)", r.name,
				    (unsigned long long)r.lineno, f[1]);
			for (len = 0; len < 64; len++)
				j->want_sha[len] = (char)(f[1][len] | 0x20);
			j->want_sha[64] = '\0';
		}
		if (nf > 2) {
			errno = 0;
			j->want_size = strtoull(f[2], &end, 10);
			if (f[2][0] < '0' || f[2][0] > '9' || *end != '\0' ||
			    errno != 0)
				pskd_errx(PSKD_EXIT_DATA, "%s:%llu: '%s' is "
				    "not a size in bytes", r.name,
				    (unsigned long long)r.lineno, f[2]);
			j->want_size_known = 1;
		}
		free(copy);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r.name);
	pskd_reader_close(&r);
}

/* ---- the manifest ----------------------------------------------------- */

static void
load_old_manifest(void)
{
	struct pskd_buf b = { NULL, 0, 0 };
	char *path = xasprintf("%s/%s", opt.dir, PSKD_MANIFEST);
	char err[256];
	uint64_t line;

	pskd_manifest_init(&old);
	if (pskd_file_slurp(path, &b) == -1) {
		if (errno != ENOENT)
			pskd_err(PSKD_EXIT_DATA, "%s", path);
	} else if (pskd_manifest_parse(&old, b.p, b.len, err, sizeof(err),
	    &line) == -1) {
		pskd_warnx("%s:%llu: %s; writing a new one", path,
		    (unsigned long long)line, err);
		pskd_manifest_free(&old);
	}
	pskd_buf_free(&b);
	free(path);
}

static void
copy_shard(struct pskd_shard *to, const struct pskd_shard *from)
{
	to->url = pskd_xstrdup(from->url);
	to->file = pskd_xstrdup(from->file);
	to->bytes = from->bytes;
	memcpy(to->sha256, from->sha256, sizeof(to->sha256));
	to->etag = from->etag ? pskd_xstrdup(from->etag) : NULL;
	to->status = from->status;
	pskd_buf_add(&to->extra, from->extra.p, from->extra.len);
}

/* Rewrite manifest and lock from the jobs; the caller holds mu. */
static void
save_manifest(void)
{
	struct pskd_manifest m;
	size_t i;

	pskd_manifest_init(&m);
	for (i = 0; i < njobs; i++) {
		struct pskd_shard *s = pskd_manifest_add(&m);

		copy_shard(s, &jobs[i].out);
	}
	if (pskd_manifest_save(&m, opt.dir) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s/%s", opt.dir, PSKD_MANIFEST);
	pskd_manifest_free(&m);
}

/* ---- progress ----------------------------------------------------------- */

static void
human(char *out, size_t n, double v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(out, n, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static void
progress(struct job *j, double t0, uint64_t got0, int final)
{
	char a[32], b[32], c[32], tot[32], of[64] = "", eta[32] = "";
	double t = now(), rate;
	uint64_t all = 0;
	size_t i;

	if (!pskd_progress_enabled())
		return;
	pthread_mutex_lock(&mu);
	for (i = 0; i < njobs; i++)
		if (jobs[i].out.status == PSKD_SHARD_PENDING)
			all += jobs[i].have;
	all += done_bytes;
	rate = t > t0 && j->have > got0 ? (double)(j->have - got0) / (t - t0) :
	    0;
	human(a, sizeof(a), (double)j->have);
	human(b, sizeof(b), rate);
	human(c, sizeof(c), (double)all);
	if (j->expected > 0) {
		human(tot, sizeof(tot), (double)j->expected);
		snprintf(of, sizeof(of), " of %s (%.0f%%)", tot,
		    100.0 * (double)j->have / (double)j->expected);
	}
	if (j->expected > j->have && rate > 0)
		snprintf(eta, sizeof(eta), ", ETA %.0f s",
		    (double)(j->expected - j->have) / rate);
	pskd_progress(final, "%s: %s%s, %s/s%s; %zu/%zu shards done, %s "
	    "in all", j->name, a, of, b, eta, ndone, njobs, c);
	pthread_mutex_unlock(&mu);
}

/* ---- one transfer: curl, headers, body ---------------------------------- */

#define WRITEBACK	(8u << 20)	/* start writeback every 8 MiB */

enum outcome {
	T_DONE,		/* curl finished the response */
	T_RETRY,	/* a transient fault: back off, resume */
	T_RESTART,	/* start again from byte 0, at once */
	T_FAIL,		/* a permanent fault */
	T_RANGE_END	/* 416: nothing past our bytes */
};

struct xfer {
	struct job	*j;
	int		 fd;		/* NAME.partial; -1 for stdout */
	char		*part, *ckpt;
	struct pskd_sha256 h;		/* of bytes [0, have) */
	uint64_t	 have;		/* bytes written and hashed */
	uint64_t	 vouched;	/* bytes the checkpoint on disk covers */
	uint64_t	 flushed;	/* bytes whose writeback was started */
	uint64_t	 expected;
	int		 expected_known;
	char		*etag, *lastmod;
	double		 last_ckpt;
	double		 retry_after;	/* from the last response, or -1 */
	const char	*why;		/* the last fault, for messages */
	uint64_t	 skip;		/* stream mode: bytes to drop */
	char		 prefix_sha[PSKD_SHA256_HEX];	/* of the bytes out */
	char		 ref_sha[PSKD_SHA256_HEX];	/* of a whole shard */
	uint64_t	 ref_size;	/* from an interrupted finish */
};

static void
restart_state(struct xfer *x)
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

/* Write the checkpoint: data fdatasync'd first, then the record. */
static int
checkpoint(struct xfer *x)
{
	struct pskd_checkpoint c;
	struct pskd_buf b = { NULL, 0, 0 };
	struct pskd_outfile o;
	int r = -1;

	x->last_ckpt = now();
	if (x->fd == -1 || x->vouched == x->have)
		return 0;
	if (fdatasync(x->fd) == -1) {
		set_error(x->j, xasprintf("%s: %s", x->part, strerror(errno)));
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
	pthread_mutex_lock(&mu);
	if (pskd_outfile_open(&o, x->ckpt) == 0) {
		if (pskd_write_all(o.fd, b.p, b.len) == 0)
			r = pskd_outfile_commit(&o);
		else
			pskd_outfile_abort(&o);
	}
	pthread_mutex_unlock(&mu);
	if (r == -1)
		set_error(x->j, xasprintf("%s: %s", x->ckpt, strerror(errno)));
	else
		x->vouched = x->have;
	pskd_buf_free(&b);
	return r;
}

/*
 * Start again from byte 0 in place: the old bytes are cut off and the
 * checkpoint vouches for none before a new byte is written.
 */
static int
rewind_part(struct xfer *x)
{
	restart_state(x);
	/* First vouch for nothing, then cut: a crash between is harmless. */
	x->vouched = UINT64_MAX;	/* differs from have: write it */
	if (checkpoint(x) == -1)
		return -1;
	if (ftruncate(x->fd, 0) == -1 || lseek(x->fd, 0, SEEK_SET) == -1) {
		set_error(x->j, xasprintf("%s: %s", x->part, strerror(errno)));
		return -1;
	}
	return 0;
}

/* Store n body bytes: to the shard (or stdout) and the running hash. */
static int
store(struct xfer *x, const unsigned char *p, size_t n)
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
				set_error(x->j, pskd_xstrdup("the remote file "
				    "changed during the transfer"));
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
		set_error(x->j, xasprintf("%s: %s", x->part, strerror(e)));
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

/* What to make of the final response's status and headers. */
static enum outcome
judge(struct xfer *x, struct pskd_http *hd)
{
	uint64_t from = x->have;
	int st = hd->status;

	if (st == 0) {				/* file:// */
		if (!hd->length_known)
			return T_FAIL;
		if ((from > 0 && x->lastmod && hd->lastmod &&
		    strcmp(x->lastmod, hd->lastmod) != 0) ||
		    from > hd->length) {
			x->why = "the remote file changed during the transfer";
			return T_RESTART;
		}
		hd->range_total = hd->length;
		hd->range_total_known = 1;
		st = from > 0 ? 206 : 200;
		hd->range_start = from;
		hd->range_known = 1;
	}
	if (st == 200) {
		if (from > 0) {
			if (x->fd == -1) {
				/* stdout cannot rewind: drop what we have. */
				if (x->etag && hd->etag &&
				    strcmp(x->etag, hd->etag) != 0) {
					x->why = "the remote file changed "
					    "during the transfer";
					return T_FAIL;
				}
				x->skip = from;
				pskd_sha256_peek(&x->h, x->prefix_sha);
				pskd_sha256_free(&x->h);
				pskd_sha256_init(&x->h);
				x->have = 0;
			} else if (opt.resume_only) {
				return T_RESTART;
			} else if (rewind_part(x) == -1)
				return T_FAIL;
		}
		x->expected_known = hd->length_known;
		x->expected = hd->length;
	} else if (st == 206) {
		if (!hd->range_known || hd->range_start != from) {
			x->why = "a range that starts elsewhere";
			return x->fd == -1 ? T_RETRY : T_RESTART;
		}
		if (hd->range_total_known) {
			if (x->expected_known && x->expected !=
			    hd->range_total) {
				x->why = "the remote file changed during the "
				    "transfer";
				return x->fd == -1 ? T_FAIL : T_RESTART;
			}
			x->expected_known = 1;
			x->expected = hd->range_total;
		}
	} else if (st == 416) {
		return T_RANGE_END;
	} else {
		x->retry_after = hd->retry_after;
		x->why = NULL;
		return st == 429 || st == 408 || st >= 500 ? T_RETRY : T_FAIL;
	}
	/* The validators of the bytes we now hold. */
	if (hd->etag || hd->lastmod || from == 0) {
		free(x->etag);
		free(x->lastmod);
		x->etag = hd->etag ? pskd_xstrdup(hd->etag) : NULL;
		x->lastmod = hd->lastmod ? pskd_xstrdup(hd->lastmod) : NULL;
	}
	return T_DONE;
}

/* One curl run.  On T_RANGE_END, *total holds the size the server gave. */
/* Why curl failed says what to do. */
static enum outcome
curl_failed(struct xfer *x, int code)
{
	x->why = pskd_curl_strerror(code);
	if (x->why == NULL)
		x->why = "curl failed";
	return pskd_curl_permanent(code) ? T_FAIL : T_RETRY;
}

/* Read the body into the shard until curl ends, a fault or a stall. */
static enum outcome
body(struct xfer *x, int fd)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	double t0 = now(), lastp = 0;
	uint64_t got0 = x->have;
	enum outcome o = T_DONE;
	unsigned char *buf;
	ssize_t got;
	int r;

	buf = pskd_xmalloc(PSKD_BUFSIZE);
	for (;;) {
		r = poll(&pfd, 1, (int)(opt.stall * 1000));
		if (r == -1 && errno == EINTR)
			continue;
		if (r == 0) {
			x->why = "stalled";
			o = T_RETRY;
			break;
		}
		got = read(fd, buf, PSKD_BUFSIZE);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (store(x, buf, (size_t)got) == -1) {
			o = T_FAIL;
			break;
		}
		if (x->expected_known && x->have > x->expected) {
			x->why = "more bytes than the server announced";
			o = x->fd == -1 ? T_FAIL : T_RESTART;
			break;
		}
		if (now() - x->last_ckpt >= opt.ckpt_every &&
		    checkpoint(x) == -1) {
			o = T_FAIL;
			break;
		}
		if (now() - lastp > 0.25) {
			lastp = now();
			progress(x->j, t0, got0, 0);
		}
	}
	free(buf);
	return o;
}

/* One curl run.  On T_RANGE_END, *total holds the size the server gave. */
static enum outcome
attempt(struct xfer *x, uint64_t *total, int *status)
{
	struct pskd_curl c;
	struct pskd_http hd;
	enum outcome o;
	int code, stalled;

	x->why = NULL;
	x->retry_after = -1;
	*status = 0;
	if (pskd_curl_start(&c, x->j->url, x->have, x->etag ? x->etag :
	    x->lastmod, "pskd-get/" PSKD_VERSION) == -1)
		pskd_err(PSKD_EXIT_DATA, "curl (the curl package)");
	if (pskd_curl_headers(&c, &hd, opt.stall, &stalled) == -1) {
		code = pskd_curl_end(&c, stalled);
		pskd_http_free(&hd);
		if (stalled) {
			x->why = "stalled";
			return T_RETRY;
		}
		return curl_failed(x, code);
	}
	*status = hd.status;
	o = judge(x, &hd);
	if (o == T_RANGE_END)
		*total = hd.range_total_known ? hd.range_total : UINT64_MAX;
	pskd_http_free(&hd);
	if (o == T_DONE)
		o = body(x, c.body);
	code = pskd_curl_end(&c, o != T_DONE);
	if (o != T_DONE)
		return o;
	if (code != 0)
		return curl_failed(x, code);
	if (x->expected_known && x->have < x->expected) {
		x->why = "connection closed before the end";
		return T_RETRY;
	}
	return T_DONE;
}

/* ---- one shard ---------------------------------------------------------- */

static int
open_part(struct xfer *x, int truncate_it)
{
	x->fd = open(x->part, O_RDWR | O_CREAT | O_CLOEXEC |
	    (truncate_it ? O_TRUNC : 0), 0666);
	if (x->fd == -1) {
		set_error(x->j, xasprintf("%s: %s", x->part, strerror(errno)));
		return -1;
	}
	return 0;
}

/*
 * Pick up a partial download: the checkpoint's prefix, re-hashed, must
 * match; anything after it is cut off.  Returns 1 if resumed, 0 if there
 * is nothing to resume, -1 on an error.
 */
static int
resume_partial(struct xfer *x, const char *path)
{
	struct pskd_buf b = { NULL, 0, 0 };
	struct pskd_checkpoint c;
	char err[256], hex[PSKD_SHA256_HEX];
	int64_t n;
	int r = 0;

	if (pskd_file_slurp(x->ckpt, &b) == -1) {
		pskd_buf_free(&b);
		return 0;
	}
	if (access(x->part, F_OK) == -1 && errno == ENOENT &&
	    access(path, F_OK) == 0) {
		/*
		 * A run stopped between renaming the shard into place and
		 * removing its checkpoint: the shard is checked as complete.
		 */
		if (pskd_checkpoint_parse(&c, b.p, b.len, err,
		    sizeof(err)) == 0) {
			if (strcmp(c.url, x->j->url) == 0 && c.expected_known &&
			    c.expected == c.verified) {
				memcpy(x->ref_sha, c.sha256, sizeof(c.sha256));
				x->ref_size = c.verified;
			}
			pskd_checkpoint_clear(&c);
		}
		(void)unlink(x->ckpt);
		pskd_buf_free(&b);
		return 0;
	}
	if (pskd_checkpoint_parse(&c, b.p, b.len, err, sizeof(err)) == -1) {
		pskd_warnx("%s: %s; starting again", x->ckpt, err);
		goto out;
	}
	if (strcmp(c.url, x->j->url) != 0) {
		pskd_warnx("%s: for another URL; starting again", x->ckpt);
		goto out;
	}
	x->fd = open(x->part, O_RDWR | O_CLOEXEC);
	if (x->fd == -1) {
		pskd_warnx("%s: %s; starting again", x->part, strerror(errno));
		goto out;
	}
	n = pskd_sha256_fd(&x->h, x->fd, c.verified);
	if (n >= 0 && (uint64_t)n == c.verified)
		pskd_sha256_peek(&x->h, hex);
	if (n < 0 || (uint64_t)n != c.verified || strcmp(hex, c.sha256) != 0) {
		pskd_warnx("%s: the first %llu bytes are not the ones "
		    "checkpointed; starting again", x->part,
		    (unsigned long long)c.verified);
		close(x->fd);
		x->fd = -1;
		pskd_sha256_free(&x->h);
		pskd_sha256_init(&x->h);
		goto out;
	}
	if (ftruncate(x->fd, (off_t)c.verified) == -1 ||
	    lseek(x->fd, (off_t)c.verified, SEEK_SET) == -1) {
		set_error(x->j, xasprintf("%s: %s", x->part, strerror(errno)));
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

/*
 * A shard already in place: complete if it matches the old manifest's
 * entry or the list's sha256/size.  1 complete, 0 not, -1 no way to tell.
 */
static int
check_complete(struct xfer *x, const char *path)
{
	struct job *j = x->j;
	struct pskd_shard *s = pskd_manifest_find(&old, j->name);
	const char *sha = NULL;
	char hex[PSKD_SHA256_HEX];
	struct pskd_sha256 h;
	struct stat st;
	uint64_t size = 0;
	int fd, size_known = 0;
	int64_t n;

	if (s && s->status == PSKD_SHARD_COMPLETE &&
	    strcmp(s->url, j->url) == 0 && s->sha256[0]) {
		sha = s->sha256;
		size = s->bytes;
		size_known = 1;
	}
	if (sha == NULL && x->ref_sha[0]) {
		sha = x->ref_sha;
		size = x->ref_size;
		size_known = 1;
	}
	if (j->want_sha[0]) {
		if (sha && strcmp(sha, j->want_sha) != 0)
			return 0;
		sha = j->want_sha;
	}
	if (j->want_size_known) {
		if (size_known && size != j->want_size)
			return 0;
		size = j->want_size;
		size_known = 1;
	}
	if (sha == NULL)
		return -1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
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
		pskd_buf_add(&j->out.extra, s->extra.p, s->extra.len);
	}
	return 1;
}

/* Verified: size, then sha256.  0 ok, -1 size, -2 sha256. */
static int
verified(struct xfer *x, char hex[PSKD_SHA256_HEX])
{
	struct job *j = x->j;

	pskd_sha256_peek(&x->h, hex);
	if (x->expected_known && x->have != x->expected)
		return -1;
	if (j->want_size_known && x->have != j->want_size)
		return -1;
	if (j->want_sha[0] && strcmp(hex, j->want_sha) != 0)
		return -2;
	return 0;
}

static int
finish(struct xfer *x, const char *path, const char *hex)
{
	struct job *j = x->j;

	if (x->fd != -1) {
		if (fdatasync(x->fd) == -1 || close(x->fd) == -1) {
			set_error(j, xasprintf("%s: %s", x->part,
			    strerror(errno)));
			x->fd = -1;
			return -1;
		}
		x->fd = -1;
		if (rename(x->part, path) == -1 || pskd_fsync_dir(path) == -1 ||
		    (unlink(x->ckpt) == -1 && errno != ENOENT) ||
		    pskd_fsync_dir(path) == -1) {
			set_error(j, xasprintf("%s: %s", path,
			    strerror(errno)));
			return -1;
		}
	}
	j->out.bytes = x->have;
	memcpy(j->out.sha256, hex, PSKD_SHA256_HEX);
	j->out.etag = x->etag ? pskd_xstrdup(x->etag) : NULL;
	return 0;
}

static double
backoff(long tries, double retry_after)
{
	double d;

	if (retry_after >= 0)
		return retry_after;
	d = opt.retry_wait * pow(2, (double)(tries - 1));
	if (d > 60)
		d = 60;
	/* Jitter: a fleet of clients does not come back in step. */
	return d * (0.5 + (double)(random() % 1000) / 1000.0);
}

static int
fetch(struct job *j)
{
	struct xfer x;
	char *path, hex[PSKD_SHA256_HEX];
	uint64_t best = 0, total;
	long tries = 0;
	int restarts = 0, r, status = 0;
	enum outcome o;

	memset(&x, 0, sizeof(x));
	x.j = j;
	x.fd = -1;
	pskd_sha256_init(&x.h);
	path = opt.stream ? NULL : xasprintf("%s/%s", opt.dir, j->name);
	if (!opt.stream) {
		x.part = xasprintf("%s%s", path, PSKD_PARTIAL);
		x.ckpt = xasprintf("%s%s", path, PSKD_CHECKPOINT);
		r = resume_partial(&x, path);
		if (r == -1)
			goto fail;
		if (r == 0 && access(path, F_OK) == 0) {
			r = check_complete(&x, path);
			if (r == 1)
				goto done;
			if (opt.resume_only) {
				set_error(j, pskd_xstrdup(r == 0 ?
				    "does not match the manifest or the list "
				    "(--resume-only)" : "no checkpoint and "
				    "no sha256 to verify it (--resume-only)"));
				goto fail;
			}
			if (r == 0)
				pskd_warnx("%s: does not match its sha256; "
				    "downloading again", path);
		} else if (r == 0 && opt.resume_only) {
			set_error(j, pskd_xstrdup("no partial download to "
			    "resume (--resume-only)"));
			goto fail;
		}
		if (x.fd == -1 && open_part(&x, 1) == -1)
			goto fail;
	}
	x.last_ckpt = now();
	if (x.expected_known && x.have == x.expected)
		o = T_DONE;		/* all there: killed before the rename */
	else
		o = T_RETRY;
	for (;;) {
		if (o != T_DONE)
			o = attempt(&x, &total, &status);
		if (o == T_RANGE_END) {
			/* Nothing past our bytes: complete only if verified. */
			if (total == x.have && (!x.expected_known ||
			    x.expected == total)) {
				x.expected = total;
				x.expected_known = 1;
				o = T_DONE;
			} else
				o = T_RESTART;
		}
		if (o == T_DONE) {
			r = verified(&x, hex);
			if (r == 0)
				break;
			if (r == -2 && (restarts++ > 0 || x.fd == -1)) {
				set_error(j, xasprintf("sha256 %s, the list "
				    "says %s%s", hex, j->want_sha,
				    x.fd == -1 ? "" : " (after a full "
				    "restart)"));
				/* Known bad bytes: nothing to resume. */
				if (x.fd != -1) {
					(void)unlink(x.ckpt);
					(void)unlink(x.part);
				}
				goto fail;
			}
			if (r == -2)
				pskd_warnx("%s: sha256 mismatch; downloading "
				    "again", j->url);
			if (r == -1 && x.fd == -1) {
				set_error(j, xasprintf("%llu bytes, expected "
				    "%llu", (unsigned long long)x.have,
				    (unsigned long long)(j->want_size_known ?
				    j->want_size : x.expected)));
				goto fail;
			}
			o = T_RESTART;
		}
		if (o == T_RESTART) {
			if (x.fd == -1) {
				o = T_FAIL;
			} else if (opt.resume_only && x.have > 0) {
				set_error(j, xasprintf("%s: the server cannot "
				    "resume it (--resume-only)", j->url));
				goto fail;
			} else {
				if (rewind_part(&x) == -1)
					goto fail;
				if (++tries > opt.retries + 1) {
					set_error(j, pskd_xstrdup("gave up: "
					    "the server never resumed"));
					goto fail;
				}
				o = T_RETRY;
				continue;
			}
		}
		if (o == T_FAIL) {
			if (j->error == NULL) {
				if (x.why)
					set_error(j, pskd_xstrdup(x.why));
				else if (status)
					set_error(j, xasprintf("HTTP %d",
					    status));
				else
					set_error(j, pskd_xstrdup("failed"));
			}
			(void)checkpoint(&x);
			goto fail;
		}
		/* T_RETRY: a transient fault. */
		if (checkpoint(&x) == -1)
			goto fail;
		if (x.have > best) {
			best = x.have;
			tries = 0;
		}
		if (++tries > opt.retries) {
			if (x.why)
				set_error(j, xasprintf("%s (after %ld "
				    "retries)", x.why, opt.retries));
			else
				set_error(j, xasprintf("HTTP %d (after %ld "
				    "retries)", status, opt.retries));
			goto fail;
		}
		if (tries > 1 || x.why == NULL || status != 0)
			sleep_for(backoff(tries, x.retry_after));
	}
	if (finish(&x, path, hex) == -1)
		goto fail;
done:
	j->out.status = PSKD_SHARD_COMPLETE;
	r = 0;
	goto out;
fail:
	if (x.fd != -1)
		close(x.fd);
	j->out.status = PSKD_SHARD_FAILED;
	j->out.bytes = 0;
	j->out.sha256[0] = '\0';
	r = -1;
out:
	pskd_sha256_free(&x.h);
	free(x.etag);
	free(x.lastmod);
	free(x.part);
	free(x.ckpt);
	free(path);
	return r;
}

static void *
worker(void *arg)
{
	struct job *j;
	size_t i;

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (nextjob < njobs && jobs[nextjob].kept)
			nextjob++;
		i = nextjob++;
		pthread_mutex_unlock(&mu);
		if (i >= njobs)
			return NULL;
		j = &jobs[i];
		(void)fetch(j);
		pthread_mutex_lock(&mu);
		ndone++;
		done_bytes += j->have;
		j->have = 0;
		if (!opt.stream)
			save_manifest();
		pthread_mutex_unlock(&mu);
	}
}

/* ---- --verify ----------------------------------------------------------- */

static int
verify(void)
{
	struct pskd_buf man = { NULL, 0, 0 }, lock = { NULL, 0, 0 };
	struct pskd_manifest m;
	char *mpath = xasprintf("%s/%s", opt.dir, PSKD_MANIFEST);
	char *lpath = xasprintf("%s/%s", opt.dir, PSKD_MANIFEST_LOCK);
	char err[256], want[PSKD_SHA256_HEX], hex[PSKD_SHA256_HEX];
	struct pskd_sha256 h;
	struct stat st;
	uint64_t line;
	size_t i;
	int bad = 0, fd;
	int64_t n;

	if (pskd_file_slurp(mpath, &man) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", mpath);
	if (pskd_file_slurp(lpath, &lock) == -1) {
		pskd_warn("%s", lpath);
		bad = 1;
	} else if (pskd_manifest_lock_parse(lock.p, lock.len, want, err,
	    sizeof(err)) == -1) {
		pskd_warnx("%s: %s", lpath, err);
		bad = 1;
	} else {
		pskd_sha256_hex(man.p, man.len, hex);
		if (strcmp(hex, want) != 0) {
			pskd_warnx("%s: sha256 %s, %s says %s", mpath, hex,
			    PSKD_MANIFEST_LOCK, want);
			bad = 1;
		}
	}
	pskd_manifest_init(&m);
	if (pskd_manifest_parse(&m, man.p, man.len, err, sizeof(err),
	    &line) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", mpath,
		    (unsigned long long)line, err);
	for (i = 0; i < m.n; i++) {
		struct pskd_shard *s = &m.shards[i];
		char *path = xasprintf("%s/%s", opt.dir, s->file);

		if (s->status != PSKD_SHARD_COMPLETE) {
			pskd_warnx("%s: not downloaded (%s)", path,
			    pskd_shard_status_name(s->status));
			bad = 1;
		} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
		    fstat(fd, &st) == -1) {
			pskd_warn("%s", path);
			bad = 1;
		} else if ((uint64_t)st.st_size != s->bytes) {
			pskd_warnx("%s: %llu bytes, the manifest says %llu",
			    path, (unsigned long long)st.st_size,
			    (unsigned long long)s->bytes);
			bad = 1;
		} else {
			pskd_sha256_init(&h);
			n = pskd_sha256_fd(&h, fd, s->bytes);
			pskd_sha256_peek(&h, hex);
			pskd_sha256_free(&h);
			if (n < 0) {
				pskd_warn("%s", path);
				bad = 1;
			} else if (strcmp(hex, s->sha256) != 0) {
				pskd_warnx("%s: sha256 %s, the manifest says "
				    "%s", path, hex, s->sha256);
				bad = 1;
			}
		}
		if (fd != -1)
			close(fd);
		fd = -1;
		free(path);
	}
	pskd_manifest_free(&m);
	pskd_buf_free(&man);
	pskd_buf_free(&lock);
	free(mpath);
	free(lpath);
	return bad ? PSKD_EXIT_DATA : 0;
}

/* ---- --annotate ----------------------------------------------------------- */

/*
 * Add members (per-shard counts of a later stage) to one shard's record:
 * under the folder's lock, only to a manifest that still matches its lock,
 * and rewriting both atomically.
 */
static int
annotate(const char *file, int argc, char **argv)
{
	struct pskd_buf man = { NULL, 0, 0 }, lock = { NULL, 0, 0 };
	struct pskd_manifest m;
	struct pskd_shard *sh;
	char *mpath = xasprintf("%s/%s", opt.dir, PSKD_MANIFEST);
	char *lpath = xasprintf("%s/%s", opt.dir, PSKD_MANIFEST_LOCK);
	char err[256], want[PSKD_SHA256_HEX], hex[PSKD_SHA256_HEX];
	uint64_t line;
	int i, fd;

	fd = open(opt.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", opt.dir);
	/* Wait for another pskd-get: parallel annotations take turns. */
	while (flock(fd, LOCK_EX) == -1)
		if (errno != EINTR)
			pskd_err(PSKD_EXIT_DATA, "%s: flock", opt.dir);
	if (pskd_file_slurp(mpath, &man) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", mpath);
	if (pskd_file_slurp(lpath, &lock) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", lpath);
	if (pskd_manifest_lock_parse(lock.p, lock.len, want, err,
	    sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", lpath, err);
	pskd_sha256_hex(man.p, man.len, hex);
	if (strcmp(hex, want) != 0)
		pskd_errx(PSKD_EXIT_DATA, "%s: does not match %s (run "
		    "pskd-get --verify)", mpath, PSKD_MANIFEST_LOCK);
	pskd_manifest_init(&m);
	if (pskd_manifest_parse(&m, man.p, man.len, err, sizeof(err),
	    &line) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", mpath,
		    (unsigned long long)line, err);
	if ((sh = pskd_manifest_find(&m, file)) == NULL)
		pskd_errx(PSKD_EXIT_DATA, "%s: no shard %s", mpath, file);
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (eq == NULL || eq == argv[i]) {
			pskd_warnx("--annotate: '%s' is not key=json", argv[i]);
			pskd_usage_error(usage_text);
		}
		*eq = '\0';
		if (pskd_shard_set(sh, argv[i], eq + 1) == -1) {
			pskd_warnx("--annotate: %s: a member pskd-get keeps, "
			    "or '%s' is not a JSON value", argv[i], eq + 1);
			pskd_usage_error(usage_text);
		}
	}
	if (pskd_manifest_save(&m, opt.dir) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", mpath);
	pskd_manifest_free(&m);
	pskd_buf_free(&man);
	pskd_buf_free(&lock);
	free(mpath);
	free(lpath);
	close(fd);
	return 0;
}

/* ---- main ----------------------------------------------------------------- */

/* -u URL -d DIR: the other shards of the manifest stay as they are. */
static void
plan_one(const char *url)
{
	struct job *j;
	char *name;
	size_t i, at = SIZE_MAX;

	name = shard_name(url, 0);
	for (i = 0; i < old.n; i++) {
		j = add_job();
		j->kept = 1;
		copy_shard(&j->out, &old.shards[i]);
		j->url = pskd_xstrdup(old.shards[i].url);
		j->name = pskd_xstrdup(old.shards[i].file);
		if (strcmp(j->name, name) == 0)
			at = i;
	}
	if (at == SIZE_MAX) {
		j = add_job();
	} else {
		j = &jobs[at];
		pskd_shard_clear(&j->out);
		free(j->url);
		free(j->name);
		j->kept = 0;
	}
	j->url = pskd_xstrdup(url);
	j->name = name;
}

/*
 * Temporaries a killed run left (".NAME.tmp.PID" of the manifest, its lock
 * and checkpoints): ours to remove, since we hold the folder's lock.
 */
static void
remove_stale(int dirfd)
{
	struct dirent *e;
	const char *t;
	DIR *dp;
	size_t n;
	int fd;

	if ((fd = dup(dirfd)) == -1 || (dp = fdopendir(fd)) == NULL)
		return;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] != '.' || (t = strstr(e->d_name, ".tmp.")) ==
		    NULL || t[5] < '0' || t[5] > '9' ||
		    t[5 + strspn(t + 5, "0123456789")] != '\0')
			continue;
		n = (size_t)(t - e->d_name);
		if ((n == 1 + strlen(PSKD_MANIFEST) &&
		    strncmp(e->d_name + 1, PSKD_MANIFEST, n - 1) == 0) ||
		    (n == 1 + strlen(PSKD_MANIFEST_LOCK) &&
		    strncmp(e->d_name + 1, PSKD_MANIFEST_LOCK, n - 1) == 0) ||
		    (n > strlen(PSKD_CHECKPOINT) && strncmp(t -
		    strlen(PSKD_CHECKPOINT), PSKD_CHECKPOINT,
		    strlen(PSKD_CHECKPOINT)) == 0))
			(void)unlinkat(dirfd, e->d_name, 0);
	}
	closedir(dp);
}

static int
run(void)
{
	pthread_t *th;
	size_t i, nth, nfailed = 0;
	int status = 0, fd;

	if (!opt.stream) {
		if (mkdir(opt.dir, 0777) == -1 && errno != EEXIST)
			pskd_err(PSKD_EXIT_DATA, "%s", opt.dir);
		fd = open(opt.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", opt.dir);
		if (flock(fd, LOCK_EX | LOCK_NB) == -1)
			pskd_errx(PSKD_EXIT_DATA, "%s: another pskd-get is "
			    "working in this folder", opt.dir);
		remove_stale(fd);
	}
	for (i = 0; i < njobs; i++) {
		struct job *j = &jobs[i];

		if (j->kept)
			continue;
		if (j->name == NULL)
			j->name = shard_name(j->url, i);
		j->out.url = pskd_xstrdup(j->url);
		j->out.file = pskd_xstrdup(j->name);
		j->out.status = PSKD_SHARD_PENDING;
	}
	nth = (size_t)opt.jobs < njobs ? (size_t)opt.jobs : njobs;
	if (nth <= 1) {
		worker(NULL);
	} else {
		th = pskd_xcalloc(nth, sizeof(*th));
		for (i = 0; i < nth; i++)
			if ((errno = pthread_create(&th[i], NULL, worker,
			    NULL)) != 0)
				pskd_err(PSKD_EXIT_DATA, "pthread_create");
		for (i = 0; i < nth; i++)
			pthread_join(th[i], NULL);
		free(th);
	}
	if (!opt.stream && njobs == 0) {
		pthread_mutex_lock(&mu);
		save_manifest();
		pthread_mutex_unlock(&mu);
	}
	for (i = 0; i < njobs; i++)
		if (!jobs[i].kept && jobs[i].out.status != PSKD_SHARD_COMPLETE)
			nfailed++;
	if (pskd_progress_enabled() && ndone > 0)
		pskd_progress(1, "%zu shards, %zu failed", ndone, nfailed);
	for (i = 0; i < njobs; i++)
		if (!jobs[i].kept && jobs[i].out.status != PSKD_SHARD_COMPLETE) {
			pskd_warnx("%s: %s", jobs[i].url, jobs[i].error ?
			    jobs[i].error : "failed");
			status = PSKD_EXIT_DATA;
		}
	return status;
}

int
main(int argc, char **argv)
{
	enum { O_VERIFY = 256, O_RESUME, O_RETRIES, O_WAIT, O_STALL, O_CKPT,
	    O_ANNOTATE };
	static const struct option longopts[] = {
		{ "cache-dir", required_argument, NULL, 'd' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "sha256", required_argument, NULL, 's' },
		{ "url", required_argument, NULL, 'u' },
		{ "checkpoint-interval", required_argument, NULL, O_CKPT },
		{ "resume-only", no_argument, NULL, O_RESUME },
		{ "retries", required_argument, NULL, O_RETRIES },
		{ "retry-wait", required_argument, NULL, O_WAIT },
		{ "stall-timeout", required_argument, NULL, O_STALL },
		{ "verify", no_argument, NULL, O_VERIFY },
		{ "annotate", required_argument, NULL, O_ANNOTATE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *url = NULL, *sha = NULL, *annotated = NULL;
	int c, do_verify = 0, i;
	struct timespec ts;

	pskd_setprogname(argv[0]);
	while ((c = getopt_long(argc, argv, "d:j:Pqs:u:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'd': opt.dir = optarg; break;
		case 'j': opt.jobs = parse_count("-j", optarg, 1, 256); break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 's': sha = optarg; break;
		case 'u': url = optarg; break;
		case O_CKPT:
			opt.ckpt_every = parse_seconds("--checkpoint-interval",
			    optarg, 3600);
			break;
		case O_RESUME: opt.resume_only = 1; break;
		case O_RETRIES:
			opt.retries = parse_count("--retries", optarg, 0,
			    1000);
			break;
		case O_WAIT:
			opt.retry_wait = parse_seconds("--retry-wait", optarg,
			    600);
			break;
		case O_STALL:
			opt.stall = parse_seconds("--stall-timeout", optarg,
			    86400);
			if (opt.stall < 0.01)
				opt.stall = 0.01;
			break;
		case O_VERIFY: do_verify = 1; break;
		case O_ANNOTATE: annotated = optarg; break;
		case 'h': usage(); break;
		case 'V': puts("pskd-get " PSKD_VERSION); return 0;
		default: pskd_usage_error(usage_text);
		}
	}
	argc -= optind;
	argv += optind;
	if ((do_verify && (url || argc > 0 || sha || opt.resume_only)) ||
	    (url && argc > 0) || (sha && !url) ||
	    (annotated && (do_verify || url || sha || argc == 0)))
		pskd_usage_error(usage_text);
	if (sha && !pskd_sha256_valid(sha, strlen(sha))) {
		pskd_warnx("-s: '%s' is not a sha256 (64 hex digits)", sha);
		pskd_usage_error(usage_text);
	}
	if (url && !scheme_ok(url)) {
		pskd_warnx("-u: '%s' is not an http, https or file URL", url);
		pskd_usage_error(usage_text);
	}
	if (opt.dir == NULL) {
		opt.stream = url != NULL;
		opt.dir = ".";
	} else {
		/* "shards/" names files "shards/x", not "shards//x". */
		char *d = pskd_xstrdup(opt.dir);
		size_t n = strlen(d);

		while (n > 1 && d[n - 1] == '/')
			d[--n] = '\0';
		opt.dir = d;
	}
	if (do_verify)
		return verify();
	if (annotated)
		return annotate(annotated, argc, argv);
	clock_gettime(CLOCK_REALTIME, &ts);
	srandom((unsigned)(ts.tv_nsec ^ getpid()));
	pskd_signals_init();
	if (opt.stream) {
		struct job *j = add_job();

		pskd_refuse_tty(1, "<stdout>");
		j->url = pskd_xstrdup(url);
		j->name = pskd_xstrdup("<stdout>");
		if (sha)
			for (i = 0; i < 64; i++)
				j->want_sha[i] = (char)(sha[i] | 0x20);
		opt.jobs = 1;
		opt.resume_only = 0;
		return run();
	}
	load_old_manifest();
	if (url) {
		plan_one(url);
		if (sha)
			for (i = 0; i < 64; i++)
				jobs[njobs - 1].want_sha[i] =
				    (char)(sha[i] | 0x20);
	} else if (argc == 0)
		read_list(NULL);
	for (i = 0; i < argc; i++)
		read_list(argv[i]);
	return run();
}
