/*
 * pskd-minhash - shingle frames to signature frames: k MinHash components
 * of each document's shingle set, the same bits on every machine.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "dedup/params.h"
#include "dedup/minhash.h"

static const char usage_text[] =
    "pskd-minhash [-a family] [-k K] [-s seed] [file ...]";

enum { OPT_PORTABLE = 256, OPT_HELP, OPT_VERSION };

static struct {
	uint32_t	 family;	/* -a */
	uint32_t	 k;		/* -k */
	uint64_t	 seed;		/* -s */
	int		 portable;	/* --portable */
} opt = {
	.family = PSKD_FAMILY_CLASSIC,
	.k = 128,
	.seed = 1,
};

static struct pskd_writer out;
static struct pskd_frame_relay relay;	/* the lines go out from fr's buffer */
static struct pskd_minhash mh;
static struct pskd_frame_params first;
static int have_first;
static uint32_t *sig;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -a, --family NAME  classic (default) or oph\n"
	    "  -k, --components K number of components (default 128)\n"
	    "  -s, --seed SEED    the permutations' seed (default 1)\n"
	    "      --portable     never AVX-512 or AVX2 (for tests)\n"
	    "      --help         this text\n"
	    "      --version      the version\n");
	exit(0);
}

static void
sign_file(const char *path)
{
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	const char *what;
	char vals[400];
	int rc;

	if (pskd_frame_reader_open(&fr, path, PSKD_FRAME_SHINGLES) == -1)
		pskd_frame_fail(&fr, path);
	if (!have_first) {
		first = fr.fp;
		have_first = 1;
		first.kind = PSKD_FRAME_SIGNATURES;
		first.k = mh.k;
		first.family = mh.family;
		first.minhash_seed = mh.seed;
		pskd_frame_write_header(&out, &first);
	} else {
		struct pskd_frame_params p = fr.fp;

		p.kind = first.kind;
		p.k = first.k;
		p.family = first.family;
		p.minhash_seed = first.minhash_seed;
		if ((what = pskd_frame_params_mismatch(&first, &p, vals,
		    sizeof(vals))) != NULL)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s differs from the "
			    "first input's (%s)", fr.r.name, what, vals);
	}
	pskd_frame_relay_attach(&relay, &fr);
	/* pskd_minhash_sign() checks the order of the values it reads. */
	while ((rc = pskd_frame_next_unordered(&fr, &f)) == 1) {
		if (f.rejected && !first.rejects)
			pskd_errx(PSKD_EXIT_DATA, "%s: frame %llu: a rejected "
			    "document, but the output began as a stream "
			    "without them (put a stream made with --rejects "
			    "first)", fr.r.name,
			    (unsigned long long)fr.nframes);
		if (pskd_minhash_sign(&mh, f.values, f.count, sig) == -1) {
			rc = pskd_frame_disorder(&fr);
			break;
		}
		pskd_frame_relay_u32(&relay, &f, sig, f.count == 0 ? 0 : mh.k);
		if (out.error)
			break;
	}
	if (rc == -1)
		pskd_frame_fail(&fr, NULL);
	pskd_frame_reader_close(&fr);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "family",	required_argument,	NULL, 'a' },
		{ "components",	required_argument,	NULL, 'k' },
		{ "seed",	required_argument,	NULL, 's' },
		{ "portable",	no_argument,		NULL, OPT_PORTABLE },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ "version",	no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c, i;

	pskd_init(argv, usage_text);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "a:k:s:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (strcmp(optarg, "classic") == 0)
				opt.family = PSKD_FAMILY_CLASSIC;
			else if (strcmp(optarg, "oph") == 0)
				opt.family = PSKD_FAMILY_OPH;
			else {
				pskd_warnx("-a: unknown family '%s'", optarg);
				pskd_usage_error(NULL);
			}
			break;
		case 'k':
			/* 0x and octal too, as before the one parser. */
			opt.k = (uint32_t)pskd_optnum("-k", optarg, 1, 65536,
			    PSKD_NUM_HEX);
			break;
		case 's':
			opt.seed = pskd_optnum("-s", optarg, 0, UINT64_MAX,
			    PSKD_NUM_HEX);
			break;
		case OPT_PORTABLE: opt.portable = 1; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;

	pskd_refuse_tty(1, "<stdout>");
	pskd_writer_init(&out, 1, "<stdout>");
	pskd_frame_relay_init(&relay, &out);
	pskd_pipe_grow(1);
	pskd_minhash_init(&mh, opt.k, opt.family, opt.seed);
	if (opt.portable)
		mh.simd = 0;
	sig = pskd_xreallocarray(NULL, opt.k, sizeof(*sig));
	if (argc == 0)
		sign_file(NULL);
	for (i = 0; i < argc && !out.error; i++)
		sign_file(argv[i]);
	pskd_writer_finish(&out);
	return 0;
}
