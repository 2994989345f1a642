/* lshindex.c - the LSH index of pskd-lsh; the directory is in pskd-lsh(1). */
#define _GNU_SOURCE		/* mremap(2) */
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
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

#define MANIFEST	"manifest"
#define MANIFEST_V1	"pskd-lsh index 1\n"
#define MANIFEST_V2	"pskd-lsh index 2\n"
#define CHUNK_SHIFT	7	/* a chunk holds up to about 2^7 entries */
#define MAX_MEMDOCS	(1u << 31)	/* documents in memory: d <= 31 */
#define IDBLOCK		12	/* 2^12 ids of at most 2^16 bytes: < 2^32 */

static inline uint32_t
band_key(const unsigned char *sketch, uint32_t band, uint32_t r)
{
	return (uint32_t)(XXH3_64bits_withSeed(sketch + (size_t)band * r, r,
	    band) >> 32);
}

uint32_t
pskd_band_key(const unsigned char *sketch, uint32_t band, uint32_t r)
{
	return band_key(sketch, band, r);
}

/* ---- the entry code ---------------------------------------------------- */

static void
code_init(struct pskd_lsh_code *pc, uint32_t d)
{
	pc->d = d;
	pc->f = 32 - d;
	pc->c = d > CHUNK_SHIFT ? d - CHUNK_SHIFT : 0;
	pc->known = pc->c + pc->f;
}

/* The fewest bits that number documents 0 .. n-1. */
static uint32_t
doc_bits(uint64_t n)
{
	uint32_t d = 0;

	while (((uint64_t)1 << d) < n)
		d++;
	return d;
}

static inline uint32_t
low_mask(uint32_t bits)
{
	return (uint32_t)(((uint64_t)1 << bits) - 1);
}

/* The top bits of a key that a partition keeps. */
static inline uint32_t
key_hi(uint32_t key, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)key >> (32 - pc->known));
}

static inline uint32_t
hi_chunk(uint32_t hi, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)hi >> pc->f);
}

static inline uint32_t
entry(uint32_t hi, uint32_t doc, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)(hi & low_mask(pc->f)) << pc->d | doc);
}

/* An entry's fingerprint, and its known key bits given its chunk. */
static inline uint32_t
entry_fp(uint32_t e, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)e >> pc->d);
}

static inline uint32_t
entry_hi(uint32_t e, uint32_t chunk, const struct pskd_lsh_code *pc)
{
	return (uint32_t)((uint64_t)chunk << pc->f | entry_fp(e, pc));
}

/*
 * The first of n ascending entries that is >= v (v may be 2^32): bisection,
 * and a search that starts from a guess and gallops away from it.  A
 * chunk's fingerprints are uniform, so the guess fp * n / 2^f lands within
 * a few entries, in the cache line already fetched.
 */
#define LOWER(name, type, at, add)					\
static inline size_t							\
name(type p, size_t n, uint64_t v)					\
{									\
	size_t lo = 0, half;						\
									\
	while (n > 0) {							\
		half = n / 2;						\
		if (at(p, lo + half) < v) {				\
			lo += half + 1;					\
			n -= half + 1;					\
		} else							\
			n = half;					\
	}								\
	return lo;							\
}									\
									\
static inline size_t							\
name##_from(type p, size_t n, uint64_t v, size_t g)			\
{									\
	size_t lo, hi, step = 1;					\
									\
	if (n == 0)							\
		return 0;						\
	if (at(p, g) < v) {						\
		lo = hi = g + 1;					\
		while (hi < n && at(p, hi) < v) {			\
			lo = hi + 1;					\
			hi += step;					\
			step *= 2;					\
		}							\
		if (hi > n)						\
			hi = n;						\
	} else {							\
		lo = hi = g;						\
		while (lo > 0 && at(p, lo - 1) >= v) {			\
			hi = lo - 1;					\
			lo = lo > step ? lo - step : 0;			\
			step *= 2;					\
		}							\
	}								\
	return lo + name(add(p, lo), hi - lo, v);			\
}

static inline uint32_t
at_mem(const uint32_t *e, size_t i)
{
	return e[i];
}

static inline const uint32_t *
add_mem(const uint32_t *e, size_t i)
{
	return e + i;
}

/* A segment's entries, as mapped: 32-bit little-endian. */
struct le32s {
	const unsigned char *p;
};

static inline struct le32s
le_add(struct le32s a, size_t i)
{
	a.p += 4 * i;
	return a;
}

static inline uint32_t
at_le(struct le32s a, size_t i)
{
	return pskd_get_le32(a.p + 4 * i);
}

LOWER(lower_mem, const uint32_t *, at_mem, add_mem)
LOWER(lower_le, struct le32s, at_le, le_add)

/* Where in n entries a fingerprint fp of f bits should be. */
static inline size_t
guess(uint32_t fp, size_t n, const struct pskd_lsh_code *pc)
{
	return (size_t)(((uint64_t)fp * n) >> pc->f);
}

/* ---- memory that grows in place ------------------------------------------ */

/*
 * The index's large arrays are anonymous mappings: pages count in memory
 * only once written, so an array reserves twice what it needs and grows
 * into that without a system call; past it, mremap(2) moves the pages
 * rather than copying them.  No freed block stays behind in the heap, so
 * the memory a run holds is the memory its index uses.  Returns the
 * mapping, at least need bytes, its size in *res.
 */
#ifdef __SANITIZE_ADDRESS__
/* From malloc, so that ASan sees any overrun; an eighth more at a time. */
static void *
map_grow(void *p, size_t *res, size_t need)
{
	if (need <= *res)
		return p;
	if (need < *res + *res / 8)
		need = *res + *res / 8;
	*res = need;
	return pskd_xrealloc(p, need);
}

static void
map_free(void *p, size_t res)
{
	(void)res;
	free(p);
}
#else
#define MAP_MIN	(1u << 20)	/* reserved at first */

static void *
map_grow(void *p, size_t *res, size_t need)
{
	static size_t page;
	size_t c;
	void *q;

	if (need <= *res)
		return p;
	if (page == 0)
		page = (size_t)sysconf(_SC_PAGESIZE);
	c = *res > need / 2 ? 2 * *res : need;
	if (c < MAP_MIN)
		c = MAP_MIN;
	c = (c + page - 1) / page * page;
#ifdef MREMAP_MAYMOVE
	q = p == NULL ? mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) :
	    mremap(p, *res, c, MREMAP_MAYMOVE);
#else
	q = mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	if (q != MAP_FAILED && p != NULL) {
		memcpy(q, p, *res);
		munmap(p, *res);
	}
#endif
	if (q == MAP_FAILED)
		pskd_errx(PSKD_EXIT_DATA, "out of memory (%zu bytes)", c);
#ifdef MADV_NOHUGEPAGE
	/* A huge page would count 2 MiB in memory for the first byte used. */
	(void)madvise(q, c, MADV_NOHUGEPAGE);
#endif
	*res = c;
	return q;
}

static void
map_free(void *p, size_t res)
{
	if (p != NULL)
		munmap(p, res);
}
#endif /* __SANITIZE_ADDRESS__ */

/*
 * Fault in the pages of a growing map a step ahead of their use, in one
 * call rather than a trap each (pskd_prefault()); *in bytes are in.  The
 * step is small so that the 2b + 3 arrays hold little unused memory, and
 * large enough that a band's many small growths make few calls (3,300
 * calls for the bench's 20,000 documents when each growth made one: as
 * dear as the faults they saved).
 */
#define AHEAD	(16u << 10)

static void
ahead(void *p, size_t *in, size_t used, size_t res)
{
	size_t to;

	if (used <= *in)
		return;
	to = used + AHEAD;	/* pskd_prefault() takes whole pages */
	if (to > res)
		to = res;
	pskd_prefault((unsigned char *)p + *in, to - *in);
	*in = to;
}

/* ---- files --------------------------------------------------------------- */

static char *
path_in(const struct pskd_lsh_index *ix, const char *name)
{
	size_t n = strlen(ix->dir) + strlen(name) + 2;
	char *p = pskd_xmalloc(n);

	snprintf(p, n, "%s/%s", ix->dir, name);
	return p;
}

static void
seg_name(char *name, size_t size, uint64_t id)
{
	snprintf(name, size, "seg-%" PRIu64, id);
}

static _Noreturn void
damaged(const struct pskd_lsh_index *ix, const struct pskd_lsh_seg *s)
{
	pskd_errx(PSKD_EXIT_DATA, "%s/seg-%" PRIu64 ": entries out of range "
	    "(the index is damaged)", ix->dir, s->id);
}

static void
unmap(struct pskd_map *m)
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
static size_t
seg_section(const struct pskd_lsh_seg *s)
{
	return 4 * ((size_t)s->n + ((size_t)1 << s->code.c) + 1);
}

/*
 * Map the documents on disk.  Nothing here reads them all: a run costs
 * what it looks up, not what the index holds.
 */
static int
map_base(struct pskd_lsh_index *ix, char *err, size_t errsize)
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

		seg_name(name, sizeof(name), s->id);
		if (map_file(ix, name, (uint64_t)ix->b * seg_section(s), 1,
		    &s->m, err, errsize) == -1)
			return -1;
	}
	return 0;
}

/* ---- this run's documents: chunks in memory ------------------------------ */

/*
 * A band's chunks live back to back in one array, each with a little room
 * after it: no allocation per chunk, and no more than a few percent unused.
 * A full chunk takes room from the nearest chunk after it that has some,
 * moving the chunks between; when none is near, the room is spread evenly
 * again, the array grown by a sixteenth when little is left.
 */
#define REACH	8	/* chunks a full one may move to find room */

static void
bands_free(struct pskd_lsh_index *ix)
{
	uint32_t j;

	if (ix->band != NULL)
		for (j = 0; j < ix->b; j++) {
			map_free(ix->band[j].e, ix->band[j].res);
			free(ix->band[j].chunk);
		}
	free(ix->band);
	ix->band = NULL;
}

static void
bands_init(struct pskd_lsh_index *ix)
{
	uint32_t j;

	code_init(&ix->mc, 0);
	ix->band = pskd_xcalloc(ix->b, sizeof(*ix->band));
	for (j = 0; j < ix->b; j++)
		ix->band[j].chunk = pskd_xcalloc(2, sizeof(*ix->band[j].chunk));
}

/*
 * Spread the room evenly over the chunks of band bd (n entries), in an
 * array of cap entries (at least its present size).  Chunks that move left
 * move first, left to right, then those that move right, right to left:
 * neither overwrites a chunk not yet moved.
 */
static void
band_spread(struct pskd_lsh_band *bd, size_t nch, size_t n, size_t cap)
{
	struct pskd_lsh_chunk *ck = bd->chunk;
	uint32_t *to = pskd_xreallocarray(NULL, nch, sizeof(*to));
	size_t i, room = cap - n, at = 0;

	if (cap > bd->cap) {
		bd->e = map_grow(bd->e, &bd->res, cap * sizeof(*bd->e));
		ahead(bd->e, &bd->in, cap * sizeof(*bd->e), bd->res);
		bd->cap = cap;
	}
	for (i = 0; i < nch; i++) {
		to[i] = (uint32_t)at;
		at += ck[i].len + room * (i + 1) / nch - room * i / nch;
	}
	for (i = 0; i < nch; i++)
		if (to[i] <= ck[i].start) {
			memmove(bd->e + to[i], bd->e + ck[i].start,
			    ck[i].len * sizeof(*bd->e));
			ck[i].start = to[i];
		}
	for (i = nch; i-- > 0; )
		if (to[i] > ck[i].start) {
			memmove(bd->e + to[i], bd->e + ck[i].start,
			    ck[i].len * sizeof(*bd->e));
			ck[i].start = to[i];
		}
	ck[nch].start = (uint32_t)cap;
	free(to);
}

/*
 * Room in full chunk i of band bd (n entries): half the room of the nearest
 * chunk after it that has some, so one move serves several inserts.
 */
static void
band_room(struct pskd_lsh_band *bd, size_t nch, size_t i, size_t n)
{
	struct pskd_lsh_chunk *ck = bd->chunk;
	size_t k, m, from, g;

	for (k = i + 1; k < nch && k <= i + REACH; k++)
		if (ck[k].start + ck[k].len < ck[k + 1].start)
			break;
	if (k < nch && k <= i + REACH) {
		g = (ck[k + 1].start - ck[k].start - ck[k].len + 1) / 2;
		from = ck[i + 1].start;
		memmove(bd->e + from + g, bd->e + from,
		    (ck[k].start + ck[k].len - from) * sizeof(*bd->e));
		for (m = i + 1; m <= k; m++)
			ck[m].start += (uint32_t)g;
		return;
	}
	if (bd->cap - n >= 2 * nch)
		band_spread(bd, nch, n, bd->cap);
	else
		band_spread(bd, nch, n, n + n / 16 + 2 * nch);
}

/*
 * Recode band bd's entries from code oc to nc; when nc has twice the
 * chunks, each splits in two where its entries' next key bit turns to 1.
 * The known key bits never grow, so the entries alone say where they go,
 * and they keep their order: nothing moves but the chunk bounds.
 */
static void
band_recode(struct pskd_lsh_band *bd, const struct pskd_lsh_code *oc,
    const struct pskd_lsh_code *nc, size_t n)
{
	size_t nch = (size_t)1 << oc->c, i, x, low;
	struct pskd_lsh_chunk *ck, *old = bd->chunk;
	uint32_t hi, shift = oc->known - nc->known, *e;

	ck = pskd_xcalloc(((size_t)1 << nc->c) + 1, sizeof(*ck));
	for (i = 0; i < nch; i++) {
		e = bd->e + old[i].start;
		for (x = low = 0; x < old[i].len; x++) {
			hi = entry_hi(e[x], (uint32_t)i, oc) >> shift;
			low += (hi_chunk(hi, nc) & 1) == 0;
			e[x] = entry(hi, e[x] & low_mask(oc->d), nc);
		}
		if (nc->c == oc->c) {
			ck[i] = old[i];
			continue;
		}
		ck[2 * i].start = old[i].start;
		ck[2 * i].len = (uint32_t)low;
		ck[2 * i + 1].start = old[i].start + (uint32_t)low;
		ck[2 * i + 1].len = old[i].len - (uint32_t)low;
	}
	ck[(size_t)1 << nc->c].start = (uint32_t)bd->cap;
	free(old);
	bd->chunk = ck;
	if (nc->c != oc->c)
		band_spread(bd, (size_t)1 << nc->c, n, bd->cap);
}

/* Room for documents numbered up to 2^d - 1 (d one more than now). */
static void
bands_regrow(struct pskd_lsh_index *ix, uint32_t d)
{
	struct pskd_lsh_code nc;
	uint32_t j;

	code_init(&nc, d);
	for (j = 0; j < ix->b; j++)
		band_recode(&ix->band[j], &ix->mc, &nc, ix->ndocs - ix->nbase);
	ix->mc = nc;
}

static void
mem_insert(struct pskd_lsh_index *ix, uint32_t band, uint32_t key,
    uint32_t doc)
{
	const struct pskd_lsh_code *pc = &ix->mc;
	struct pskd_lsh_band *bd = &ix->band[band];
	const struct pskd_lsh_probe *pr = &ix->probe[band];
	uint32_t hi = key_hi(key, pc), ch = hi_chunk(hi, pc), *e;
	uint64_t after = ((uint64_t)(hi & low_mask(pc->f)) + 1) << pc->d;
	size_t i, len;

	if (bd->chunk[ch].start + bd->chunk[ch].len == bd->chunk[ch + 1].start)
		band_room(bd, (size_t)1 << pc->c, ch, doc);
	e = bd->e + bd->chunk[ch].start;
	len = bd->chunk[ch].len;
	/* Where the lookup of this key just ended, if nothing moved since. */
	if (ix->probed == ix->ndocs + 1 && pr->key == key)
		i = pr->at;
	else
		i = lower_mem(e, len, after);
	memmove(e + i + 1, e + i, (len - i) * sizeof(*e));
	e[i] = entry(hi, doc, pc);
	bd->chunk[ch].len++;
}

/* ---- the manifest -------------------------------------------------------- */

static void
add_seg(struct pskd_lsh_index *ix, uint64_t id, uint32_t first, uint32_t n)
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

static void	remove_unlisted(struct pskd_lsh_index *);

static int
manifest_line(struct pskd_lsh_index *ix, const char *line)
{
	struct pskd_frame_params *fp = &ix->fp;
	unsigned long long v, id, first, n;
	char key[64], nl, *end;

	if (sscanf(line, "segment %llu %llu %llu%c", &id, &first, &n,
	    &nl) == 4 && nl == '\n') {
		if (first != ix->ndocs || n == 0 || n > UINT32_MAX - first ||
		    id >= ix->nextseg)
			return -1;
		add_seg(ix, id, (uint32_t)first, (uint32_t)n);
		ix->ndocs += (uint32_t)n;
		return 0;
	}
	if (sscanf(line, "%63s %c", key, &nl) != 2 || !isdigit((unsigned char)nl))
		return -1;
	/* Seeds take all 64 bits; everything else fits in 32. */
	errno = 0;
	v = strtoull(strchr(line, ' ') + 1, &end, 10);
	if (errno != 0 || strcmp(end, "\n") != 0)
		return -1;
	if (v > UINT32_MAX && strcmp(key, "shingle_seed") != 0 &&
	    strcmp(key, "minhash_seed") != 0 && strcmp(key, "id_bytes") != 0 &&
	    strcmp(key, "next_segment") != 0)
		return -1;
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
	else if (strcmp(key, "next_segment") == 0) ix->nextseg = v;
	else
		return -1;
	return 1;
}

/* Parse the manifest; 0 when there is none yet. */
static int
read_manifest(struct pskd_lsh_index *ix, uint32_t b, uint32_t r, char *err,
    size_t errsize)
{
	char *path = path_in(ix, MANIFEST), line[256];
	struct pskd_frame_params *fp = &ix->fp;
	int seen = 0, rc = -1, got;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		free(path);
		if (errno == ENOENT)
			return 0;
		snprintf(err, errsize, "%s/%s: %s", ix->dir, MANIFEST,
		    strerror(errno));
		return -1;
	}
	if (fgets(line, sizeof(line), f) == NULL)
		goto bad;
	if (strcmp(line, MANIFEST_V1) == 0) {
		snprintf(err, errsize, "%s: an index of an older pskd-lsh "
		    "(format 1): make it again", ix->dir);
		goto out;
	}
	if (strcmp(line, MANIFEST_V2) != 0)
		goto bad;
	memset(fp, 0, sizeof(*fp));
	fp->kind = PSKD_FRAME_SIGNATURES;
	ix->ndocs = 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		/* The parameters come first, then the segments. */
		if (seen < 12 && strncmp(line, "segment ", 8) == 0)
			goto bad;
		if ((got = manifest_line(ix, line)) == -1)
			goto bad;
		seen += got;
	}
	if (seen != 12 || fp->k == 0 || ix->b == 0 || ix->b * ix->r != fp->k ||
	    ix->ndocs != ix->nbase)
		goto bad;
	if (ix->b != b || ix->r != r) {
		snprintf(err, errsize, "%s: the index was made with -b %" PRIu32
		    " -r %" PRIu32 ", not -b %" PRIu32 " -r %" PRIu32, ix->dir,
		    ix->b, ix->r, b, r);
		goto out;
	}
	ix->have_params = 1;
	ix->have_manifest = 1;
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

static int
write_manifest(struct pskd_lsh_index *ix, const struct pskd_lsh_seg *segs,
    size_t nseg, uint64_t idbytes, uint64_t nextseg, char *err,
    size_t errsize)
{
	char *path = path_in(ix, MANIFEST);
	const struct pskd_frame_params *fp = &ix->fp;
	struct pskd_outfile of;
	struct pskd_writer w;
	size_t i;

	if (pskd_outfile_open(&of, path) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	pskd_writer_init(&w, of.fd, path);
	pskd_writer_printf(&w, MANIFEST_V2 "unit %" PRIu32 "\nn %" PRIu32
	    "\nnorm %" PRIu32 "\nshingle_seed %" PRIu64 "\nk %" PRIu32
	    "\nfamily %" PRIu32 "\nminhash_seed %" PRIu64 "\nbands %" PRIu32
	    "\nrows %" PRIu32 "\ndocs %" PRIu32 "\nid_bytes %" PRIu64
	    "\nnext_segment %" PRIu64 "\n", fp->unit, fp->n, fp->norm,
	    fp->shingle_seed, fp->k, fp->family, fp->minhash_seed, ix->b,
	    ix->r, ix->ndocs, idbytes, nextseg);
	for (i = 0; i < nseg; i++)
		pskd_writer_printf(&w, "segment %" PRIu64 " %" PRIu32 " %"
		    PRIu32 "\n", segs[i].id, segs[i].first, segs[i].n);
	if (pskd_writer_flush(&w) == -1 || pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(w.error ?
		    w.error : errno));
		if (of.fd != -1)
			pskd_outfile_abort(&of);
		free(w.buf);
		free(path);
		return -1;
	}
	free(w.buf);
	free(path);
	return 0;
}

/* ---- open, look up, add -------------------------------------------------- */

int
pskd_lsh_open(struct pskd_lsh_index *ix, const char *dir, uint32_t b,
    uint32_t r, char *err, size_t errsize)
{
	char *lock;

	memset(ix, 0, sizeof(*ix));
	ix->b = b;
	ix->r = r;
	ix->lockfd = -1;
	bands_init(ix);
	ix->probe = pskd_xcalloc(b, sizeof(*ix->probe));
	ix->newoff = map_grow(NULL, &ix->newoffres, sizeof(*ix->newoff));
	ix->newoff[0] = 0;
	ix->newbase = pskd_xcalloc(1, sizeof(*ix->newbase));
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
	remove_unlisted(ix);	/* a killed run's leftovers, under the lock */
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
	size_t sec = seg_section(s), i;
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
			damaged(ix, s);
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
				damaged(ix, s);
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
static uint64_t
new_off(const struct pskd_lsh_index *ix, uint32_t i)
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
	a = new_off(ix, doc);
	*len = (size_t)(new_off(ix, doc + 1) - a);
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
		bands_regrow(ix, ix->mc.d + 1);
		ix->probed = 0;
	}
	ix->newsk = map_grow(ix->newsk, &ix->newskres, ((size_t)n + 1) * k);
	ahead(ix->newsk, &ix->newskin, ((size_t)n + 1) * k, ix->newskres);
	memcpy(ix->newsk + (size_t)n * k, sketch, k);
	ix->newids.p = map_grow(ix->newids.p, &ix->newids.cap,
	    ix->newids.len + idlen);
	ahead(ix->newids.p, &ix->newidsin, ix->newids.len + idlen,
	    ix->newids.cap);
	memcpy(ix->newids.p + ix->newids.len, id, idlen);
	ix->newids.len += idlen;
	ix->newoff = map_grow(ix->newoff, &ix->newoffres, ((size_t)n + 2) *
	    sizeof(*ix->newoff));
	ahead(ix->newoff, &ix->newoffin, ((size_t)n + 2) * sizeof(*ix->newoff),
	    ix->newoffres);
	if (((n + 1) & low_mask(IDBLOCK)) == 0) {
		ix->newbase = pskd_xreallocarray(ix->newbase, (((size_t)n +
		    1) >> IDBLOCK) + 1, sizeof(*ix->newbase));
		ix->newbase[(n + 1) >> IDBLOCK] = ix->newids.len;
	}
	ix->newoff[n + 1] = (uint32_t)(ix->newids.len -
	    ix->newbase[(n + 1) >> IDBLOCK]);
	for (j = 0; j < ix->b; j++)
		mem_insert(ix, j, keys[j], n);
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

/* ---- saving: a new segment, merged with the last ones ------------------- */

/* One sorted source of entries of a band: a segment or this run's chunks. */
struct cursor {
	const struct pskd_lsh_code *pc;
	uint32_t	 first;		/* the number of its document 0 */
	uint32_t	 shift;		/* its known bits - the output's */
	const struct pskd_lsh_band *bd;		/* memory: the band */
	const unsigned char *ent, *dir;		/* segment */
	const struct pskd_lsh_seg *seg;
	size_t		 n, nch, ch, i;
	int		 done;
	uint32_t	 hi, doc;	/* the current entry, output's bits */
};

static void
cursor_next(const struct pskd_lsh_index *ix, struct cursor *cu)
{
	uint32_t e;

	if (cu->bd != NULL) {
		while (cu->ch < cu->nch && cu->i == cu->bd->chunk[cu->ch].len) {
			cu->ch++;
			cu->i = 0;
		}
		if (cu->ch == cu->nch) {
			cu->done = 1;
			return;
		}
		e = cu->bd->e[cu->bd->chunk[cu->ch].start + cu->i++];
	} else {
		if (cu->i == cu->n) {
			cu->done = 1;
			return;
		}
		while (cu->ch < cu->nch &&
		    pskd_get_le32(cu->dir + 4 * (cu->ch + 1)) <= cu->i)
			cu->ch++;
		if (cu->ch == cu->nch)
			damaged(ix, cu->seg);
		e = pskd_get_le32(cu->ent + 4 * cu->i++);
		if ((e & low_mask(cu->pc->d)) >= cu->n)
			damaged(ix, cu->seg);
	}
	cu->hi = entry_hi(e, (uint32_t)cu->ch, cu->pc) >> cu->shift;
	cu->doc = cu->first + (e & low_mask(cu->pc->d));
}

/*
 * Band j of the output: the sources' entries by known key bits (the older
 * source first among equals), then the chunk offsets.
 */
static void
write_band(const struct pskd_lsh_index *ix, uint32_t j, struct cursor *cu,
    size_t ncu, const struct pskd_lsh_seg *out, struct pskd_writer *w)
{
	const struct pskd_lsh_code *pc = &out->code;
	size_t nch = (size_t)1 << pc->c, i, best, nb = 0;
	uint32_t *off = pskd_xcalloc(nch + 1, sizeof(*off));
	unsigned char blk[4096];		/* entries, written a block at a time */

	for (i = 0; i < ncu; i++) {
		cu[i].shift = cu[i].pc->known - pc->known;
		cu[i].ch = cu[i].i = 0;
		cu[i].done = 0;
		if (cu[i].bd != NULL)
			cu[i].bd = &ix->band[j];
		else {
			cu[i].ent = cu[i].seg->m.p + j * seg_section(cu[i].seg);
			cu[i].dir = cu[i].ent + 4 * cu[i].n;
		}
		cursor_next(ix, &cu[i]);
	}
	for (;;) {
		for (best = ncu, i = 0; i < ncu; i++)
			if (!cu[i].done && (best == ncu ||
			    cu[i].hi < cu[best].hi))
				best = i;
		if (best == ncu)
			break;
		pskd_put_le32(blk + nb, entry(cu[best].hi, cu[best].doc -
		    out->first, pc));
		if ((nb += 4) == sizeof(blk)) {
			pskd_writer_write(w, blk, nb);
			nb = 0;
		}
		off[hi_chunk(cu[best].hi, pc) + 1]++;
		cursor_next(ix, &cu[best]);
	}
	for (i = 0; i <= nch; i++) {
		if (i > 0)
			off[i] += off[i - 1];
		if (nb == sizeof(blk)) {
			pskd_writer_write(w, blk, nb);
			nb = 0;
		}
		pskd_put_le32(blk + nb, off[i]);
		nb += 4;
	}
	pskd_writer_write(w, blk, nb);
	free(off);
}

/* Write segment out from the last m segments and this run's documents. */
static int
write_seg(struct pskd_lsh_index *ix, size_t m, const struct pskd_lsh_seg *out,
    char *err, size_t errsize)
{
	struct cursor *cu = pskd_xcalloc(m + 1, sizeof(*cu));
	struct pskd_outfile of;
	struct pskd_writer w;
	char name[48], *path;
	size_t i;
	uint32_t j;
	int rc = 0;

	for (i = 0; i < m; i++) {
		const struct pskd_lsh_seg *s = &ix->seg[ix->nseg - m + i];

		cu[i].pc = &s->code;
		cu[i].first = s->first;
		cu[i].seg = s;
		cu[i].n = s->n;
		cu[i].nch = (size_t)1 << s->code.c;
	}
	cu[m].pc = &ix->mc;
	cu[m].first = ix->nbase;
	cu[m].bd = ix->band;
	cu[m].nch = (size_t)1 << ix->mc.c;
	seg_name(name, sizeof(name), out->id);
	path = path_in(ix, name);
	if (pskd_outfile_open(&of, path) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(path);
		free(cu);
		return -1;
	}
	pskd_writer_init(&w, of.fd, path);
	for (j = 0; j < ix->b; j++)
		write_band(ix, j, cu, ix->ndocs > ix->nbase ? m + 1 : m, out,
		    &w);
	if (pskd_writer_flush(&w) == -1 || pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(w.error ?
		    w.error : errno));
		pskd_outfile_abort(&of);
		rc = -1;
	}
	free(w.buf);
	free(path);
	free(cu);
	return rc;
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
append_docs(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	uint32_t n = ix->ndocs - ix->nbase, i, first;
	unsigned char *off;
	int rc;

	if (append_at(ix, "sketches", (uint64_t)ix->nbase * ix->fp.k,
	    ix->newsk, (size_t)n * ix->fp.k, err, errsize) == -1 ||
	    append_at(ix, "ids", ix->idbytes, ix->newids.p, ix->newids.len,
	    err, errsize) == -1)
		return -1;
	/* idoff holds ndocs + 1 offsets; a new index writes offset 0 too. */
	first = ix->nbase == 0 ? 0 : 1;
	off = pskd_xmalloc(((size_t)n + 1) * 8);
	for (i = first; i <= n; i++)
		pskd_put_le64(off + 8 * (i - first), ix->idbytes +
		    new_off(ix, i));
	rc = append_at(ix, "idoff", ((uint64_t)ix->nbase + first) * 8, off,
	    ((size_t)n + 1 - first) * 8, err, errsize);
	free(off);
	return rc;
}

/*
 * Remove the segment files the manifest no longer names: the merged ones,
 * and what a crash left (a file, or a temporary one, beyond the manifest).
 */
static void
remove_unlisted(struct pskd_lsh_index *ix)
{
	DIR *d = opendir(ix->dir);
	struct dirent *de;
	unsigned long long id;
	char *path, c;
	size_t i;
	int keep;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		/* A segment or manifest a killed run was writing: ours to
		 * remove, under the lock. */
		if (strncmp(de->d_name, ".seg-", 5) != 0 &&
		    strncmp(de->d_name, "." MANIFEST ".tmp.", 14) != 0) {
			if (sscanf(de->d_name, "seg-%llu%c", &id, &c) != 1)
				continue;
			for (keep = 0, i = 0; i < ix->nseg && !keep; i++)
				keep = ix->seg[i].id == id;
			if (keep)
				continue;
		}
		path = path_in(ix, de->d_name);
		(void)unlink(path);
		free(path);
	}
	closedir(d);
}

int
pskd_lsh_save(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	uint32_t n = ix->ndocs - ix->nbase;
	uint64_t idbytes = ix->idbytes + ix->newids.len, acc = n;
	struct pskd_lsh_seg out;
	size_t m = 0, i;

	if (ix->dir == NULL || !ix->have_params || (n == 0 &&
	    ix->have_manifest))
		return 0;
	if (append_docs(ix, err, errsize) == -1)
		return -1;
	/*
	 * Merge the last segments into the new one while they are no more
	 * than twice its size: about log2 segments to look in, and each
	 * entry rewritten about log2 times, not once a run.
	 */
	while (n > 0 && m < ix->nseg && acc * 2 >= ix->seg[ix->nseg - 1 - m].n)
		acc += ix->seg[ix->nseg - 1 - m++].n;
	memset(&out, 0, sizeof(out));
	if (acc > 0) {
		out.id = ix->nextseg;
		out.first = ix->ndocs - (uint32_t)acc;
		out.n = (uint32_t)acc;
		code_init(&out.code, doc_bits(acc));
		if (write_seg(ix, m, &out, err, errsize) == -1)
			return -1;
	}
	for (i = ix->nseg - m; i < ix->nseg; i++)
		unmap(&ix->seg[i].m);
	ix->nseg -= m;
	if (acc > 0) {
		ix->seg = pskd_xreallocarray(ix->seg, ix->nseg + 1,
		    sizeof(*ix->seg));
		ix->seg[ix->nseg++] = out;
	}
	if (write_manifest(ix, ix->seg, ix->nseg, idbytes, ix->nextseg +
	    (acc > 0), err, errsize) == -1)
		return -1;
	ix->nextseg += acc > 0;
	ix->have_manifest = 1;
	remove_unlisted(ix);
	/* The new state: everything on disk, nothing in memory. */
	unmap(&ix->sketches);
	unmap(&ix->ids);
	unmap(&ix->idoff);
	for (i = 0; i < ix->nseg; i++)
		unmap(&ix->seg[i].m);
	bands_free(ix);
	bands_init(ix);
	ix->nbase = ix->ndocs;
	ix->idbytes = idbytes;
	ix->newids.len = 0;
	return map_base(ix, err, errsize);
}

void
pskd_lsh_close(struct pskd_lsh_index *ix)
{
	size_t i;

	unmap(&ix->sketches);
	unmap(&ix->ids);
	unmap(&ix->idoff);
	for (i = 0; i < ix->nseg; i++)
		unmap(&ix->seg[i].m);
	free(ix->seg);
	bands_free(ix);
	map_free(ix->newsk, ix->newskres);
	map_free(ix->newids.p, ix->newids.cap);
	map_free(ix->newoff, ix->newoffres);
	free(ix->newbase);
	free(ix->cand);
	free(ix->probe);
	if (ix->lockfd != -1)
		close(ix->lockfd);
	free(ix->dir);
}
