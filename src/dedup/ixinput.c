/*
 * ixinput.c - the inputs of a persistent index, known by what they hold
 * (ixrun.h): which number an input claims, its digest as it streams, and
 * at its end the check of an input run again or the record of a new one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "ixrun.h"

/* The place of the input numbered num, or SIZE_MAX. */
static size_t
find(const struct pskd_ix_inputs *in, uint64_t num)
{
	size_t lo = 0, hi = in->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (in->v[mid].num < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < in->n && in->v[lo].num == num ? lo : SIZE_MAX;
}

int
pskd_ix_run_begin(struct pskd_ix_run *run, const struct pskd_ix_inputs *in,
    uint64_t num, char *err, size_t errsize)
{
	uint64_t last = in->n > 0 ? in->v[in->n - 1].num : 0;

	memset(run, 0, sizeof(*run));
	run->again = SIZE_MAX;
	if (num == PSKD_IX_NEXT)
		num = in->n > 0 ? last + 1 : 0;
	if (num == PSKD_IX_NEXT) {
		snprintf(err, errsize, "no input number after %" PRIu64, last);
		return -1;
	}
	run->num = num;
	if (in->n > 0 && num <= last &&
	    (run->again = find(in, num)) == SIZE_MAX) {
		snprintf(err, errsize, "input %" PRIu64 " is not one the index "
		    "holds, and it holds input %" PRIu64 ", deduplicated "
		    "without it: make the index again", num, last);
		return -1;
	}
	if ((run->state = XXH3_createState()) == NULL ||
	    XXH3_128bits_reset(run->state) == XXH_ERROR) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	return 0;
}

void
pskd_ix_run_record(struct pskd_ix_run *run, const void *p, size_t n)
{
	(void)XXH3_128bits_update(run->state, p, n);
	run->records++;
}

void
pskd_ix_run_more(struct pskd_ix_run *run, const void *p, size_t n)
{
	(void)XXH3_128bits_update(run->state, p, n);
}

void
pskd_ix_digest_hex(const unsigned char *d, char out[33])
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < PSKD_IX_DIGEST; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 15];
	}
	out[2 * PSKD_IX_DIGEST] = '\0';
}

int
pskd_ix_run_end(struct pskd_ix_run *run, struct pskd_ix_inputs *in,
    uint64_t first, uint64_t added, const char *name, char *err,
    size_t errsize)
{
	XXH128_canonical_t c;
	struct pskd_ix_input *rec;
	char a[33], b[33];

	XXH128_canonicalFromHash(&c, XXH3_128bits_digest(run->state));
	pskd_ix_run_abort(run);
	if (run->again != SIZE_MAX) {
		rec = &in->v[run->again];
		if (rec->records == run->records &&
		    memcmp(rec->digest, c.digest, PSKD_IX_DIGEST) == 0)
			return 0;
		pskd_ix_digest_hex(rec->digest, a);
		pskd_ix_digest_hex(c.digest, b);
		snprintf(err, errsize, "not input %" PRIu64 " as the index "
		    "holds it (%s): %" PRIu64 " frames of digest %s there, %"
		    PRIu64 " of digest %s here: make the index again", run->num,
		    rec->name, rec->records, a, run->records, b);
		return -1;
	}
	in->v = pskd_xreallocarray(in->v, in->n + 1, sizeof(*in->v));
	rec = &in->v[in->n++];
	rec->num = run->num;
	memcpy(rec->digest, c.digest, PSKD_IX_DIGEST);
	rec->records = run->records;
	rec->first = first;
	rec->added = added;
	rec->name = pskd_xstrdup(name);
	return 0;
}

void
pskd_ix_run_abort(struct pskd_ix_run *run)
{
	if (run->state != NULL)
		XXH3_freeState(run->state);
	run->state = NULL;
}

void
pskd_ix_inputs_free(struct pskd_ix_inputs *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		free(in->v[i].name);
	free(in->v);
	in->v = NULL;
	in->n = 0;
}
