/*
 * pskd-lsh - signature frames to the kept documents: banding finds
 * candidates, a candidate is a near-duplicate only when its estimated
 * Jaccard similarity with a kept document reaches the threshold; the first
 * seen is kept.  Verdicts and tombstones go to files; the index can persist.
 * Five modes (pskd-lsh(1)): online, and the four steps of map-reduce.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "dedup/lshindex.h"
#include "dedup/lshmr.h"
#include "dedup/stats.h"

static const char usage_text[] =
    "pskd-lsh [-Pqv] [-b B] [-r R] [-t T] [-i dir [-s N]] [-m size]\n"
    "                [-o file] [--dropped file] [--verdicts file] [file ...]\n"
    "       pskd-lsh --commit dir\n"
    "       pskd-lsh --abort dir\n"
    "       pskd-lsh [-b B] [-r R] --map P -s shard -o prefix [file ...]\n"
    "       pskd-lsh --pairs\n"
    "       pskd-lsh [-q] [-b B] [-r R] [-t T] --cluster prefix ...\n"
    "       pskd-lsh --apply verdicts [-o file] [--dropped file] [file ...]";

enum mode {
	MODE_ONLINE, MODE_COMMIT, MODE_ABORT, MODE_MAP, MODE_PAIRS,
	MODE_CLUSTER, MODE_APPLY
};

enum {
	OPT_DROPPED = 256, OPT_VERDICTS, OPT_COMMIT, OPT_ABORT, OPT_MAP,
	OPT_PAIRS, OPT_CLUSTER, OPT_APPLY, OPT_HELP, OPT_VERSION
};

static struct {
	struct pskd_mode mode;
	uint32_t	 b;		/* -b */
	const char	*dir;		/* -i */
	uint64_t	 mem;		/* -m */
	const char	*output;	/* -o: a file, or --map's prefix */
	int		 quiet;		/* -q */
	uint32_t	 r;		/* -r */
	double		 t;		/* -t */
	int		 verbose;	/* -v */
	const char	*dropped;	/* --dropped */
	const char	*verdicts;	/* --verdicts */
	const char	*commit;	/* --commit, --abort */
	uint32_t	 parts;		/* --map */
	uint64_t	 shard;		/* -s; PSKD_IX_NEXT: not given */
	const char	*apply;		/* --apply */
} opt = {
	.mode = { MODE_ONLINE, NULL },
	.b = 32,
	.mem = 1ULL << 30,
	.r = 4,
	.t = 0.8,
	.shard = PSKD_IX_NEXT,
};

static struct pskd_lsh_index ix;
static struct pskd_writer out;
static struct pskd_frame_relay relay;	/* kept lines, from the reader's buffer */
static struct pskd_output of;
static struct pskd_verdicts vd;		/* --verdicts, --dropped */
static uint32_t *keys;
static unsigned char *sketch;
static uint32_t need;		/* equal components for a near-duplicate */
static char err[512];

/*
 * The input being read: its counts, and with -i its run (ixrun.h).  An
 * input that claims the number of one the index holds is that input run
 * again: its documents are compared only with what was kept before them
 * then (document numbers below limit), so they get the verdicts they had,
 * each keep must be the document the index holds, and at its end its
 * digest must be the one recorded (pskd-lsh(1), RUNNING A SHARD AGAIN).
 */
static struct input {
	const char	*name;
	struct pskd_lsh_stats n;
	struct pskd_ix_run run;
	uint32_t	 first;		/* the number its first keep gets */
	int		 again;		/* run again: the recorded input's */
	uint64_t	 anum, aframes;	/* number and frames, */
	uint32_t	 afirst, akept;	/* documents */
	const char	*aname;		/* and name */
	uint32_t	 limit;		/* candidates below this number */
} in;
static struct input *done;	/* the inputs read, for the statistics */
static size_t ndone;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -b, --bands B        bands (default 32)\n"
	    "  -i, --index DIR      a persistent index in DIR\n"
	    "  -m, --memory SIZE    memory for new index entries before they "
	    "go to DIR\n"
	    "                       (default 1G; suffixes K, M, G, T)\n"
	    "  -o, --output FILE    the kept lines to FILE (--map: a prefix)\n"
	    "  -P, --progress       progress on stderr even if not a "
	    "terminal\n"
	    "  -q, --quiet          no statistics, no progress\n"
	    "  -r, --rows R         rows per band (default 4); B x R = k\n"
	    "  -s, --shard N        with -i: the input's number in the index "
	    "(default:\n"
	    "                       the next); --map: the shard's\n"
	    "  -t, --threshold T    estimated Jaccard of a near-duplicate "
	    "(default 0.8)\n"
	    "  -v, --verbose        index size in the statistics\n"
	    "      --dropped FILE   the dropped lines with their verdicts\n"
	    "      --verdicts FILE  one verdict a document\n"
	    "      --commit DIR     make the run left pending in DIR the index\n"
	    "      --abort DIR      drop it, and what it wrote\n"
	    "      --map P          map: band keys to P partition files,\n"
	    "                       PREFIX.docs and PREFIX.keys-NNN\n"
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

/*
 * The best kept match of a signature among the documents numbered below
 * in.limit: most equal components, then first.
 */
static int
best_match(uint32_t k, uint32_t *doc, uint32_t *eq)
{
	const uint32_t *cand;
	uint32_t e, best = 0, bestdoc = 0;
	size_t i, ncand;

	ncand = pskd_lsh_candidates(&ix, sketch, keys, &cand);
	for (i = 0; i < ncand && cand[i] < in.limit; i++) {
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

/*
 * A document's verdict to --verdicts, and if it is dropped to --dropped
 * with its line; a kept one's line to the output.
 */
static void
verdict(const struct pskd_frame *f, const char *what, uint32_t match,
    uint32_t eq, uint32_t k)
{
	const unsigned char *mid;
	size_t mlen;
	char est[32];
	int n;

	if (match == UINT32_MAX) {
		pskd_verdicts_put(&vd, f->id, f->idlen, what, NULL, 0, NULL, 0,
		    f->rejected ? f->line : NULL, f->linelen);
		if (!f->rejected)
			pskd_frame_relay_line(&relay, f->line, f->linelen);
		return;
	}
	mid = pskd_lsh_id(&ix, match, &mlen);
	n = snprintf(est, sizeof(est), "%.4f", (double)eq / k);
	pskd_verdicts_put(&vd, f->id, f->idlen, what, mid, mlen,
	    (const unsigned char *)est, (size_t)n, f->line, f->linelen);
}

/* Running an input again: this frame must be as it was. */
static _Noreturn void
not_again(const struct pskd_frame_reader *fr)
{
	pskd_errx(PSKD_EXIT_DATA, "%s: frame %llu: not as in input %llu the "
	    "index holds (%s, run before): make the index again", fr->r.name,
	    (unsigned long long)fr->nframes, (unsigned long long)in.anum,
	    in.aname);
}

/* A keep of an input run again is the index's next document of it. */
static void
keep_again(const struct pskd_frame_reader *fr, const struct pskd_frame *f)
{
	const unsigned char *id;
	size_t idlen;

	if (in.limit - in.afirst >= in.akept)
		not_again(fr);
	id = pskd_lsh_id(&ix, in.limit, &idlen);
	if (idlen != f->idlen || memcmp(id, f->id, idlen) != 0 ||
	    memcmp(pskd_lsh_sketch(&ix, in.limit), sketch, ix.fp.k) != 0)
		not_again(fr);
	in.limit++;
}

static void
one_document(const struct pskd_frame_reader *fr, const struct pskd_frame *f)
{
	uint32_t k = ix.fp.k, i, match, eq;

	in.n.docs++;
	if (in.again && fr->nframes > in.aframes)
		not_again(fr);
	if (f->rejected) {
		in.n.rejected++;
		verdict(f, "rejected", UINT32_MAX, 0, k);
		return;
	}
	if (f->count == 0) {
		in.n.empty++;
		verdict(f, "empty", UINT32_MAX, 0, k);
		return;
	}
	/* The low byte of each little-endian component. */
	for (i = 0; i < k; i++)
		sketch[i] = f->values[4 * (size_t)i];
	if (best_match(k, &match, &eq)) {
		in.n.dup++;
		verdict(f, "near_duplicate", match, eq, k);
		return;
	}
	in.n.kept++;
	if (in.again) {
		keep_again(fr, f);
		verdict(f, "keep", UINT32_MAX, 0, k);
		return;
	}
	verdict(f, "keep", UINT32_MAX, 0, k);
	pskd_lsh_add(&ix, sketch, keys, f->id, f->idlen);
	if (ix.dir != NULL && pskd_lsh_memory(&ix) > opt.mem &&
	    pskd_lsh_spill(&ix, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
}

/* With -i: the input claims number num; is it one the index holds? */
static void
input_begin(uint64_t num)
{
	const struct pskd_ix_input *a;

	if (pskd_ix_run_begin(&in.run, &ix.d.inputs, num, err,
	    sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", in.name, err);
	if (in.run.again == SIZE_MAX) {
		if (ix.d.readonly)
			pskd_errx(PSKD_EXIT_DATA, "%s: a new input (%llu) for "
			    "an index this run cannot write: %s is read-only",
			    in.name, (unsigned long long)in.run.num, ix.dir);
		return;
	}
	a = &ix.d.inputs.v[in.run.again];
	in.again = 1;
	in.anum = a->num;
	in.aframes = a->records;
	in.afirst = (uint32_t)a->first;
	in.akept = (uint32_t)a->added;
	in.aname = a->name;
	in.limit = in.afirst;
}

static void
lsh_file(const char *path, uint64_t num)
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
	memset(&in, 0, sizeof(in));
	in.name = pskd_xstrdup(fr.r.name);
	in.limit = UINT32_MAX;
	in.first = ix.ndocs;
	if (ix.dir != NULL)
		input_begin(num);
	while ((rc = pskd_frame_next(&fr, &f)) == 1 && !out.error) {
		if (ix.dir != NULL)
			pskd_ix_run_record(&in.run, f.raw, f.rawlen);
		one_document(&fr, &f);
		if ((fr.nframes & 4095) == 0)
			pskd_progress(0, "%s: %llu documents, %llu kept",
			    in.name, (unsigned long long)in.n.docs,
			    (unsigned long long)in.n.kept);
	}
	if (rc == -1)
		pskd_frame_fail(&fr, NULL);
	if (ix.dir != NULL && !out.error &&
	    pskd_ix_run_end(&in.run, &ix.d.inputs, in.first, in.again ? 0 :
	    in.n.kept, in.name, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", in.name, err);
	pskd_frame_reader_close(&fr);
	done = pskd_xreallocarray(done, ndone + 1, sizeof(*done));
	done[ndone++] = in;
}

/* A line of statistics an input, then their sum if there are several. */
static void
statistics(size_t mem)
{
	struct pskd_lsh_stats all = { 0 };
	uint64_t added = 0;
	size_t i;

	for (i = 0; i < ndone; i++) {
		if (!done[i].again)
			added += done[i].n.kept;
		if (!opt.quiet)
			pskd_lsh_stats_warn(done[i].name, &done[i].n,
			    done[i].again ? "run before: the verdicts it had" :
			    NULL);
		pskd_lsh_stats_add(&all, &done[i].n);
	}
	if (ndone > 1 && !opt.quiet)
		pskd_lsh_stats_warn("in all", &all, NULL);
	if (opt.verbose)
		pskd_warnx("index: %lu documents, %zu bytes of memory for "
		    "the %llu added in this run (%.0f a document)",
		    (unsigned long)ix.ndocs, mem, (unsigned long long)added,
		    added ? (double)mem / (double)added : 0.0);
}

/* The kept lines: to -o FILE through a temporary, or to stdout. */
static void
output_open(void)
{
	pskd_output_writer(&of, &out, opt.output, 0);
	if (!of.file)
		pskd_pipe_grow(1);
	pskd_frame_relay_init(&relay, &out);
}

static void
output_commit(void)
{
	pskd_output_close(&of, &out);
}

/*
 * The default mode: each document against the index, in input order.  The
 * outputs are committed first, then the index's new state is left pending
 * for --commit (ixrun.h): a run killed anywhere, or one whose pipe failed
 * and so is not committed, leaves the index as it was, and its rerun gives
 * the same verdicts.
 */
static int
online(int argc, char **argv)
{
	uint64_t num = opt.shard;
	size_t mem;
	int i;

	if (opt.shard != PSKD_IX_NEXT && opt.dir == NULL) {
		pskd_warnx("-s: with -i or --map only");
		pskd_usage_error(NULL);
	}
	if (pskd_lsh_open(&ix, opt.dir, opt.b, opt.r, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	keys = pskd_xreallocarray(NULL, opt.b, sizeof(*keys));
	output_open();
	pskd_verdicts_open(&vd, opt.verdicts, opt.dropped);
	for (i = 0; i < (argc > 0 ? argc : 1) && !out.error; i++) {
		lsh_file(argc > 0 ? argv[i] : NULL, num);
		if (num != PSKD_IX_NEXT)
			num++;
	}
	mem = pskd_lsh_memory(&ix);
	pskd_progress(1, "%llu documents", (unsigned long long)ix.ndocs);
	output_commit();
	pskd_verdicts_close(&vd);
	if (pskd_lsh_pend(&ix, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	statistics(mem);
	pskd_lsh_close(&ix);
	return 0;
}

/*
 * --commit DIR: the run left pending becomes the index; --abort DIR: it is
 * dropped, with what it wrote.
 */
static int
commit(int argc, char **argv)
{
	(void)argv;
	if (argc > 0)
		pskd_usage_error(NULL);
	if ((opt.mode.mode == MODE_COMMIT ? pskd_lsh_commit_dir(opt.commit,
	    err, sizeof(err)) : pskd_lsh_abort_dir(opt.commit, err,
	    sizeof(err))) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	return 0;
}

/* The four steps of map-reduce; lshmr.c does the work. */
static struct pskd_lshmr
mr_params(void)
{
	return (struct pskd_lshmr){ .b = opt.b, .r = opt.r, .t = opt.t,
	    .parts = opt.parts, .shard = opt.shard == PSKD_IX_NEXT ? 0 :
	    (uint32_t)opt.shard, .prefix = opt.output };
}

static int
map(int argc, char **argv)
{
	struct pskd_lshmr mr = mr_params();

	if (opt.output == NULL)
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
	pskd_lshmr_apply(opt.apply, argv, argc, opt.output, opt.dropped);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bands",	required_argument,	NULL, 'b' },
		{ "index",	required_argument,	NULL, 'i' },
		{ "memory",	required_argument,	NULL, 'm' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "progress",	no_argument,		NULL, 'P' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "rows",	required_argument,	NULL, 'r' },
		{ "shard",	required_argument,	NULL, 's' },
		{ "threshold",	required_argument,	NULL, 't' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "dropped",	required_argument,	NULL, OPT_DROPPED },
		{ "verdicts",	required_argument,	NULL, OPT_VERDICTS },
		{ "commit",	required_argument,	NULL, OPT_COMMIT },
		{ "abort",	required_argument,	NULL, OPT_ABORT },
		{ "map",	required_argument,	NULL, OPT_MAP },
		{ "pairs",	no_argument,		NULL, OPT_PAIRS },
		{ "cluster",	no_argument,		NULL, OPT_CLUSTER },
		{ "apply",	required_argument,	NULL, OPT_APPLY },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ "version",	no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static int (*const run[])(int, char **) = {
		[MODE_ONLINE] = online, [MODE_COMMIT] = commit,
		[MODE_ABORT] = commit,
		[MODE_MAP] = map, [MODE_PAIRS] = pairs,
		[MODE_CLUSTER] = cluster, [MODE_APPLY] = apply
	};
	int c;

	pskd_init(argv, usage_text);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "b:i:m:o:Pqr:s:t:v", longopts,
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
		case 'o': opt.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q':
			opt.quiet = 1;
			pskd_progress_mode = -1;
			break;
		case 'r':
			opt.r = (uint32_t)pskd_optnum("-r", optarg, 1, 64, 0);
			break;
		case 's':
			opt.shard = pskd_optnum("-s", optarg, 0, 999999999, 0);
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
		case OPT_COMMIT:
			opt.commit = optarg;
			pskd_mode_set(&opt.mode, MODE_COMMIT, "--commit");
			break;
		case OPT_ABORT:
			opt.commit = optarg;
			pskd_mode_set(&opt.mode, MODE_ABORT, "--abort");
			break;
		case OPT_MAP:
			opt.parts = (uint32_t)pskd_optnum("--map", optarg, 1,
			    1024, 0);
			pskd_mode_set(&opt.mode, MODE_MAP, "--map");
			break;
		case OPT_PAIRS:
			pskd_mode_set(&opt.mode, MODE_PAIRS, "--pairs");
			break;
		case OPT_CLUSTER:
			pskd_mode_set(&opt.mode, MODE_CLUSTER, "--cluster");
			break;
		case OPT_APPLY:
			opt.apply = optarg;
			pskd_mode_set(&opt.mode, MODE_APPLY, "--apply");
			break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	return run[opt.mode.mode](argc - optind, argv + optind);
}
