/*
 * fuzz-ixmanifest - the manifest of a pskd-lsh index directory on any
 * bytes: its first two lines and inputs (pskd_ixdir_parse), then the LSH
 * index's own lines (lsh_manifest_read).  What is accepted must be
 * consistent: the inputs' documents follow one another and add up to the
 * documents the segments hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dedup/lshint.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_lsh_index ix;
	struct pskd_buf body = { 0 };
	char err[512];
	uint64_t next = 0;
	size_t i;

	memset(&ix, 0, sizeof(ix));
	ix.dir = "fuzz";
	ix.d.kind = PSKD_LSH_KIND;
	ix.d.version = PSKD_LSH_VERSION;
	if (pskd_ixdir_parse(&ix.d, data, size, &body, "fuzz/manifest", err,
	    sizeof(err)) == 0 &&
	    lsh_manifest_read(&ix, 0, 0, &body, err, sizeof(err)) == 0) {
		for (i = 0; i < ix.d.inputs.n; i++) {
			if (ix.d.inputs.v[i].first != next)
				abort();
			next += ix.d.inputs.v[i].added;
		}
		if (next != ix.ndocs || ix.b * ix.r != ix.fp.k)
			abort();
		for (i = 0; i < ix.nseg; i++)
			if (ix.seg[i].n == 0)
				abort();
	}
	pskd_ix_inputs_free(&ix.d.inputs);
	free(ix.seg);
	pskd_buf_free(&body);
	return 0;
}
