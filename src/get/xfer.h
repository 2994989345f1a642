/*
 * xfer.h - the state of one shard's download, shared by fetch.c (the
 * shard from start to end), resume.c (what is already on disk) and xfer.c
 * (one attempt through curl).
 */
#ifndef PSKD_XFER_H
#define PSKD_XFER_H

#include <stdint.h>

#include "get.h"
#include "sha256.h"

enum pskd_xfer_outcome {
	XFER_DONE,	/* curl finished the response */
	XFER_RETRY,	/* a transient fault: back off, resume */
	XFER_RESTART,	/* start again from byte 0, at once */
	XFER_FAIL,	/* a permanent fault */
	XFER_RANGE_END	/* 416: nothing past our bytes */
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
	char		*etag, *lastmod;
	double		 last_ckpt;
	double		 retry_after;	/* from the last response, or -1 */
	const char	*why;		/* the last fault, for messages */
	uint64_t	 skip;		/* stream mode: bytes to drop */
	char		 prefix_sha[PSKD_SHA256_HEX];	/* of the bytes out */
	char		 ref_sha[PSKD_SHA256_HEX];	/* of a whole shard */
	uint64_t	 ref_size;	/* from an interrupted finish */
};

/* xfer.c */
/* One curl run; on XFER_RANGE_END, *total is the size the server gave. */
enum pskd_xfer_outcome pskd_xfer_attempt(struct pskd_xfer *x,
	    uint64_t *total, int *status);
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
