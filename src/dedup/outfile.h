/*
 * outfile.h - an output file of the dedup programs (-o, --verdicts,
 * --dropped, the map-reduce files): a writer on a pskd_outfile, renamed
 * into place by pskd_dedup_out_commit() only; exit 1 on any error.
 */
#ifndef PSKD_DEDUP_OUTFILE_H
#define PSKD_DEDUP_OUTFILE_H

#include "pskd.h"

void	pskd_dedup_out_open(struct pskd_outfile *of, struct pskd_writer *w,
	    const char *path);
/* Flush, free the buffer, fsync and rename into place. */
void	pskd_dedup_out_commit(struct pskd_outfile *of, struct pskd_writer *w);

#endif /* PSKD_DEDUP_OUTFILE_H */
