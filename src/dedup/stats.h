/*
 * stats.h - pskd-lsh's statistics: the verdicts of an input counted, and
 * the line that names it on the standard error (pskd-lsh(1)).
 */
#ifndef PSKD_DEDUP_STATS_H
#define PSKD_DEDUP_STATS_H

#include <stdint.h>

struct pskd_lsh_stats {
	uint64_t	docs;		/* documents (frames) */
	uint64_t	kept;		/* verdicts keep */
	uint64_t	dup;		/* near_duplicate */
	uint64_t	empty;		/* empty */
	uint64_t	rejected;	/* rejected (pskd-shingle --rejects) */
};

void	pskd_lsh_stats_add(struct pskd_lsh_stats *to,
	    const struct pskd_lsh_stats *c);
/*
 * "pskd-lsh: NAME: documents N, kept N, near-duplicates N, empty N", then
 * ", rejected N" when there were any, and " (note)" when note is not NULL.
 */
void	pskd_lsh_stats_warn(const char *name, const struct pskd_lsh_stats *c,
	    const char *note);

#endif /* PSKD_DEDUP_STATS_H */
