/*
 * pskd-lsh - signature frames to the kept documents: banding finds
 * candidates, a candidate is a near-duplicate only when its estimated
 * Jaccard similarity with a kept document reaches the threshold; the first
 * seen is kept.  Verdicts and tombstones go to files; the index can persist.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "dedup/lshindex.h"
#include "dedup/lshmr.h"

static const char usage_text[] =
    "pskd-lsh [-Pqv] [-b B] [-r R] [-t T] [-i dir] [-m size]\n"
    "                [--dropped file] [--verdicts file] [file ...]\n"
    "       pskd-lsh [-b B] [-r R] --map P -s shard -o prefix [file ...]\n"
    "       pskd-lsh --pairs\n"
    "       pskd-lsh [-q] [-b B] [-r R] [-t T] --cluster prefix ...\n"
    "       pskd-lsh --apply verdicts [--dropped file] [file ...]";

static struct {
	uint32_t	 b, r;
	double		 t;
	const char	*dir;
	uint64_t	 mem;
	const char	*verdicts, *dropped;
	int		 quiet, verbose;
} opt = { 32, 4, 0.8, NULL, 1ULL << 30, NULL, NULL, 0, 0 };

static struct pskd_lsh_index ix;
static struct pskd_writer out, vw, dw;
static struct pskd_frame_relay relay;	/* kept lines, from the reader's buffer */
static struct pskd_outfile vf, df;
static uint32_t *keys;
static unsigned char *sketch;
static uint32_t need;		/* equal components for a near-duplicate */
static uint64_t ndocs, nkept, ndup, nempty;
static char err[512];

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -b, --bands B        bands (default 32)\n"
	    "  -i, --index DIR      a persistent index in DIR\n"
	    "  -m, --memory SIZE    memory for new index entries before they "
	    "go to DIR\n"
	    "                       (default 1G; suffixes K, M, G)\n"
	    "  -P, --progress       progress on stderr even if not a "
	    "terminal\n"
	    "  -q, --quiet          no statistics, no progress\n"
	    "  -r, --rows R         rows per band (default 4); B x R = k\n"
	    "  -t, --threshold T    estimated Jaccard of a near-duplicate "
	    "(default 0.8)\n"
	    "  -v, --verbose        index size in the statistics\n"
	    "      --dropped FILE   the dropped lines with their verdicts\n"
	    "      --verdicts FILE  one verdict a document\n"
	    "      --map P          map: band keys to P partition files\n"
	    "  -s, --shard N        map: the shard's number\n"
	    "  -o, --output PREFIX  map: PREFIX.docs, PREFIX.keys-NNN\n"
	    "      --pairs          sorted key lines to candidate pairs\n"
	    "      --cluster        pairs and PREFIX.docs to PREFIX.verdicts\n"
	    "      --apply FILE     keep what the verdicts in FILE keep\n"
	    "      --help           this text\n"
	    "      --version        the version\n");
	exit(0);
}

static uint64_t
parse_num(const char *s, const char *name, int suffix)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (suffix && *end != '\0' && end[1] == '\0') {
		int sh = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ?
		    30 : -1;

		if (sh > 0 && v < (1ULL << (64 - sh))) {
			v <<= sh;
			end++;
		}
	}
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v == 0 ||
	    (!suffix && v > 65536)) {
		pskd_warnx("%s: '%s' is not a valid number", name, s);
		pskd_usage_error(usage_text);
	}
	return v;
}

static uint32_t
equal_bytes(const unsigned char *a, const unsigned char *b, uint32_t k)
{
	uint32_t i, eq = 0;

	for (i = 0; i < k; i++)
		eq += a[i] == b[i];
	return eq;
}

/* The best kept match of a signature: most equal components, then first. */
static int
best_match(uint32_t k, uint32_t *doc, uint32_t *eq)
{
	const uint32_t *cand;
	uint32_t e, best = 0, bestdoc = 0;
	size_t i, ncand;

	ncand = pskd_lsh_candidates(&ix, sketch, keys, &cand);
	for (i = 0; i < ncand; i++) {
		e = equal_bytes(sketch, pskd_lsh_sketch(&ix, cand[i]), k);
		if (e > best) {
			best = e;
			bestdoc = cand[i];
		}
	}
	*doc = bestdoc;
	*eq = best;
	return best >= need;
}

static void
verdict(const struct pskd_frame *f, const char *what, uint32_t match,
    uint32_t eq, uint32_t k)
{
	const unsigned char *mid;
	size_t mlen;
	char est[32];
	int dup = match != UINT32_MAX;

	if (dup) {
		mid = pskd_lsh_id(&ix, match, &mlen);
		snprintf(est, sizeof(est), "%.4f", (double)eq / k);
	}
	if (opt.verdicts) {
		pskd_tsv_field(&vw, f->id, f->idlen);
		pskd_writer_putc(&vw, '\t');
		pskd_writer_puts(&vw, what);
		if (dup) {
			pskd_writer_putc(&vw, '\t');
			pskd_tsv_field(&vw, mid, mlen);
			pskd_writer_putc(&vw, '\t');
			pskd_writer_puts(&vw, est);
		}
		pskd_writer_putc(&vw, '\n');
	}
	if (dup && opt.dropped) {
		pskd_tsv_field(&dw, f->id, f->idlen);
		pskd_writer_puts(&dw, "\tnear_duplicate\t");
		pskd_tsv_field(&dw, mid, mlen);
		pskd_writer_putc(&dw, '\t');
		pskd_writer_puts(&dw, est);
		pskd_writer_putc(&dw, '\t');
		pskd_writer_write(&dw, f->line, f->linelen);
		pskd_writer_putc(&dw, '\n');
	}
	if (!dup)
		pskd_frame_relay_line(&relay, f->line, f->linelen);
}

static void
one_document(const struct pskd_frame *f)
{
	uint32_t k = ix.fp.k, i, match, eq;

	ndocs++;
	if (f->count == 0) {
		nempty++;
		verdict(f, "empty", UINT32_MAX, 0, k);
		return;
	}
	/* The low byte of each little-endian component. */
	for (i = 0; i < k; i++)
		sketch[i] = f->values[4 * (size_t)i];
	if (best_match(k, &match, &eq)) {
		ndup++;
		verdict(f, "near_duplicate", match, eq, k);
		return;
	}
	nkept++;
	verdict(f, "keep", UINT32_MAX, 0, k);
	pskd_lsh_add(&ix, sketch, keys, f->id, f->idlen);
	if (ix.dir != NULL && pskd_lsh_memory(&ix) > opt.mem &&
	    pskd_lsh_save(&ix, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
}

static void
lsh_file(const char *path)
{
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	int rc;

	if (pskd_frame_reader_open(&fr, path, PSKD_FRAME_SIGNATURES) == -1)
		pskd_frame_fail(&fr, path);
	pskd_frame_relay_attach(&relay, &fr);
	if (pskd_lsh_params(&ix, &fr.fp, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", fr.r.name, err);
	if (sketch == NULL) {
		sketch = pskd_xmalloc(ix.fp.k);
		need = (uint32_t)ceil(opt.t * ix.fp.k - 1e-9);
		if (need == 0)
			need = 1;
	}
	while ((rc = pskd_frame_next(&fr, &f)) == 1 && !out.error) {
		one_document(&f);
		if ((ndocs & 4095) == 0)
			pskd_progress(0, "%llu documents, %llu kept",
			    (unsigned long long)ndocs,
			    (unsigned long long)nkept);
	}
	if (rc == -1)
		pskd_frame_fail(&fr, NULL);
	pskd_frame_reader_close(&fr);
}

/* --apply: the verdicts of --cluster, one a frame, decide what is kept. */
static void
apply_file(const char *path, struct pskd_reader *vr, struct pskd_buf *idb)
{
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	const unsigned char *line, *tab;
	size_t len;
	int rc;

	if (pskd_frame_reader_open(&fr, path, PSKD_FRAME_SIGNATURES) == -1)
		pskd_frame_fail(&fr, path);
	pskd_frame_relay_attach(&relay, &fr);
	while ((rc = pskd_frame_next(&fr, &f)) == 1 && !out.error) {
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
		ndocs++;
		if (len - (size_t)(tab - line) > 15 &&
		    memcmp(tab, "\tnear_duplicate\t", 16) == 0) {
			ndup++;
			if (opt.dropped) {
				pskd_writer_write(&dw, line, len);
				pskd_writer_putc(&dw, '\t');
				pskd_writer_write(&dw, f.line, f.linelen);
				pskd_writer_putc(&dw, '\n');
			}
			continue;
		}
		pskd_frame_relay_line(&relay, f.line, f.linelen);
	}
	if (rc == -1)
		pskd_frame_fail(&fr, NULL);
	pskd_frame_reader_close(&fr);
}

static void
open_out(struct pskd_outfile *of, struct pskd_writer *w, const char *path)
{
	if (pskd_outfile_open(of, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_writer_init(w, of->fd, path);
}

static void
commit_out(struct pskd_outfile *of, struct pskd_writer *w)
{
	if (pskd_writer_flush(w) == -1) {
		errno = w->error;
		pskd_err(PSKD_EXIT_DATA, "%s", w->name);
	}
	if (pskd_outfile_commit(of) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", w->name);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bands", required_argument, NULL, 'b' },
		{ "index", required_argument, NULL, 'i' },
		{ "memory", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rows", required_argument, NULL, 'r' },
		{ "threshold", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "dropped", required_argument, NULL, 'D' },
		{ "verdicts", required_argument, NULL, 'T' },
		{ "apply", required_argument, NULL, 'A' },
		{ "cluster", no_argument, NULL, 'C' },
		{ "map", required_argument, NULL, 'M' },
		{ "output", required_argument, NULL, 'o' },
		{ "pairs", no_argument, NULL, 'p' },
		{ "progress", no_argument, NULL, 'P' },
		{ "shard", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_lshmr mr;
	const char *apply = NULL;
	char *end;
	size_t mem;
	int c, i, mode = 0;

	pskd_setprogname(argv[0]);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	memset(&mr, 0, sizeof(mr));
	while ((c = getopt_long(argc, argv, "b:i:m:o:Pqr:s:t:v", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'A': apply = optarg; mode = c; break;
		case 'C': case 'p': mode = c; break;
		case 'M':
			mr.parts = (uint32_t)parse_num(optarg, "--map", 0);
			if (mr.parts > 1024) {
				pskd_warnx("--map: at most 1024 partitions");
				pskd_usage_error(usage_text);
			}
			mode = c;
			break;
		case 'o': mr.prefix = optarg; break;
		case 's':
			errno = 0;
			mr.shard = (uint32_t)strtoul(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end != '\0' ||
			    errno != 0 || strlen(optarg) > 9) {
				pskd_warnx("-s: '%s' is not a shard number",
				    optarg);
				pskd_usage_error(usage_text);
			}
			break;
		case 'b': opt.b = (uint32_t)parse_num(optarg, "-b", 0); break;
		case 'i': opt.dir = optarg; break;
		case 'm': opt.mem = parse_num(optarg, "-m", 1); break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q':
			opt.quiet = 1;
			pskd_progress_mode = -1;
			break;
		case 'r':
			opt.r = (uint32_t)parse_num(optarg, "-r", 0);
			if (opt.r > 64) {
				pskd_warnx("-r: at most 64 rows a band");
				pskd_usage_error(usage_text);
			}
			break;
		case 't':
			errno = 0;
			opt.t = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !(opt.t > 0 && opt.t <= 1)) {
				pskd_warnx("-t: '%s' is not a number in (0, 1]",
				    optarg);
				pskd_usage_error(usage_text);
			}
			break;
		case 'v': opt.verbose = 1; break;
		case 'D': opt.dropped = optarg; break;
		case 'T': opt.verdicts = optarg; break;
		case 'h': usage(); break;
		case 'V': puts("pskd-lsh " PSKD_VERSION); return 0;
		default: pskd_usage_error(usage_text);
		}
	}
	argc -= optind;
	argv += optind;
	mr.b = opt.b;
	mr.r = opt.r;
	mr.t = opt.t;
	if (mode == 'M') {
		if (mr.prefix == NULL)
			pskd_usage_error(usage_text);
		pskd_lshmr_map(&mr, argv, argc);
		return 0;
	}
	if (mode == 'p') {
		if (argc > 0)
			pskd_usage_error(usage_text);
		pskd_lshmr_pairs();
		return 0;
	}
	if (mode == 'C') {
		if (argc == 0)
			pskd_usage_error(usage_text);
		pskd_lshmr_cluster(&mr, argv, argc, opt.quiet);
		return 0;
	}
	if (mode == 'A') {
		struct pskd_reader vr;
		struct pskd_buf idb = { 0 };
		const unsigned char *rest;

		if (pskd_reader_open(&vr, apply) == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", apply);
		pskd_writer_init(&out, 1, "<stdout>");
		pskd_frame_relay_init(&relay, &out);
		if (opt.dropped)
			open_out(&df, &dw, opt.dropped);
		if (argc == 0)
			apply_file(NULL, &vr, &idb);
		for (i = 0; i < argc && !out.error; i++)
			apply_file(argv[i], &vr, &idb);
		if (!out.error && pskd_reader_line(&vr, &rest, &mem) == 1)
			pskd_errx(PSKD_EXIT_DATA, "%s: more verdicts than "
			    "documents", apply);
		pskd_writer_finish(&out);
		if (opt.dropped)
			commit_out(&df, &dw);
		pskd_reader_close(&vr);
		pskd_buf_free(&idb);
		return 0;
	}

	if (pskd_lsh_open(&ix, opt.dir, opt.b, opt.r, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	keys = pskd_xreallocarray(NULL, opt.b, sizeof(*keys));
	pskd_writer_init(&out, 1, "<stdout>");
	pskd_frame_relay_init(&relay, &out);
	pskd_pipe_grow(1);
	if (opt.verdicts)
		open_out(&vf, &vw, opt.verdicts);
	if (opt.dropped)
		open_out(&df, &dw, opt.dropped);
	if (argc == 0)
		lsh_file(NULL);
	for (i = 0; i < argc && !out.error; i++)
		lsh_file(argv[i]);
	mem = pskd_lsh_memory(&ix);
	pskd_progress(1, "%llu documents, %llu kept", (unsigned long long)ndocs,
	    (unsigned long long)nkept);
	pskd_writer_finish(&out);
	if (opt.verdicts)
		commit_out(&vf, &vw);
	if (opt.dropped)
		commit_out(&df, &dw);
	if (pskd_lsh_save(&ix, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	if (!opt.quiet)
		pskd_warnx("documents %llu, kept %llu, near-duplicates %llu, "
		    "empty %llu", (unsigned long long)ndocs,
		    (unsigned long long)nkept, (unsigned long long)ndup,
		    (unsigned long long)nempty);
	if (opt.verbose)
		pskd_warnx("index: %lu documents, %zu bytes of memory for "
		    "the %lu added in this run (%.0f a document)",
		    (unsigned long)ix.ndocs, mem, (unsigned long)nkept,
		    nkept ? (double)mem / (double)nkept : 0.0);
	pskd_lsh_close(&ix);
	return 0;
}
