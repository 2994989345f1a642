/* lshmr.c - the map-reduce modes of pskd-lsh; see pskd-lsh(1). */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lshindex.h"
#include "lshmr.h"
#include "stats.h"
#include "params.h"

#define KEYLINE	35	/* "kkkkkkkk bbbb ssssssssss dddddddddd" */
#define PAIRLINE 43	/* "ssssssssss dddddddddd ssssssssss dddddddddd" */
#define DOCS_HEAD "#pskd-lsh-docs 1 "

static void
params_line(struct pskd_writer *w, const struct pskd_frame_params *fp,
    uint32_t b, uint32_t r, uint32_t shard)
{
	struct pskd_lsh_params p = { .fp = *fp, .b = b, .r = r };

	pskd_writer_puts(w, DOCS_HEAD);
	pskd_lsh_params_write(w, &p, ' ');
	pskd_writer_printf(w, " shard %" PRIu32 "\n", shard);
}

void
pskd_lshmr_map(const struct pskd_lshmr *mr, char **paths, int npaths)
{
	struct pskd_output dof, *kof;
	struct pskd_writer dw, *kw;
	struct pskd_frame_reader fr;
	struct pskd_frame_params first;
	struct pskd_frame f;
	uint32_t *sig = NULL, j, key, part, doc = 0, i;
	unsigned char *sk = NULL;
	char **names;
	const char *what;
	char suffix[32], vals[400];
	int rc, p, have = 0;

	kof = pskd_xcalloc(mr->parts, sizeof(*kof));
	kw = pskd_xcalloc(mr->parts, sizeof(*kw));
	names = pskd_xcalloc((size_t)mr->parts + 1, sizeof(*names));
	names[mr->parts] = pskd_xconcat(mr->prefix, ".docs");
	pskd_output_writer(&dof, &dw, names[mr->parts], 0);
	for (i = 0; i < mr->parts; i++) {
		snprintf(suffix, sizeof(suffix), ".keys-%03" PRIu32, i);
		names[i] = pskd_xconcat(mr->prefix, suffix);
		pskd_output_writer(&kof[i], &kw[i], names[i], 0);
	}
	for (p = 0; p < (npaths ? npaths : 1); p++) {
		if (pskd_frame_reader_open(&fr, npaths ? paths[p] : NULL,
		    PSKD_FRAME_SIGNATURES) == -1)
			pskd_frame_fail(&fr, npaths ? paths[p] : NULL);
		if (fr.fp.k != mr->b * mr->r)
			pskd_errx(PSKD_EXIT_DATA, "%s: -b %" PRIu32 " x -r %"
			    PRIu32 " is not the stream's k = %" PRIu32,
			    fr.r.name, mr->b, mr->r, fr.fp.k);
		if (!have) {
			first = fr.fp;
			have = 1;
			sig = pskd_xreallocarray(NULL, first.k, sizeof(*sig));
			sk = pskd_xmalloc(first.k);
			params_line(&dw, &first, mr->b, mr->r, mr->shard);
		} else if ((what = pskd_frame_params_mismatch(&first,
		    &fr.fp, vals, sizeof(vals))) != NULL)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s differs from the "
			    "first input's (%s)", fr.r.name, what, vals);
		while ((rc = pskd_frame_next(&fr, &f)) == 1) {
			/* s: a signature, e: empty, r: rejected. */
			pskd_writer_printf(&dw, "%" PRIu32 "\t%c\t", doc,
			    f.rejected ? 'r' : f.count ? 's' : 'e');
			if (f.count) {
				pskd_frame_values_u32(&f, sig);
				for (j = 0; j < first.k; j++) {
					sk[j] = pskd_sketch_byte(sig[j]);
					pskd_writer_printf(&dw, "%02x", sk[j]);
				}
			}
			pskd_writer_putc(&dw, '\t');
			pskd_tsv_field(&dw, f.id, f.idlen);
			pskd_writer_putc(&dw, '\n');
			for (j = 0; f.count && j < mr->b; j++) {
				key = pskd_band_key(sk, j, mr->r);
				part = (uint32_t)(((uint64_t)key *
				    mr->parts) >> 32);
				pskd_writer_printf(&kw[part], "%08" PRIx32
				    " %04" PRIx32 " %010" PRIu32 " %010" PRIu32
				    "\n", key, j, mr->shard, doc);
			}
			doc++;
		}
		if (rc == -1)
			pskd_frame_fail(&fr, NULL);
		pskd_frame_reader_close(&fr);
	}
	if (!have)
		pskd_errx(PSKD_EXIT_DATA, "no input");
	pskd_output_close(&dof, &dw);
	for (i = 0; i < mr->parts; i++)
		pskd_output_close(&kof[i], &kw[i]);
	for (i = 0; i <= mr->parts; i++)
		free(names[i]);
	free(names);
	free(kof);
	free(kw);
	free(sig);
	free(sk);
}

static uint32_t
field_u32(const unsigned char *p, size_t n, int *ok)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			*ok = 0;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (v > UINT32_MAX)
		*ok = 0;
	return (uint32_t)v;
}

void
pskd_lshmr_pairs(void)
{
	struct pskd_reader r;
	struct pskd_writer w;
	const unsigned char *line;
	unsigned char prev[KEYLINE];
	uint32_t *mem = NULL, s, d;
	size_t len, n = 0, cap = 0, i;
	int rc, ok;

	pskd_reader_fdopen(&r, 0, "<stdin>");
	pskd_writer_init(&w, 1, "<stdout>");
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1 && !w.error) {
		ok = len == KEYLINE && line[8] == ' ' && line[13] == ' ' &&
		    line[24] == ' ';
		s = field_u32(line + 14, 10, &ok);
		d = field_u32(line + 25, 10, &ok);
		if (!ok)
			pskd_errx(PSKD_EXIT_DATA, "<stdin>:%" PRIu64 ": not a "
			    "key line of pskd-lsh --map", r.lineno);
		/*
		 * Fixed-width fields: byte order is the order of (key, band,
		 * shard, document).  Each line must come after the one before,
		 * or equal keys apart would give no pairs and no error.
		 */
		if (r.lineno > 1 && memcmp(prev, line, KEYLINE) >= 0)
			pskd_errx(PSKD_EXIT_DATA, "<stdin>:%" PRIu64 ": key "
			    "lines not sorted (sort them)", r.lineno);
		if (n > 0 && memcmp(prev, line, 13) != 0)
			n = 0;
		memcpy(prev, line, KEYLINE);
		for (i = 0; i < n; i++) {
			pskd_writer_printf(&w, "%010" PRIu32 " %010" PRIu32
			    " %010" PRIu32 " %010" PRIu32 "\n", s, d,
			    mem[2 * i], mem[2 * i + 1]);
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			mem = pskd_xreallocarray(mem, cap, 2 * sizeof(*mem));
		}
		mem[2 * n] = s;
		mem[2 * n + 1] = d;
		n++;
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "<stdin>");
	pskd_writer_finish(&w);
	pskd_reader_close(&r);
	free(mem);
}

/* One shard's documents, as the map step described them. */
struct shard {
	const char	*prefix;
	uint32_t	 num;
	uint32_t	 n;
	unsigned char	*sk;		/* k bytes per document */
	unsigned char	*st;		/* 's' or 'e' per document */
	unsigned char	*kept;
	struct pskd_buf	 ids;		/* read back (unescaped) */
	size_t		*idoff;
	struct pskd_lsh_params p;
	struct pskd_lsh_stats count;	/* its verdicts */
};

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The parameter line of a .docs file: DOCS_HEAD, the parameters, " shard N". */
static int
docs_head(struct shard *sh, const unsigned char *line, size_t len)
{
	size_t hl = strlen(DOCS_HEAD), n;
	uint64_t num;
	char tail[24];

	if (len < hl || memcmp(line, DOCS_HEAD, hl) != 0 ||
	    (n = pskd_lsh_params_parse(line + hl, len - hl, ' ', &sh->p)) == 0)
		return -1;
	n += hl;
	if (len - n < 8 || len - n >= sizeof(tail) ||
	    memcmp(line + n, " shard ", 7) != 0)
		return -1;
	memcpy(tail, line + n + 7, len - n - 7);
	tail[len - n - 7] = '\0';
	if (pskd_strtonum(tail, 0, UINT32_MAX, 0, &num) == -1)
		return -1;
	sh->num = (uint32_t)num;
	return 0;
}

static void
load_docs(struct shard *sh, uint32_t k)
{
	struct pskd_reader r;
	const unsigned char *line, *tab;
	char *path = pskd_xconcat(sh->prefix, ".docs");
	size_t len, cap = 0, i;
	int rc, hi, lo;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	if (pskd_reader_line(&r, &line, &len) != 1 ||
	    docs_head(sh, line, len) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s:1: not a pskd-lsh --map "
		    "document list", path);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (sh->n == cap) {
			cap = cap ? 2 * cap : 1024;
			sh->sk = pskd_xreallocarray(sh->sk, cap, k);
			sh->st = pskd_xreallocarray(sh->st, cap, 1);
			sh->idoff = pskd_xreallocarray(sh->idoff, cap + 1,
			    sizeof(*sh->idoff));
		}
		/* DOC TAB s|e TAB SKETCH TAB ID */
		tab = memchr(line, '\t', len);
		if (tab == NULL || (size_t)(tab - line) + 3 > len ||
		    strtoul((const char *)line, NULL, 10) != sh->n ||
		    (tab[1] != 's' && tab[1] != 'e' && tab[1] != 'r') ||
		    tab[2] != '\t')
			goto bad;
		sh->st[sh->n] = tab[1];
		tab += 3;
		len -= (size_t)(tab - line);
		if (sh->st[sh->n] == 's') {
			if (len < 2 * (size_t)k + 1 || tab[2 * k] != '\t')
				goto bad;
			for (i = 0; i < k; i++) {
				hi = hexval(tab[2 * i]);
				lo = hexval(tab[2 * i + 1]);
				if (hi < 0 || lo < 0)
					goto bad;
				sh->sk[(size_t)sh->n * k + i] =
				    (unsigned char)(hi << 4 | lo);
			}
			tab += 2 * k;
			len -= 2 * (size_t)k;
		} else if (len < 1 || tab[0] != '\t')
			goto bad;
		sh->idoff[sh->n] = sh->ids.len;
		pskd_tsv_unescape(&sh->ids, tab + 1, len - 1);
		sh->n++;
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	sh->idoff = pskd_xreallocarray(sh->idoff, (size_t)sh->n + 1,
	    sizeof(*sh->idoff));
	sh->idoff[sh->n] = sh->ids.len;
	sh->kept = pskd_xcalloc((size_t)sh->n + 1, 1);
	pskd_reader_close(&r);
	free(path);
	return;
bad:
	pskd_errx(PSKD_EXIT_DATA, "%s:%" PRIu64 ": not a pskd-lsh --map "
	    "document line", path, r.lineno);
}

static int
cmp_shard(const void *a, const void *b)
{
	const struct shard *x = a, *y = b;

	return x->num < y->num ? -1 : x->num > y->num;
}

static struct shard *
find_shard(struct shard *sh, int n, uint32_t num)
{
	int lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (sh[mid].num < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && sh[lo].num == num ? &sh[lo] : NULL;
}

/*
 * The verdict of document d of shard sh: empty, rejected, a near-duplicate
 * of document e of es with eq equal components (eq 0: none), or kept.
 */
static void
verdict(struct pskd_verdicts *v, struct shard *sh, uint32_t d,
    const struct shard *es, uint32_t e, uint32_t eq, uint32_t k)
{
	const unsigned char *id = sh->ids.p + sh->idoff[d];
	size_t idlen = sh->idoff[d + 1] - sh->idoff[d];
	char est[32];
	int n;

	if (sh->st[d] == 'e' || sh->st[d] == 'r' || eq == 0) {
		if (sh->st[d] == 'e')
			sh->count.empty++;
		else if (sh->st[d] == 'r')
			sh->count.rejected++;
		else {
			sh->count.kept++;
			sh->kept[d] = 1;
		}
		pskd_verdicts_put(v, id, idlen, sh->st[d] == 'e' ? "empty" :
		    sh->st[d] == 'r' ? "rejected" : "keep", NULL, 0, NULL, 0,
		    NULL, 0);
		return;
	}
	sh->count.dup++;
	n = snprintf(est, sizeof(est), "%.4f", (double)eq / k);
	pskd_verdicts_put(v, id, idlen, "near_duplicate", es->ids.p +
	    es->idoff[e], es->idoff[e + 1] - es->idoff[e],
	    (const unsigned char *)est, (size_t)n, NULL, 0);
}

void
pskd_lshmr_cluster(const struct pskd_lshmr *mr, char **prefixes, int n,
    int quiet)
{
	struct pskd_reader r;
	struct pskd_verdicts v;
	struct shard *sh, *es, *best_sh;
	const unsigned char *line = NULL, *a, *b;
	uint32_t k = mr->b * mr->r, need, d, ls, ld, e, best, bestdoc, i;
	struct pskd_lsh_stats all = { 0 };
	size_t len = 0;
	int s, rc, ok, pending = 0;
	const char *what;
	char vals[400];

	need = (uint32_t)ceil(mr->t * k - 1e-9);
	if (need == 0)
		need = 1;
	sh = pskd_xcalloc((size_t)n, sizeof(*sh));
	for (s = 0; s < n; s++) {
		sh[s].prefix = prefixes[s];
		load_docs(&sh[s], k);
		if ((what = pskd_frame_params_mismatch(&sh[0].p.fp,
		    &sh[s].p.fp, vals, sizeof(vals))) != NULL)
			pskd_errx(PSKD_EXIT_DATA, "%s.docs: made with another "
			    "%s than %s.docs (%s)", prefixes[s], what,
			    prefixes[0], vals);
		if (sh[s].p.b != sh[0].p.b || sh[s].p.r != sh[0].p.r)
			pskd_errx(PSKD_EXIT_DATA, "%s.docs: made with -b %"
			    PRIu32 " -r %" PRIu32 ", %s.docs with -b %" PRIu32
			    " -r %" PRIu32, prefixes[s], sh[s].p.b, sh[s].p.r,
			    prefixes[0], sh[0].p.b, sh[0].p.r);
	}
	if (n > 0 && sh[0].p.fp.k != k)
		pskd_errx(PSKD_EXIT_DATA, "%s.docs: not made with k = %" PRIu32
		    " (-b x -r)", prefixes[0], k);
	qsort(sh, (size_t)n, sizeof(*sh), cmp_shard);
	for (s = 1; s < n; s++)
		if (sh[s].num == sh[s - 1].num)
			pskd_errx(PSKD_EXIT_DATA, "%s and %s are both shard %"
			    PRIu32, sh[s - 1].prefix, sh[s].prefix, sh[s].num);
	pskd_reader_fdopen(&r, 0, "<stdin>");
	for (s = 0; s < n; s++) {
		char *path = pskd_xconcat(sh[s].prefix, ".verdicts");

		pskd_verdicts_open(&v, path, NULL);
		for (d = 0; d < sh[s].n; d++) {
			sh[s].count.docs++;
			best = 0;
			bestdoc = 0;
			best_sh = NULL;
			/* This document's pairs: (s, d) later, (es, e) earlier. */
			for (;;) {
				if (!pending) {
					rc = pskd_reader_line(&r, &line, &len);
					if (rc == -1)
						pskd_err(PSKD_EXIT_DATA,
						    "<stdin>");
					if (rc == 0)
						break;
					pending = 1;
				}
				ok = len == PAIRLINE;
				ls = field_u32(line, 10, &ok);
				ld = field_u32(line + 11, 10, &ok);
				i = field_u32(line + 22, 10, &ok);
				e = field_u32(line + 33, 10, &ok);
				if (!ok)
					pskd_errx(PSKD_EXIT_DATA, "<stdin>:%"
					    PRIu64 ": not a pair line of "
					    "pskd-lsh --pairs", r.lineno);
				if (ls != sh[s].num || ld != d) {
					if (find_shard(sh, n, ls) == NULL ||
					    ld >= find_shard(sh, n, ls)->n)
						pskd_errx(PSKD_EXIT_DATA,
						    "<stdin>:%" PRIu64 ": no "
						    "document %" PRIu32 " in "
						    "shard %" PRIu32, r.lineno,
						    ld, ls);
					if (ls < sh[s].num || (ls == sh[s].num
					    && ld < d))
						pskd_errx(PSKD_EXIT_DATA,
						    "<stdin>:%" PRIu64 ": pairs "
						    "not sorted (sort -u them)",
						    r.lineno);
					break;
				}
				pending = 0;
				es = find_shard(sh, n, i);
				if (es == NULL || e >= es->n || es->num > ls ||
				    (es->num == ls && e >= ld))
					pskd_errx(PSKD_EXIT_DATA, "<stdin>:%"
					    PRIu64 ": not an earlier document",
					    r.lineno);
				if (!es->kept[e])
					continue;
				a = sh[s].sk + (size_t)d * k;
				b = es->sk + (size_t)e * k;
				for (i = 0, ok = 0; i < k; i++)
					ok += a[i] == b[i];
				if ((uint32_t)ok > best) {
					best = (uint32_t)ok;
					bestdoc = e;
					best_sh = es;
				}
			}
			verdict(&v, &sh[s], d, best_sh, bestdoc,
			    best_sh != NULL && best >= need ? best : 0, k);
		}
		pskd_verdicts_close(&v);
		free(path);
	}
	if (pending || pskd_reader_line(&r, &line, &len) == 1)
		pskd_errx(PSKD_EXIT_DATA, "<stdin>:%" PRIu64 ": a pair of a "
		    "document no shard has", r.lineno);
	pskd_reader_close(&r);
	/* One line a shard, in the order decided; then the sum of several. */
	for (s = 0; s < n && !quiet; s++) {
		pskd_lsh_stats_warn(sh[s].prefix, &sh[s].count, NULL);
		pskd_lsh_stats_add(&all, &sh[s].count);
	}
	if (n > 1 && !quiet)
		pskd_lsh_stats_warn("in all", &all, NULL);
	for (s = 0; s < n; s++) {
		free(sh[s].sk);
		free(sh[s].st);
		free(sh[s].kept);
		free(sh[s].idoff);
		pskd_buf_free(&sh[s].ids);
	}
	free(sh);
}

/*
 * A dropped document's tombstone, from its verdict line's fields after the
 * id (rest[0..n): VERDICT, then for a near-duplicate WHAT and AGAINST).
 */
static void
tombstone(struct pskd_verdicts *vd, struct pskd_buf *what,
    const struct pskd_frame *f, const unsigned char *rest, size_t n)
{
	const unsigned char *t = memchr(rest, '\t', n), *u;
	char verdict[32];
	size_t vl = t != NULL ? (size_t)(t - rest) : n;

	snprintf(verdict, sizeof(verdict), "%.*s", (int)vl, rest);
	if (t == NULL || (u = memchr(t + 1, '\t', n - vl - 1)) == NULL) {
		pskd_verdicts_put(vd, f->id, f->idlen, verdict, NULL, 0, NULL,
		    0, f->line, f->linelen);
		return;
	}
	what->len = 0;
	pskd_tsv_unescape(what, t + 1, (size_t)(u - t - 1));
	pskd_verdicts_put(vd, f->id, f->idlen, verdict, what->p, what->len,
	    u + 1, (size_t)(rest + n - u - 1), f->line, f->linelen);
}

/*
 * --apply: the verdicts of --cluster, one a frame in order, decide what is
 * kept.
 */
static void
apply_file(const char *path, struct pskd_reader *vr, struct pskd_buf *idb,
    struct pskd_frame_relay *relay, struct pskd_verdicts *vd)
{
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	const unsigned char *line, *tab;
	size_t len, rest;
	int rc;

	if (pskd_frame_reader_open(&fr, path, PSKD_FRAME_SIGNATURES) == -1)
		pskd_frame_fail(&fr, path);
	pskd_frame_relay_attach(relay, &fr);
	while ((rc = pskd_frame_next(&fr, &f)) == 1 && !relay->w->error) {
		if ((rc = pskd_reader_line(vr, &line, &len)) != 1)
			pskd_errx(PSKD_EXIT_DATA, "%s: fewer verdicts than "
			    "documents", vr->name);
		idb->len = 0;
		pskd_tsv_escape(idb, f.id, f.idlen);
		tab = memchr(line, '\t', len);
		if (tab == NULL || (size_t)(tab - line) != idb->len ||
		    memcmp(line, idb->p, idb->len) != 0)
			pskd_errx(PSKD_EXIT_DATA, "%s:%llu: the verdict is not "
			    "for this stream's document %llu", vr->name,
			    (unsigned long long)vr->lineno,
			    (unsigned long long)fr.nframes);
		rest = len - (size_t)(tab - line);
		if ((rest > 15 && memcmp(tab, "\tnear_duplicate\t", 16) == 0) ||
		    (rest == 9 && memcmp(tab, "\trejected", 9) == 0)) {
			tombstone(vd, idb, &f, tab + 1, rest - 1);
			continue;
		}
		pskd_frame_relay_line(relay, f.line, f.linelen);
	}
	if (rc == -1)
		pskd_frame_fail(&fr, NULL);
	pskd_frame_reader_close(&fr);
}

void
pskd_lshmr_apply(const char *verdicts, char **paths, int n,
    const char *output, const char *dropped)
{
	struct pskd_reader vr;
	struct pskd_buf idb = { 0 };
	struct pskd_output of;
	struct pskd_writer out;
	struct pskd_verdicts vd;
	struct pskd_frame_relay relay;
	const unsigned char *rest;
	size_t len;
	int i;

	if (pskd_reader_open(&vr, verdicts) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", verdicts);
	if (output != NULL)
		pskd_output_writer(&of, &out, output, 0);
	else
		pskd_writer_init(&out, 1, "<stdout>");
	pskd_frame_relay_init(&relay, &out);
	pskd_verdicts_open(&vd, NULL, dropped);
	for (i = 0; i < (n > 0 ? n : 1) && !out.error; i++)
		apply_file(n > 0 ? paths[i] : NULL, &vr, &idb, &relay, &vd);
	if (!out.error && pskd_reader_line(&vr, &rest, &len) == 1)
		pskd_errx(PSKD_EXIT_DATA, "%s: more verdicts than documents",
		    verdicts);
	if (output != NULL)
		pskd_output_close(&of, &out);
	else
		pskd_writer_finish(&out);
	pskd_verdicts_close(&vd);
	pskd_reader_close(&vr);
	pskd_buf_free(&idb);
}
