/*
 * mr.c - the map-reduce modes of pskd-exact (xmr.h; pskd-exact(1),
 * MAP-REDUCE): the same verdicts as one run over the shards in the order
 * of their numbers, from ordinary commands: a unit is repeated when a
 * line of a sorted partition with its hash comes before its own.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exact/xmr.h"

static char *
name_of(const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix) + strlen(suffix) + 1;
	char *p = pskd_xmalloc(n);

	snprintf(p, n, "%s%s", prefix, suffix);
	return p;
}

void
x_mr_map(const struct x_mr *mr, const char *path)
{
	struct pskd_output *of = pskd_xcalloc(mr->parts, sizeof(*of));
	struct pskd_writer *w = pskd_xcalloc(mr->parts, sizeof(*w));
	struct pskd_rejects rej;
	struct pskd_reader r;
	struct pskd_doc d;
	struct pskd_error e;
	struct x_units u;
	const unsigned char *line;
	char suffix[32], *name;
	size_t len, i;
	uint32_t j, part;
	int rc;

	if (pskd_doc_init(&d, mr->fields ? mr->fields : "text", NULL,
	    &e) == -1) {
		pskd_warnx("-f: %s", e.msg);
		pskd_usage_error(NULL);
	}
	for (j = 0; j < mr->parts; j++) {
		snprintf(suffix, sizeof(suffix), ".units-%03" PRIu32, j);
		name = name_of(mr->prefix, suffix);
		pskd_output_writer(&of[j], &w[j], name, 0);
		free(name);
	}
	pskd_rejects_open(&rej, mr->rejects);
	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	x_units_init(&u, &mr->p);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (pskd_doc_parse(&d, line, len) == -1) {
			if (mr->rejects == NULL)
				pskd_fail_at(r.name, r.lineno, "%s", d.err);
			pskd_rejects_add(&rej, r.name, r.lineno, d.err);
			continue;
		}
		x_units_doc(&u, &d);
		for (i = 0; i < u.n; i++) {
			part = (uint32_t)(((u.v[i].hash >> 32) * mr->parts) >>
			    32);
			pskd_writer_printf(&w[part], "%016" PRIx64 " %010"
			    PRIu64 " %010" PRIu64 " %010zu\n", u.v[i].hash,
			    mr->shard, r.lineno - 1, i);
		}
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r.name);
	pskd_reader_close(&r);
	for (j = 0; j < mr->parts; j++)
		pskd_output_close(&of[j], &w[j]);
	pskd_rejects_close(&rej);
	x_units_free(&u);
	pskd_doc_free(&d);
	free(of);
	free(w);
}

static int
unit_line(const unsigned char *p, size_t n)
{
	uint64_t v;
	size_t i;

	if (n != X_UNITLINE || p[16] != ' ' || p[27] != ' ' || p[38] != ' ')
		return 0;
	for (i = 0; i < 16; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' &&
		    p[i] <= 'f')))
			return 0;
	return pskd_decimal(p + 17, 10, &v) == 0 &&
	    pskd_decimal(p + 28, 10, &v) == 0 &&
	    pskd_decimal(p + 39, 10, &v) == 0;
}

void
x_mr_reduce(void)
{
	struct pskd_reader r;
	struct pskd_writer w;
	const unsigned char *line;
	unsigned char prev[X_UNITLINE], first[21];
	size_t len;
	int rc, have = 0;

	pskd_reader_fdopen(&r, 0, "<stdin>");
	pskd_writer_init(&w, 1, "<stdout>");
	pskd_pipe_grow(1);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (!unit_line(line, len))
			pskd_fail_at(r.name, r.lineno, "not a unit line (a "
			    "hash in 16 hex digits, then shard, document and "
			    "unit in 10 decimal digits)");
		if (have && memcmp(line, prev, X_UNITLINE) <= 0)
			pskd_fail_at(r.name, r.lineno, "not after the line "
			    "before (sort with LC_ALL=C, and each line once)");
		if (have && memcmp(line, prev, 16) == 0) {
			/* A repeat of the group's first unit. */
			pskd_writer_write(&w, line + 17, 32);
			pskd_writer_putc(&w, ' ');
			pskd_writer_write(&w, first, 21);
			pskd_writer_putc(&w, '\n');
		} else {
			memcpy(first, line + 17, 21);
		}
		memcpy(prev, line, X_UNITLINE);
		have = 1;
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r.name);
	pskd_writer_finish(&w);
}

/* ---- apply ----------------------------------------------------------- */

/* A repeat file, read from the first line of the shard applied. */
struct rfile {
	const char	*name;
	struct pskd_reader r;
	int		 done;
	uint64_t	 doc, unit, fshard, fdoc;	/* the current line */
	unsigned char	 prev[X_REPLINE];
	int		 have;
};

/* The first line at or after the shard's, by bisection (a file). */
static uint64_t
seek_shard(int fd, const char *name, uint64_t shard, uint64_t size)
{
	uint64_t lo = 0, hi = size / (X_REPLINE + 1), mid, s;
	unsigned char b[10];

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (pread(fd, b, 10, (off_t)(mid * (X_REPLINE + 1))) != 10)
			pskd_err(PSKD_EXIT_DATA, "%s", name);
		if (pskd_decimal(b, 10, &s) == -1)
			pskd_fail_at(name, mid + 1, "not a repeat line");
		if (s < shard)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The next line of f that is the shard's; done at the first after. */
static void
rfile_next(struct rfile *f, uint64_t shard)
{
	const unsigned char *p;
	uint64_t s;
	size_t len;
	int rc;

	for (;;) {
		if ((rc = pskd_reader_line(&f->r, &p, &len)) == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", f->name);
		if (rc == 0) {
			f->done = 1;
			return;
		}
		if (len != X_REPLINE || p[10] != ' ' || p[21] != ' ' ||
		    p[32] != ' ' || p[43] != ' ' ||
		    pskd_decimal(p, 10, &s) == -1 ||
		    pskd_decimal(p + 11, 10, &f->doc) == -1 ||
		    pskd_decimal(p + 22, 10, &f->unit) == -1 ||
		    pskd_decimal(p + 33, 10, &f->fshard) == -1 ||
		    pskd_decimal(p + 44, 10, &f->fdoc) == -1)
			pskd_fail_at(f->name, f->r.lineno, "not a repeat line "
			    "(shard, document, unit, and the first's shard "
			    "and document, in 10 decimal digits)");
		if (f->have && memcmp(p, f->prev, X_REPLINE) <= 0)
			pskd_fail_at(f->name, f->r.lineno, "not after the line "
			    "before (sort with LC_ALL=C)");
		memcpy(f->prev, p, X_REPLINE);
		f->have = 1;
		if (s < shard)
			continue;
		if (s > shard)
			f->done = 1;
		return;
	}
}

static void
rfile_open(struct rfile *f, const char *name, uint64_t shard)
{
	struct stat st;
	uint64_t at;
	int fd;

	memset(f, 0, sizeof(*f));
	f->name = name;
	if ((fd = open(name, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", name);
	if (S_ISREG(st.st_mode) && st.st_size % (X_REPLINE + 1) == 0) {
		at = seek_shard(fd, name, shard, (uint64_t)st.st_size);
		if (lseek(fd, (off_t)(at * (X_REPLINE + 1)), SEEK_SET) == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", name);
	}
	pskd_reader_fdopen(&f->r, fd, name);
	f->r.owned = 1;
	rfile_next(f, shard);
}

/* The file with the least (document, unit) of those not done, or NULL. */
static struct rfile *
least(struct rfile *f, int n)
{
	struct rfile *b = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (!f[i].done && (b == NULL || f[i].doc < b->doc ||
		    (f[i].doc == b->doc && f[i].unit < b->unit)))
			b = &f[i];
	return b;
}

int
x_mr_apply(const struct x_mr *mr, struct pskd_stage *st, const char *docs,
    char **repeats, int nrepeats)
{
	struct rfile *f = pskd_xcalloc((size_t)nrepeats, sizeof(*f)), *b;
	struct x_decide xd;
	struct x_counts c = { 0 };
	char *argv[1];
	uint64_t doc, num, line;
	size_t n;
	int i, rc;

	for (i = 0; i < nrepeats; i++)
		rfile_open(&f[i], repeats[i], mr->shard);
	x_decide_init(&xd, &mr->p, mr->min);
	argv[0] = (char *)(uintptr_t)docs;
	pskd_stage_open(st, 1, argv);
	while (pskd_stage_next(st)) {
		doc = st->lineno - 1;
		n = x_decide_units(&xd, st);
		num = line = 0;
		while ((b = least(f, nrepeats)) != NULL && b->doc <= doc) {
			if (b->doc < doc || b->unit >= n)
				pskd_fail_at(b->name, b->r.lineno, "unit %"
				    PRIu64 " of document %" PRIu64 ": not one "
				    "of the documents --map read", b->unit,
				    b->doc);
			if (b->unit > 0 && mr->p.grain == X_DOC)
				pskd_fail_at(b->name, b->r.lineno, "a unit "
				    "past the document's own with -g doc");
			xd.rep[b->unit] = 1;
			num = b->fshard;
			line = b->fdoc + 1;
			rfile_next(b, mr->shard);
		}
		x_decide(&xd, st, num, line, &c);
	}
	if ((b = least(f, nrepeats)) != NULL)
		pskd_fail_at(b->name, b->r.lineno, "document %" PRIu64 ": past "
		    "the documents of %s", b->doc, st->source ? st->source :
		    docs);
	c.rejected = st->rej.n;
	rc = pskd_stage_close(st);
	if (!mr->quiet)
		x_counts_warn(st->source ? st->source : docs, &c, mr->p.grain,
		    NULL);
	for (i = 0; i < nrepeats; i++)
		pskd_reader_close(&f[i].r);
	free(f);
	x_decide_free(&xd);
	return rc;
}
