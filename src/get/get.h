/*
 * get.h - pskd-get's engine: the options, the table of shards a run works
 * on, and the modes src/pskd-get.c dispatches to.
 *
 *   list.c      URL lists and -u: the shards to fetch and their names
 *   run.c       a run: the folder's lock, workers, the manifest
 *   fetch.c     one shard: resume or verify what is there, attempts, finish
 *   resume.c    a partial download picked up, a complete one re-verified
 *   xfer.c      one attempt: the hops of its redirects, the response
 *   body.c      the response's body into the shard, checkpoints
 *   hasher.c    the running SHA-256 of a shard, on a thread of its own
 *   auth.c      what each host is sent: headers, tokens, netrc
 *   curlcfg.c   --curl-config
 *   progress.c  what is shown on stderr while shards download
 *   verify.c    --verify and --annotate: the folder against its manifest
 *   curl.c, manifest.c, store.c, names.c, sha256.c: the curl program,
 *               the records (store.c: the manifest on disk), a set of
 *               names, SHA-256
 */
#ifndef PSKD_GET_H
#define PSKD_GET_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "manifest.h"
#include "sha256.h"

/* Credentials and curl settings, and the hosts they may go to. */
struct pskd_get_auth {
	char		**headers;	/* -H, --header-file: "Name: value" */
	size_t		 nheaders;
	char		*bearer;	/* "Authorization: Bearer " HF_TOKEN */
	char		**hosts;	/* --token-hosts */
	size_t		 nhosts;
	int		 netrc;		/* --netrc */
	const char	*netrc_file;	/* --netrc-file */
	struct pskd_buf	 config_all;	/* --curl-config: for every request */
	struct pskd_buf	 config_cred;	/* ... its credentials */
};

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
	struct pskd_get_auth auth;
};

struct pskd_get_job {
	char		*url;
	char		*name;
	char		 want_sha[PSKD_SHA256_HEX];	/* from the list */
	uint64_t	 want_size;
	int		 want_size_known;
	int		 kept;		/* -u -d: another shard of the manifest */
	struct pskd_shard out;	/* what the shard's fetch made of it */
	/*
	 * What the manifest says of it while the run goes (under the mutex):
	 * its record in the folder's manifest before, if that was a complete
	 * shard of this URL, until its fetch ends and out replaces it; so a
	 * run stopped midway still vouches for the shards it had not
	 * reached, and one over complete shards writes the same manifest.
	 */
	struct pskd_shard rec;
	char		*error;		/* why it failed */
	char		*done_ckpt;	/* to remove once the manifest has it */
	uint64_t	 have;		/* progress (atomic: read by progress.c) */
	uint64_t	 expected;
	/* progress.c's: whether it is downloading, since when, its rate. */
	int		 active;
	double		 started, p_t, p_rate, p_logged;
	uint64_t	 p_first, p_bytes;
	int		 p_known;
};

/* One run: the shards, in list order, and what the workers share. */
struct pskd_get {
	const struct pskd_get_opt *opt;
	struct pskd_get_job *jobs;
	size_t		 njobs, cap;
	size_t		 next;		/* the next job a worker takes */
	size_t		 ndone, nfailed, nkept;
	int		 save_errno;	/* the first manifest save that failed */
	uint64_t	 done_bytes;	/* of finished shards, for progress */
	struct pskd_manifest old;	/* the folder's manifest before */
	struct pskd_names names;	/* of the jobs named so far */
	/*
	 * The manifest's bytes on disk, which its lock vouches for (ondisk
	 * 0: none such): a save of the same bytes writes nothing, so a run
	 * that changes nothing works in a read-only folder.
	 */
	struct pskd_buf	 ondisk_man;
	int		 ondisk;
	int		 dirty;		/* a record changed since that save */
	pthread_mutex_t	 mu;
	/* progress.c's thread, and the lines it has drawn (under pmu). */
	pthread_t	 p_th;
	pthread_cond_t	 p_wake;
	pthread_mutex_t	 pmu;
	int		 p_on, p_stop, p_tty, p_lines;
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
/* A name for url's shard, none of g->names: the shards' before it. */
char	*pskd_get_shard_name(const struct pskd_get *g, const char *url);

/* run.c */
/*
 * Create and lock the folder, finish an interrupted manifest save, and
 * load the manifest, which its lock must vouch for (or --force).
 */
void	pskd_get_open_folder(struct pskd_get *g);
/*
 * Raise the soft limit on open files to what `jobs` jobs need, as far as
 * the hard limit allows; exit 1 with one line if it does not allow that.
 */
void	pskd_get_fd_limit(unsigned jobs);
/* Download every planned shard; the exit status. */
int	pskd_get_run(struct pskd_get *g);

/* fetch.c: one shard, start to end.  0 complete, -1 failed (j->error). */
int	pskd_get_fetch(struct pskd_get *g, struct pskd_get_job *j);

/* progress.c */
void	pskd_get_progress_start(struct pskd_get *g);
void	pskd_get_progress_stop(struct pskd_get *g);
/* A shard starts or ends downloading; the caller holds g->mu. */
void	pskd_get_progress_begin(struct pskd_get *g, struct pskd_get_job *j);
void	pskd_get_progress_end(struct pskd_get *g, struct pskd_get_job *j);
/* A warning during a run: above what progress.c drew on a terminal. */
void	pskd_get_warnx(struct pskd_get *g, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* verify.c */
int	pskd_get_verify(const char *dir);
/* Add key=json members (argv[0..argc)) to one shard's record. */
int	pskd_get_annotate(const char *dir, const char *file, int argc,
	    char **argv);

/* auth.c */
void	pskd_get_auth_init(struct pskd_get_auth *a);
/* A -H header; -1 when it is not "Name: value" in one line. */
int	pskd_get_auth_header(struct pskd_get_auth *a, const char *h);
/* --header-file: one header a line, blank and '#' lines ignored. */
void	pskd_get_auth_header_file(struct pskd_get_auth *a, const char *path);
/* HF_TOKEN; -1 when it could not be a bearer token. */
int	pskd_get_auth_token(struct pskd_get_auth *a, const char *token);
/* --token-hosts: "name", "name:port" or ".name", comma-separated. */
int	pskd_get_auth_token_hosts(struct pskd_get_auth *a, const char *list);
/*
 * The curl config lines for a request of url on behalf of the shard of
 * list_url: credentials only when url is on the list URL's host and port,
 * or one of the token hosts (the bearer token only for those).
 */
void	pskd_get_auth_config(const struct pskd_get_auth *a,
	    const char *list_url, const char *url, struct pskd_buf *cfg);
int	pskd_get_url_host(const char *url, char *host, size_t size,
	    unsigned *port);
int	pskd_get_url_has_userinfo(const char *url);

/* curlcfg.c: --curl-config FILE, checked line by line (exit 2). */
void	pskd_get_auth_curl_config(struct pskd_get_auth *a, const char *path);

/* Small helpers of the family. */
char	*pskd_get_asprintf(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
double	pskd_get_now(void);
void	pskd_get_sleep(double s);
void	pskd_get_set_error(struct pskd_get_job *j, char *msg);

#endif
