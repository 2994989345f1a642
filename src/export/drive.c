/*
 * drive.c - from the token stream to a format: chunks of tokens are
 * scanned once (end-of-text ids, ids out of bound), cut into documents,
 * and handed to the format as runs of consecutive documents of one split
 * (the whole chunk when there is no validation split).  Also what every
 * format shares: converting token widths, naming files, the report.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "export/export.h"

const char *
xdtype_name(enum xdtype d)
{
	switch (d) {
	case XD_UINT16: return "uint16";
	case XD_UINT32: return "uint32";
	case XD_INT32: return "int32";
	default: return "default";
	}
}

uint64_t
xdtype_limit(enum xdtype d)
{
	switch (d) {
	case XD_UINT16: return UINT64_C(1) << 16;
	case XD_UINT32: return UINT64_C(1) << 32;
	case XD_INT32: return UINT64_C(1) << 31;
	default: return UINT64_MAX;
	}
}

char *
xport_path(const struct xport *x, const char *suffix)
{
	return pskd_xconcat(x->prefix, suffix);
}

/* What a run that ends before its commit must undo (see xport_mkdirs). */
static struct xport *running;
static char **made;
static size_t nmade;

static void
undo(void)
{
	size_t i;

	if (running == NULL)
		return;
	/* The temporaries first (pskd_outfile removes them too, later). */
	for (i = 0; i < running->nfiles; i++)
		if (!running->files[i]->check &&
		    running->files[i]->out.of.tmp != NULL)
			pskd_outfile_abort(&running->files[i]->out.of);
	while (nmade > 0)
		(void)rmdir(made[--nmade]);
}

void
xport_done(struct xport *x)
{
	(void)x;
	running = NULL;
}

void
xport_mkdirs(struct xport *x, int last)
{
	char *p = pskd_xstrdup(x->prefix), *s, c;
	size_t n = strlen(p);

	if (!last) {		/* only the folders before the last '/' */
		while (n > 0 && p[n - 1] != '/')
			n--;
		p[n] = '\0';
	}
	for (s = p; *p != '\0' && !x->check; s++) {
		if (s == p || (*s != '/' && *s != '\0'))
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(p, 0777) == 0) {
			/* Made for this run: removed if it fails. */
			if (running == NULL) {
				running = x;
				atexit(undo);
			}
			made = pskd_xreallocarray(made, nmade + 1,
			    sizeof(*made));
			made[nmade++] = pskd_xstrdup(p);
		} else if (errno != EEXIST)
			pskd_err(PSKD_EXIT_DATA, "%s", p);
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
}

struct xfile *
xport_file(struct xport *x, const char *path, int late)
{
	struct xfile *f = pskd_xmalloc(sizeof(*f));

	xfile_open(f, path, x->check, late);
	f->src = x->in->name;
	x->files = pskd_xreallocarray(x->files, x->nfiles + 1,
	    sizeof(*x->files));
	x->files[x->nfiles++] = f;
	return f;
}

void
xport_unlink_old(const struct xport *x, const char *path)
{
	struct stat st;

	if (x->check || lstat(path, &st) == -1 || !S_ISREG(st.st_mode))
		return;
	if (unlink(path) == -1 && errno != ENOENT)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
}

/* ---- widths ------------------------------------------------------------- */

#define CONVERT(NAME, GET, PUT, W, OW)					\
static void								\
NAME(unsigned char *d, const unsigned char *s, size_t n)		\
{									\
	size_t i;							\
									\
	for (i = 0; i < n; i++)						\
		PUT(d + (OW) * i, GET(s + (W) * i));			\
}

static inline uint8_t
get8(const unsigned char *p)
{
	return *p;
}

static inline void
put16(unsigned char *p, uint64_t v)
{
	pskd_put_le16(p, (uint16_t)v);
}

static inline void
put32(unsigned char *p, uint64_t v)
{
	pskd_put_le32(p, (uint32_t)v);
}

CONVERT(c8to16, get8, put16, 1, 2)
CONVERT(c8to32, get8, put32, 1, 4)
CONVERT(c16to32, pskd_get_le16, put32, 2, 4)
CONVERT(c32to16, pskd_get_le32, put16, 4, 2)
CONVERT(c64to16, pskd_get_le64, put16, 8, 2)
CONVERT(c64to32, pskd_get_le64, put32, 8, 4)

/* Every id was checked against the output's range before it gets here. */
static void
convert(unsigned char *d, unsigned ow, const unsigned char *s, unsigned w,
    size_t n)
{
	if (w == ow) {
		memcpy(d, s, n * w);
		return;
	}
	switch (w * 16 + ow) {
	case 0x12: c8to16(d, s, n); break;
	case 0x14: c8to32(d, s, n); break;
	case 0x24: c16to32(d, s, n); break;
	case 0x42: c32to16(d, s, n); break;
	case 0x82: c64to16(d, s, n); break;
	default: c64to32(d, s, n); break;
	}
}

void
xport_emit(struct xport *x, struct xfile *f, const unsigned char *p, size_t n)
{
	const unsigned w = x->in->w, ow = x->ow;
	size_t k;

	f->tokens += n;
	if (w == ow) {		/* the stream's own bytes */
		xfile_copy(f, p, n * w, x->in->mapped);
		return;
	}
	while (n > 0) {
		/* Fill the buffer to the brim: writes of whole buffers. */
		k = (XBUF - f->len) / ow;
		if (k == 0)
			k = XBUF / ow;
		if (k > n)
			k = n;
		convert(xfile_room(f, k * ow), ow, p, w, k);
		xfile_wrote(f, k * ow);
		p += k * w;
		n -= k;
	}
}

void
xport_emit1(struct xport *x, struct xfile *f, uint64_t v)
{
	unsigned char *d = xfile_room(f, x->ow);

	if (x->ow == 2)
		put16(d, v);
	else
		put32(d, v);
	xfile_wrote(f, x->ow);
	f->tokens++;
}

/* ---- the stream ---------------------------------------------------------- */

static _Noreturn void
bad_token(struct xport *x, const unsigned char *p, size_t i)
{
	uint64_t v = xin_token(p, i, x->in->w);
	unsigned long long at = (unsigned long long)(x->in->seen + i);

	if (v >= x->in->bound)
		pskd_fail_at(x->in->name, 0, "E%d: token %llu: %llu out of "
		    "bound idx[%llu]", PSKD_E_VALUE, at,
		    (unsigned long long)v, (unsigned long long)x->in->bound);
	pskd_fail_at(x->in->name, 0, "E%d: token %llu: id %llu does not fit "
	    "%s, the dtype of this -f %s export%s", PSKD_E_VALUE,
	    at, (unsigned long long)v, xdtype_name(x->dtype), x->ops->name,
	    x->dtype == XD_UINT16 ? " (give --dtype uint32)" : "");
}

/* The split of document d, which starts now. */
static int
begin_doc(struct xport *x, uint64_t d)
{
	int s = xsplit_val(&x->split, d) ? XS_VAL : XS_TRAIN;

	x->st[s].docs++;
	return s;
}

/* The input's window moves: write out what still points into it. */
static void
settle_all(void *arg)
{
	struct xport *x = arg;
	size_t i;

	for (i = 0; i < x->nfiles; i++)
		xfile_settle(x->files[i]);
}

void
xport_run(struct xport *x)
{
	struct xin *in = x->in;
	const unsigned char *p;
	uint64_t limit, doc = 0;
	uint32_t *pos;
	size_t n, k, bad, i, e, from, e0;
	int split = XS_TRAIN, next, at_start = 1;

	limit = xdtype_limit(x->dtype);
	if (in->bound < limit)
		limit = in->bound;
	pos = pskd_xreallocarray(NULL, XCHUNK / in->w + 1, sizeof(*pos));
	in->moving = settle_all;
	in->moving_arg = x;
	while ((n = xin_next(in, &p)) > 0) {
		k = xscan(p, n, in->w, x->eot, limit, pos, &bad);
		if (bad < n)
			bad_token(x, p, bad);
		for (i = 0, e = 0; i < n;) {
			if (at_start) {
				split = begin_doc(x, doc);
				at_start = 0;
			}
			/* A run: documents of one split, while they last. */
			from = i;
			e0 = e;
			next = split;
			while (next == split) {
				if (e == k) {		/* past this chunk */
					i = n;
					break;
				}
				i = pos[e++] + 1;	/* a document ends */
				doc++;
				if (i == n) {
					at_start = 1;
					break;
				}
				next = begin_doc(x, doc);
			}
			x->ops->run(x, split, p, from, i, pos + e0, e - e0);
			split = next;
		}
		xin_skip(in, n);
		pskd_progress(0, "%llu tokens, %llu documents",
		    (unsigned long long)in->seen, (unsigned long long)doc);
	}
	free(pos);
	pskd_progress(1, "%llu tokens, %llu documents",
	    (unsigned long long)in->seen, (unsigned long long)doc);
	x->ops->end(x);
}

/* ---- the report ---------------------------------------------------------- */

static void
add(struct pskd_buf *b, const char *fmt, unsigned long long v)
{
	char tmp[64];
	int n = snprintf(tmp, sizeof(tmp), fmt, v);

	pskd_buf_add(b, tmp, (size_t)n);
}

static void
addstr(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

static void
split_stats(struct pskd_buf *b, const char *name, const struct xstats *s)
{
	addstr(b, ",\"");
	addstr(b, name);
	add(b, "\":{\"documents\":%llu", s->docs);
	add(b, ",\"tokens\":%llu}", s->tokens);
}

void
xport_report(struct xport *x)
{
	struct pskd_writer w;
	struct pskd_buf b = { 0 };
	size_t i;

	addstr(&b, "{\"format\":\"");
	addstr(&b, x->ops->name);
	addstr(&b, "\",\"dtype\":\"");
	addstr(&b, xdtype_name(x->dtype));
	add(&b, "\",\"eot\":%llu", x->eot);
	add(&b, ",\"tokens\":%llu", x->in->seen);
	add(&b, ",\"documents\":%llu", x->st[0].docs + x->st[1].docs);
	split_stats(&b, "train", &x->st[XS_TRAIN]);
	if (x->split.on) {
		split_stats(&b, "val", &x->st[XS_VAL]);
		add(&b, ",\"seed\":%llu", x->split.seed);
	}
	addstr(&b, ",\"files\":[");
	for (i = 0; i < x->nfiles; i++) {
		const struct xfile *f = x->files[i];

		addstr(&b, i ? ",{\"path\":" : "{\"path\":");
		pskd_json_quote(&b, (const unsigned char *)f->path,
		    strlen(f->path));
		add(&b, ",\"bytes\":%llu", f->flushed);
		addstr(&b, ",\"sha256\":\"");
		addstr(&b, f->hex);
		addstr(&b, "\"}");
	}
	addstr(&b, "]}\n");
	pskd_writer_init(&w, 1, "<stdout>");
	pskd_writer_write(&w, b.p, b.len);
	/* Before the renames: a report that cannot be written leaves none. */
	if (pskd_writer_flush(&w) == -1) {
		errno = w.error;
		pskd_err(PSKD_EXIT_DATA, "<stdout>");
	}
	pskd_buf_free(&b);
	free(w.buf);
}
