/*
 * xindex.c - the units pskd-exact has seen (exact.h): this run's in a
 * table in memory, earlier runs' in the segments of an index directory
 * (pskd-exact(1), INDEX DIRECTORY), or all of them in a Bloom filter;
 * open, look up, add, spill.  xsave.c writes and commits the manifest.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exact/exact.h"

char *
x_path(const struct x_index *ix, const char *fmt, uint64_t id)
{
	char name[64];

	snprintf(name, sizeof(name), fmt, id);
	return pskd_ixdir_path(&ix->d, name);
}

/* The filter: bloom-ID mapped copy-on-write, or zeroed memory. */
static int
bloom_map(struct x_index *ix, char *err, size_t errsize)
{
	struct x_bloom *b = &ix->bf;
	struct stat st;
	char *path;
	int fd;

	b->nbits = ix->nbits;
	b->k = ix->k;
	b->size = (size_t)(ix->nbits / 8);
	if (ix->bloomid == 0) {
		b->bits = mmap(NULL, b->size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b->bits == MAP_FAILED) {
			b->bits = NULL;
			snprintf(err, errsize, "a Bloom filter of %zu bytes: %s",
			    b->size, strerror(errno));
			return -1;
		}
		return 0;
	}
	path = x_path(ix, "bloom-%" PRIu64, ix->bloomid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1 ||
	    (uint64_t)st.st_size != ix->nbits / 8) {
		snprintf(err, errsize, "%s: %s", path, fd == -1 ? strerror(errno)
		    : "not the size the manifest says (the index is damaged)");
		goto fail;
	}
	b->bits = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
	    0);
	if (b->bits == MAP_FAILED) {
		b->bits = NULL;
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto fail;
	}
	close(fd);
	free(path);
	return 0;
fail:
	if (fd != -1)
		close(fd);
	free(path);
	return -1;
}

static int
map_segments(struct x_index *ix, char *err, size_t errsize)
{
	char *path;
	size_t i;

	for (i = 0; i < ix->nseg; i++) {
		path = x_path(ix, "seg-%" PRIu64, ix->seg[i].id);
		if (x_seg_map(&ix->seg[i], path, err, errsize) == -1) {
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

/* The index's parameters against the run's: each that differs named. */
static int
same(const struct x_index *ix, const struct x_params *p, int bloom,
    uint64_t nbits, uint32_t k, char *err, size_t errsize)
{
	char a[32], b[32];

	x_grain_name(&ix->p, a, sizeof(a));
	x_grain_name(p, b, sizeof(b));
	if (strcmp(a, b) != 0) {
		snprintf(err, errsize, "%s: the index was made with -g %s, "
		    "not -g %s", ix->dir, a, b);
		return -1;
	}
	if (ix->p.raw != p->raw || (!p->raw && ix->p.norm != p->norm)) {
		snprintf(err, errsize, "%s: the index was made with other "
		    "normalisation steps (-n)", ix->dir);
		return -1;
	}
	if (ix->bloom != bloom || (bloom && (ix->nbits != nbits ||
	    ix->k != k))) {
		if (ix->bloom)
			snprintf(err, errsize, "%s: the index is a Bloom filter "
			    "of %" PRIu64 " bits and %" PRIu32 " hashes%s",
			    ix->dir, ix->nbits, ix->k, bloom ? ", not the one "
			    "--bloom and --fp-rate ask for" : ": give its "
			    "--bloom and --fp-rate");
		else
			snprintf(err, errsize, "%s: the index holds its units "
			    "exactly, not in a Bloom filter", ix->dir);
		return -1;
	}
	return 0;
}

int
x_index_open(struct x_index *ix, const char *dir, const struct x_params *p,
    int bloom, uint64_t nbits, uint32_t k, uint64_t memlimit, char *err,
    size_t errsize)
{
	struct pskd_buf body = { 0 };
	uint64_t want;
	size_t i;
	int rc;

	memset(ix, 0, sizeof(*ix));
	ix->p = *p;
	ix->bloom = bloom;
	ix->nbits = nbits;
	ix->k = k;
	ix->memlimit = memlimit;
	ix->nextfile = 1;
	ix->d.lockfd = -1;
	/* The document a unit first came in: for -i, and doc's verdicts. */
	ix->vals = dir != NULL || p->grain == X_DOC;
	if (!bloom)
		x_table_init(&ix->mem, ix->vals);
	if (dir == NULL)
		return bloom ? bloom_map(ix, err, errsize) : 0;
	ix->dir = pskd_xstrdup(dir);
	rc = pskd_ixdir_open(&ix->d, dir, X_KIND, X_VERSION, 0, &body, err,
	    errsize);
	if (rc == 1) {
		if (x_manifest_parse(ix, (char *)body.p) == -1) {
			snprintf(err, errsize, "%s/manifest: not a %s manifest",
			    dir, X_KIND);
			rc = -1;
		} else if (same(ix, p, bloom, nbits, k, err, errsize) == -1)
			rc = -1;
		ix->have_manifest = 1;
	}
	pskd_buf_free(&body);
	if (rc == -1)
		return -1;
	ix->p = *p;
	if (ix->d.swept)
		pskd_warnx("%s: a run that was not committed is dropped "
		    "(pskd-exact --commit %s commits the run before)", dir, dir);
	/* Each input's documents follow the last one's, and are all. */
	want = ix->docs;
	ix->docs = 0;
	for (i = 0; i < ix->d.inputs.n; i++) {
		if (ix->d.inputs.v[i].first != ix->docs) {
			snprintf(err, errsize, "%s/manifest: not a %s manifest",
			    dir, X_KIND);
			return -1;
		}
		x_index_input(ix, ix->d.inputs.v[i].num);
		ix->docs += ix->d.inputs.v[i].added;
	}
	if (ix->docs != want) {
		snprintf(err, errsize, "%s/manifest: not a %s manifest", dir,
		    X_KIND);
		return -1;
	}
	ix->base = ix->docs;
	if (!ix->d.readonly)
		x_remove_unlisted(ix);
	if (bloom)
		return bloom_map(ix, err, errsize);
	return map_segments(ix, err, errsize);
}

int
x_index_find(struct x_index *ix, uint64_t h, int committed, uint64_t *doc)
{
	uint32_t v;
	size_t i;
	int rc;

	for (i = 0; i < ix->nseg; i++)
		if ((rc = x_seg_find(&ix->seg[i], h, doc)) != 0)
			return rc;
	if (!committed && x_table_find(&ix->mem, h, &v)) {
		*doc = ix->base + v;
		return 1;
	}
	return 0;
}

void
x_index_prefetch(const struct x_index *ix, uint64_t h)
{
	if (ix->bloom)
		x_bloom_prefetch(&ix->bf, h);
	else
		x_table_prefetch(&ix->mem, h);
}

int
x_index_put(struct x_index *ix, uint64_t h, uint64_t doc, uint64_t *first,
    char *err, size_t errsize)
{
	uint32_t v;
	int rc;

	if ((rc = x_index_find(ix, h, 1, first)) != 0) {
		if (rc == -1)
			snprintf(err, errsize, "%s: a segment is damaged",
			    ix->dir);
		return rc;
	}
	/* A table without values holds no document to count past 4G. */
	if (ix->vals && doc - ix->base >= UINT32_MAX) {
		if (x_table_find(&ix->mem, h, &v)) {
			*first = ix->base + v;
			return 1;
		}
		snprintf(err, errsize, "more than %u documents in one run",
		    UINT32_MAX - 1);
		return -1;
	}
	if (x_table_put(&ix->mem, h, (uint32_t)(doc - ix->base), &v)) {
		*first = ix->base + v;
		return 1;
	}
	ix->units++;
	if (ix->dir != NULL && ix->mem.n >= X_SPILL_MIN &&
	    x_table_memory(&ix->mem) > ix->memlimit &&
	    x_index_spill(ix, err, errsize) == -1)
		return -1;
	return 0;
}

int
x_index_bloom(struct x_index *ix, uint64_t h)
{
	if (x_bloom_add(&ix->bf, h))
		return 1;
	ix->units++;
	ix->bloomdirty = 1;
	return 0;
}

void
x_index_input(struct x_index *ix, uint64_t num)
{
	ix->in = pskd_xreallocarray(ix->in, ix->nin + 1, sizeof(*ix->in));
	ix->in[ix->nin].num = num;
	ix->in[ix->nin].first = ix->docs;
	ix->nin++;
}

void
x_index_name(const struct x_index *ix, uint64_t doc, uint64_t *num,
    uint64_t *line)
{
	size_t lo = 0, hi = ix->nin, mid;

	/* The last input whose first document is at or before doc. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (ix->in[mid].first <= doc)
			lo = mid;
		else
			hi = mid;
	}
	*num = ix->nin > 0 ? ix->in[lo].num : 0;
	*line = doc - (ix->nin > 0 ? ix->in[lo].first : 0) + 1;
}

void
x_index_record(struct x_index *ix, int repeated)
{
	if ((ix->recbits & 7) == 0)
		pskd_buf_addc(&ix->rec, 0);
	if (repeated)
		ix->rec.p[ix->rec.len - 1] |= (unsigned char)(1u <<
		    (ix->recbits & 7));
	ix->recbits++;
}

int
x_index_record_end(struct x_index *ix, uint64_t num, char *err,
    size_t errsize)
{
	char *path;
	struct pskd_outfile of;
	int rc = 0;

	if (ix->dir == NULL)
		goto out;
	path = x_path(ix, "rec-%" PRIu64, num);
	if (pskd_outfile_open(&of, path) == -1 ||
	    pskd_write_all(of.fd, ix->rec.p, ix->rec.len) == -1 ||
	    pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		if (of.fd != -1)
			pskd_outfile_abort(&of);
		rc = -1;
	}
	free(path);
out:
	ix->rec.len = 0;
	ix->recbits = 0;
	return rc;
}

int
x_index_record_read(struct x_index *ix, uint64_t num, struct pskd_buf *b,
    char *err, size_t errsize)
{
	char *path = x_path(ix, "rec-%" PRIu64, num);
	int rc = 0;

	b->len = 0;
	if (pskd_slurp(path, 0, b) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

size_t
x_index_memory(const struct x_index *ix)
{
	return ix->bloom ? ix->bf.size : x_table_memory(&ix->mem);
}

/*
 * This run's table to a new segment, merged with the last segments while
 * they are at most twice its size (about log2 of them, each hash
 * rewritten about log2 times); the merged files stay until the commit.
 */
int
x_index_spill(struct x_index *ix, char *err, size_t errsize)
{
	uint64_t acc = ix->mem.n;
	struct x_seg out;
	size_t m = 0, i;
	char *path;

	if (ix->dir == NULL || ix->bloom || ix->mem.n == 0)
		return 0;
	while (m < ix->nseg && acc * 2 >= ix->seg[ix->nseg - 1 - m].n)
		acc += ix->seg[ix->nseg - 1 - m++].n;
	path = x_path(ix, "seg-%" PRIu64, ix->nextfile);
	if (x_seg_write(path, ix->seg + ix->nseg - m, m, &ix->mem, ix->base,
	    &out, err, errsize) == -1) {
		free(path);
		return -1;
	}
	out.id = ix->nextfile++;
	for (i = ix->nseg - m; i < ix->nseg; i++)
		x_seg_unmap(&ix->seg[i]);
	ix->nseg -= m;
	ix->seg = pskd_xreallocarray(ix->seg, ix->nseg + 1, sizeof(*ix->seg));
	ix->seg[ix->nseg] = out;
	if (x_seg_map(&ix->seg[ix->nseg], path, err, errsize) == -1) {
		free(path);
		return -1;
	}
	ix->nseg++;
	free(path);
	ix->changed = 1;
	x_table_free(&ix->mem);
	x_table_init(&ix->mem, ix->vals);
	return 0;
}

void
x_index_close(struct x_index *ix)
{
	size_t i;

	pskd_ixdir_close(&ix->d);
	for (i = 0; i < ix->nseg; i++)
		x_seg_unmap(&ix->seg[i]);
	free(ix->seg);
	x_table_free(&ix->mem);
	if (ix->bf.bits != NULL)
		munmap(ix->bf.bits, ix->bf.size);
	free(ix->in);
	pskd_buf_free(&ix->rec);
	free(ix->dir);
	memset(ix, 0, sizeof(*ix));
}
