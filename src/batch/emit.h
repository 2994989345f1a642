/*
 * emit.h - samples of .psk.d files to a .psk.d stream, one by one or in
 * batches of B stored leaf by leaf, as pskd-shuffle and pskd-mix write
 * them: read with pread(2) (or spliced into a pipe), every sample checked
 * against its type as it goes out.  Family code: it exits on errors.
 */
#ifndef PSKD_EMIT_H
#define PSKD_EMIT_H

#include <stdint.h>

#include "pskd.h"

/* A file samples are read from. */
struct emit_src {
	struct pskd_file f;		/* mapped: header, count, type */
	int		 fd;		/* read from */
	int		 check;		/* its type has bounds to check */
};

struct emit {
	struct pskd_output *o;
	struct pskd_sink out;
	const struct pskd_type *t;
	uint64_t	 per;		/* samples a batch; 0: no batches */
	struct pskd_type bt;		/* the batch type */
	int		 splice_ok;	/* the output takes splice(2) */
	unsigned char	*buf;		/* a batch of whole samples, or NULL */
	const struct emit_src **bsrc;	/* each sample of the batch */
	uint64_t	*bidx;
	uint64_t	 nb;		/* samples of the batch so far */
};

/*
 * What a run writes of an epoch of n positions: rank's slice of world
 * (floor(n / world) positions), from start on, in batches of batch (0:
 * none), the first take of them (take_set): nout samples or batches of
 * per samples, and rest left over, fewer than a batch.  A start past the
 * end of the slice exits 1 ("NAME: --start ..."; name NULL: no NAME).
 */
struct emit_plan {
	uint64_t	 nout, per, rest;
};

void	emit_plan(struct emit_plan *p, uint64_t n, uint64_t rank,
	    uint64_t world, uint64_t start, uint64_t batch, int take_set,
	    uint64_t take, const char *name, const char *unit);
/* Say that the short last batch was dropped, if one was. */
void	emit_rest(const struct emit_plan *p, const char *name);

/*
 * Open (path) for reading its samples; -1 with e set.  "-" (standard
 * input, which cannot be read in random order) exits 2.
 */
int	emit_src_open(struct emit_src *s, const char *path,
	    struct pskd_error *e);
void	emit_src_close(struct emit_src *s);
/*
 * Begin the stream on o of nout samples of type t (with per > 0, nout
 * batches of per samples, type t with a leading [batch: per]).  name is
 * for messages.
 */
void	emit_begin(struct emit *e, struct pskd_output *o,
	    const struct pskd_type *t, uint64_t per, uint64_t nout,
	    const char *name);
/* Sample j of s, to the stream or to the batch in progress. */
void	emit_sample(struct emit *e, const struct emit_src *s, uint64_t j);
/* 1 once the output failed (the error is reported by emit_end). */
int	emit_failed(const struct emit *e);
/* Patch the count, close the output (exit 1 on failure). */
void	emit_end(struct emit *e);

#endif /* PSKD_EMIT_H */
