/*
 * pskd-export - a token stream (.psk.d, idx[V]) into the data files of the
 * trainers people use: Megatron-LM's indexed dataset, nanoGPT's
 * train.bin/val.bin, llm.c's shards; document boundaries from the
 * end-of-text id, a deterministic validation split, one JSON line with the
 * size and SHA-256 of every file.  --check reads an export back against
 * the stream.  The formats live in src/export.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "export/export.h"

static const char usage_text[] =
    "pskd-export [-Pq] -f format -o prefix {-e id | -E encoding | -v vocab}\n"
    "            [--dtype type] [--shard-tokens n] [-s seed]\n"
    "            [--val-docs n | --val-fraction f] [file]\n"
    "       pskd-export --check [-Pq] -f format {-e id | -E encoding | -v "
    "vocab}\n"
    "            [--dtype type] [--shard-tokens n] [-s seed]\n"
    "            [--val-docs n | --val-fraction f] prefix [file]";

enum {
	OPT_CHECK = 256, OPT_DTYPE, OPT_SHARD, OPT_VALDOCS, OPT_VALFRAC,
	OPT_HELP, OPT_VERSION
};

static struct {
	int		 check;		/* --check */
	const char	*dtype;		/* --dtype */
	const char	*eot;		/* -e */
	const char	*encoding;	/* -E */
	const char	*format;	/* -f */
	const char	*output;	/* -o */
	uint64_t	 seed;		/* -s */
	uint64_t	 shard;		/* --shard-tokens */
	const char	*vocab;		/* -v */
	const char	*valdocs;	/* --val-docs */
	const char	*valfrac;	/* --val-fraction */
} opt = {
	.shard = 100000000,
};

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("      --check           compare the export at prefix with "
	    "what this stream gives\n"
	    "      --dtype TYPE      uint16, uint32 or int32 (default: the "
	    "format's rule)\n"
	    "  -E, --encoding NAME   the end-of-text id of a tiktoken "
	    "encoding\n"
	    "  -e, --eot ID          the end-of-text id that ends each "
	    "document\n"
	    "  -f, --format FORMAT   megatron, nanogpt or llmc\n"
	    "  -o, --output PREFIX   megatron, llmc: file prefix; nanogpt: "
	    "folder\n"
	    "  -P, --progress        show progress even when stderr is not a "
	    "terminal\n"
	    "  -q, --quiet           no progress\n"
	    "  -s, --seed S          the seed of the validation split "
	    "(default 0)\n"
	    "      --shard-tokens N  tokens per llm.c training shard (default "
	    "100000000)\n"
	    "  -v, --vocab FILE      the end-of-text id of a vocabulary file\n"
	    "      --val-docs N      N documents for validation (the stream "
	    "as a file)\n"
	    "      --val-fraction F  each document for validation with "
	    "chance F, by a keyed\n"
	    "                        hash (default 0.005 for nanogpt and "
	    "llmc)\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

static const struct xformat_ops *
format_named(const char *name)
{
	if (strcmp(name, "megatron") == 0)
		return &xf_megatron;
	if (strcmp(name, "nanogpt") == 0)
		return &xf_nanogpt;
	if (strcmp(name, "llmc") == 0)
		return &xf_llmc;
	pskd_warnx("-f %s: unknown format (megatron, nanogpt or llmc)", name);
	pskd_usage_error(NULL);
}

static enum xdtype
dtype_named(const char *name)
{
	if (name == NULL)
		return XD_DEFAULT;
	if (strcmp(name, "uint16") == 0)
		return XD_UINT16;
	if (strcmp(name, "uint32") == 0)
		return XD_UINT32;
	if (strcmp(name, "int32") == 0)
		return XD_INT32;
	pskd_warnx("--dtype %s: unknown (uint16, uint32 or int32)", name);
	pskd_usage_error(NULL);
}

/* D: the documents of the stream, in a first pass over the file. */
static uint64_t
count_documents(struct xport *x)
{
	struct xin *in = x->in;
	const unsigned char *p;
	uint32_t *pos;
	uint64_t docs = 0, last = x->eot;
	size_t n, bad;

	pos = pskd_xreallocarray(NULL, XCHUNK / in->w + 1, sizeof(*pos));
	while ((n = xin_next(in, &p)) > 0) {
		docs += xscan(p, n, in->w, x->eot, UINT64_MAX, pos, &bad);
		last = xin_token(p, n - 1, in->w);
		xin_skip(in, n);
	}
	free(pos);
	xin_rewind(in);
	/* The tokens after the last end-of-text id are a document too. */
	return docs + (last != x->eot);
}

static void
set_split(struct xport *x)
{
	double frac = x->ops->val_fraction;

	if (opt.valdocs != NULL) {
		if (!x->in->regular) {
			pskd_warnx("%s: --val-docs needs the token stream as a "
			    "file (it is read twice: first to count the "
			    "documents); --val-fraction splits a pipe",
			    x->in->name);
			pskd_usage_error(NULL);
		}
		xsplit_init(&x->split, count_documents(x), pskd_optnum(
		    "--val-docs", opt.valdocs, 0, UINT64_MAX, 0), opt.seed);
		return;
	}
	if (opt.valfrac != NULL)
		frac = pskd_optreal("--val-fraction", opt.valfrac, 0, 1);
	else if (frac == 0)
		return;		/* megatron: Megatron splits it (--split) */
	xsplit_hash(&x->split, frac, opt.seed);
}

static void
parse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "dtype", required_argument, NULL, OPT_DTYPE },
		{ "encoding", required_argument, NULL, 'E' },
		{ "eot", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "seed", required_argument, NULL, 's' },
		{ "shard-tokens", required_argument, NULL, OPT_SHARD },
		{ "vocab", required_argument, NULL, 'v' },
		{ "val-docs", required_argument, NULL, OPT_VALDOCS },
		{ "val-fraction", required_argument, NULL, OPT_VALFRAC },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c, shard_set = 0;

	while ((c = getopt_long(argc, argv, "E:e:f:o:Pqs:v:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case OPT_CHECK: opt.check = 1; break;
		case OPT_DTYPE: opt.dtype = optarg; break;
		case 'E': opt.encoding = optarg; break;
		case 'e': opt.eot = optarg; break;
		case 'f': opt.format = optarg; break;
		case 'o': opt.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 's':
			opt.seed = pskd_optnum("-s", optarg, 0, UINT64_MAX, 0);
			break;
		case OPT_SHARD:
			opt.shard = pskd_optnum("--shard-tokens", optarg, 1,
			    INT32_MAX, 0);
			shard_set = 1;
			break;
		case 'v': opt.vocab = optarg; break;
		case OPT_VALDOCS: opt.valdocs = optarg; break;
		case OPT_VALFRAC: opt.valfrac = optarg; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	if (opt.format == NULL)
		pskd_usage_error(NULL);
	if (opt.eot == NULL && opt.encoding == NULL && opt.vocab == NULL) {
		pskd_warnx("give the end-of-text id: -e ID, -E ENCODING or "
		    "-v VOCAB");
		pskd_usage_error(NULL);
	}
	if (opt.eot != NULL && (opt.encoding != NULL || opt.vocab != NULL)) {
		pskd_warnx("-e: give the id, or -E/-v to look it up, not both");
		pskd_usage_error(NULL);
	}
	if (opt.valdocs != NULL && opt.valfrac != NULL) {
		pskd_warnx("--val-docs and --val-fraction: give one");
		pskd_usage_error(NULL);
	}
	if (shard_set && strcmp(opt.format, "llmc") != 0) {
		pskd_warnx("--shard-tokens: only -f llmc has shards");
		pskd_usage_error(NULL);
	}
	if (opt.output != NULL && strcmp(opt.output, "-") == 0) {
		/* "-" is the standard output, and that is the report's. */
		pskd_warnx("-o -: the export is files named from a prefix, "
		    "not the standard output");
		pskd_usage_error(NULL);
	}
	if (opt.check == (opt.output != NULL)) {
		if (opt.check)
			pskd_warnx("--check: the prefix is the first operand, "
			    "not -o");
		pskd_usage_error(NULL);
	}
}

int
main(int argc, char **argv)
{
	struct xport x = { 0 };
	struct xin in;
	const char *file;

	pskd_init(argv, usage_text);
	parse(argc, argv);
	argc -= optind;
	argv += optind;
	if (argc > (opt.check ? 2 : 1) || (opt.check && argc < 1))
		pskd_usage_error(NULL);
	x.ops = format_named(opt.format);
	x.dtype = dtype_named(opt.dtype);
	x.check = opt.check;
	x.prefix = opt.check ? argv[0] : opt.output;
	x.shard_tokens = opt.shard;
	file = argc > opt.check ? argv[opt.check] : NULL;
	if (pskd_simd() == 0)
		xscan_portable(1);

	xin_open(&in, file);
	x.in = &in;
	x.eot = opt.eot != NULL ? pskd_optnum("-e", opt.eot, 0, UINT64_MAX,
	    0) : xeot_lookup(opt.encoding, opt.vocab);
	if (x.eot >= in.bound)
		pskd_fail_at(in.name, 0, "E%d: the end-of-text id %llu is "
		    "not an id of idx[%llu]", PSKD_E_VALUE,
		    (unsigned long long)x.eot, (unsigned long long)in.bound);
	x.ops->setup(&x);
	if (x.eot >= xdtype_limit(x.dtype))
		pskd_fail_at(in.name, 0, "E%d: the end-of-text id %llu "
		    "does not fit %s", PSKD_E_VALUE,
		    (unsigned long long)x.eot, xdtype_name(x.dtype));
	set_split(&x);
	/* nanoGPT's prefix is a folder; the others name files in one. */
	xport_mkdirs(&x, x.ops == &xf_nanogpt);
	x.ops->begin(&x);
	xport_run(&x);
	/* Before the report: an export its trainer cannot read is none. */
	if (x.ops->readable != NULL)
		x.ops->readable(&x);
	xport_report(&x);
	x.ops->commit(&x);
	xport_done(&x);
	xsplit_free(&x.split);
	xin_close(&in);
	return 0;
}
