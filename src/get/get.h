/*
 * get.h - pskd-get's engine: the options, the table of shards a run works
 * on, and the modes src/pskd-get.c dispatches to.
 *
 *   list.c      URL lists and -u: the shards to fetch and their names
 *   run.c       a run: the folder's lock, workers, the manifest
 *   fetch.c     one shard: resume or verify what is there, attempts, finish
 *   resume.c    a partial download picked up, a complete one re-verified
 *   xfer.c      one attempt: curl, its response, the body, checkpoints
 *   progress.c  what is shown on stderr while shards download
 *   verify.c    --verify and --annotate: the folder against its manifest
 *   curl.c, manifest.c, sha256.c: the curl program, the records on disk,
 *               SHA-256
 */
#ifndef PSKD_GET_H
#define PSKD_GET_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "manifest.h"
#include "sha256.h"

struct pskd_get_opt {
	const char	*dir;		/* -d (no trailing '/'), "." by default */
	int		 stream;	/* -u without -d: bytes to stdout */
	unsigned	 jobs;		/* -j */
	int		 resume_only;
	int		 force;		/* replace what pskd-get did not make */
	unsigned	 retries;
	double		 retry_wait;
	double		 stall;		/* seconds without a byte */
	double		 ckpt_every;	/* seconds between checkpoints */
};

struct pskd_get_job {
	char		*url;
	char		*name;
	char		 want_sha[PSKD_SHA256_HEX];	/* from the list */
	uint64_t	 want_size;
	int		 want_size_known;
	int		 kept;		/* -u -d: another shard of the manifest */
	struct pskd_shard out;	/* what the manifest says of it */
	char		*error;		/* why it failed */
	char		*done_ckpt;	/* to remove once the manifest has it */
	uint64_t	 have;		/* progress */
	uint64_t	 expected;
};

/* One run: the shards, in list order, and what the workers share. */
struct pskd_get {
	const struct pskd_get_opt *opt;
	struct pskd_get_job *jobs;
	size_t		 njobs, cap;
	size_t		 next;		/* the next job a worker takes */
	size_t		 ndone;
	uint64_t	 done_bytes;	/* of finished shards, for progress */
	struct pskd_manifest old;	/* the folder's manifest before */
	pthread_mutex_t	 mu;
};

void	pskd_get_init(struct pskd_get *g, const struct pskd_get_opt *opt);

/* list.c */
int	pskd_get_scheme_ok(const char *url);
void	pskd_get_read_list(struct pskd_get *g, const char *path);
/* -u URL -d DIR: the other shards of the manifest stay as they are. */
void	pskd_get_plan_one(struct pskd_get *g, const char *url,
	    const char *sha);
/* -u URL: one shard to the standard output. */
void	pskd_get_plan_stream(struct pskd_get *g, const char *url,
	    const char *sha);
char	*pskd_get_shard_name(const struct pskd_get *g, const char *url,
	    size_t index);

/* run.c */
/*
 * Create and lock the folder, finish an interrupted manifest save, and
 * load the manifest, which its lock must vouch for (or --force).
 */
void	pskd_get_open_folder(struct pskd_get *g);
/* Download every planned shard; the exit status. */
int	pskd_get_run(struct pskd_get *g);

/* fetch.c: one shard, start to end.  0 complete, -1 failed (j->error). */
int	pskd_get_fetch(struct pskd_get *g, struct pskd_get_job *j);

/* progress.c */
void	pskd_get_progress(struct pskd_get *g, struct pskd_get_job *j,
	    double t0, uint64_t got0, int final);

/* verify.c */
int	pskd_get_verify(const char *dir);
/* Add key=json members (argv[0..argc)) to one shard's record. */
int	pskd_get_annotate(const char *dir, const char *file, int argc,
	    char **argv);

/* Small helpers of the family. */
char	*pskd_get_asprintf(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
double	pskd_get_now(void);
void	pskd_get_sleep(double s);
void	pskd_get_set_error(struct pskd_get_job *j, char *msg);

#endif
