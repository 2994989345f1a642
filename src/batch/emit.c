/*
 * emit.c - samples out of .psk.d files in any order (see emit.h).
 *
 * The samples are read, not copied from the map: in random order,
 * faulting the map's pages in costs more than a system call per sample
 * (2 GiB of 8 KiB samples: 2.4 s with pread, 3.7 s copying from the map,
 * 2.5 to 6.5 s with writev(2) from the map, which also holds the pipe's
 * lock while it copies).  Into a pipe, splice(2) moves the file's
 * page-cache pages without copying them through this process.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch/emit.h"

void
emit_plan(struct emit_plan *p, uint64_t n, uint64_t rank, uint64_t world,
    uint64_t start, uint64_t batch, int take_set, uint64_t take,
    const char *name, const char *unit)
{
	uint64_t m = n / world, avail;

	if (start > m)
		pskd_errx(PSKD_EXIT_DATA, "%s%s--start %llu is past the end of "
		    "rank %llu's %llu %s", name ? name : "", name ? ": " : "",
		    (unsigned long long)start, (unsigned long long)rank,
		    (unsigned long long)m, unit);
	avail = m - start;
	p->per = batch ? batch : 1;
	p->nout = avail / p->per;
	p->rest = batch ? avail % p->per : 0;
	if (take_set && take <= p->nout) {
		p->nout = take;
		p->rest = 0;
	}
}

void
emit_rest(const struct emit_plan *p, const char *name)
{
	if (p->rest > 0)
		pskd_warnx("%s%sdropped the short last batch (%llu of %llu "
		    "samples)", name ? name : "", name ? ": " : "",
		    (unsigned long long)p->rest, (unsigned long long)p->per);
}

int
emit_src_open(struct emit_src *s, const char *path, struct pskd_error *e)
{
	if (strcmp(path, "-") == 0)
		pskd_errx(PSKD_EXIT_USAGE, "-: the order needs random access: "
		    "give a file, not standard input (pskd-pack -o FILE "
		    "makes one)");
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (pskd_file_open(&s->f, path, e) == -1)
		return -1;
	if (s->f.h.type.params) {
		pskd_error_set(e, PSKD_E_TYPE, "type not closed: a params type "
		    "has no layout to read");
		pskd_file_close(&s->f);
		return -1;
	}
	if ((s->fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	s->check = pskd_type_bounded(&s->f.h.type);
	return 0;
}

void
emit_src_close(struct emit_src *s)
{
	if (s->fd != -1)
		close(s->fd);
	pskd_file_close(&s->f);
}

/*
 * Into a pipe: 0 when all len bytes went, -1 when splice cannot be used
 * here (then nothing went).
 */
static int
splice_out(struct emit *e, const struct emit_src *s, uint64_t off,
    uint64_t len)
{
	struct pskd_writer *w = &e->out.w;
	loff_t at = (loff_t)off;
	ssize_t got;

	if (w->len > 0 && pskd_writer_flush(w) == -1)
		return 0;
	while (len > 0) {
		got = splice(s->fd, &at, w->fd, NULL, (size_t)len,
		    SPLICE_F_MORE);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1 && (errno == EINVAL || errno == ENOSYS) &&
		    (uint64_t)at == off) {
			e->splice_ok = 0;
			return -1;
		}
		if (got == -1) {
			w->error = errno;
			return 0;
		}
		if (got == 0)
			pskd_errx(PSKD_EXIT_DATA, "%s: E%d: truncated while "
			    "reading (the file changed)", s->f.name,
			    PSKD_E_TRUNC);
		len -= (uint64_t)got;
		w->total += (uint64_t)got;
	}
	return 0;
}

/* Read len bytes at offset off of the file into dst. */
static void
read_at(const struct emit_src *s, unsigned char *dst, size_t len,
    uint64_t off)
{
	ssize_t got;

	while (len > 0) {
		got = pread(s->fd, dst, len, (off_t)off);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", s->f.name);
		if (got == 0)
			pskd_errx(PSKD_EXIT_DATA, "%s: E%d: truncated while "
			    "reading (the file changed)", s->f.name,
			    PSKD_E_TRUNC);
		dst += got;
		len -= (size_t)got;
		off += (uint64_t)got;
	}
}

/* len bytes at offset off of the file to the output. */
static void
copy_out(struct emit *e, const struct emit_src *s, uint64_t off,
    uint64_t len)
{
	struct pskd_writer *w = &e->out.w;
	size_t n;

	if (e->splice_ok && splice_out(e, s, off, len) == 0)
		return;
	while (len > 0 && !w->error) {
		if (w->len == w->cap && pskd_writer_flush(w) == -1)
			return;
		n = w->cap - w->len;
		if (len < n)
			n = (size_t)len;
		read_at(s, w->buf + w->len, n, off);
		w->len += n;
		w->total += n;
		off += n;
		len -= n;
	}
}

/*
 * Every sample that goes out is checked against its type's bounds (E9004):
 * the file may come from anywhere.  The bytes checked are the bytes sent:
 * sample i at p, just read into a buffer (hot in the cache, where checking
 * through the map in random order took longer than the copy).
 */
static void
check_sample(const struct emit_src *s, const unsigned char *p, uint64_t i)
{
	struct pskd_error e;
	uint64_t bad;

	if (pskd_samples_check(&s->f.h.type, p, 1, &bad, &e) == 0)
		return;
	pskd_error_prefix(&e, "sample %llu", (unsigned long long)i);
	pskd_errx(PSKD_EXIT_DATA, "%s: %s", s->f.name, e.msg);
}

void
emit_begin(struct emit *e, struct pskd_output *o, const struct pskd_type *t,
    uint64_t per, uint64_t nout, const char *name)
{
	struct pskd_error perr;
	struct stat st;
	char *text, *list;
	uint64_t ss = t->sample_size;

	memset(e, 0, sizeof(*e));
	e->o = o;
	e->t = t;
	e->per = per;
	e->splice_ok = fstat(o->fd, &st) == 0 && S_ISFIFO(st.st_mode);
	if (per == 0) {
		pskd_sink_init(&e->out, o->fd, o->name, t, nout);
		return;
	}
	text = pskd_type_format(t, "batch", per);
	if (pskd_type_parse(&e->bt, text, strlen(text), &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", name, perr.msg);
	list = pskd_type_encodings(t);
	if (*list != '\0' && pskd_type_set_encodings(&e->bt, list, &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", name, perr.msg);
	free(list);
	free(text);
	pskd_sink_init(&e->out, o->fd, o->name, &e->bt, nout);
	if (nout == 0)
		return;
	e->bsrc = pskd_xreallocarray(NULL, (size_t)per, sizeof(*e->bsrc));
	e->bidx = pskd_xreallocarray(NULL, (size_t)per, sizeof(*e->bidx));
	/*
	 * Whole samples in one read each, when a batch fits: for a tuple, or
	 * to check them where they are read (one leaf unchecked goes from the
	 * file straight out).
	 */
	if ((t->nleaves > 1 || pskd_type_bounded(t)) &&
	    per <= (64u << 20) / (ss ? ss : 1))
		e->buf = pskd_xmalloc((size_t)(per * ss));
}

/*
 * Sample j into the writer's buffer, checked there; with nothing to check,
 * straight from the file (splice to a pipe).
 */
static void
send_sample(struct emit *e, const struct emit_src *s, uint64_t j)
{
	struct pskd_writer *w = &e->out.w;
	uint64_t ss = e->t->sample_size, off = s->f.h.size + j * ss;

	if (s->check && ss > w->cap - w->len && pskd_writer_flush(w) == -1)
		return;
	if (!s->check || ss > w->cap) {
		if (s->check)
			check_sample(s, pskd_file_sample(&s->f, j), j);
		copy_out(e, s, off, ss);
		return;
	}
	read_at(s, w->buf + w->len, (size_t)ss, off);
	check_sample(s, w->buf + w->len, j);
	w->len += (size_t)ss;
	w->total += ss;
}

/* The batch, leaf by leaf: the B inputs, then the B targets, ... */
static void
send_batch(struct emit *e)
{
	const struct pskd_type *t = e->t;
	const struct pskd_leaf *l;
	uint64_t b, ss = t->sample_size;
	size_t i;

	for (i = 0; i < t->nleaves; i++) {
		l = &t->leaves[i];
		for (b = 0; b < e->per; b++)
			if (e->buf != NULL)
				pskd_writer_write(&e->out.w, e->buf + b * ss +
				    l->offset, (size_t)l->size);
			else
				copy_out(e, e->bsrc[b], e->bsrc[b]->f.h.size +
				    e->bidx[b] * ss + l->offset, l->size);
	}
	e->out.count++;
	e->nb = 0;
}

void
emit_sample(struct emit *e, const struct emit_src *s, uint64_t j)
{
	uint64_t ss = e->t->sample_size;

	if (e->out.w.error)
		return;
	if (e->per == 0) {
		send_sample(e, s, j);
		e->out.count++;
		return;
	}
	e->bsrc[e->nb] = s;
	e->bidx[e->nb] = j;
	if (e->buf != NULL) {
		read_at(s, e->buf + e->nb * ss, (size_t)ss,
		    s->f.h.size + j * ss);
		if (s->check)
			check_sample(s, e->buf + e->nb * ss, j);
	} else if (s->check)
		check_sample(s, pskd_file_sample(&s->f, j), j);
	if (++e->nb == e->per)
		send_batch(e);
}

int
emit_failed(const struct emit *e)
{
	return e->out.w.error != 0;
}

void
emit_end(struct emit *e)
{
	if (pskd_sink_finish(&e->out) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", e->o->name);
	pskd_output_close(e->o, &e->out.w);
	free(e->buf);
	free(e->bsrc);
	free(e->bidx);
	if (e->per > 0)
		pskd_type_free(&e->bt);
}
