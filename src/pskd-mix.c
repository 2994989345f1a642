/*
 * pskd-mix - the samples of several .psk.d files blended by weight, in an
 * order computed position by position (src/batch/mix.c): each epoch holds
 * every source's share of its positions to within a sample, a source that
 * is small repeats under its own permutation, a large one is drawn from
 * without repeats; then one rank's slice, resumed at a position, grouped
 * into batches, cut after n, as pskd-shuffle does.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/emit.h"
#include "batch/mix.h"

static const char usage_text[] =
    "pskd-mix [-i] [-B batch] [-e epoch] [-L length] [-n count] [-o file]\n"
    "                [-s seed] [--rank rank --world world] [--start pos]\n"
    "                file:weight ...";

enum { OPT_RANK = 256, OPT_WORLD, OPT_START, OPT_HELP, OPT_VERSION };

static struct {
	uint64_t	 batch;		/* -B; 0: no batches */
	uint64_t	 epoch;		/* -e */
	int		 indices;	/* -i */
	uint64_t	 len;		/* -L; 0: the samples of all sources */
	uint64_t	 take;		/* -n */
	int		 take_set;
	const char	*output;	/* -o */
	uint64_t	 seed;		/* -s */
	uint64_t	 rank;		/* --rank */
	uint64_t	 world;		/* --world */
	uint64_t	 start;		/* --start */
} opt = {
	.batch = 0,
	.epoch = 1,
	.indices = 0,
	.len = 0,
	.take = 0,
	.take_set = 0,
	.output = NULL,
	.seed = 0,
	.rank = 0,
	.world = 1,
	.start = 0,
};

static struct mix mix;
static struct emit_src src[MIX_MAXSRC];
static char *names[MIX_MAXSRC];
static uint64_t next_u;		/* the slice position to draw next */

static uint64_t
num(const char *name, const char *s, uint64_t min)
{
	return pskd_optnum(name, s, min, UINT64_MAX, 0);
}

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -B, --batch B        group B samples into one batch sample\n"
	    "  -e, --epoch E        the epoch, from 1 (default 1)\n"
	    "  -i, --indices        print source:sample numbers as text\n"
	    "  -L, --length L       positions an epoch (default: the samples "
	    "of all)\n"
	    "  -n, --take N         stop after N samples (batches with -B)\n"
	    "  -o, --output FILE    write FILE atomically (default stdout)\n"
	    "  -s, --seed S         the seed, 0 to 2^64-1 (default 0)\n"
	    "      --rank R         this rank's slice, 0 to W-1 (default 0)\n"
	    "      --world W        the number of ranks (default 1)\n"
	    "      --start POS      resume at position POS of the slice\n"
	    "      --help           this text\n"
	    "      --version        the version\n");
	exit(0);
}

/* The source and sample of the next position of this rank's slice. */
static struct {
	uint32_t	 src[MIX_BLOCK];
	uint64_t	 sample[MIX_BLOCK];
	size_t		 pos, len;
	uint64_t	 left;		/* positions of the output not drawn */
} blk;

static size_t
next_draw(uint64_t *sample)
{
	if (blk.pos == blk.len) {
		blk.len = blk.left < MIX_BLOCK ? (size_t)blk.left : MIX_BLOCK;
		mix_draws(&mix, opt.rank, opt.world, next_u, blk.len, blk.src,
		    blk.sample);
		next_u += blk.len;
		blk.left -= blk.len;
		blk.pos = 0;
	}
	*sample = blk.sample[blk.pos];
	return blk.src[blk.pos++];
}

static void
print_indices(struct pskd_output *o, uint64_t nout, uint64_t per)
{
	struct pskd_writer w;
	uint64_t k, b, j;
	size_t s;

	pskd_writer_init(&w, o->fd, o->name);
	for (k = 0; k < nout && !w.error; k++)
		for (b = 0; b < per; b++) {
			s = next_draw(&j);
			pskd_writer_u64(&w, s);
			pskd_writer_putc(&w, ':');
			pskd_writer_u64(&w, j);
			pskd_writer_putc(&w, b + 1 < per ? ' ' : '\n');
		}
	pskd_output_close(o, &w);
}

static void
write_samples(struct pskd_output *o, uint64_t nout, uint64_t per)
{
	struct emit e;
	uint64_t k, b, j;
	size_t s;

	emit_begin(&e, o, &src[0].f.h.type, opt.batch, nout, names[0]);
	for (k = 0; k < nout && !emit_failed(&e); k++)
		for (b = 0; b < per; b++) {
			s = next_draw(&j);
			emit_sample(&e, &src[s], j);
		}
	emit_end(&e);
}

/* Open "file:weight" as source s; its weight in billionths to *nano. */
static void
open_source(size_t s, const char *arg, uint64_t *nano)
{
	const char *colon = strrchr(arg, ':');
	struct pskd_error perr;
	char *a, *b, *ea, *eb;

	if (colon == NULL || colon == arg ||
	    mix_weight_parse(colon + 1, nano) == -1 || *nano == 0) {
		pskd_warnx("%s: not FILE:WEIGHT, a weight above 0 with at most "
		    "nine digits after the point", arg);
		pskd_usage_error(NULL);
	}
	names[s] = pskd_xstrndup(arg, (size_t)(colon - arg));
	if (emit_src_open(&src[s], names[s], &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", names[s], perr.msg);
	if (src[s].f.h.count == 0)
		pskd_errx(PSKD_EXIT_DATA, "%s: no samples to draw from",
		    names[s]);
	if (s == 0)
		return;
	a = pskd_type_format(&src[0].f.h.type, NULL, 0);
	b = pskd_type_format(&src[s].f.h.type, NULL, 0);
	ea = pskd_type_encodings(&src[0].f.h.type);
	eb = pskd_type_encodings(&src[s].f.h.type);
	if (strcmp(a, b) != 0 || strcmp(ea, eb) != 0)
		pskd_errx(PSKD_EXIT_DATA, "%s: E%d: type %s%s%s, not %s%s%s "
		    "as %s", names[s], PSKD_E_MISMATCH, b, *eb ? " " : "", eb,
		    a, *ea ? " " : "", ea, names[0]);
	free(a);
	free(b);
	free(ea);
	free(eb);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "batch", required_argument, NULL, 'B' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "indices", no_argument, NULL, 'i' },
		{ "length", required_argument, NULL, 'L' },
		{ "take", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "rank", required_argument, NULL, OPT_RANK },
		{ "world", required_argument, NULL, OPT_WORLD },
		{ "start", required_argument, NULL, OPT_START },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_output o;
	uint64_t nano[MIX_MAXSRC], n[MIX_MAXSRC];
	struct emit_plan plan;
	uint64_t total = 0;
	char err[256];
	size_t s, k;
	int c;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "B:e:iL:n:o:s:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'B': opt.batch = num("-B", optarg, 1); break;
		case 'e': opt.epoch = num("-e", optarg, 1); break;
		case 'i': opt.indices = 1; break;
		case 'L': opt.len = num("-L", optarg, 1); break;
		case 'n':
			opt.take = num("-n", optarg, 0);
			opt.take_set = 1;
			break;
		case 'o': opt.output = optarg; break;
		case 's': opt.seed = num("-s", optarg, 0); break;
		case OPT_RANK: opt.rank = num("--rank", optarg, 0); break;
		case OPT_WORLD: opt.world = num("--world", optarg, 1); break;
		case OPT_START: opt.start = num("--start", optarg, 0); break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		pskd_usage_error(NULL);
	if (argc > MIX_MAXSRC)
		pskd_errx(PSKD_EXIT_USAGE, "%d sources: at most %d", argc,
		    MIX_MAXSRC);
	if (opt.rank >= opt.world) {
		pskd_warnx("--rank %llu: must be less than --world %llu",
		    (unsigned long long)opt.rank,
		    (unsigned long long)opt.world);
		pskd_usage_error(NULL);
	}
	k = (size_t)argc;
	for (s = 0; s < k; s++) {
		open_source(s, argv[s], &nano[s]);
		n[s] = src[s].f.h.count;
		total = total + n[s] < total ? UINT64_MAX : total + n[s];
	}
	if (opt.len == 0)
		opt.len = total;
	if (mix_init(&mix, k, n, nano, opt.len, opt.seed, opt.epoch, err,
	    sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_USAGE, "%s", err);
	for (s = 0; s < k; s++)
		if (mix.src[s].bound >= 1)
			pskd_warnx("%s: a prefix may hold up to %.2f samples "
			    "more or fewer than its share", names[s],
			    mix.src[s].bound);

	emit_plan(&plan, opt.len, opt.rank, opt.world, opt.start, opt.batch,
	    opt.take_set, opt.take, NULL, "positions");
	next_u = opt.start;
	blk.left = plan.nout * plan.per;
	pskd_output_open(&o, opt.output, !opt.indices);
	if (opt.indices)
		print_indices(&o, plan.nout, plan.per);
	else
		write_samples(&o, plan.nout, plan.per);
	emit_rest(&plan, NULL);
	for (s = 0; s < k; s++) {
		emit_src_close(&src[s]);
		free(names[s]);
	}
	return 0;
}
