/*
 * seg.c - segments of the index directory (exact.h): the hashes of the
 * units of earlier runs, sorted, with the document each first came in and
 * a directory of buckets by their top bits, so that a lookup reads two
 * places; written by merging older segments with this run's table.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exact/exact.h"

uint64_t
x_seg_bytes(uint64_t n, unsigned *d)
{
	unsigned b = 0;

	while (b < 60 && ((uint64_t)8 << b) < n)
		b++;
	*d = b;
	return 16 * n + 8 * (((uint64_t)1 << b) + 1);
}

static inline uint64_t
bucket(uint64_t h, unsigned d)
{
	return d == 0 ? 0 : h >> (64 - d);
}

int
x_seg_find(const struct x_seg *s, uint64_t h, uint64_t *val)
{
	const unsigned char *dir = s->p + 16 * s->n + 8 * bucket(h, s->d);
	uint64_t a = pskd_get_le64(dir), z = pskd_get_le64(dir + 8), i, k;

	if (a > z || z > s->n)
		return -1;
	for (i = a; i < z; i++) {
		k = pskd_get_le64(s->p + 8 * i);
		if (k >= h) {
			if (k != h)
				return 0;
			*val = pskd_get_le64(s->p + 8 * (s->n + i));
			return 1;
		}
	}
	return 0;
}

int
x_seg_map(struct x_seg *s, const char *path, char *err, size_t errsize)
{
	uint64_t need = x_seg_bytes(s->n, &s->d);
	struct stat st;
	int fd;

	s->p = NULL;
	s->size = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size != need || need > SIZE_MAX) {
		snprintf(err, errsize, "%s: not the size the manifest says "
		    "(the index is damaged)", path);
		close(fd);
		return -1;
	}
	s->p = mmap(NULL, (size_t)need, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (s->p == MAP_FAILED) {
		s->p = NULL;
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		return -1;
	}
	s->size = (size_t)need;
	return 0;
}

void
x_seg_unmap(struct x_seg *s)
{
	if (s->p != NULL)
		munmap((void *)(uintptr_t)s->p, s->size);
	s->p = NULL;
	s->size = 0;
}

/* One sorted source of the merge: a segment, or the table. */
struct src {
	const struct x_seg *seg;
	const struct x_table *t;
	uint64_t	 i, end;	/* a segment's index, or the table's slot */
	uint64_t	 key, val;
	int		 done;
};

static void
src_next(struct src *c, uint64_t base)
{
	if (c->seg != NULL) {
		if (c->i == c->end) {
			c->done = 1;
			return;
		}
		c->key = pskd_get_le64(c->seg->p + 8 * c->i);
		c->val = pskd_get_le64(c->seg->p + 8 * (c->seg->n + c->i));
		c->i++;
		return;
	}
	while (c->i < c->end && x_table_key(c->t, c->i) == 0)
		c->i++;
	if (c->i == c->end) {
		c->done = 1;
		return;
	}
	c->key = x_table_key(c->t, c->i);
	c->val = base + x_table_val(c->t, c->i);
	c->i++;
}

/* A writer on its own descriptor of the file, at offset off. */
static int
section(struct pskd_writer *w, const char *tmp, uint64_t off)
{
	int fd = open(tmp, O_WRONLY | O_CLOEXEC);

	if (fd == -1 || lseek(fd, (off_t)off, SEEK_SET) == -1) {
		if (fd != -1)
			close(fd);
		return -1;
	}
	pskd_writer_init(w, fd, tmp);
	return 0;
}

static void
put64(struct pskd_writer *w, uint64_t v)
{
	unsigned char b[8];

	pskd_put_le64(b, v);
	pskd_writer_write(w, b, 8);
}

int
x_seg_write(const char *path, const struct x_seg *s, size_t ns,
    const struct x_table *t, uint64_t base, struct x_seg *out, char *err,
    size_t errsize)
{
	struct src *c = pskd_xcalloc(ns + 1, sizeof(*c));
	struct pskd_outfile of;
	struct pskd_writer wk, wv, wd;
	uint64_t n = t != NULL ? t->n : 0, b, nb, written = 0;
	size_t i, best, nc = 0;
	int have_v = 0, have_d = 0;

	for (i = 0; i < ns; i++) {
		c[nc].seg = &s[i];
		c[nc].end = s[i].n;
		n += s[i].n;
		src_next(&c[nc++], 0);
	}
	if (t != NULL) {
		c[nc].t = t;
		c[nc].end = t->size;
		src_next(&c[nc++], base);
	}
	memset(out, 0, sizeof(*out));
	out->n = n;
	(void)x_seg_bytes(n, &out->d);
	nb = (uint64_t)1 << out->d;
	if (pskd_outfile_open(&of, path) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(c);
		return -1;
	}
	pskd_writer_init(&wk, of.fd, path);
	if (section(&wv, of.tmp, 8 * n) == -1)
		goto fail;
	have_v = 1;
	if (section(&wd, of.tmp, 16 * n) == -1)
		goto fail;
	have_d = 1;
	for (b = 0;;) {
		for (best = nc, i = 0; i < nc; i++)
			if (!c[i].done && (best == nc || c[i].key < c[best].key))
				best = i;
		if (best == nc)
			break;
		/* The directory: buckets up to this hash's start here. */
		for (; b <= bucket(c[best].key, out->d); b++)
			put64(&wd, written);
		put64(&wk, c[best].key);
		put64(&wv, c[best].val);
		written++;
		src_next(&c[best], base);
	}
	for (; b <= nb; b++)
		put64(&wd, written);
	if (pskd_writer_close(&wv) == -1 || pskd_writer_close(&wd) == -1 ||
	    pskd_writer_flush(&wk) == -1 || pskd_outfile_commit(&of) == -1) {
		have_v = have_d = 0;
		goto fail;
	}
	free(wk.buf);
	free(c);
	return 0;
fail:
	snprintf(err, errsize, "%s: %s", path, strerror(errno));
	if (have_v)
		(void)pskd_writer_close(&wv);
	if (have_d)
		(void)pskd_writer_close(&wd);
	free(wk.buf);
	pskd_outfile_abort(&of);
	free(c);
	return -1;
}
