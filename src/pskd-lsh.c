/*
 * pskd-lsh - signature frames to the kept documents: banding finds
 * candidates, a candidate is a near-duplicate only when its estimated
 * Jaccard similarity with a kept document reaches the threshold; the first
 * seen is kept.  Verdicts and tombstones go to files; the index can persist.
 * Five modes (pskd-lsh(1)): online, and the four steps of map-reduce.
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

enum mode { MODE_ONLINE, MODE_MAP, MODE_PAIRS, MODE_CLUSTER, MODE_APPLY };

enum {
	OPT_DROPPED = 256, OPT_VERDICTS, OPT_MAP, OPT_PAIRS, OPT_CLUSTER,
	OPT_APPLY, OPT_HELP, OPT_VERSION
};

static struct {
	enum mode	 mode;
	uint32_t	 b;		/* -b */
	const char	*dir;		/* -i */
	uint64_t	 mem;		/* -m */
	int		 quiet;		/* -q */
	uint32_t	 r;		/* -r */
	double		 t;		/* -t */
	int		 verbose;	/* -v */
	const char	*dropped;	/* --dropped */
	const char	*verdicts;	/* --verdicts */
	uint32_t	 parts;		/* --map */
	uint32_t	 shard;		/* -s */
	const char	*prefix;	/* -o */
	const char	*apply;		/* --apply */
} opt = {
	.mode = MODE_ONLINE,
	.b = 32,
	.mem = 1ULL << 30,
	.r = 4,
	.t = 0.8,
};

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

/* The default mode: each document against the index, in input order. */
static int
online(int argc, char **argv)
{
	size_t mem;
	int i;

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

/* The four steps of map-reduce; lshmr.c does the work. */
static struct pskd_lshmr
mr_params(void)
{
	return (struct pskd_lshmr){ .b = opt.b, .r = opt.r, .t = opt.t,
	    .parts = opt.parts, .shard = opt.shard, .prefix = opt.prefix };
}

static int
map(int argc, char **argv)
{
	struct pskd_lshmr mr = mr_params();

	if (opt.prefix == NULL)
		pskd_usage_error(NULL);
	pskd_lshmr_map(&mr, argv, argc);
	return 0;
}

static int
pairs(int argc, char **argv)
{
	(void)argv;
	if (argc > 0)
		pskd_usage_error(NULL);
	pskd_lshmr_pairs();
	return 0;
}

static int
cluster(int argc, char **argv)
{
	struct pskd_lshmr mr = mr_params();

	if (argc == 0)
		pskd_usage_error(NULL);
	pskd_lshmr_cluster(&mr, argv, argc, opt.quiet);
	return 0;
}

static int
apply(int argc, char **argv)
{
	struct pskd_reader vr;
	struct pskd_buf idb = { 0 };
	const unsigned char *rest;
	size_t len;
	int i;

	if (pskd_reader_open(&vr, opt.apply) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", opt.apply);
	pskd_writer_init(&out, 1, "<stdout>");
	pskd_frame_relay_init(&relay, &out);
	if (opt.dropped)
		open_out(&df, &dw, opt.dropped);
	if (argc == 0)
		apply_file(NULL, &vr, &idb);
	for (i = 0; i < argc && !out.error; i++)
		apply_file(argv[i], &vr, &idb);
	if (!out.error && pskd_reader_line(&vr, &rest, &len) == 1)
		pskd_errx(PSKD_EXIT_DATA, "%s: more verdicts than documents",
		    opt.apply);
	pskd_writer_finish(&out);
	if (opt.dropped)
		commit_out(&df, &dw);
	pskd_reader_close(&vr);
	pskd_buf_free(&idb);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bands",	required_argument,	NULL, 'b' },
		{ "index",	required_argument,	NULL, 'i' },
		{ "memory",	required_argument,	NULL, 'm' },
		{ "progress",	no_argument,		NULL, 'P' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "rows",	required_argument,	NULL, 'r' },
		{ "threshold",	required_argument,	NULL, 't' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "dropped",	required_argument,	NULL, OPT_DROPPED },
		{ "verdicts",	required_argument,	NULL, OPT_VERDICTS },
		{ "map",	required_argument,	NULL, OPT_MAP },
		{ "shard",	required_argument,	NULL, 's' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "pairs",	no_argument,		NULL, OPT_PAIRS },
		{ "cluster",	no_argument,		NULL, OPT_CLUSTER },
		{ "apply",	required_argument,	NULL, OPT_APPLY },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ "version",	no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static int (*const run[])(int, char **) = {
		[MODE_ONLINE] = online, [MODE_MAP] = map, [MODE_PAIRS] = pairs,
		[MODE_CLUSTER] = cluster, [MODE_APPLY] = apply
	};
	int c;

	pskd_init(argv, usage_text);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "b:i:m:Pqr:t:vs:o:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'b':
			opt.b = (uint32_t)pskd_optnum("-b", optarg, 1, 65536, 0);
			break;
		case 'i': opt.dir = optarg; break;
		case 'm':
			opt.mem = pskd_optnum("-m", optarg, 1, UINT64_MAX,
			    PSKD_NUM_SIZE);
			break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q':
			opt.quiet = 1;
			pskd_progress_mode = -1;
			break;
		case 'r':
			opt.r = (uint32_t)pskd_optnum("-r", optarg, 1, 64, 0);
			break;
		case 't':
			opt.t = pskd_optreal("-t", optarg, 0, 1);
			if (opt.t == 0) {
				pskd_warnx("-t: must be more than 0");
				pskd_usage_error(NULL);
			}
			break;
		case 'v': opt.verbose = 1; break;
		case OPT_DROPPED: opt.dropped = optarg; break;
		case OPT_VERDICTS: opt.verdicts = optarg; break;
		case OPT_MAP:
			opt.parts = (uint32_t)pskd_optnum("--map", optarg, 1,
			    1024, 0);
			opt.mode = MODE_MAP;
			break;
		case 's':
			opt.shard = (uint32_t)pskd_optnum("-s", optarg, 0,
			    999999999, 0);
			break;
		case 'o': opt.prefix = optarg; break;
		case OPT_PAIRS: opt.mode = MODE_PAIRS; break;
		case OPT_CLUSTER: opt.mode = MODE_CLUSTER; break;
		case OPT_APPLY:
			opt.apply = optarg;
			opt.mode = MODE_APPLY;
			break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: puts("pskd-lsh " PSKD_VERSION); return 0;
		default: pskd_usage_error(NULL);
		}
	}
	return run[opt.mode](argc - optind, argv + optind);
}
