/*
 * frames.c - shingle and signature streams (pskd-frames(5)): the stream's
 * parameters, the documents' line lengths and their number of values.
 */
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "stats/collect.h"

void
collect_frames(struct pskd_reader *r, struct stats *s)
{
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	const unsigned char *p;
	ssize_t got;
	int rc;

	/* The frame reader takes over the reader that was sniffed. */
	memset(&fr, 0, sizeof(fr));
	fr.r = *r;
	got = pskd_reader_peek(&fr.r, PSKD_FRAME_HEADER_SIZE, &p);
	if (got < 0)
		pskd_err(PSKD_EXIT_DATA, "%s", fr.r.name);
	if (pskd_frame_header_parse(p, (size_t)got < PSKD_FRAME_HEADER_SIZE ?
	    (size_t)got : PSKD_FRAME_HEADER_SIZE, 0, &fr.fp, fr.err,
	    sizeof(fr.err)) == -1)
		pskd_frame_fail(&fr, NULL);
	pskd_reader_skip(&fr.r, PSKD_FRAME_HEADER_SIZE);
	s->kind = fr.fp.kind == PSKD_FRAME_SHINGLES ? STATS_SHINGLES :
	    STATS_SIGNATURES;
	s->unit = fr.fp.unit;
	s->width = fr.fp.n;
	s->norm = fr.fp.norm;
	s->shingle_seed = fr.fp.shingle_seed;
	s->k = fr.fp.k;
	s->family = fr.fp.family;
	s->minhash_seed = fr.fp.minhash_seed;
	while ((rc = pskd_frame_next(&fr, &f)) == 1) {
		s->n++;
		s->bytes += PSKD_FRAME_HEAD_SIZE + f.idlen + f.linelen +
		    (uint64_t)f.count * pskd_frame_value_size(fr.fp.kind);
		stats_dist_add(&s->line_bytes, f.linelen);
		stats_dist_add(&s->values, f.count);
		if ((s->n & 0xfff) == 0)
			collect_progress(&fr.r);
	}
	if (rc == -1)
		pskd_frame_fail(&fr, NULL);
	pskd_frame_reader_close(&fr);
	memset(r, 0, sizeof(*r));
}
