/*
 * xfer.h - the state of one shard's download, shared by fetch.c (the
 * shard from start to end), resume.c (what is already on disk) and xfer.c
 * (one attempt through curl).
 */
#ifndef PSKD_XFER_H
#define PSKD_XFER_H

#include <pthread.h>
#include <stdint.h>

#include "get.h"
#include "sha256.h"

enum pskd_xfer_outcome {
	XFER_DONE,	/* curl finished the response */
	XFER_RETRY,	/* a transient fault: back off, resume */
	XFER_RESTART,	/* start again from byte 0, at once */
	XFER_FAIL,	/* a permanent fault */
	XFER_RANGE_END,	/* 416: nothing past our bytes */
	XFER_EXPIRED	/* a signed URL reused after a fault has expired */
};

struct pskd_xfer {
	struct pskd_get	*g;
	struct pskd_get_job *j;
	int		 fd;		/* NAME.partial; -1 for stdout */
	int		 opened;	/* NAME.partial opened by this run */
	char		*part, *ckpt;
	struct pskd_sha256 h;		/* of bytes [0, have) */
	uint64_t	 have;		/* bytes written and hashed */
	uint64_t	 vouched;	/* bytes the checkpoint on disk covers */
	uint64_t	 flushed;	/* bytes whose writeback was started */
	uint64_t	 expected;
	int		 expected_known;
	/*
	 * The validators of the bytes held: the content's (the hub's
	 * X-Linked-Etag, else the response's ETag) and Last-Modified.
	 */
	char		*etag, *lastmod;
	/*
	 * The URL a redirect led to, tried again after a fault before going
	 * back to the list's URL, and its server's own validators.  In
	 * memory only: a signed URL is a credential.
	 */
	char		*again_url;
	char		*again_etag, *again_lastmod;
	/* A sha256 the server announced (no sha256 in the list), and how. */
	char		 announced[PSKD_SHA256_HEX];
	const char	*announced_by;
	double		 last_ckpt;
	double		 retry_after;	/* from the last response, or -1 */
	const char	*why;		/* the last fault, for messages */
	uint64_t	 skip;		/* stream mode: bytes to drop */
	char		 prefix_sha[PSKD_SHA256_HEX];	/* of the bytes out */
	char		 ref_sha[PSKD_SHA256_HEX];	/* of a whole shard */
	uint64_t	 ref_size;	/* from an interrupted finish */
};

/* hasher.c: the running hash of the file's bytes, on its own thread. */
struct pskd_hasher {
	pthread_t	 th;
	pthread_mutex_t	 mu;		/* hashed, target, stop, err */
	pthread_cond_t	 more;
	pthread_mutex_t	 hmu;		/* h and hashed_h, for peek */
	int		 fd;
	struct pskd_sha256 *h;
	uint64_t	 hashed, hashed_h, target;
	int		 stop, err;
};

/* Hash fd's bytes from `from` on into h (which covers [0, from)). */
void	pskd_hasher_start(struct pskd_hasher *hs, int fd,
	    struct pskd_sha256 *h, uint64_t from);
/* The file now holds bytes up to upto. */
void	pskd_hasher_feed(struct pskd_hasher *hs, uint64_t upto);
/* How many bytes h covers now, and their digest. */
uint64_t pskd_hasher_peek(struct pskd_hasher *hs, char hex[PSKD_SHA256_HEX]);
/* Hash all that was fed and end the thread: 0, or -1 with errno. */
int	pskd_hasher_finish(struct pskd_hasher *hs);

/* xfer.c */
/* One attempt; on XFER_RANGE_END, *total is the size the server gave. */
enum pskd_xfer_outcome pskd_xfer_attempt(struct pskd_xfer *x,
	    uint64_t *total, int *status);
/* body.c */
/* The final response's body from curl's stdout into the shard. */
enum pskd_xfer_outcome pskd_xfer_body(struct pskd_xfer *x, int fd);
/* Write the checkpoint: data fdatasync'd first, then the record. */
int	pskd_xfer_checkpoint(struct pskd_xfer *x);
/* Start again from byte 0 in place. */
int	pskd_xfer_rewind(struct pskd_xfer *x);

/* resume.c */
/* 1 resumed, 0 nothing to resume, -1 an error (j->error). */
int	pskd_xfer_resume(struct pskd_xfer *x, const char *path);
/* A shard already in place: 1 complete, 0 not, -1 no way to tell. */
int	pskd_xfer_check_complete(struct pskd_xfer *x, const char *path);

#endif
