/*
 * pskd-tok - documents to a token stream (.psk.d, idx[V], one token a
 * sample) and back, with a vocabulary of any kind src/tok/vocab.h knows;
 * and the making of vocabularies: --build-vocab (characters) and --train
 * (byte-level BPE).  main parses the options and calls the mode's function
 * (src/tok/tok.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tok/tok.h"
#include "tok/train-special.h"

static const char usage_text[] =
    "pskd-tok [-bPq] [-E encoding] [-v vocab] [--bos token | --no-bos]\n"
    "           [-e token | --no-eot] [--allow-special] [-f fields | -l | -r]\n"
    "           [-o file] [--rejects file] [file ...]\n"
    "       pskd-tok -d [-E encoding] [-v vocab] [-o file] [file]\n"
    "       pskd-tok --build-vocab [-f fields | -l | -r] [-o file] [file ...]\n"
    "       pskd-tok --train N [-Pq] [-E pattern] [-f fields | -l | -r]\n"
    "           [--min-frequency F] [-o file] [--special token] [file ...]\n"
    "       pskd-tok --compile [-E encoding | -v tokenizer.json] [-o file]";

enum mode { ENCODE, DECODE, BUILD, TRAIN, COMPILE };

enum {
	OPT_ALLOW = 256, OPT_BOS, OPT_BUILD, OPT_COMPILE, OPT_MINFREQ, OPT_NOBOS, OPT_NOEOT,
	OPT_REJECTS, OPT_SPECIAL, OPT_TRAIN, OPT_HELP, OPT_VERSION
};

static void (*const modes[])(const struct pskd_tok_opt *, int, char **) = {
	[ENCODE] = pskd_tok_encode,
	[DECODE] = pskd_tok_decode,
	[BUILD] = pskd_tok_build,
	[TRAIN] = pskd_tok_train,
	[COMPILE] = pskd_tok_compile,
};

static const char default_field[] = "text";

static struct pskd_tok_opt opt = {
	.field = default_field,
	.input = 'j',
	.minfreq = 1,
};

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -b, --bytes             encode text that is not UTF-8 as "
	    "bytes\n"
	    "  -d, --decode            token stream to text\n"
	    "  -E, --encoding NAME     r50k_base, p50k_base, cl100k_base, "
	    "o200k_base, char,\n"
	    "                          or an installed tokenizer.json "
	    "(NAME.json);\n"
	    "                          with --train the pre-tokenizer "
	    "(cl100k_base)\n"
	    "  -e, --eot TOKEN         the token after each document "
	    "(<|endoftext|>, or\n"
	    "                          a tokenizer.json's)\n"
	    "  -f, --field NAME,...    JSON Lines input, text in NAME "
	    "(default text);\n"
	    "                          a.b nested, several joined by a "
	    "blank line\n"
	    "  -l, --lines             plain text, one document a line\n"
	    "  -o, --output FILE       write FILE (and with --train "
	    "FILE.special),\n"
	    "                          complete or not at all; - the "
	    "standard output\n"
	    "  -P, --progress          show progress even when stderr is not "
	    "a terminal\n"
	    "  -q, --quiet             no progress\n"
	    "  -r, --raw               plain text, each file one document, "
	    "in pieces\n"
	    "                          of 4 MiB at most\n"
	    "  -v, --vocab FILE        the vocabulary (ranks, tokenizer.json "
	    "or characters)\n"
	    "      --allow-special     special token text in documents is "
	    "the special token\n"
	    "      --bos TOKEN         the token before each document (a "
	    "tokenizer.json's)\n"
	    "      --build-vocab       print the character vocabulary of the "
	    "input\n"
	    "      --compile           write the tokenizer.json compiled, for "
	    "a faster start\n"
	    "      --min-frequency F   --train: merge only pairs seen F times "
	    "or more (1)\n"
	    "      --no-bos            nothing before documents\n"
	    "      --no-eot            nothing after documents\n"
	    "      --rejects FILE      bad documents to FILE as TSV, and "
	    "on\n"
	    "      --special TOKEN     --train: a special token after the "
	    "merges\n"
	    "                          (repeatable; default <|endoftext|>)\n"
	    "      --train N           learn a BPE vocabulary of N tokens "
	    "(256 bytes + merges)\n"
	    "      --help              this text\n"
	    "      --version           the version\n");
	exit(0);
}

static void
add_special(const char *s)
{
	size_t i;

	if (!pskd_special_valid((const unsigned char *)s, strlen(s)))
		pskd_errx(PSKD_EXIT_USAGE, "--special '%s': a special token is "
		    "UTF-8 text without white space", s);
	for (i = 0; i < opt.nspecial; i++)
		if (strcmp(opt.special[i], s) == 0)
			pskd_errx(PSKD_EXIT_USAGE, "--special %s: given twice",
			    s);
	opt.special = pskd_xreallocarray(opt.special, opt.nspecial + 1,
	    sizeof(*opt.special));
	opt.special[opt.nspecial++] = s;
}

/* One mode; options of another mode are a usage error. */
static enum mode
mode_of(enum mode m, int trainopts, int argc)
{
	int decode = m == DECODE, build = m == BUILD, train = m == TRAIN;

	if (opt.rejects != NULL && (decode || build || train ||
	    opt.input == 'r')) {
		pskd_warnx("--rejects: when encoding documents a line (JSON "
		    "Lines or -l)");
		pskd_usage_error(NULL);
	}
	if (m == COMPILE) {
		if (opt.bytes || opt.eot || opt.noeot || opt.allow_special ||
		    opt.bos || opt.nobos || opt.rejects || trainopts ||
		    opt.field != default_field || opt.input != 'j' ||
		    argc > 0) {
			pskd_warnx("--compile takes -E or -v, and -o, only");
			pskd_usage_error(NULL);
		}
		return COMPILE;
	}
	if (train) {
		if (opt.bytes || opt.eot || opt.noeot || opt.vocab ||
		    opt.allow_special || opt.bos || opt.nobos) {
			pskd_warnx("--train: -b, -e, -v, --allow-special, "
			    "--bos, --no-bos and --no-eot do not apply");
			pskd_usage_error(NULL);
		}
		if (opt.nspecial == 0)
			add_special("<|endoftext|>");
		return TRAIN;
	}
	if (trainopts) {
		pskd_warnx("--min-frequency and --special need --train");
		pskd_usage_error(NULL);
	}
	if ((opt.eot && opt.noeot) || (opt.bos && opt.nobos))
		pskd_usage_error(NULL);
	return m;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bytes", no_argument, NULL, 'b' },
		{ "decode", no_argument, NULL, 'd' },
		{ "encoding", required_argument, NULL, 'E' },
		{ "eot", required_argument, NULL, 'e' },
		{ "field", required_argument, NULL, 'f' },
		{ "lines", no_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "raw", no_argument, NULL, 'r' },
		{ "vocab", required_argument, NULL, 'v' },
		{ "allow-special", no_argument, NULL, OPT_ALLOW },
		{ "bos", required_argument, NULL, OPT_BOS },
		{ "build-vocab", no_argument, NULL, OPT_BUILD },
		{ "compile", no_argument, NULL, OPT_COMPILE },
		{ "min-frequency", required_argument, NULL, OPT_MINFREQ },
		{ "no-bos", no_argument, NULL, OPT_NOBOS },
		{ "no-eot", no_argument, NULL, OPT_NOEOT },
		{ "rejects", required_argument, NULL, OPT_REJECTS },
		{ "special", required_argument, NULL, OPT_SPECIAL },
		{ "train", required_argument, NULL, OPT_TRAIN },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static struct pskd_doc doc;
	struct pskd_error e;
	struct pskd_mode mode = { ENCODE, NULL };
	enum mode m;
	int c, trainopts = 0;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "bdE:e:f:lo:Pqrv:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'b': opt.bytes = 1; break;
		case 'd': pskd_mode_set(&mode, DECODE, "-d"); break;
		case 'E': opt.encoding = optarg; break;
		case 'e': opt.eot = optarg; break;
		case 'f': opt.field = optarg; opt.input = 'j'; break;
		case 'l': opt.input = 'l'; break;
		case 'o': opt.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 'r': opt.input = 'r'; break;
		case 'v': opt.vocab = optarg; break;
		case OPT_ALLOW: opt.allow_special = 1; break;
		case OPT_BOS: opt.bos = optarg; break;
		case OPT_BUILD:
			pskd_mode_set(&mode, BUILD, "--build-vocab");
			break;
		case OPT_COMPILE:
			pskd_mode_set(&mode, COMPILE, "--compile");
			break;
		case OPT_MINFREQ:
			opt.minfreq = pskd_optnum("--min-frequency", optarg, 1,
			    UINT64_MAX, 0);
			trainopts = 1;
			break;
		case OPT_NOBOS: opt.nobos = 1; break;
		case OPT_NOEOT: opt.noeot = 1; break;
		case OPT_REJECTS: opt.rejects = optarg; break;
		case OPT_SPECIAL: add_special(optarg); trainopts = 1; break;
		case OPT_TRAIN:
			opt.ntokens = (size_t)pskd_optnum("--train", optarg,
			    256, 1u << 31, 0);
			pskd_mode_set(&mode, TRAIN, "--train");
			break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	m = mode_of((enum mode)mode.mode, trainopts, argc);
	if (opt.input == 'j' && m != DECODE && m != COMPILE) {
		if (pskd_doc_init(&doc, opt.field, NULL, &e) == -1) {
			pskd_warnx("-f: %s", e.msg);
			pskd_usage_error(NULL);
		}
		opt.doc = &doc;
	}
	modes[m](&opt, argc, argv);
	return 0;
}
