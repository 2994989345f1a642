/*
 * lshmanifest.c - the LSH index's lines of its manifest (ixrun.h has the
 * first two and the inputs): the stream parameters and banding
 * (params.h), the counts that vouch for the other files, and the
 * segments; pskd-lsh(1), "INDEX DIRECTORY".
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lshint.h"
#include "params.h"

void
lsh_seg_add(struct pskd_lsh_index *ix, uint64_t id, uint32_t first, uint32_t n)
{
	struct pskd_lsh_seg *s;

	ix->seg = pskd_xreallocarray(ix->seg, ix->nseg + 1, sizeof(*ix->seg));
	s = &ix->seg[ix->nseg++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->first = first;
	s->n = n;
	code_init(&s->code, doc_bits(n));
}

/*
 * The line "KEY N ..." at *s with n decimals, each at most max; moves *s
 * past it.  0 or -1.
 */
static int
line(char **s, const char *key, int n, uint64_t max, uint64_t *v)
{
	size_t kl = strlen(key);
	char *nl, *p, *sp;
	int i;

	if (strncmp(*s, key, kl) != 0 || (*s)[kl] != ' ' ||
	    (nl = strchr(*s + kl, '\n')) == NULL)
		return -1;
	*nl = '\0';
	for (i = 0, p = *s + kl + 1; i < n; i++, p = sp + 1) {
		sp = i + 1 < n ? strchr(p, ' ') : nl;
		if (sp == NULL)
			return -1;
		*sp = '\0';
		if (pskd_strtonum(p, 0, max, 0, &v[i]) == -1)
			return -1;
	}
	*s = nl + 1;
	return 0;
}

/* The segments: "segment ID FIRST COUNT" lines. */
static int
segments(struct pskd_lsh_index *ix, char **s)
{
	uint64_t v[3];

	ix->ndocs = 0;
	while (strncmp(*s, "segment ", 8) == 0) {
		if (line(s, "segment", 3, UINT64_MAX, v) == -1)
			return -1;
		if (v[1] != ix->ndocs || v[2] == 0 || v[2] > UINT32_MAX - v[1] ||
		    v[0] >= ix->nextseg)
			return -1;
		lsh_seg_add(ix, v[0], (uint32_t)v[1], (uint32_t)v[2]);
		ix->ndocs += (uint32_t)v[2];
	}
	return 0;
}

/*
 * The inputs' documents: each input's kept documents follow the last
 * one's, and they are all the index holds.
 */
static int
input_ranges(const struct pskd_lsh_index *ix)
{
	const struct pskd_ix_inputs *in = &ix->d.inputs;
	uint64_t next = 0;
	size_t i;

	for (i = 0; i < in->n; i++) {
		if (in->v[i].first != next || in->v[i].added > ix->ndocs - next)
			return -1;
		next += in->v[i].added;
	}
	return next == ix->ndocs ? 0 : -1;
}

/* The index's lines of the manifest (ixrun.h); -1 if they are not. */
static int
parse(struct pskd_lsh_index *ix, char *s, size_t len)
{
	struct pskd_lsh_params p;
	uint64_t docs;
	size_t n;

	n = pskd_lsh_params_parse((unsigned char *)s, len, '\n', &p);
	if (n == 0 || s[n] != '\n')
		return -1;
	s += n + 1;
	ix->fp = p.fp;
	ix->b = p.b;
	ix->r = p.r;
	if (line(&s, "docs", 1, UINT32_MAX, &docs) == -1 ||
	    line(&s, "id_bytes", 1, UINT64_MAX, &ix->idbytes) == -1 ||
	    line(&s, "next_segment", 1, UINT64_MAX, &ix->nextseg) == -1)
		return -1;
	ix->nbase = (uint32_t)docs;
	if (segments(ix, &s) == -1 || *s != '\0')
		return -1;
	if (ix->fp.k == 0 || ix->b == 0 || ix->b * ix->r != ix->fp.k ||
	    ix->ndocs != ix->nbase || input_ranges(ix) == -1)
		return -1;
	return 0;
}

int
lsh_manifest_read(struct pskd_lsh_index *ix, uint32_t b, uint32_t r,
    struct pskd_buf *body, char *err, size_t errsize)
{
	if (parse(ix, (char *)body->p, body->len) == -1) {
		snprintf(err, errsize, "%s/manifest: not a pskd-lsh index "
		    "manifest", ix->dir);
		return -1;
	}
	if (b != 0 && (ix->b != b || ix->r != r)) {
		snprintf(err, errsize, "%s: the index was made with -b %" PRIu32
		    " -r %" PRIu32 ", not -b %" PRIu32 " -r %" PRIu32, ix->dir,
		    ix->b, ix->r, b, r);
		return -1;
	}
	ix->have_params = 1;
	ix->have_manifest = 1;
	ix->changed = 0;
	return 0;
}

void
lsh_manifest_body(struct pskd_writer *w, void *arg)
{
	const struct pskd_lsh_index *ix = arg;
	struct pskd_lsh_params p = { .fp = ix->fp, .b = ix->b, .r = ix->r };
	size_t i;

	pskd_lsh_params_write(w, &p, '\n');
	pskd_writer_printf(w, "\ndocs %" PRIu32 "\nid_bytes %" PRIu64
	    "\nnext_segment %" PRIu64 "\n", ix->ndocs, ix->idbytes,
	    ix->nextseg);
	for (i = 0; i < ix->nseg; i++)
		pskd_writer_printf(w, "segment %" PRIu64 " %" PRIu32 " %"
		    PRIu32 "\n", ix->seg[i].id, ix->seg[i].first,
		    ix->seg[i].n);
}
