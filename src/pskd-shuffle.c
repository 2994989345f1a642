/*
 * pskd-shuffle - the samples of a .psk.d file in the order of a keyed
 * permutation of (seed, epoch), as a .psk.d stream: optionally one rank's
 * slice, resumed at a position, grouped into batches, cut after n.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/emit.h"
#include "batch/perm.h"

static const char usage_text[] =
    "pskd-shuffle [-i] [-B batch] [-e epoch] [-n count] [-o file] [-s seed]\n"
    "                    [--rank rank --world world] [--start pos] file";

enum { OPT_RANK = 256, OPT_WORLD, OPT_START, OPT_HELP, OPT_VERSION };

static struct {
	uint64_t	 batch;		/* -B; 0: no batches */
	uint64_t	 epoch;		/* -e */
	int		 indices;	/* -i */
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
	.take = 0,
	.take_set = 0,
	.output = NULL,
	.seed = 0,
	.rank = 0,
	.world = 1,
	.start = 0,
};

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
	    "  -i, --indices        print the sample indices as text\n"
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

/*
 * The samples of this rank's slice from --start on: position j of the slice
 * is position rank + world*j of the epoch's order.  Computed in blocks.
 */
static struct {
	const struct pskd_perm *p;
	uint64_t	 next;		/* slice position of buf[len] */
	uint64_t	 buf[4096];
	size_t		 pos, len;
} order;

static uint64_t
next_sample(void)
{
	if (order.pos == order.len) {
		order.len = sizeof(order.buf) / sizeof(order.buf[0]);
		if (order.p->n / opt.world - order.next < order.len)
			order.len = (size_t)(order.p->n / opt.world -
			    order.next);
		pskd_perm_range(order.p, opt.rank + opt.world * order.next,
		    opt.world, order.len, order.buf);
		order.next += order.len;
		order.pos = 0;
	}
	return order.buf[order.pos++];
}

static void
print_indices(struct pskd_output *o, uint64_t nout, uint64_t per)
{
	struct pskd_writer w;
	uint64_t k, b;

	pskd_writer_init(&w, o->fd, o->name);
	for (k = 0; k < nout && !w.error; k++)
		for (b = 0; b < per; b++) {
			pskd_writer_u64(&w, next_sample());
			pskd_writer_putc(&w, b + 1 < per ? ' ' : '\n');
		}
	pskd_output_close(o, &w);
}

static void
write_samples(struct pskd_output *o, const struct emit_src *src,
    uint64_t nout, uint64_t per)
{
	struct emit e;
	uint64_t k, b;

	emit_begin(&e, o, &src->f.h.type, opt.batch, nout, src->f.name);
	for (k = 0; k < nout && !emit_failed(&e); k++)
		for (b = 0; b < per; b++)
			emit_sample(&e, src, next_sample());
	emit_end(&e);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "batch", required_argument, NULL, 'B' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "indices", no_argument, NULL, 'i' },
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
	struct emit_src f;
	struct pskd_error perr;
	struct pskd_perm p;
	struct emit_plan plan;
	int c;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "B:e:in:o:s:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'B': opt.batch = num("-B", optarg, 1); break;
		case 'e': opt.epoch = num("-e", optarg, 1); break;
		case 'i': opt.indices = 1; break;
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
	if (argc != 1)
		pskd_usage_error(NULL);
	if (opt.rank >= opt.world) {
		pskd_warnx("--rank %llu: must be less than --world %llu",
		    (unsigned long long)opt.rank,
		    (unsigned long long)opt.world);
		pskd_usage_error(NULL);
	}
	if (emit_src_open(&f, argv[0], &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", argv[0], perr.msg);
	emit_plan(&plan, f.f.h.count, opt.rank, opt.world, opt.start,
	    opt.batch, opt.take_set, opt.take, argv[0], "samples");

	pskd_output_open(&o, opt.output, !opt.indices);
	pskd_perm_init(&p, f.f.h.count, opt.seed, opt.epoch);
	order.p = &p;
	order.next = opt.start;
	if (opt.indices)
		print_indices(&o, plan.nout, plan.per);
	else
		write_samples(&o, &f, plan.nout, plan.per);
	emit_rest(&plan, argv[0]);
	emit_src_close(&f);
	return 0;
}
