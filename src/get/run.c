/*
 * run.c - one run over the planned shards: the folder's lock, the
 * temporaries a killed run left, -j workers, the manifest rewritten after
 * every finished shard, one line per failed shard at the end.
 */
#define _GNU_SOURCE
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pskd.h"
#include "curl.h"
#include "get.h"

void
pskd_get_init(struct pskd_get *g, const struct pskd_get_opt *opt)
{
	memset(g, 0, sizeof(*g));
	g->opt = opt;
	pskd_manifest_init(&g->old);
	pskd_names_init(&g->names);
	g->dirty = 1;		/* the records are not yet the manifest's */
	pthread_mutex_init(&g->mu, NULL);
	pthread_mutex_init(&g->pmu, NULL);
}

char *
pskd_get_asprintf(const char *fmt, ...)
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

double
pskd_get_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
pskd_get_sleep(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

void
pskd_get_set_error(struct pskd_get_job *j, char *msg)
{
	free(j->error);
	j->error = msg;
}

/*
 * What is wrong with the folder's manifest (NULL: nothing) in msg.  A
 * manifest that its lock does not vouch for is refused: someone changed
 * it, and perhaps a shard with it.
 */
static const char *
manifest_problem(struct pskd_get *g, const struct pskd_buf *man, char *msg,
    size_t size)
{
	struct pskd_buf lock = { NULL, 0, 0 };
	char *lpath = pskd_get_asprintf("%s/%s", g->opt->dir,
	    PSKD_MANIFEST_LOCK);
	char err[256], want[PSKD_SHA256_HEX], hex[PSKD_SHA256_HEX];
	uint64_t line;

	*msg = '\0';
	pskd_sha256_hex(man->p, man->len, hex);
	if (pskd_slurp(lpath, PSKD_LOCK_MAX, &lock) == -1)
		snprintf(msg, size, "no %s (%s)", PSKD_MANIFEST_LOCK,
		    strerror(errno));
	else if (pskd_manifest_lock_parse(lock.p, lock.len, want, err,
	    sizeof(err)) == -1)
		snprintf(msg, size, "%s: %s", PSKD_MANIFEST_LOCK, err);
	else if (strcmp(hex, want) != 0)
		snprintf(msg, size, "does not match %s", PSKD_MANIFEST_LOCK);
	else if (pskd_manifest_parse(&g->old, man->p, man->len, err,
	    sizeof(err), &line) == -1)
		snprintf(msg, size, "line %llu: %s", (unsigned long long)line,
		    err);
	pskd_buf_free(&lock);
	free(lpath);
	return *msg ? msg : NULL;
}

static void
load_manifest(struct pskd_get *g)
{
	struct pskd_buf b = { NULL, 0, 0 };
	char *path = pskd_get_asprintf("%s/%s", g->opt->dir, PSKD_MANIFEST);
	char msg[512];

	if (pskd_slurp(path, 0, &b) == -1) {
		if (errno != ENOENT)
			pskd_err(PSKD_EXIT_DATA, "%s", path);
	} else if (manifest_problem(g, &b, msg, sizeof(msg)) != NULL) {
		if (!g->opt->force)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s; pskd-get --verify "
			    "checks the folder, --force rebuilds the manifest "
			    "from the list", path, msg);
		pskd_warnx("%s: %s; rebuilding it (--force)", path, msg);
		pskd_manifest_free(&g->old);
	} else {
		g->ondisk_man = b;
		g->ondisk = 1;
		b.p = NULL;
	}
	pskd_buf_free(&b);
	free(path);
}

/*
 * Rewrite manifest and lock from the jobs; the caller holds g->mu.  0
 * once both are on disk, else -1.
 */
static int
save_manifest(struct pskd_get *g)
{
	struct pskd_manifest m;
	struct pskd_buf b = { NULL, 0, 0 };
	size_t i;
	int r = 0;

	/* No record changed since the manifest on disk was made of them. */
	if (g->ondisk && !g->dirty)
		return 0;
	pskd_manifest_init(&m);
	for (i = 0; i < g->njobs; i++)
		pskd_shard_copy(pskd_manifest_add(&m), &g->jobs[i].rec);
	pskd_manifest_encode(&m, &b);
	pskd_manifest_free(&m);
	g->dirty = 0;
	if (g->ondisk && b.len == g->ondisk_man.len &&
	    memcmp(b.p, g->ondisk_man.p, b.len) == 0)
		goto out;		/* already on disk, and vouched for */
	/*
	 * A failure (a full disk) is said at the end, after the shards'
	 * own failures, which are likely its cause; the folder keeps its
	 * previous manifest and lock, which still agree.
	 */
	if ((r = pskd_manifest_write(&b, g->opt->dir)) == -1) {
		if (g->save_errno == 0)
			g->save_errno = errno;
		/* What is on disk now is not known: the next save writes. */
		g->ondisk = 0;
		goto out;
	}
	pskd_buf_free(&g->ondisk_man);
	g->ondisk_man = b;
	g->ondisk = 1;
	b.p = NULL;
out:
	pskd_buf_free(&b);
	return r;
}

static void *
worker(void *arg)
{
	struct pskd_get *g = arg;
	struct pskd_get_job *j;
	size_t i;
	int saved;

	for (;;) {
		pthread_mutex_lock(&g->mu);
		while (g->next < g->njobs && g->jobs[g->next].kept)
			g->next++;
		i = g->next++;
		if (i < g->njobs)
			pskd_get_progress_begin(g, &g->jobs[i]);
		pthread_mutex_unlock(&g->mu);
		if (i >= g->njobs)
			return NULL;
		j = &g->jobs[i];
		(void)pskd_get_fetch(g, j);
		pthread_mutex_lock(&g->mu);
		pskd_get_progress_end(g, j);
		g->ndone++;
		if (j->out.status != PSKD_SHARD_COMPLETE)
			g->nfailed++;
		g->done_bytes += j->have;
		__atomic_store_n(&j->have, 0, __ATOMIC_RELAXED);
		if (!pskd_shard_equal(&j->rec, &j->out)) {
			pskd_shard_clear(&j->rec);
			pskd_shard_copy(&j->rec, &j->out);
			g->dirty = 1;
		}
		saved = !g->opt->stream && save_manifest(g) == 0;
		pthread_mutex_unlock(&g->mu);
		/*
		 * The manifest on disk vouches for the shard: its checkpoint
		 * goes.  Not before: until then it is what the next run
		 * finishes the shard from.
		 */
		if (j->done_ckpt) {
			if (saved && j->out.status == PSKD_SHARD_COMPLETE)
				(void)unlink(j->done_ckpt);
			free(j->done_ckpt);
			j->done_ckpt = NULL;
		}
	}
}

/* ".NAME.tmp.PID" of the manifest, its lock or a checkpoint? */
static int
our_temporary(const char *name)
{
	static const char *const ours[] = { PSKD_MANIFEST, PSKD_MANIFEST_LOCK };
	size_t n, i, c = strlen(PSKD_CHECKPOINT);
	const char *t;

	if (name[0] != '.' || (t = strstr(name, ".tmp.")) == NULL ||
	    t[5] < '0' || t[5] > '9' || t[5 + strspn(t + 5, "0123456789")] !=
	    '\0')
		return 0;
	n = (size_t)(t - name);
	for (i = 0; i < 2; i++)
		if (n == 1 + strlen(ours[i]) &&
		    strncmp(name + 1, ours[i], n - 1) == 0)
			return 1;
	return n > c && strncmp(t - c, PSKD_CHECKPOINT, c) == 0;
}

/*
 * Temporaries a killed run left: ours to remove, since we hold the
 * folder's lock.
 */
static void
remove_stale(int dirfd)
{
	struct dirent *e;
	DIR *dp;
	int fd;

	if ((fd = dup(dirfd)) == -1 || (dp = fdopendir(fd)) == NULL)
		return;
	while ((e = readdir(dp)) != NULL)
		if (our_temporary(e->d_name))
			(void)unlinkat(dirfd, e->d_name, 0);
	closedir(dp);
}

/* Create and lock the folder: one pskd-get at a time works in it. */
static void
lock_folder(const char *dir)
{
	int fd;

	if (mkdir(dir, 0777) == -1 && errno != EEXIST)
		pskd_err(PSKD_EXIT_DATA, "%s", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", dir);
	if (flock(fd, LOCK_EX | LOCK_NB) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: another pskd-get is working in "
		    "this folder", dir);
	/* A run killed between renaming the manifest and its lock. */
	(void)pskd_manifest_recover(dir);
	remove_stale(fd);
	/* fd stays open: the lock lasts as long as the run. */
}

/*
 * The descriptors a run holds at most: standard input, output and error
 * and the folder's lock; a manifest save or a checkpoint (one at a time,
 * under g->mu: the temporary, the lock's, the folder's for fsync); one
 * start of curl; a margin for the C library.  And each job its
 * NAME.partial and its request's.
 */
#define RUN_FDS		(4 + 3 + PSKD_CURL_START_FDS + 8)
#define JOB_FDS		(1 + PSKD_CURL_FDS)

void
pskd_get_fd_limit(unsigned jobs)
{
	rlim_t need = RUN_FDS + (rlim_t)jobs * JOB_FDS, most;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 ||
	    rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
			return;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == -1 || rl.rlim_cur >= need)
		return;
	if (rl.rlim_max > rl.rlim_cur && rl.rlim_max != RLIM_INFINITY)
		rl.rlim_cur = rl.rlim_max;
	most = rl.rlim_cur > RUN_FDS ? (rl.rlim_cur - RUN_FDS) / JOB_FDS : 0;
	if (most == 0)
		pskd_errx(PSKD_EXIT_DATA, "-j %u: needs %llu open files, the "
		    "limit is %llu (ulimit -Hn)", jobs,
		    (unsigned long long)need, (unsigned long long)rl.rlim_cur);
	pskd_errx(PSKD_EXIT_DATA, "-j %u: needs %llu open files, the limit is "
	    "%llu (ulimit -Hn); -j %llu at most", jobs,
	    (unsigned long long)need, (unsigned long long)rl.rlim_cur,
	    (unsigned long long)most);
}

void
pskd_get_open_folder(struct pskd_get *g)
{
	lock_folder(g->opt->dir);
	load_manifest(g);
}

static void
work(struct pskd_get *g)
{
	pthread_t *th;
	size_t i, nth;

	nth = (size_t)g->opt->jobs < g->njobs ? (size_t)g->opt->jobs :
	    g->njobs;
	if (nth <= 1) {
		worker(g);
		return;
	}
	th = pskd_xcalloc(nth, sizeof(*th));
	for (i = 0; i < nth; i++)
		if ((errno = pthread_create(&th[i], NULL, worker, g)) != 0)
			pskd_err(PSKD_EXIT_DATA, "pthread_create");
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	free(th);
}

int
pskd_get_run(struct pskd_get *g)
{
	const struct pskd_shard *before;
	size_t i, nfailed = 0;
	int status = 0;

	for (i = 0; i < g->njobs; i++) {
		struct pskd_get_job *j = &g->jobs[i];

		if (j->name == NULL)
			j->name = pskd_get_shard_name(g, j->url);
		(void)pskd_names_add(&g->names, j->name, i);
		if (j->kept) {
			pskd_shard_copy(&j->rec, &j->out);
			g->nkept++;
			continue;
		}
		j->out.url = pskd_xstrdup(j->url);
		j->out.file = pskd_xstrdup(j->name);
		j->out.status = PSKD_SHARD_PENDING;
		before = pskd_manifest_find(&g->old, j->name);
		if (before && before->status == PSKD_SHARD_COMPLETE &&
		    strcmp(before->url, j->url) == 0)
			pskd_shard_copy(&j->rec, before);
		else
			pskd_shard_copy(&j->rec, &j->out);
	}
	pskd_get_progress_start(g);
	work(g);
	pskd_get_progress_stop(g);
	if (!g->opt->stream && g->njobs == 0) {
		pthread_mutex_lock(&g->mu);
		save_manifest(g);
		pthread_mutex_unlock(&g->mu);
	}
	for (i = 0; i < g->njobs; i++)
		if (!g->jobs[i].kept &&
		    g->jobs[i].out.status != PSKD_SHARD_COMPLETE)
			nfailed++;
	if (pskd_progress_enabled() && g->ndone > 0)
		pskd_warnx("%zu shards, %zu failed", g->ndone, nfailed);
	for (i = 0; i < g->njobs; i++) {
		struct pskd_get_job *j = &g->jobs[i];

		if (!j->kept && j->out.status != PSKD_SHARD_COMPLETE) {
			pskd_warnx("%s: %s", j->url, j->error ? j->error :
			    "failed");
			status = PSKD_EXIT_DATA;
		}
	}
	if (g->save_errno != 0) {
		pskd_warnx("%s/%s: %s", g->opt->dir, PSKD_MANIFEST,
		    strerror(g->save_errno));
		status = PSKD_EXIT_DATA;
	}
	return status;
}
