/*
 * pskd-decon - JSON Lines documents checked against benchmark items
 * (GSM8K, HumanEval, MMLU, ... as JSON Lines files): a document that
 * holds one of an item's word n-grams (13 words by default, GPT-3's),
 * after pskd-shingle's normalisation, is dropped, or kept with a member
 * that says so; its verdict names the benchmark, the item and the n-gram,
 * and a summary says how often each item was found.  pskd-decon(1).
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

static const char usage_text[] =
    "pskd-decon [-Pq] [-f fields] [-n N] [-o file] [--dropped file]\n"
    "                  [--flag] [--id field] [--normalize steps]\n"
    "                  [--rejects file] [--summary file] [--verdicts file]\n"
    "                  [-F fields] [-I field] -b benchmark ... [file ...]";

enum {
	OPT_DROPPED = 256, OPT_FLAG, OPT_ID, OPT_NORMALIZE, OPT_REJECTS,
	OPT_SUMMARY, OPT_VERDICTS, OPT_HELP, OPT_VERSION
};

/* A benchmark file, with the -F and -I before it. */
struct spec {
	const char	*path, *fields, *item;
};

static struct {
	struct spec	*b;		/* -b */
	size_t		 nb;
	const char	*bfields;	/* -F */
	const char	*item;		/* -I */
	uint32_t	 n;		/* -n */
	int		 flag;		/* --flag */
	unsigned	 norm;		/* --normalize */
	const char	*summary;	/* --summary */
	int		 quiet;		/* -q */
} opt = {
	.bfields = "text",
	.item = "id",
	.n = X_DECON_N,
	.norm = PSKD_NORM_ALL,
};

static struct pskd_stage st;
static struct x_decon dc;
static struct pskd_buf member;
static uint64_t ncontaminated;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -b, --benchmark FILE     benchmark items, JSON Lines (one "
	    "or more)\n"
	    "  -F, --benchmark-field NAME,...  their text members, for the "
	    "-b after\n"
	    "                           it (default text)\n"
	    "  -f, --field NAME,...     the documents' text members (default "
	    "text)\n"
	    "  -I, --item-id NAME       the items' id member, for the -b "
	    "after it\n"
	    "                           (default id; none: the line)\n"
	    "  -n, --ngram N            words an n-gram (default 13)\n"
	    "  -o, --output FILE        the documents (default stdout)\n"
	    "  -P, --progress           progress on stderr, even if not a "
	    "tty\n"
	    "  -q, --quiet              no statistics, no progress\n"
	    "      --dropped FILE       verdict and line of each dropped "
	    "document\n"
	    "      --flag               keep them, with a member "
	    "\"contamination\"\n"
	    "      --id NAME            the documents' id member (default "
	    "id)\n"
	    "      --normalize STEPS    case,punct,digits,space,marks, all "
	    "or none\n"
	    "      --rejects FILE       bad documents to FILE as TSV, and "
	    "on\n"
	    "      --summary FILE       how often each item was found\n"
	    "      --verdicts FILE      one verdict a document\n"
	    "      --help               this text\n"
	    "      --version            the version\n");
	exit(0);
}

/* Each file's items; its name, the file's up to its first dot, once. */
static void
load(void)
{
	struct pskd_error e;
	size_t i, j;

	x_decon_init(&dc, opt.n, opt.norm);
	for (i = 0; i < opt.nb; i++) {
		if (x_decon_load(&dc, opt.b[i].path, opt.b[i].fields,
		    opt.b[i].item, &e) == -1)
			pskd_errx(PSKD_EXIT_DATA, "%s", e.msg);
		if (dc.bench[i].name[0] == '\0' ||
		    strpbrk(dc.bench[i].name, ":\t\n\r\\") != NULL) {
			pskd_warnx("-b: %s: a benchmark's name (its file's, up "
			    "to the first dot) must be a word without ':'",
			    opt.b[i].path);
			pskd_usage_error(NULL);
		}
		for (j = 0; j < i; j++)
			if (strcmp(dc.bench[j].name, dc.bench[i].name) == 0) {
				pskd_warnx("-b: two benchmarks named %s (%s and "
				    "%s)", dc.bench[i].name, opt.b[j].path,
				    opt.b[i].path);
				pskd_usage_error(NULL);
			}
	}
	x_decon_ready(&dc);
}

static void
member_add(const char *key, const unsigned char *v, size_t n, int comma)
{
	if (comma)
		pskd_buf_addc(&member, ',');
	pskd_json_quote(&member, (const unsigned char *)key, strlen(key));
	pskd_buf_addc(&member, ':');
	pskd_json_quote(&member, v, n);
}

static void
one_document(void)
{
	const struct x_item *it;
	const struct x_bench *bn;
	struct x_match m;
	struct pskd_buf against = { 0 };
	char *gram;

	if (x_decon_doc(&dc, st.doc.text, st.doc.textlen, &m) == 0) {
		pskd_stage_keep(&st);
		return;
	}
	ncontaminated++;
	it = &dc.item[m.item];
	bn = &dc.bench[it->bench];
	if (opt.flag) {
		member.len = 0;
		pskd_buf_add(&member, "\"contamination\":{", 17);
		member_add("benchmark", (const unsigned char *)bn->name,
		    strlen(bn->name), 0);
		member_add("item", (const unsigned char *)it->id,
		    strlen(it->id), 1);
		member_add("ngram", m.gram, m.len, 1);
		pskd_buf_addc(&member, '}');
		pskd_stage_annotate(&st, member.p, member.len);
		return;
	}
	pskd_buf_add(&against, bn->name, strlen(bn->name));
	pskd_buf_addc(&against, ':');
	pskd_buf_add(&against, it->id, strlen(it->id));
	pskd_buf_addc(&against, '\0');
	gram = pskd_xstrndup((const char *)m.gram, m.len);
	pskd_stage_drop(&st, "contaminated", gram, (const char *)against.p);
	free(gram);
	pskd_buf_free(&against);
}

/* BENCHMARK, ITEM, NGRAMS, DOCUMENTS: a line an item, in their order. */
static struct pskd_output so;
static struct pskd_writer sw;

static void
summary(void)
{
	size_t i;

	if (opt.summary == NULL)
		return;
	for (i = 0; i < dc.nitem; i++) {
		pskd_writer_puts(&sw, dc.bench[dc.item[i].bench].name);
		pskd_writer_putc(&sw, '\t');
		pskd_tsv_field(&sw, (const unsigned char *)dc.item[i].id,
		    strlen(dc.item[i].id));
		pskd_writer_printf(&sw, "\t%" PRIu64 "\t%" PRIu64 "\n",
		    dc.item[i].ngrams, dc.item[i].docs);
	}
	pskd_output_close(&so, &sw);
}

static void
statistics(void)
{
	size_t i, found = 0, none = 0;

	for (i = 0; i < dc.nitem; i++) {
		found += dc.item[i].docs > 0;
		none += dc.item[i].ngrams == 0;
	}
	if (opt.quiet)
		return;
	pskd_warnx("documents %" PRIu64 ", %s %" PRIu64 "; items found %zu "
	    "of %zu (%zu with fewer than %" PRIu32 " words)", st.ndocs,
	    opt.flag ? "flagged" : "contaminated", ncontaminated, found,
	    dc.nitem, none, opt.n);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "benchmark",	required_argument,	NULL, 'b' },
		{ "benchmark-field", required_argument,	NULL, 'F' },
		{ "field",	required_argument,	NULL, 'f' },
		{ "item-id",	required_argument,	NULL, 'I' },
		{ "ngram",	required_argument,	NULL, 'n' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "progress",	no_argument,		NULL, 'P' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "dropped",	required_argument,	NULL, OPT_DROPPED },
		{ "flag",	no_argument,		NULL, OPT_FLAG },
		{ "id",		required_argument,	NULL, OPT_ID },
		{ "normalize",	required_argument,	NULL, OPT_NORMALIZE },
		{ "rejects",	required_argument,	NULL, OPT_REJECTS },
		{ "summary",	required_argument,	NULL, OPT_SUMMARY },
		{ "verdicts",	required_argument,	NULL, OPT_VERDICTS },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ "version",	no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	char bad[64];
	int c, rc;

	pskd_init(argv, usage_text);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "b:F:f:I:n:o:Pq", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'b':
			opt.b = pskd_xreallocarray(opt.b, opt.nb + 1,
			    sizeof(*opt.b));
			opt.b[opt.nb].path = optarg;
			opt.b[opt.nb].fields = opt.bfields;
			opt.b[opt.nb++].item = opt.item;
			break;
		case 'F': opt.bfields = optarg; break;
		case 'f': st.fields = optarg; break;
		case 'I': opt.item = optarg; break;
		case 'n':
			opt.n = (uint32_t)pskd_optnum("-n", optarg, 1, 1024, 0);
			break;
		case 'o': st.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q':
			opt.quiet = 1;
			pskd_progress_mode = -1;
			break;
		case OPT_DROPPED: st.dropped = optarg; break;
		case OPT_FLAG: opt.flag = 1; break;
		case OPT_ID: st.idfield = optarg; break;
		case OPT_NORMALIZE:
			if (pskd_norm_steps(optarg, &opt.norm, bad,
			    sizeof(bad)) == -1) {
				pskd_warnx("--normalize: unknown step '%s'",
				    bad);
				pskd_usage_error(NULL);
			}
			break;
		case OPT_REJECTS: st.rejects = optarg; break;
		case OPT_SUMMARY: opt.summary = optarg; break;
		case OPT_VERDICTS: st.verdicts = optarg; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	if (opt.nb == 0) {
		pskd_warnx("no benchmark file (-b)");
		pskd_usage_error(NULL);
	}
	load();
	if (opt.summary != NULL)
		pskd_output_writer(&so, &sw, opt.summary, 0);
	pskd_stage_open(&st, argc - optind, argv + optind);
	while (pskd_stage_next(&st))
		one_document();
	rc = pskd_stage_close(&st);
	summary();
	statistics();
	x_decon_free(&dc);
	pskd_buf_free(&member);
	free(opt.b);
	return rc;
}
