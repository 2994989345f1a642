/*
 * pskd-stats - statistics of any pskd stream (documents, verdicts, frames,
 * token streams, windows, samples) as one line of JSON per input, or one
 * for all of them merged; it reads its own objects back to merge them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/pack.h"
#include "stats/collect.h"
#include "stats/stats.h"

static const char usage_text[] =
    "pskd-stats [-mPq] [-e id] [-f field] [-k count] [-l label] [-t kind]\n"
    "            [--language field] [--language-score field] [--length length\n"
    "            [--stride stride | --align bos | --pack best-fit "
    "[--buffer docs]]]\n"
    "            [file ...]";

enum { OPT_LANG = 256, OPT_SCORE, OPT_LENGTH, OPT_STRIDE, OPT_ALIGN,
    OPT_PACK, OPT_BUFFER, OPT_HELP, OPT_VERSION };

static struct {
	struct collect_opts c;
	uint64_t	 top;		/* -k */
	struct pskd_mode pack;		/* --stride, --align, --pack */
	int		 buffer_set;	/* --buffer */
	const char	**labels;	/* -l, in order */
	size_t		 nlabels;
	int		 merge;		/* -m */
} opt = {
	.c = { .kind = COLLECT_SNIFF, .field = "text", .lang = "language",
	    .score = "language_score", .packing = STATS_PACK_NONE,
	    .buffer = 1000 },
	.top = 20,
};

static struct pskd_writer out;
static struct pskd_buf json;
static struct stats acc;	/* -m: the merged object */
static int have_acc;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -e, --eot ID       the end-of-text id of token streams\n"
	    "  -f, --field NAME   the text member(s) of JSON Lines documents "
	    "(default text)\n"
	    "  -k, --top K        ids in a token stream's top list (default "
	    "20)\n"
	    "  -l, --label LABEL  the next input's label (repeatable)\n"
	    "  -m, --merge        one object for all inputs\n"
	    "  -P, --progress     show progress even when stderr is not a "
	    "terminal\n"
	    "  -q, --quiet        no progress\n"
	    "  -t, --type KIND    documents, lines, verdicts, frames, tokens, "
	    "windows,\n"
	    "                     samples or stats, instead of sniffing it\n"
	    "      --language NAME        the member naming a document's "
	    "language\n"
	    "                             (default language)\n"
	    "      --language-score NAME  the member holding its score "
	    "(default\n"
	    "                             language_score)\n"
	    "      --length T     count the windows of T pskd-window would "
	    "make\n"
	    "                     of a token stream: tokens kept, cropped, "
	    "padded\n"
	    "      --stride S     of plain windows of stride S (default T)\n"
	    "      --align bos    of --align bos\n"
	    "      --pack best-fit  of --pack best-fit\n"
	    "      --buffer N     with a buffer of N documents (default "
	    "1000)\n"
	    "      --help         this text\n"
	    "      --version      the version\n");
	exit(0);
}

/* Print s, or merge it into the merged object. */
static void
emit(struct stats *s, const char *name)
{
	char err[300];

	if (!opt.merge) {
		json.len = 0;
		stats_json(&json, s, opt.top);
		pskd_writer_write(&out, json.p, json.len);
		stats_free(s);
		return;
	}
	if (!have_acc) {
		acc = *s;
		have_acc = 1;
		return;
	}
	if (stats_merge(&acc, s, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", name, err);
	stats_free(s);
}

/* The objects of an input written by pskd-stats, one a line. */
static void
read_objects(struct pskd_reader *r, const char *label)
{
	const unsigned char *line;
	struct stats s;
	char err[300];
	size_t len;
	int rc;

	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		if (stats_read(&s, line, len, err, sizeof(err)) == -1)
			pskd_fail_at(r->name, r->lineno, "%s", err);
		if (label != NULL)
			stats_set_label(&s, label);
		emit(&s, r->name);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
}

/* The default label: the file's name up to its first dot; "-" for stdin. */
static char *
default_label(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base && base[1] != '\0' ? base + 1 : path;
	if (base[0] == '.')
		return pskd_xstrdup(base);
	return pskd_xstrndup(base, strcspn(base, "."));
}

static void
stats_input(const char *path, const char *label)
{
	char *name;

	struct pskd_reader r;
	struct stats s;
	enum collect_kind kind = opt.c.kind;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_pipe_grow(r.fd);
	if (kind == COLLECT_SNIFF)
		kind = collect_sniff(&r);
	if (kind == COLLECT_STATS) {
		read_objects(&r, label);
		pskd_reader_close(&r);
		return;
	}
	if (opt.c.packing != STATS_PACK_NONE && (kind == COLLECT_DOCUMENTS ||
	    kind == COLLECT_LINES || kind == COLLECT_VERDICTS ||
	    kind == COLLECT_FRAMES))
		pskd_fail_at(r.name, 0, "--length counts the windows of a "
		    "token stream, not of this stream");
	stats_init(&s, STATS_DOCUMENTS);
	name = default_label(path);
	stats_set_label(&s, label ? label : name);
	free(name);
	switch (kind) {
	case COLLECT_DOCUMENTS:
	case COLLECT_LINES:
		collect_documents(&r, &s, &opt.c, kind == COLLECT_LINES);
		break;
	case COLLECT_VERDICTS:
		s.kind = STATS_VERDICTS;
		collect_verdicts(&r, &s);
		break;
	case COLLECT_FRAMES:
		collect_frames(&r, &s);
		break;
	default:
		collect_psk(&r, &s, &opt.c, kind == COLLECT_PSK ?
		    COLLECT_SNIFF : kind);
		break;
	}
	pskd_reader_close(&r);
	emit(&s, path);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "eot", required_argument, NULL, 'e' },
		{ "field", required_argument, NULL, 'f' },
		{ "top", required_argument, NULL, 'k' },
		{ "label", required_argument, NULL, 'l' },
		{ "merge", no_argument, NULL, 'm' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "type", required_argument, NULL, 't' },
		{ "language", required_argument, NULL, OPT_LANG },
		{ "language-score", required_argument, NULL, OPT_SCORE },
		{ "length", required_argument, NULL, OPT_LENGTH },
		{ "stride", required_argument, NULL, OPT_STRIDE },
		{ "align", required_argument, NULL, OPT_ALIGN },
		{ "pack", required_argument, NULL, OPT_PACK },
		{ "buffer", required_argument, NULL, OPT_BUFFER },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c, i;

	pskd_init(argv, usage_text);
	opt.labels = pskd_xcalloc((size_t)argc, sizeof(*opt.labels));
	while ((c = getopt_long(argc, argv, "e:f:k:l:mPqt:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'e':
			opt.c.eot = pskd_optnum("-e", optarg, 0, UINT64_MAX, 0);
			opt.c.eot_set = 1;
			break;
		case 'f': opt.c.field = optarg; break;
		case 'k':
			opt.top = pskd_optnum("-k", optarg, 0, UINT32_MAX, 0);
			break;
		case 'l': opt.labels[opt.nlabels++] = optarg; break;
		case 'm': opt.merge = 1; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 't':
			if (collect_kind_parse(optarg, &opt.c.kind) == -1) {
				pskd_warnx("-t: unknown kind '%s'", optarg);
				pskd_usage_error(NULL);
			}
			break;
		case OPT_LANG: opt.c.lang = optarg; break;
		case OPT_SCORE: opt.c.score = optarg; break;
		case OPT_LENGTH:
			opt.c.length = pskd_optnum("--length", optarg, 1,
			    1ULL << 32, 0);
			break;
		case OPT_STRIDE:
			opt.c.stride = pskd_optnum("--stride", optarg, 1,
			    1ULL << 32, 0);
			pskd_mode_set(&opt.pack, STATS_PACK_PLAIN, "--stride");
			break;
		case OPT_ALIGN:
			(void)pack_option("--align", optarg);
			pskd_mode_set(&opt.pack, STATS_PACK_BOS, "--align");
			break;
		case OPT_PACK:
			(void)pack_option("--pack", optarg);
			pskd_mode_set(&opt.pack, STATS_PACK_BESTFIT, "--pack");
			break;
		case OPT_BUFFER:
			opt.c.buffer = pskd_optnum("--buffer", optarg, 1,
			    1u << 24, 0);
			opt.buffer_set = 1;
			break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.pack.flag != NULL && opt.c.length == 0) {
		pskd_warnx("%s needs --length", opt.pack.flag);
		pskd_usage_error(NULL);
	}
	if (opt.buffer_set && opt.pack.mode != STATS_PACK_BESTFIT) {
		pskd_warnx("--buffer: only --pack best-fit has a buffer");
		pskd_usage_error(NULL);
	}
	if (opt.c.length != 0) {
		opt.c.packing = opt.pack.flag == NULL ? STATS_PACK_PLAIN :
		    (enum stats_packing)opt.pack.mode;
		if (opt.c.stride == 0)
			opt.c.stride = opt.c.length;
	}
	if (opt.nlabels > (opt.merge ? 1 : argc > 0 ? (size_t)argc : 1)) {
		pskd_warnx("-l: more labels than %s", opt.merge ?
		    "the one merged object" : "inputs");
		pskd_usage_error(NULL);
	}

	pskd_writer_init(&out, 1, "<stdout>");
	if (argc == 0)
		stats_input("-", opt.merge ? NULL : opt.labels[0]);
	for (i = 0; i < argc && !out.error; i++)
		stats_input(argv[i], opt.merge ? NULL : opt.labels[i]);
	if (opt.merge && have_acc) {
		stats_set_label(&acc, opt.labels[0]);
		opt.merge = 0;
		emit(&acc, NULL);
	}
	pskd_progress(1, "done");
	pskd_writer_finish(&out);
	return 0;
}
