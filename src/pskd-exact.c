/*
 * pskd-exact - exact deduplication of JSON Lines documents across a whole
 * corpus: documents, paragraphs, lines or spans of sentences seen before
 * (after pskd-shingle's normalisation) are dropped or cut out, the first
 * occurrence kept; the units seen persist in an index (pskd-lsh's
 * two-phase commit and reruns), or in a Bloom filter; or the same
 * verdicts from a map-reduce of ordinary commands.  pskd-exact(1).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "dedup/steps.h"
#include "exact/exact.h"
#include "exact/xmr.h"

static const char usage_text[] =
    "pskd-exact [-Pqv] [-f fields] [-g grain] [-i dir [-s N]] [-m size]\n"
    "                  [-n steps] [-o file] [-w N] [--bloom N [--fp-rate P]]\n"
    "                  [--dropped file] [--id field] [--rejects file]\n"
    "                  [--verdicts file] [file ...]\n"
    "       pskd-exact --commit dir\n"
    "       pskd-exact --abort dir\n"
    "       pskd-exact [-f fields] [-g grain] [-n steps] [--id field]\n"
    "                  [--rejects file] --map P -s shard -o prefix [file]\n"
    "       pskd-exact --reduce\n"
    "       pskd-exact [-q] [-f fields] [-g grain] [-n steps] [-o file]\n"
    "                  [-w N] [--dropped file] [--id field] [--rejects file]\n"
    "                  [--verdicts file] --apply file -s shard repeats ...";

enum mode { MODE_ONLINE, MODE_COMMIT, MODE_ABORT, MODE_MAP, MODE_REDUCE,
	MODE_APPLY };

enum {
	OPT_BLOOM = 256, OPT_FPRATE, OPT_DROPPED, OPT_ID, OPT_REJECTS,
	OPT_VERDICTS, OPT_COMMIT, OPT_ABORT, OPT_MAP, OPT_REDUCE, OPT_APPLY,
	OPT_HELP, OPT_VERSION
};

static struct {
	struct pskd_mode mode;
	const char	*fields;	/* -f */
	struct x_params	 p;		/* -g, -n */
	const char	*dir;		/* -i */
	uint64_t	 mem;		/* -m */
	const char	*output;	/* -o */
	int		 quiet;		/* -q */
	uint64_t	 shard;		/* -s; PSKD_IX_NEXT: not given */
	int		 verbose;	/* -v */
	uint64_t	 min;		/* -w; UINT64_MAX: the grain's */
	uint64_t	 bloom;		/* --bloom; 0: exact */
	double		 rate;		/* --fp-rate */
	const char	*dropped;	/* --dropped */
	const char	*idfield;	/* --id */
	const char	*rejects;	/* --rejects */
	const char	*verdicts;	/* --verdicts */
	const char	*commit;	/* --commit, --abort */
	uint32_t	 parts;		/* --map */
	const char	*notmap;	/* an option --map has no use for */
	const char	*apply;		/* --apply */
} opt = {
	.mode = { MODE_ONLINE, NULL },
	.p = { .grain = X_LINE, .span = X_SPAN_DEFAULT, .norm = PSKD_NORM_ALL },
	.mem = 1ULL << 30,
	.shard = PSKD_IX_NEXT,
	.min = UINT64_MAX,
	.rate = 0.001,
};

static struct x_index ix;
static struct x_decide xd;
static struct pskd_stage st;
static char err[512];

/*
 * The input being read: its number, its first document's, the lines it
 * had, its counts; with -i its run (ixrun.h).  An input run again (-s N
 * of one the index holds) is decided against what the index held before
 * it: a unit first seen in an earlier document, or earlier in the same
 * one, is repeated; its documents must be the ones it had.
 */
static struct input {
	char		*name;
	uint64_t	 num, first, lines;
	struct pskd_ix_run run;
	int		 open, again;
	uint64_t	 alines;	/* run again: the lines it had */
	const char	*aname;
	struct pskd_buf	 arec;		/* Bloom: its record */
	uint64_t	 abit;
	struct x_counts	 c;
} in;
static struct input *done;		/* for the statistics */
static size_t ndone;
static uint64_t nextnum;		/* without -s: the next number */

/* An input run again: the units of one document, each once. */
static uint64_t *docset;
static size_t docsetcap;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -f, --field NAME,...   the text members (default text)\n"
	    "  -g, --grain GRAIN      doc, para, line (default) or span:N\n"
	    "  -i, --index DIR        the units seen, in DIR\n"
	    "  -m, --memory SIZE      memory for this run's units before they "
	    "go to DIR\n"
	    "                         (default 1G; suffixes K, M, G, T)\n"
	    "  -n, --normalize STEPS  case,punct,digits,space,marks, all "
	    "(default),\n"
	    "                         none, or raw (the bytes as they are)\n"
	    "  -o, --output FILE      the documents (default stdout)\n"
	    "  -P, --progress         progress on stderr, even if not a tty\n"
	    "  -q, --quiet            no statistics, no progress\n"
	    "  -s, --shard N          with -i: the input's number (default: "
	    "the next)\n"
	    "  -v, --verbose          memory and the filter in the "
	    "statistics\n"
	    "  -w, --min-words N      the fewest words a trimmed document "
	    "keeps\n"
	    "                         (default 1; 50 for span)\n"
	    "      --bloom N          a Bloom filter for N units, not the "
	    "units\n"
	    "      --fp-rate P        its false-positive rate at N (default "
	    "0.001)\n"
	    "      --dropped FILE     verdict and line of each dropped "
	    "document\n"
	    "      --id NAME          the id member (default id)\n"
	    "      --rejects FILE     bad documents to FILE as TSV, and on\n"
	    "      --verdicts FILE    one verdict a document\n"
	    "      --commit DIR       make the run left pending in DIR the "
	    "index\n"
	    "      --abort DIR        drop it, and what it wrote\n"
	    "      --map P            map: units to P partition files\n"
	    "      --reduce           sorted units to the repeated ones\n"
	    "      --apply FILE       FILE's documents, the repeats cut out\n"
	    "      --help             this text\n"
	    "      --version          the version\n");
	exit(0);
}

static _Noreturn void
not_again(void)
{
	pskd_fail_at(st.source, st.lineno, "not as in input %" PRIu64 " the "
	    "index holds (%s, run before): make the index again", in.num,
	    in.aname);
}

/* Whether h was seen before in this document (and now it is). */
static int
docset_seen(uint64_t h, size_t n)
{
	size_t i, mask;

	if (docsetcap < 2 * n + 16) {
		docsetcap = 16;
		while (docsetcap < 2 * n + 16)
			docsetcap *= 2;
		free(docset);
		docset = pskd_xcalloc(docsetcap, sizeof(*docset));
	}
	mask = docsetcap - 1;
	for (i = (size_t)h & mask; docset[i] != 0; i = (i + 1) & mask)
		if (docset[i] == h)
			return 1;
	docset[i] = h;
	return 0;
}

/*
 * An input run again, exact mode: unit i of document doc against what
 * the index held before this run.
 */
static int
again_unit(uint64_t h, uint64_t doc, size_t n)
{
	uint64_t v;
	int rc = x_index_find(&ix, h, 1, &v);

	if (rc == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: a segment is damaged", ix.dir);
	if (rc == 0 || v > doc || v >= in.first + in.alines)
		not_again();
	if (v < doc)
		return 1;
	return docset_seen(h, n);
}

/* A unit's hash known: where it will be looked up read in the meantime. */
static void
hashed(void *arg, uint64_t h)
{
	(void)arg;
	if (!in.again)
		x_index_prefetch(&ix, h);
}

/* The document the stage holds: its units decided, its verdict. */
static void
one_document(void)
{
	uint64_t doc = in.first + st.lineno - 1, v = 0, num = 0, line = 0;
	const struct x_unit *u;
	size_t n, i;
	int rep;

	if (in.again && st.lineno > in.alines)
		not_again();
	n = x_decide_units(&xd, &st);
	u = xd.u.v;
	if (in.again && !ix.bloom && n > 0 && docset != NULL)
		memset(docset, 0, docsetcap * sizeof(*docset));
	for (i = 0; i < n; i++) {
		if (in.again && ix.bloom) {
			if (in.abit >= 8 * (uint64_t)in.arec.len)
				not_again();
			rep = in.arec.p[in.abit >> 3] >> (in.abit & 7) & 1;
			in.abit++;
		} else if (in.again) {
			rep = again_unit(u[i].hash, doc, n);
		} else if (ix.bloom) {
			rep = x_index_bloom(&ix, u[i].hash);
			if (ix.dir != NULL)
				x_index_record(&ix, rep);
		} else {
			if ((rep = x_index_put(&ix, u[i].hash, doc, &v, err,
			    sizeof(err))) == -1)
				pskd_errx(PSKD_EXIT_DATA, "%s", err);
		}
		xd.rep[i] = (unsigned char)rep;
		if (rep && i == 0 && !ix.bloom && opt.p.grain == X_DOC) {
			if (in.again)
				(void)x_index_find(&ix, u[i].hash, 1, &v);
			x_index_name(&ix, v, &num, &line);
		}
	}
	x_decide(&xd, &st, num, line, &in.c);
}

/* The end of the input read: its run checked or recorded. */
static void
input_end(void)
{
	if (!in.open)
		return;
	in.open = 0;
	if (ix.dir != NULL) {
		if (pskd_ix_run_end(&in.run, &ix.d.inputs, in.first, in.lines,
		    in.name, err, sizeof(err)) == -1)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s", in.name, err);
		if (in.again && ix.bloom && in.abit != 8 * (uint64_t)in.arec.len
		    && (in.abit + 7) / 8 != in.arec.len)
			pskd_errx(PSKD_EXIT_DATA, "%s: not input %" PRIu64 " as "
			    "the index holds it (%s): its record is longer: "
			    "make the index again", in.name, in.num, in.aname);
		if (!in.again && ix.bloom && x_index_record_end(&ix, in.num,
		    err, sizeof(err)) == -1)
			pskd_errx(PSKD_EXIT_DATA, "%s", err);
	}
	if (!in.again)
		ix.docs += in.lines;
	pskd_buf_free(&in.arec);
	done = pskd_xreallocarray(done, ndone + 1, sizeof(*done));
	done[ndone++] = in;
}

/* An input opens: which number it is, and whether the index holds it. */
static void
input_begin(void)
{
	const struct pskd_ix_input *a;
	uint64_t num = opt.shard == PSKD_IX_NEXT ? PSKD_IX_NEXT :
	    opt.shard + (uint64_t)st.input;

	memset(&in, 0, sizeof(in));
	in.name = pskd_xstrdup(st.source);
	in.open = 1;
	in.first = ix.docs;
	if (ix.dir == NULL) {
		in.num = nextnum++;
		x_index_input(&ix, in.num);
		return;
	}
	if (pskd_ix_run_begin(&in.run, &ix.d.inputs, num, err,
	    sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", in.name, err);
	in.num = in.run.num;
	if (in.run.again == SIZE_MAX) {
		if (ix.d.readonly)
			pskd_errx(PSKD_EXIT_DATA, "%s: a new input (%" PRIu64
			    ") for an index this run cannot write: %s is "
			    "read-only", in.name, in.num, ix.dir);
		x_index_input(&ix, in.num);
		return;
	}
	a = &ix.d.inputs.v[in.run.again];
	in.again = 1;
	in.first = a->first;
	in.alines = a->records;
	in.aname = a->name;
	if (ix.bloom && x_index_record_read(&ix, in.num, &in.arec, err,
	    sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", in.name, err);
}

static void
seen(struct pskd_stage *s, const unsigned char *line, size_t len)
{
	(void)s;
	if (line == NULL) {
		input_end();
		input_begin();
		return;
	}
	in.lines++;
	if (ix.dir != NULL) {
		pskd_ix_run_record(&in.run, line, len);
		pskd_ix_run_more(&in.run, "\n", 1);
	}
}

static void
statistics(size_t mem, size_t held)
{
	struct x_counts all = { 0 };
	size_t i;

	for (i = 0; i < ndone; i++) {
		if (!opt.quiet)
			x_counts_warn(done[i].name, &done[i].c, opt.p.grain,
			    done[i].again ? "run before: the verdicts it had" :
			    NULL);
		x_counts_add(&all, &done[i].c);
	}
	if (ndone > 1 && !opt.quiet)
		x_counts_warn("in all", &all, opt.p.grain, NULL);
	if (!opt.verbose)
		return;
	if (ix.bloom)
		pskd_warnx("bloom: %" PRIu64 " bits, %" PRIu32 " hashes, %"
		    PRIu64 " units held: a false-positive rate of %.6g "
		    "(sized for %" PRIu64 " at %g)", ix.nbits, ix.k, ix.units,
		    x_bloom_rate(ix.nbits, ix.k, ix.units), opt.bloom, opt.rate);
	else
		pskd_warnx("index: %" PRIu64 " units, %zu bytes of memory for "
		    "the %zu held in it (%.1f a unit)", ix.units, mem,
		    held, held ? (double)mem / (double)held : 0.0);
}

static void
stage_options(void)
{
	st.fields = opt.fields;
	st.idfield = opt.idfield;
	st.output = opt.output;
	st.verdicts = opt.verdicts;
	st.dropped = opt.dropped;
	st.rejects = opt.rejects;
}

/*
 * The default mode: each document against the units seen, in input
 * order.  The outputs are committed first, then the index's new state is
 * left pending for --commit (ixrun.h).
 */
static int
online(int argc, char **argv)
{
	uint64_t nbits = 0;
	uint32_t k = 0;
	size_t mem, held;
	int rc;

	if (opt.shard != PSKD_IX_NEXT && opt.dir == NULL) {
		pskd_warnx("-s: with -i, --map or --apply only");
		pskd_usage_error(NULL);
	}
	if (opt.bloom && x_bloom_geometry(opt.bloom, opt.rate, &nbits,
	    &k) == -1) {
		pskd_warnx("--bloom: a filter for %" PRIu64 " units at %g "
		    "takes more than 2^41 bits", opt.bloom, opt.rate);
		pskd_usage_error(NULL);
	}
	if (x_index_open(&ix, opt.dir, &opt.p, opt.bloom != 0, nbits, k,
	    opt.mem, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	x_decide_init(&xd, &opt.p, opt.min);
	xd.u.hashed = hashed;
	stage_options();
	st.seen = seen;
	pskd_stage_open(&st, argc, argv);
	while (pskd_stage_next(&st))
		one_document();
	input_end();
	mem = x_index_memory(&ix);
	held = ix.mem.n;
	rc = pskd_stage_close(&st);
	for (k = 0; k < ndone; k++)
		done[k].c.rejected = 0;
	if (x_index_pend(&ix, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	statistics(mem, held);
	x_index_close(&ix);
	x_decide_free(&xd);
	return rc;
}

static int
commit(int argc, char **argv)
{
	(void)argv;
	if (argc > 0) {
		pskd_warnx("%s: the directory only, no file",
		    opt.mode.mode == MODE_COMMIT ? "--commit" : "--abort");
		pskd_usage_error(NULL);
	}
	if ((opt.mode.mode == MODE_COMMIT ? x_index_commit_dir(opt.commit,
	    err, sizeof(err)) : x_index_abort_dir(opt.commit, err,
	    sizeof(err))) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err);
	return 0;
}

static struct x_mr
mr_params(void)
{
	return (struct x_mr){ .p = opt.p, .fields = opt.fields,
	    .idfield = opt.idfield, .rejects = opt.rejects,
	    .parts = opt.parts, .shard = opt.shard, .prefix = opt.output,
	    .min = opt.min, .quiet = opt.quiet };
}

static int
map(int argc, char **argv)
{
	struct x_mr mr = mr_params();

	if (opt.output == NULL || opt.shard == PSKD_IX_NEXT || argc > 1) {
		pskd_warnx("--map: %s", argc > 1 ? "one shard a run" :
		    "needs -s shard and -o prefix");
		pskd_usage_error(NULL);
	}
	/* Verdicts, the minimum, the index: the map decides nothing. */
	if (opt.notmap != NULL) {
		pskd_warnx("--map: %s has no use in the map step", opt.notmap);
		pskd_usage_error(NULL);
	}
	x_mr_map(&mr, argc > 0 ? argv[0] : NULL);
	return 0;
}

static int
reduce(int argc, char **argv)
{
	(void)argv;
	if (argc > 0) {
		pskd_warnx("--reduce: reads the standard input, no file");
		pskd_usage_error(NULL);
	}
	x_mr_reduce();
	return 0;
}

static int
apply(int argc, char **argv)
{
	struct x_mr mr = mr_params();

	if (opt.shard == PSKD_IX_NEXT || argc == 0) {
		pskd_warnx("--apply: needs -s shard and the repeat files");
		pskd_usage_error(NULL);
	}
	stage_options();
	return x_mr_apply(&mr, &st, opt.apply, argv, argc);
}

static void
set_norm(const char *s)
{
	char bad[64];

	opt.p.raw = strcmp(s, "raw") == 0;
	if (!opt.p.raw && pskd_norm_steps(s, &opt.p.norm, bad,
	    sizeof(bad)) == -1) {
		pskd_warnx("-n: unknown step '%s'", bad);
		pskd_usage_error(NULL);
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "field",	required_argument,	NULL, 'f' },
		{ "grain",	required_argument,	NULL, 'g' },
		{ "index",	required_argument,	NULL, 'i' },
		{ "memory",	required_argument,	NULL, 'm' },
		{ "normalize",	required_argument,	NULL, 'n' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "progress",	no_argument,		NULL, 'P' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "shard",	required_argument,	NULL, 's' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "min-words",	required_argument,	NULL, 'w' },
		{ "bloom",	required_argument,	NULL, OPT_BLOOM },
		{ "fp-rate",	required_argument,	NULL, OPT_FPRATE },
		{ "dropped",	required_argument,	NULL, OPT_DROPPED },
		{ "id",		required_argument,	NULL, OPT_ID },
		{ "rejects",	required_argument,	NULL, OPT_REJECTS },
		{ "verdicts",	required_argument,	NULL, OPT_VERDICTS },
		{ "commit",	required_argument,	NULL, OPT_COMMIT },
		{ "abort",	required_argument,	NULL, OPT_ABORT },
		{ "map",	required_argument,	NULL, OPT_MAP },
		{ "reduce",	no_argument,		NULL, OPT_REDUCE },
		{ "apply",	required_argument,	NULL, OPT_APPLY },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ "version",	no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static int (*const run[])(int, char **) = {
		[MODE_ONLINE] = online, [MODE_COMMIT] = commit,
		[MODE_ABORT] = commit, [MODE_MAP] = map,
		[MODE_REDUCE] = reduce, [MODE_APPLY] = apply
	};
	int c;

	pskd_init(argv, usage_text);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "f:g:i:m:n:o:Pqs:vw:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'f': opt.fields = optarg; break;
		case 'g':
			if (x_grain_parse(optarg, &opt.p) == -1) {
				pskd_warnx("-g: '%s' is not doc, para, line or "
				    "span:N (N from 1 to %d)", optarg,
				    X_SPAN_MAX);
				pskd_usage_error(NULL);
			}
			break;
		case 'i':
			opt.dir = optarg;
			opt.notmap = "-i";
			break;
		case 'm':
			opt.mem = pskd_optnum("-m", optarg, 1, UINT64_MAX,
			    PSKD_NUM_SIZE);
			opt.notmap = "-m";
			break;
		case 'n': set_norm(optarg); break;
		case 'o': opt.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q':
			opt.quiet = 1;
			pskd_progress_mode = -1;
			break;
		case 's':
			opt.shard = pskd_optnum("-s", optarg, 0, 999999999, 0);
			break;
		case 'v':
			opt.verbose = 1;
			opt.notmap = "-v";
			break;
		case 'w':
			opt.min = pskd_optnum("-w", optarg, 0, UINT32_MAX, 0);
			opt.notmap = "-w";
			break;
		case OPT_BLOOM:
			opt.bloom = pskd_optnum("--bloom", optarg, 1,
			    (uint64_t)1 << 40, PSKD_NUM_SIZE);
			opt.notmap = "--bloom";
			break;
		case OPT_FPRATE:
			opt.rate = pskd_optreal("--fp-rate", optarg, 0, 0.5);
			if (opt.rate == 0) {
				pskd_warnx("--fp-rate: must be more than 0");
				pskd_usage_error(NULL);
			}
			break;
		case OPT_DROPPED:
			opt.dropped = optarg;
			opt.notmap = "--dropped";
			break;
		case OPT_ID: opt.idfield = optarg; break;
		case OPT_REJECTS: opt.rejects = optarg; break;
		case OPT_VERDICTS:
			opt.verdicts = optarg;
			opt.notmap = "--verdicts";
			break;
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
		case OPT_REDUCE:
			pskd_mode_set(&opt.mode, MODE_REDUCE, "--reduce");
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
	if (opt.min == UINT64_MAX)
		opt.min = opt.p.grain == X_SPAN ? 50 : 1;
	if (opt.rate != 0.001 && opt.bloom == 0) {
		pskd_warnx("--fp-rate: with --bloom only");
		pskd_usage_error(NULL);
	}
	return run[opt.mode.mode](argc - optind, argv + optind);
}
