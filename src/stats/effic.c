/*
 * effic.c - the "efficiency" member of a token stream's object: the
 * windows pskd-window would make of it, and its tokens kept, cropped and
 * padded (pskd-stats(1)).  The counts of --align and --pack come from
 * running pskd-window's packer on the documents' lengths (samples.c);
 * those of plain windows depend on the number of tokens alone.
 */
#include <stdio.h>
#include <string.h>

#include "pskd.h"
#include "stats/stats.h"

static const char *const packing_names[] = {
	"none", "plain", "bos", "best-fit"
};

void
stats_eff_plain(struct stats_eff *e, uint64_t n)
{
	uint64_t R = e->length + 1;

	e->windows = n < R ? 0 : 1 + (n - R) / e->stride;
	if (e->windows == 0)
		e->kept = 0;
	else if (e->stride <= R)
		e->kept = (e->windows - 1) * e->stride + R;
	else
		e->kept = e->windows * R;
	e->cropped = n - e->kept;
	e->padded = 0;
}

void
stats_eff_json(struct pskd_buf *b, const struct stats_eff *e)
{
	char t[400];
	int n;

	if (e->packing == STATS_PACK_NONE)
		return;
	n = snprintf(t, sizeof(t), ",\"efficiency\":{\"length\":%llu,"
	    "\"packing\":\"%s\"", (unsigned long long)e->length,
	    packing_names[e->packing]);
	if (e->packing == STATS_PACK_PLAIN)
		n += snprintf(t + n, sizeof(t) - (size_t)n, ",\"stride\":%llu",
		    (unsigned long long)e->stride);
	if (e->packing == STATS_PACK_BESTFIT)
		n += snprintf(t + n, sizeof(t) - (size_t)n, ",\"buffer\":%llu",
		    (unsigned long long)e->buffer);
	n += snprintf(t + n, sizeof(t) - (size_t)n, ",\"windows\":%llu,"
	    "\"kept\":%llu,\"cropped\":%llu,\"padded\":%llu}",
	    (unsigned long long)e->windows, (unsigned long long)e->kept,
	    (unsigned long long)e->cropped, (unsigned long long)e->padded);
	pskd_buf_add(b, t, (size_t)n);
}

static int
fail(char *err, size_t errsize, const char *what)
{
	snprintf(err, errsize, "efficiency: %s", what);
	return -1;
}

static int
member(const struct jv *v, const char *key, uint64_t *x)
{
	return jv_u64(jv_member(v, key), x);
}

int
stats_eff_parse(struct stats_eff *e, const struct jv *v, uint64_t n,
    char *err, size_t errsize)
{
	const struct jv *o = jv_member(v, "efficiency"), *p;
	struct stats_eff want;
	size_t i;

	memset(e, 0, sizeof(*e));
	if (o == NULL)
		return 0;
	p = jv_member(o, "packing");
	if (o->type != JV_OBJECT || p == NULL || p->type != JV_STRING)
		return fail(err, errsize, "not an object with a packing");
	for (i = 1; i < sizeof(packing_names) / sizeof(packing_names[0]); i++)
		if (strcmp(p->str, packing_names[i]) == 0)
			e->packing = (enum stats_packing)i;
	if (e->packing == STATS_PACK_NONE)
		return fail(err, errsize, "packing is not plain, bos or "
		    "best-fit");
	if (member(o, "length", &e->length) == -1 || e->length == 0 ||
	    (e->packing == STATS_PACK_PLAIN &&
	    (member(o, "stride", &e->stride) == -1 || e->stride == 0)) ||
	    (e->packing == STATS_PACK_BESTFIT &&
	    (member(o, "buffer", &e->buffer) == -1 || e->buffer == 0)) ||
	    member(o, "windows", &e->windows) == -1 ||
	    member(o, "kept", &e->kept) == -1 ||
	    member(o, "cropped", &e->cropped) == -1 ||
	    member(o, "padded", &e->padded) == -1)
		return fail(err, errsize, "a count or a parameter is missing");
	if (e->kept > n || e->cropped != n - e->kept)
		return fail(err, errsize, "kept and cropped are not the "
		    "tokens");
	if (e->packing == STATS_PACK_PLAIN) {
		want = *e;
		stats_eff_plain(&want, n);
		if (want.windows != e->windows || want.kept != e->kept ||
		    e->padded != 0)
			return fail(err, errsize, "not the windows of its "
			    "tokens");
	}
	return 0;
}

int
stats_eff_merge(struct stats_eff *a, const struct stats_eff *b, uint64_t na,
    uint64_t nb, char *err, size_t errsize)
{
	if (a->packing != b->packing || a->length != b->length ||
	    a->stride != b->stride || a->buffer != b->buffer) {
		snprintf(err, errsize, "cannot merge: the windows counted "
		    "(--length, --stride, --align, --pack, --buffer) differ");
		return -1;
	}
	if (a->packing == STATS_PACK_NONE)
		return 0;
	if (a->packing == STATS_PACK_PLAIN) {
		stats_eff_plain(a, na + nb);
		return 0;
	}
	if (a->windows + b->windows < a->windows || a->kept + b->kept <
	    a->kept || a->padded + b->padded < a->padded) {
		snprintf(err, errsize, "cannot merge: a count would pass "
		    "2^64-1");
		return -1;
	}
	a->windows += b->windows;
	a->kept += b->kept;
	a->cropped += b->cropped;
	a->padded += b->padded;
	return 0;
}
