/*
 * lshsave.c - saving the LSH index: this run's documents appended to the
 * directory's files and written as a new segment, merged with the last
 * ones; see pskd-lsh(1), "INDEX DIRECTORY".
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lshint.h"


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
			lsh_damaged(ix, cu->seg);
		e = pskd_get_le32(cu->ent + 4 * cu->i++);
		if ((e & low_mask(cu->pc->d)) >= cu->n)
			lsh_damaged(ix, cu->seg);
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
			cu[i].ent = cu[i].seg->m.p + j * lsh_seg_section(cu[i].seg);
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
	lsh_seg_name(name, sizeof(name), out->id);
	path = lsh_path(ix, name);
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
	char *path = lsh_path(ix, name);
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
		    lsh_new_off(ix, i));
	rc = append_at(ix, "idoff", ((uint64_t)ix->nbase + first) * 8, off,
	    ((size_t)n + 1 - first) * 8, err, errsize);
	free(off);
	return rc;
}

/*
 * Cut the files a run appends to back to what the manifest vouches for
 * (none: remove them).
 */
static void
cut_tails(struct pskd_lsh_index *ix)
{
	static const char *const name[] = { "sketches", "ids", "idoff" };
	uint64_t len[3];
	struct stat st;
	char *path;
	size_t i;

	len[0] = (uint64_t)ix->nbase * ix->fp.k;
	len[1] = ix->idbytes;
	len[2] = ix->nbase == 0 ? 0 : ((uint64_t)ix->nbase + 1) * 8;
	for (i = 0; i < 3; i++) {
		path = lsh_path(ix, name[i]);
		if (stat(path, &st) == 0 && (uint64_t)st.st_size > len[i]) {
			if (ix->have_manifest)
				(void)truncate(path, (off_t)len[i]);
			else
				(void)unlink(path);
		}
		free(path);
	}
}

/*
 * Remove what the manifest does not vouch for: the segment files it no
 * longer names (the merged ones, and what a crash or a dropped run left: a
 * file, or a temporary one), and the tails of the files past its counts.
 */
void
lsh_remove_unlisted(struct pskd_lsh_index *ix)
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
		/* A segment a killed run was writing: ours to remove,
		 * under the lock. */
		if (strncmp(de->d_name, ".seg-", 5) != 0) {
			if (sscanf(de->d_name, "seg-%llu%c", &id, &c) != 1)
				continue;
			for (keep = 0, i = 0; i < ix->nseg && !keep; i++)
				keep = ix->seg[i].id == id;
			if (keep)
				continue;
		}
		path = lsh_path(ix, de->d_name);
		(void)unlink(path);
		free(path);
	}
	closedir(d);
	cut_tails(ix);
}

int
pskd_lsh_spill(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	uint32_t n = ix->ndocs - ix->nbase;
	uint64_t idbytes = ix->idbytes + ix->newids.len, acc = n;
	struct pskd_lsh_seg out;
	size_t m = 0, i;

	if (ix->dir == NULL || n == 0)
		return 0;
	if (append_docs(ix, err, errsize) == -1)
		return -1;
	/*
	 * Merge the last segments into the new one while they are no more
	 * than twice its size: about log2 segments to look in, and each
	 * entry rewritten about log2 times, not once a run.  The files of
	 * the merged ones stay until the commit no longer names them.
	 */
	while (m < ix->nseg && acc * 2 >= ix->seg[ix->nseg - 1 - m].n)
		acc += ix->seg[ix->nseg - 1 - m++].n;
	memset(&out, 0, sizeof(out));
	out.id = ix->nextseg;
	out.first = ix->ndocs - (uint32_t)acc;
	out.n = (uint32_t)acc;
	code_init(&out.code, doc_bits(acc));
	if (write_seg(ix, m, &out, err, errsize) == -1)
		return -1;
	for (i = ix->nseg - m; i < ix->nseg; i++)
		lsh_unmap(&ix->seg[i].m);
	ix->nseg -= m;
	ix->seg = pskd_xreallocarray(ix->seg, ix->nseg + 1, sizeof(*ix->seg));
	ix->seg[ix->nseg++] = out;
	ix->nextseg++;
	ix->changed = 1;
	/* The new state: everything on disk, nothing in memory. */
	lsh_unmap(&ix->sketches);
	lsh_unmap(&ix->ids);
	lsh_unmap(&ix->idoff);
	for (i = 0; i < ix->nseg; i++)
		lsh_unmap(&ix->seg[i].m);
	lsh_bands_free(ix);
	lsh_bands_init(ix);
	ix->nbase = ix->ndocs;
	ix->idbytes = idbytes;
	ix->newids.len = 0;
	return lsh_map_base(ix, err, errsize);
}

int
pskd_lsh_pend(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	if (ix->dir == NULL || !ix->have_params)
		return 0;
	if (pskd_lsh_spill(ix, err, errsize) == -1)
		return -1;
	if (ix->have_manifest && !ix->changed &&
	    ix->d.inputs.n == ix->d.committed)
		return 0;
	return pskd_ixdir_pend(&ix->d, lsh_manifest_body, ix, err, errsize);
}

/*
 * Under the lock of dir: a pending run dropped (*swept: there was one),
 * and what the manifest does not vouch for removed.  0 or -1 with err.
 */
static int
tidy(const char *dir, int *swept, char *err, size_t errsize)
{
	struct pskd_lsh_index ix;
	struct pskd_buf body = { 0 };
	int rc;

	memset(&ix, 0, sizeof(ix));
	ix.dir = pskd_xstrdup(dir);
	rc = pskd_ixdir_open(&ix.d, dir, PSKD_LSH_KIND, PSKD_LSH_VERSION,
	    PSKD_IXDIR_EXISTING, &body, err, errsize);
	if (rc == 1)
		rc = lsh_manifest_read(&ix, 0, 0, &body, err, errsize);
	if (rc != -1 && !ix.d.readonly)
		lsh_remove_unlisted(&ix);
	*swept = ix.d.swept;
	pskd_ixdir_close(&ix.d);
	pskd_buf_free(&body);
	free(ix.seg);
	free(ix.dir);
	return rc == -1 ? -1 : 0;
}

int
pskd_lsh_commit_dir(const char *dir, char *err, size_t errsize)
{
	struct pskd_ixdir d;
	struct pskd_buf body = { 0 };
	int rc, swept;

	rc = pskd_ixdir_open(&d, dir, PSKD_LSH_KIND, PSKD_LSH_VERSION,
	    PSKD_IXDIR_KEEP | PSKD_IXDIR_EXISTING, &body, err, errsize);
	if (rc != -1)
		rc = pskd_ixdir_commit(&d, err, errsize);
	pskd_ixdir_close(&d);
	pskd_buf_free(&body);
	/* The segments the new manifest no longer names. */
	if (rc == 1 && tidy(dir, &swept, err, errsize) == -1)
		return -1;
	return rc;
}

int
pskd_lsh_abort_dir(const char *dir, char *err, size_t errsize)
{
	int swept = 0;

	if (tidy(dir, &swept, err, errsize) == -1)
		return errno == ENOENT && access(dir, F_OK) == -1 ? 0 : -1;
	return swept;
}
