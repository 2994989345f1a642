/* lshindex.c - the LSH index of pskd-lsh; the directory is in pskd-lsh(1). */
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lshindex.h"

#define TABLE_MIN	1024
#define MANIFEST	"manifest"

uint32_t
pskd_band_key(const unsigned char *sketch, uint32_t band, uint32_t r)
{
	return (uint32_t)(XXH3_64bits_withSeed(sketch + (size_t)band * r, r,
	    band) >> 32);
}

static char *
path_in(const struct pskd_lsh_index *ix, const char *name)
{
	size_t n = strlen(ix->dir) + strlen(name) + 2;
	char *p = pskd_xmalloc(n);

	snprintf(p, n, "%s/%s", ix->dir, name);
	return p;
}

static void
unmap(struct pskd_map *m)
{
	if (m->p != NULL && m->size > 0)
		munmap(m->p, m->size);
	m->p = NULL;
	m->size = 0;
}

/* Map at least need bytes of dir/name (the whole file when need is 0). */
static int
map_file(struct pskd_lsh_index *ix, const char *name, uint64_t need,
    struct pskd_map *m, char *err, size_t errsize)
{
	char *path = path_in(ix, name);
	struct stat st;
	int fd;

	m->p = NULL;
	m->size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if ((uint64_t)st.st_size < need || (uint64_t)st.st_size > SIZE_MAX) {
		snprintf(err, errsize, "%s: shorter than the manifest says "
		    "(the index is damaged)", path);
		goto fail;
	}
	m->size = need ? (size_t)need : (size_t)st.st_size;
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
	if (fd != -1)
		close(fd);
	free(path);
	return -1;
}

static int
map_base(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	char name[32];
	uint64_t i, prev, v;
	uint32_t j;

	if (ix->nbase == 0)
		return 0;
	if (map_file(ix, "sketches", (uint64_t)ix->nbase * ix->fp.k,
	    &ix->sketches, err, errsize) == -1 ||
	    map_file(ix, "ids", ix->idbytes, &ix->ids, err, errsize) == -1 ||
	    map_file(ix, "idoff", ((uint64_t)ix->nbase + 1) * 8, &ix->idoff,
	    err, errsize) == -1)
		return -1;
	for (i = 0, prev = 0; i <= ix->nbase; i++, prev = v) {
		v = pskd_get_le64(ix->idoff.p + 8 * i);
		if (v < prev || v > ix->idbytes || (i == 0 && v != 0)) {
			snprintf(err, errsize, "%s/idoff: offsets out of order "
			    "(the index is damaged)", ix->dir);
			return -1;
		}
	}
	for (j = 0; j < ix->b; j++) {
		snprintf(name, sizeof(name), "band-%03" PRIu32 ".%" PRIu64, j,
		    ix->gen);
		if (map_file(ix, name, 0, &ix->band[j], err, errsize) == -1)
			return -1;
		if (ix->band[j].size % 4 != 0) {
			snprintf(err, errsize, "%s/%s: not a whole number of "
			    "entries (the index is damaged)", ix->dir, name);
			return -1;
		}
	}
	return 0;
}

static void
table_init(struct pskd_band_table *t, size_t cap)
{
	t->slot = pskd_xcalloc(cap, sizeof(*t->slot));
	t->mask = cap - 1;
	t->used = 0;
}

/* The key of one of this run's documents in band j, from its sketch. */
static uint32_t
new_key(const struct pskd_lsh_index *ix, uint32_t j, uint32_t doc)
{
	return pskd_band_key(ix->newsk.p + (size_t)(doc - ix->nbase) *
	    ix->fp.k, j, ix->r);
}

static void
table_put(struct pskd_band_table *t, uint32_t key, uint32_t doc)
{
	size_t s = key & t->mask;

	while (t->slot[s] != 0)
		s = (s + 1) & t->mask;
	t->slot[s] = doc + 1;
	t->used++;
}

static void
table_insert(struct pskd_lsh_index *ix, uint32_t j, uint32_t key,
    uint32_t doc)
{
	struct pskd_band_table *t = &ix->table[j], bigger;
	size_t i;

	if ((t->used + 1) * 4 > (t->mask + 1) * 3) {
		table_init(&bigger, (t->mask + 1) * 2);
		for (i = 0; i <= t->mask; i++)
			if (t->slot[i] != 0)
				table_put(&bigger, new_key(ix, j,
				    t->slot[i] - 1), t->slot[i] - 1);
		free(t->slot);
		*t = bigger;
	}
	table_put(t, key, doc);
}

/* Parse the manifest; 0 when there is none yet. */
static int
read_manifest(struct pskd_lsh_index *ix, uint32_t b, uint32_t r, char *err,
    size_t errsize)
{
	char *path = path_in(ix, MANIFEST), line[256], key[64];
	unsigned long long v;
	struct pskd_frame_params *fp = &ix->fp;
	int seen = 0, rc = -1;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		free(path);
		if (errno == ENOENT)
			return 0;
		snprintf(err, errsize, "%s/%s: %s", ix->dir, MANIFEST,
		    strerror(errno));
		return -1;
	}
	if (fgets(line, sizeof(line), f) == NULL ||
	    strcmp(line, "pskd-lsh index 1\n") != 0)
		goto bad;
	memset(fp, 0, sizeof(*fp));
	fp->kind = PSKD_FRAME_SIGNATURES;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%63s %llu", key, &v) != 2)
			goto bad;
		if (strcmp(key, "unit") == 0) fp->unit = (uint32_t)v;
		else if (strcmp(key, "n") == 0) fp->n = (uint32_t)v;
		else if (strcmp(key, "norm") == 0) fp->norm = (uint32_t)v;
		else if (strcmp(key, "shingle_seed") == 0) fp->shingle_seed = v;
		else if (strcmp(key, "k") == 0) fp->k = (uint32_t)v;
		else if (strcmp(key, "family") == 0) fp->family = (uint32_t)v;
		else if (strcmp(key, "minhash_seed") == 0) fp->minhash_seed = v;
		else if (strcmp(key, "bands") == 0) ix->b = (uint32_t)v;
		else if (strcmp(key, "rows") == 0) ix->r = (uint32_t)v;
		else if (strcmp(key, "docs") == 0) ix->nbase = (uint32_t)v;
		else if (strcmp(key, "id_bytes") == 0) ix->idbytes = v;
		else if (strcmp(key, "generation") == 0) ix->gen = v;
		else
			goto bad;
		seen++;
	}
	if (seen != 12 || fp->k == 0 || ix->b == 0 || ix->b * ix->r != fp->k)
		goto bad;
	if (ix->b != b || ix->r != r) {
		snprintf(err, errsize, "%s: the index was made with -b %" PRIu32
		    " -r %" PRIu32 ", not -b %" PRIu32 " -r %" PRIu32, ix->dir,
		    ix->b, ix->r, b, r);
		goto out;
	}
	ix->have_params = 1;
	ix->ndocs = ix->nbase;
	rc = 1;
	goto out;
bad:
	snprintf(err, errsize, "%s/%s: not a pskd-lsh index manifest",
	    ix->dir, MANIFEST);
out:
	fclose(f);
	free(path);
	return rc;
}

int
pskd_lsh_open(struct pskd_lsh_index *ix, const char *dir, uint32_t b,
    uint32_t r, char *err, size_t errsize)
{
	char *lock;
	uint32_t j;

	memset(ix, 0, sizeof(*ix));
	ix->b = b;
	ix->r = r;
	ix->lockfd = -1;
	ix->band = pskd_xcalloc(b, sizeof(*ix->band));
	ix->table = pskd_xcalloc(b, sizeof(*ix->table));
	for (j = 0; j < b; j++)
		table_init(&ix->table[j], TABLE_MIN);
	ix->newoffcap = 1024;
	ix->newoff = pskd_xcalloc(ix->newoffcap, sizeof(*ix->newoff));
	if (dir == NULL)
		return 0;
	ix->dir = pskd_xstrdup(dir);
	if (mkdir(dir, 0777) == -1 && errno != EEXIST) {
		snprintf(err, errsize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	lock = path_in(ix, "lock");
	ix->lockfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	free(lock);
	if (ix->lockfd == -1) {
		snprintf(err, errsize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (flock(ix->lockfd, LOCK_EX | LOCK_NB) == -1) {
		snprintf(err, errsize, "%s: %s", dir, errno == EWOULDBLOCK ?
		    "the index is in use by another pskd-lsh" :
		    strerror(errno));
		return -1;
	}
	if (read_manifest(ix, b, r, err, errsize) == -1)
		return -1;
	return map_base(ix, err, errsize);
}

int
pskd_lsh_params(struct pskd_lsh_index *ix, const struct pskd_frame_params *fp,
    char *err, size_t errsize)
{
	const char *what;

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
	if ((what = pskd_frame_params_differ(fp, &ix->fp)) != NULL) {
		if (ix->dir != NULL)
			snprintf(err, errsize, "the index %s was made with "
			    "another %s", ix->dir, what);
		else
			snprintf(err, errsize, "%s differs from the first "
			    "input's", what);
		return -1;
	}
	return 0;
}

/* The key of entry i of band j's partition on disk. */
static uint64_t
base_key(const struct pskd_lsh_index *ix, uint32_t band, size_t i,
    uint32_t *doc)
{
	*doc = pskd_get_le32(ix->band[band].p + 4 * i);
	if (*doc >= ix->nbase)
		pskd_errx(PSKD_EXIT_DATA, "%s/band-%03" PRIu32 ".%" PRIu64
		    ": document %" PRIu32 " out of range (the index is "
		    "damaged)", ix->dir, band, ix->gen, *doc);
	return pskd_band_key(ix->sketches.p + (size_t)*doc * ix->fp.k, band,
	    ix->r);
}

void
pskd_lsh_lookup(const struct pskd_lsh_index *ix, uint32_t band, uint32_t key,
    void (*fn)(void *, uint32_t), void *arg)
{
	const struct pskd_band_table *t = &ix->table[band];
	size_t n = ix->band[band].size / 4, lo = 0, hi = n, mid, s;
	uint64_t klo = 0, khi = 1ULL << 32, km;
	uint32_t doc;
	int step = 0;

	/*
	 * Lower bound of key among entries sorted by the key their sketch
	 * gives.  Keys are uniform, so interpolation finds it in a few
	 * probes; every other step bisects, which bounds the worst case.
	 */
	while (lo < hi) {
		if ((step++ & 1) == 0 && hi - lo > 8 && hi - lo < (1u << 31) &&
		    khi > klo) {
			mid = lo + (size_t)((key - klo) * (hi - lo) /
			    (khi - klo));
			if (mid >= hi)
				mid = hi - 1;
		} else
			mid = lo + (hi - lo) / 2;
		km = base_key(ix, band, mid, &doc);
		if (km < key) {
			lo = mid + 1;
			klo = km;
		} else {
			hi = mid;
			khi = km;
		}
	}
	for (; lo < n && base_key(ix, band, lo, &doc) == key; lo++)
		fn(arg, doc);
	for (s = key & t->mask; t->slot[s] != 0; s = (s + 1) & t->mask)
		if (new_key(ix, band, t->slot[s] - 1) == key)
			fn(arg, t->slot[s] - 1);
}

const unsigned char *
pskd_lsh_sketch(const struct pskd_lsh_index *ix, uint32_t doc)
{
	if (doc < ix->nbase)
		return ix->sketches.p + (size_t)doc * ix->fp.k;
	return ix->newsk.p + (size_t)(doc - ix->nbase) * ix->fp.k;
}

const unsigned char *
pskd_lsh_id(const struct pskd_lsh_index *ix, uint32_t doc, size_t *len)
{
	uint64_t a, b;

	if (doc < ix->nbase) {
		a = pskd_get_le64(ix->idoff.p + 8 * (size_t)doc);
		b = pskd_get_le64(ix->idoff.p + 8 * ((size_t)doc + 1));
		*len = (size_t)(b - a);
		return ix->ids.p + a;
	}
	doc -= ix->nbase;
	*len = (size_t)(ix->newoff[doc + 1] - ix->newoff[doc]);
	return ix->newids.p + ix->newoff[doc];
}

uint32_t
pskd_lsh_add(struct pskd_lsh_index *ix, const unsigned char *sketch,
    const uint32_t *keys, const unsigned char *id, size_t idlen)
{
	uint32_t doc = ix->ndocs, j, n = ix->ndocs - ix->nbase;

	if (ix->ndocs >= UINT32_MAX - 1)
		pskd_errx(PSKD_EXIT_DATA, "more than %u kept documents in one "
		    "index", UINT32_MAX - 2);
	ix->ndocs++;
	pskd_buf_add(&ix->newsk, sketch, ix->fp.k);
	pskd_buf_add(&ix->newids, id, idlen);
	if ((size_t)n + 2 > ix->newoffcap) {
		ix->newoffcap *= 2;
		ix->newoff = pskd_xreallocarray(ix->newoff, ix->newoffcap,
		    sizeof(*ix->newoff));
	}
	ix->newoff[n + 1] = ix->newids.len;
	for (j = 0; j < ix->b; j++)
		table_insert(ix, j, keys[j], doc);
	return doc;
}

size_t
pskd_lsh_memory(const struct pskd_lsh_index *ix)
{
	size_t m = ix->newsk.cap + ix->newids.cap + ix->newoffcap * 8;
	uint32_t j;

	for (j = 0; j < ix->b; j++)
		m += (ix->table[j].mask + 1) * sizeof(*ix->table[j].slot);
	return m;
}

size_t
pskd_lsh_pending(const struct pskd_lsh_index *ix)
{
	size_t n = ix->ndocs - ix->nbase;

	/* Each entry costs 4 bytes at a load of at most 3/4. */
	return n * (ix->fp.k + 8 + (size_t)ix->b * 4 * 4 / 3) +
	    ix->newids.len;
}

/* Cut dir/name to off bytes and append n bytes there; fsync. */
static int
append_at(struct pskd_lsh_index *ix, const char *name, uint64_t off,
    const void *p, size_t n, char *err, size_t errsize)
{
	char *path = path_in(ix, name);
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd == -1 || ftruncate(fd, (off_t)off) == -1 ||
	    lseek(fd, (off_t)off, SEEK_SET) == -1 ||
	    pskd_write_all(fd, p, n) == -1 || fsync(fd) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		free(path);
		return -1;
	}
	free(path);
	if (close(fd) == -1) {
		snprintf(err, errsize, "%s/%s: %s", ix->dir, name,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Merge band j's partition on disk with its table into the next one. */
static int
write_band(struct pskd_lsh_index *ix, uint32_t j, char *err, size_t errsize)
{
	struct pskd_band_table *t = &ix->table[j];
	struct pskd_outfile of;
	struct pskd_writer w;
	size_t nb = ix->band[j].size / 4, nt = 0, a = 0, c = 0, i;
	uint64_t *v, x, y;
	uint32_t doc;
	unsigned char rec[4];
	char name[48], *path;

	v = pskd_xreallocarray(NULL, t->used + 1, sizeof(*v));
	for (i = 0; i <= t->mask; i++)
		if (t->slot[i] != 0)
			v[nt++] = (uint64_t)new_key(ix, j, t->slot[i] - 1) <<
			    32 | (t->slot[i] - 1);
	qsort(v, nt, sizeof(*v), cmp_u64);
	snprintf(name, sizeof(name), "band-%03" PRIu32 ".%" PRIu64, j,
	    ix->gen + 1);
	path = path_in(ix, name);
	if (pskd_outfile_open(&of, path) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(path);
		free(v);
		return -1;
	}
	pskd_writer_init(&w, of.fd, path);
	x = a < nb ? base_key(ix, j, a, &doc) << 32 | doc : UINT64_MAX;
	while (a < nb || c < nt) {
		y = c < nt ? v[c] : UINT64_MAX;
		if (a < nb && x <= y) {
			pskd_put_le32(rec, (uint32_t)x);
			a++;
			x = a < nb ? base_key(ix, j, a, &doc) << 32 | doc :
			    UINT64_MAX;
		} else {
			pskd_put_le32(rec, (uint32_t)y);
			c++;
		}
		pskd_writer_write(&w, rec, 4);
	}
	free(v);
	if (pskd_writer_flush(&w) == -1 || pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(w.error ?
		    w.error : errno));
		pskd_outfile_abort(&of);
		free(w.buf);
		free(path);
		return -1;
	}
	free(w.buf);
	free(path);
	return 0;
}

static int
write_manifest(struct pskd_lsh_index *ix, uint64_t idbytes, char *err,
    size_t errsize)
{
	char *path = path_in(ix, MANIFEST), text[1024];
	const struct pskd_frame_params *fp = &ix->fp;
	struct pskd_outfile of;
	int n;

	n = snprintf(text, sizeof(text), "pskd-lsh index 1\nunit %" PRIu32
	    "\nn %" PRIu32 "\nnorm %" PRIu32 "\nshingle_seed %" PRIu64
	    "\nk %" PRIu32 "\nfamily %" PRIu32 "\nminhash_seed %" PRIu64
	    "\nbands %" PRIu32 "\nrows %" PRIu32 "\ndocs %" PRIu32
	    "\nid_bytes %" PRIu64 "\ngeneration %" PRIu64 "\n", fp->unit,
	    fp->n, fp->norm, fp->shingle_seed, fp->k, fp->family,
	    fp->minhash_seed, ix->b, ix->r, ix->ndocs, idbytes, ix->gen + 1);
	if (pskd_outfile_open(&of, path) == -1 ||
	    pskd_write_all(of.fd, text, (size_t)n) == -1 ||
	    pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		if (of.fd != -1)
			pskd_outfile_abort(&of);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

int
pskd_lsh_save(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	uint32_t n = ix->ndocs - ix->nbase, j, i, first;
	unsigned char *off;
	uint64_t idbytes = ix->idbytes + ix->newids.len;
	int rc;

	if (ix->dir == NULL || !ix->have_params)
		return 0;
	if (append_at(ix, "sketches", (uint64_t)ix->nbase * ix->fp.k,
	    ix->newsk.p, ix->newsk.len, err, errsize) == -1 ||
	    append_at(ix, "ids", ix->idbytes, ix->newids.p, ix->newids.len,
	    err, errsize) == -1)
		return -1;
	/* idoff holds ndocs + 1 offsets; a new index writes offset 0 too. */
	first = ix->nbase == 0 ? 0 : 1;
	off = pskd_xmalloc(((size_t)n + 1) * 8);
	for (i = first; i <= n; i++)
		pskd_put_le64(off + 8 * (i - first), ix->idbytes +
		    ix->newoff[i]);
	rc = append_at(ix, "idoff", ((uint64_t)ix->nbase + first) * 8, off,
	    ((size_t)n + 1 - first) * 8, err, errsize);
	free(off);
	if (rc == -1)
		return -1;
	for (j = 0; j < ix->b; j++)
		if (write_band(ix, j, err, errsize) == -1)
			return -1;
	if (write_manifest(ix, idbytes, err, errsize) == -1)
		return -1;
	/* The new state: everything on disk, nothing in memory. */
	unmap(&ix->sketches);
	unmap(&ix->ids);
	unmap(&ix->idoff);
	for (j = 0; j < ix->b; j++) {
		char name[48], *path;

		unmap(&ix->band[j]);
		free(ix->table[j].slot);
		table_init(&ix->table[j], TABLE_MIN);
		snprintf(name, sizeof(name), "band-%03" PRIu32 ".%" PRIu64, j,
		    ix->gen);
		path = path_in(ix, name);
		(void)unlink(path);	/* the previous generation */
		free(path);
	}
	ix->gen++;
	ix->nbase = ix->ndocs;
	ix->idbytes = idbytes;
	ix->newsk.len = 0;
	ix->newids.len = 0;
	return map_base(ix, err, errsize);
}

void
pskd_lsh_close(struct pskd_lsh_index *ix)
{
	uint32_t j;

	unmap(&ix->sketches);
	unmap(&ix->ids);
	unmap(&ix->idoff);
	for (j = 0; j < ix->b; j++) {
		unmap(&ix->band[j]);
		free(ix->table[j].slot);
	}
	free(ix->band);
	free(ix->table);
	pskd_buf_free(&ix->newsk);
	pskd_buf_free(&ix->newids);
	free(ix->newoff);
	if (ix->lockfd != -1)
		close(ix->lockfd);
	free(ix->dir);
}
