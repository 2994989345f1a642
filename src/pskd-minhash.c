/*
 * pskd-minhash - shingle frames to signature frames: k MinHash components
 * of each document's shingle set, the same bits on every machine.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "dedup/minhash.h"

static const char usage_text[] =
    "pskd-minhash [-a family] [-k K] [-s seed] [file ...]";

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

static uint64_t
parse_u64(const char *s, const char *name, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v > max) {
		pskd_warnx("%s: '%s' is not a number from 0 to %llu", name, s,
		    (unsigned long long)max);
		pskd_usage_error(usage_text);
	}
	return v;
}

static void
sign_file(const char *path)
{
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	const char *what;
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
		if ((what = pskd_frame_params_differ(&p, &first)) != NULL)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s differs from the "
			    "first input's", fr.r.name, what);
	}
	pskd_frame_relay_attach(&relay, &fr);
	/* pskd_minhash_sign() checks the order of the values it reads. */
	while ((rc = pskd_frame_next_unordered(&fr, &f)) == 1) {
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
		{ "family", required_argument, NULL, 'a' },
		{ "components", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "portable", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	uint32_t k = 128, family = PSKD_FAMILY_CLASSIC;
	uint64_t seed = 1;
	int c, i, portable = 0;

	pskd_setprogname(argv[0]);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "a:k:s:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (strcmp(optarg, "classic") == 0)
				family = PSKD_FAMILY_CLASSIC;
			else if (strcmp(optarg, "oph") == 0)
				family = PSKD_FAMILY_OPH;
			else {
				pskd_warnx("-a: unknown family '%s'", optarg);
				pskd_usage_error(usage_text);
			}
			break;
		case 'k':
			k = (uint32_t)parse_u64(optarg, "-k", 65536);
			if (k == 0) {
				pskd_warnx("-k: must be at least 1");
				pskd_usage_error(usage_text);
			}
			break;
		case 's': seed = parse_u64(optarg, "-s", UINT64_MAX); break;
		case 'p': portable = 1; break;
		case 'h': usage(); break;
		case 'V': puts("pskd-minhash " PSKD_VERSION); return 0;
		default: pskd_usage_error(usage_text);
		}
	}
	argc -= optind;
	argv += optind;

	pskd_refuse_tty(1, "<stdout>");
	pskd_writer_init(&out, 1, "<stdout>");
	pskd_frame_relay_init(&relay, &out);
	pskd_pipe_grow(1);
	pskd_minhash_init(&mh, k, family, seed);
	mh.simd = portable || !pskd_simd() ? 0 : 2;
	sig = pskd_xreallocarray(NULL, k, sizeof(*sig));
	if (argc == 0)
		sign_file(NULL);
	for (i = 0; i < argc && !out.error; i++)
		sign_file(argv[i]);
	pskd_writer_finish(&out);
	return 0;
}
