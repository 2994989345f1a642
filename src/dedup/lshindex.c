/*
 * lshindex.c - the LSH index of pskd-lsh: open, look up, add, close; the
 * directory is in pskd-lsh(1), "INDEX DIRECTORY".
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

#include "lshint.h"
#include "params.h"

uint32_t
pskd_band_key(const unsigned char *sketch, uint32_t band, uint32_t r)
{
	return band_key(sketch, band, r);
}

/* ---- files --------------------------------------------------------------- */

char *
lsh_path(const struct pskd_lsh_index *ix, const char *name)
{
	return pskd_ixdir_path(&ix->d, name);
}

void
lsh_seg_name(char *name, size_t size, uint64_t id)
{
	snprintf(name, size, "seg-%" PRIu64, id);
}

_Noreturn void
lsh_damaged(const struct pskd_lsh_index *ix, const struct pskd_lsh_seg *s)
{
	pskd_errx(PSKD_EXIT_DATA, "%s/seg-%" PRIu64 ": entries out of range "
	    "(the index is damaged)", ix->dir, s->id);
}

void
lsh_unmap(struct pskd_map *m)
{
	if (m->p != NULL && m->size > 0)
		munmap(m->p, m->size);
	m->p = NULL;
	m->size = 0;
}

/* Map need bytes of dir/name, which has them (exact: has just them). */
static int
map_file(struct pskd_lsh_index *ix, const char *name, uint64_t need,
    int exact, struct pskd_map *m, char *err, size_t errsize)
{
	char *path = lsh_path(ix, name);
	struct stat st;
	int fd;

	m->p = NULL;
	m->size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if ((uint64_t)st.st_size < need || (uint64_t)st.st_size > SIZE_MAX ||
	    (exact && (uint64_t)st.st_size != need)) {
		snprintf(err, errsize, "%s: not the size the manifest says "
		    "(the index is damaged)", path);
		goto fail;
	}
	m->size = (size_t)need;
	if (m->size > 0) {
		m->p = mmap(NULL, m->size, PROT_READ, MAP_SHARED, fd, 0);
		if (m->p == MAP_FAILED) {
			m->p = NULL;
			snprintf(err, errsize, "%s: %s", path, strerror(errno));
			goto fail;
		}
	}
	close(fd);
	free(path);
	return 0;
fail:
	m->size = 0;
	if (fd != -1)
		close(fd);
	free(path);
	return -1;
}

/* Bytes of one band's section of a segment: n entries, 2^c + 1 offsets. */
size_t
lsh_seg_section(const struct pskd_lsh_seg *s)
{
	return 4 * ((size_t)s->n + ((size_t)1 << s->code.c) + 1);
}

/*
 * Map the documents on disk.  Nothing here reads them all: a run costs
 * what it looks up, not what the index holds.
 */
int
lsh_map_base(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	char name[48];
	size_t i;

	if (ix->nbase == 0)
		return 0;
	if (map_file(ix, "sketches", (uint64_t)ix->nbase * ix->fp.k, 0,
	    &ix->sketches, err, errsize) == -1 ||
	    map_file(ix, "ids", ix->idbytes, 0, &ix->ids, err, errsize) == -1 ||
	    map_file(ix, "idoff", ((uint64_t)ix->nbase + 1) * 8, 0, &ix->idoff,
	    err, errsize) == -1)
		return -1;
	for (i = 0; i < ix->nseg; i++) {
		struct pskd_lsh_seg *s = &ix->seg[i];

		lsh_seg_name(name, sizeof(name), s->id);
		if (map_file(ix, name, (uint64_t)ix->b * lsh_seg_section(s), 1,
		    &s->m, err, errsize) == -1)
			return -1;
	}
	return 0;
}

/* ---- open, look up, add -------------------------------------------------- */

int
pskd_lsh_open(struct pskd_lsh_index *ix, const char *dir, uint32_t b,
    uint32_t r, char *err, size_t errsize)
{
	struct pskd_buf body = { 0 };
	int rc;

	memset(ix, 0, sizeof(*ix));
	ix->b = b;
	ix->r = r;
	ix->d.lockfd = -1;
	lsh_bands_init(ix);
	ix->probe = pskd_xcalloc(b, sizeof(*ix->probe));
	ix->newoff = lsh_map_grow(NULL, &ix->newoffres, sizeof(*ix->newoff));
	ix->newoff[0] = 0;
	ix->newbase = pskd_xcalloc(1, sizeof(*ix->newbase));
	if (dir == NULL)
		return 0;
	ix->dir = pskd_xstrdup(dir);
	rc = pskd_ixdir_open(&ix->d, dir, PSKD_LSH_KIND, PSKD_LSH_VERSION, 0,
	    &body, err, errsize);
	if (rc == 1)
		rc = lsh_manifest_read(ix, b, r, &body, err, errsize);
	pskd_buf_free(&body);
	if (rc == -1)
		return -1;
	if (ix->d.swept)
		pskd_warnx("%s: a run that was not committed is dropped "
		    "(pskd-lsh --commit %s commits the run before)", dir, dir);
	/* A killed or swept run's leftovers, under the lock. */
	if (!ix->d.readonly)
		lsh_remove_unlisted(ix);
	return lsh_map_base(ix, err, errsize);
}

int
pskd_lsh_params(struct pskd_lsh_index *ix, const struct pskd_frame_params *fp,
    char *err, size_t errsize)
{
	const char *what;
	char vals[400];

	if (fp->k != ix->b * ix->r) {
		snprintf(err, errsize, "-b %" PRIu32 " x -r %" PRIu32 " is not "
		    "the stream's k = %" PRIu32, ix->b, ix->r, fp->k);
		return -1;
	}
	if (!ix->have_params) {
		ix->fp = *fp;
		ix->have_params = 1;
		return 0;
	}
	if ((what = pskd_frame_params_mismatch(&ix->fp, fp, vals,
	    sizeof(vals))) != NULL) {
		if (ix->dir != NULL)
			snprintf(err, errsize, "the index %s was made with "
			    "another %s (%s)", ix->dir, what, vals);
		else
			snprintf(err, errsize, "%s differs from the first "
			    "input's (%s)", what, vals);
		return -1;
	}
	return 0;
}

const unsigned char *
pskd_lsh_sketch(const struct pskd_lsh_index *ix, uint32_t doc)
{
	if (doc < ix->nbase)
		return ix->sketches.p + (size_t)doc * ix->fp.k;
	return ix->newsk + (size_t)(doc - ix->nbase) * ix->fp.k;
}

static void
add_cand(struct pskd_lsh_index *ix, uint32_t doc)
{
	if (ix->ncand == ix->candcap) {
		ix->candcap = ix->candcap ? 2 * ix->candcap : 64;
		ix->cand = pskd_xreallocarray(ix->cand, ix->candcap,
		    sizeof(*ix->cand));
	}
	ix->cand[ix->ncand++] = doc;
}

/*
 * A fingerprint matched: the document is a candidate when its whole key,
 * computed again from its sketch, is the key looked up.
 */
static void
confirm(struct pskd_lsh_index *ix, uint32_t band, uint32_t key,
    uint32_t doc, const struct pskd_lsh_code *pc)
{
	if (pc->known == 32 ||
	    band_key(pskd_lsh_sketch(ix, doc), band, ix->r) == key)
		add_cand(ix, doc);
}

/*
 * The lookups of the b bands go in passes, each ending in a prefetch for
 * the next (__builtin_prefetch, GCC and Clang): the bands' cache misses
 * overlap instead of following one another.  In this run's chunks: the
 * chunk's bounds, a guess at the entry, the search.
 */
static void
mem_lookup(struct pskd_lsh_index *ix, const uint32_t *keys)
{
	const struct pskd_lsh_code *pc = &ix->mc;
	struct pskd_lsh_probe *pr = ix->probe;
	const struct pskd_lsh_band *bd;
	const struct pskd_lsh_chunk *ck;
	const uint32_t *e;
	uint32_t j, fp;
	size_t i;

	for (j = 0; j < ix->b; j++) {
		pr[j].key = keys[j];
		pr[j].ch = hi_chunk(key_hi(keys[j], pc), pc);
		__builtin_prefetch(&ix->band[j].chunk[pr[j].ch]);
	}
	for (j = 0; j < ix->b; j++) {
		bd = &ix->band[j];
		ck = &bd->chunk[pr[j].ch];
		fp = key_hi(keys[j], pc) & low_mask(pc->f);
		pr[j].at = guess(fp, ck->len, pc);
		__builtin_prefetch(bd->e + ck->start + pr[j].at);
	}
	for (j = 0; j < ix->b; j++) {
		bd = &ix->band[j];
		ck = &bd->chunk[pr[j].ch];
		e = bd->e + ck->start;
		fp = key_hi(keys[j], pc) & low_mask(pc->f);
		i = lower_mem_from(e, ck->len, (uint64_t)fp << pc->d,
		    pr[j].at);
		for (; i < ck->len && entry_fp(e[i], pc) == fp; i++)
			confirm(ix, j, keys[j], ix->nbase + (e[i] &
			    low_mask(pc->d)), pc);
		pr[j].at = i;
	}
	ix->probed = ix->ndocs + 1;
}

/* In a segment: the chunk's offsets, a guess at the entry, the search. */
static void
seg_lookup(struct pskd_lsh_index *ix, const struct pskd_lsh_seg *s,
    const uint32_t *keys)
{
	const struct pskd_lsh_code *pc = &s->code;
	struct pskd_lsh_probe *pr = ix->probe;
	size_t sec = lsh_seg_section(s), i;
	struct le32s ent;
	const unsigned char *dir;
	uint32_t j, fp, e, doc;

	for (j = 0; j < ix->b; j++) {
		pr[j].ch = hi_chunk(key_hi(keys[j], pc), pc);
		__builtin_prefetch(s->m.p + j * sec + 4 * ((size_t)s->n +
		    pr[j].ch));
	}
	for (j = 0; j < ix->b; j++) {
		dir = s->m.p + j * sec + 4 * ((size_t)s->n + pr[j].ch);
		pr[j].a = pskd_get_le32(dir);
		pr[j].z = pskd_get_le32(dir + 4);
		if (pr[j].a > pr[j].z || pr[j].z > s->n)
			lsh_damaged(ix, s);
		fp = key_hi(keys[j], pc) & low_mask(pc->f);
		pr[j].at = guess(fp, pr[j].z - pr[j].a, pc);
		__builtin_prefetch(s->m.p + j * sec + 4 * (pr[j].a +
		    pr[j].at));
	}
	for (j = 0; j < ix->b; j++) {
		ent.p = s->m.p + j * sec + 4 * pr[j].a;
		fp = key_hi(keys[j], pc) & low_mask(pc->f);
		i = lower_le_from(ent, pr[j].z - pr[j].a, (uint64_t)fp <<
		    pc->d, pr[j].at);
		for (; i < pr[j].z - pr[j].a; i++) {
			e = at_le(ent, i);
			if (entry_fp(e, pc) != fp)
				break;
			if ((doc = e & low_mask(pc->d)) >= s->n)
				lsh_damaged(ix, s);
			confirm(ix, j, keys[j], s->first + doc, pc);
		}
	}
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The candidates come as one sorted run per band and segment: few, so an
 * insertion sort; but boilerplate shared by many documents gives long
 * overlapping runs, where only an O(n log n) sort stays linear-ish.
 */
static void
sort_unique(uint32_t *v, size_t *n)
{
	size_t i, j, m = *n;
	uint32_t x;

	if (m > 64)
		qsort(v, m, sizeof(*v), cmp_u32);
	else {
		for (i = 1; i < m; i++) {
			x = v[i];
			for (j = i; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
	for (i = j = 0; i < m; i++)
		if (j == 0 || v[i] != v[j - 1])
			v[j++] = v[i];
	*n = j;
}

size_t
pskd_lsh_candidates(struct pskd_lsh_index *ix, const unsigned char *sketch,
    uint32_t *keys, const uint32_t **cand)
{
	uint32_t j;
	size_t s;

	for (j = 0; j < ix->b; j++)
		keys[j] = band_key(sketch, j, ix->r);
	ix->ncand = 0;
	ix->probed = 0;
	for (s = 0; s < ix->nseg; s++)
		seg_lookup(ix, &ix->seg[s], keys);
	if (ix->ndocs > ix->nbase)
		mem_lookup(ix, keys);
	sort_unique(ix->cand, &ix->ncand);
	*cand = ix->cand;
	return ix->ncand;
}

/* Where the id of this run's document i starts in newids. */
uint64_t
lsh_new_off(const struct pskd_lsh_index *ix, uint32_t i)
{
	return ix->newbase[i >> IDBLOCK] + ix->newoff[i];
}

const unsigned char *
pskd_lsh_id(const struct pskd_lsh_index *ix, uint32_t doc, size_t *len)
{
	uint64_t a, b;

	if (doc < ix->nbase) {
		/* Checked here, when used, so that opening reads nothing. */
		a = pskd_get_le64(ix->idoff.p + 8 * (size_t)doc);
		b = pskd_get_le64(ix->idoff.p + 8 * ((size_t)doc + 1));
		if (a > b || b > ix->idbytes)
			pskd_errx(PSKD_EXIT_DATA, "%s/idoff: offsets out of "
			    "order (the index is damaged)", ix->dir);
		*len = (size_t)(b - a);
		return ix->ids.p + (size_t)a;
	}
	doc -= ix->nbase;
	a = lsh_new_off(ix, doc);
	*len = (size_t)(lsh_new_off(ix, doc + 1) - a);
	return ix->newids.p + a;
}

uint32_t
pskd_lsh_add(struct pskd_lsh_index *ix, const unsigned char *sketch,
    const uint32_t *keys, const unsigned char *id, size_t idlen)
{
	uint32_t doc = ix->ndocs, j, n = ix->ndocs - ix->nbase;
	size_t k = ix->fp.k;

	if (ix->ndocs >= UINT32_MAX - 1)
		pskd_errx(PSKD_EXIT_DATA, "more than %u kept documents in one "
		    "index", UINT32_MAX - 2);
	if (n >= MAX_MEMDOCS)
		pskd_errx(PSKD_EXIT_DATA, "more than %u kept documents in "
		    "memory (use -i)", MAX_MEMDOCS);
	if ((uint64_t)n + 1 > (uint64_t)1 << ix->mc.d) {
		lsh_bands_regrow(ix, ix->mc.d + 1);
		ix->probed = 0;
	}
	ix->newsk = lsh_map_grow(ix->newsk, &ix->newskres, ((size_t)n + 1) * k);
	lsh_ahead(ix->newsk, &ix->newskin, ((size_t)n + 1) * k, ix->newskres);
	memcpy(ix->newsk + (size_t)n * k, sketch, k);
	ix->newids.p = lsh_map_grow(ix->newids.p, &ix->newids.cap,
	    ix->newids.len + idlen);
	lsh_ahead(ix->newids.p, &ix->newidsin, ix->newids.len + idlen,
	    ix->newids.cap);
	memcpy(ix->newids.p + ix->newids.len, id, idlen);
	ix->newids.len += idlen;
	ix->newoff = lsh_map_grow(ix->newoff, &ix->newoffres, ((size_t)n + 2) *
	    sizeof(*ix->newoff));
	lsh_ahead(ix->newoff, &ix->newoffin, ((size_t)n + 2) * sizeof(*ix->newoff),
	    ix->newoffres);
	if (((n + 1) & low_mask(IDBLOCK)) == 0) {
		ix->newbase = pskd_xreallocarray(ix->newbase, (((size_t)n +
		    1) >> IDBLOCK) + 1, sizeof(*ix->newbase));
		ix->newbase[(n + 1) >> IDBLOCK] = ix->newids.len;
	}
	ix->newoff[n + 1] = (uint32_t)(ix->newids.len -
	    ix->newbase[(n + 1) >> IDBLOCK]);
	for (j = 0; j < ix->b; j++)
		lsh_mem_insert(ix, j, keys[j], n);
	ix->ndocs++;
	return doc;
}

size_t
pskd_lsh_memory(const struct pskd_lsh_index *ix)
{
	size_t n = ix->ndocs - ix->nbase;
	size_t m = n * ix->fp.k + ix->newids.len + (n + 1) *
	    sizeof(*ix->newoff);
	uint32_t j;

	for (j = 0; j < ix->b; j++)
		m += ix->band[j].cap * sizeof(*ix->band[j].e) +
		    (((size_t)1 << ix->mc.c) + 1) * sizeof(struct pskd_lsh_chunk);
	return m;
}

void
pskd_lsh_close(struct pskd_lsh_index *ix)
{
	size_t i;

	pskd_ixdir_close(&ix->d);
	lsh_unmap(&ix->sketches);
	lsh_unmap(&ix->ids);
	lsh_unmap(&ix->idoff);
	for (i = 0; i < ix->nseg; i++)
		lsh_unmap(&ix->seg[i].m);
	free(ix->seg);
	lsh_bands_free(ix);
	lsh_map_free(ix->newsk, ix->newskres);
	lsh_map_free(ix->newids.p, ix->newids.cap);
	lsh_map_free(ix->newoff, ix->newoffres);
	free(ix->newbase);
	free(ix->cand);
	free(ix->probe);
	free(ix->dir);
}
