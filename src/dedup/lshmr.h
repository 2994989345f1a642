/*
 * lshmr.h - pskd-lsh's map-reduce modes for cross-shard deduplication
 * (pskd-lsh(1), "MAP-REDUCE"): map each shard to band keys in P partition
 * files, sort each partition and pair the documents that share a key,
 * cluster all pairs with the kept-document rule, apply the verdicts.
 */
#ifndef PSKD_LSHMR_H
#define PSKD_LSHMR_H

#include <stdint.h>

#include "pskd.h"
#include "frame.h"

struct pskd_lshmr {
	uint32_t	 b, r;
	uint32_t	 parts;		/* --map P */
	uint32_t	 shard;		/* -s */
	const char	*prefix;	/* -o */
	double		 t;
};

/* Map signature streams (paths, n of them; none: stdin). */
void	pskd_lshmr_map(const struct pskd_lshmr *mr, char **paths, int n);
/* Sorted key lines on stdin to candidate pairs on stdout. */
void	pskd_lshmr_pairs(void);
/* Pairs on stdin, the shards' .docs; writes each shard's .verdicts. */
void	pskd_lshmr_cluster(const struct pskd_lshmr *mr, char **prefixes,
	    int n, int quiet);

/*
 * Signature streams (none: stdin) and the verdicts --cluster wrote for
 * them: the kept lines to output (NULL: stdout), the dropped ones with
 * their verdicts to dropped (NULL: nowhere).
 */
void	pskd_lshmr_apply(const char *verdicts, char **paths, int n,
	    const char *output, const char *dropped);

#endif /* PSKD_LSHMR_H */
