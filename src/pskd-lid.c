/*
 * pskd-lid - JSON Lines documents through a supervised fastText model
 * (lid.176, GlotLID, DCLM's quality classifier: any .bin or .ftz),
 * predicted by fastText's own library.  Two modes: the language (the top
 * label and its score as members; --keep and -t drop the rest, as
 * datatrove's LanguageFilter and FineWeb do), and one label's
 * probability (--label; --min drops below it, as DCLM does).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "lid/lid.h"

static const char usage_text[] =
    "pskd-lid [-Pq] -m model [-f fields] [-k n] [-o file] [-t score]\n"
    "                [--as name] [--dropped file] [--id field] [--keep labels]\n"
    "                [--no-annotate] [--rejects file] [--verdicts file]\n"
    "                [file ...]\n"
    "       pskd-lid [-Pq] -m model --label label [-f fields] [-o file]\n"
    "                [--as name] [--dropped file] [--id field] [--min score]\n"
    "                [--no-annotate] [--rejects file] [--verdicts file]\n"
    "                [file ...]";

enum { OPT_AS = 256, OPT_DROPPED, OPT_ID, OPT_KEEP, OPT_LABEL, OPT_MIN,
    OPT_NO_ANNOTATE, OPT_REJECTS, OPT_VERDICTS, OPT_HELP, OPT_VERSION };

enum { MODE_LANGUAGE, MODE_LABEL };

static struct {
	const char	*model;		/* -m */
	const char	*fields;	/* -f */
	uint32_t	 k;		/* -k */
	const char	*output;	/* -o */
	double		 t;		/* -t */
	int		 tset;
	const char	*as;		/* --as */
	const char	*dropped;	/* --dropped */
	const char	*id;		/* --id */
	const char	*keep;		/* --keep */
	const char	*label;		/* --label */
	double		 min;		/* --min */
	int		 minset;
	int		 bare;		/* --no-annotate */
	const char	*rejects;	/* --rejects */
	const char	*verdicts;	/* --verdicts */
} opt = {
	.k = 1,
	.t = 0.65,		/* FineWeb's threshold for lid.176 */
};

static struct pskd_mode mode;
static struct pskd_stage s;
static struct lid_model model;
static struct lid_text text;
static struct lid_members mm;
static struct pskd_error err;
static int filtering;
static unsigned char *inkeep;		/* nlabels flags */
static int32_t want;			/* --label's index */
static char *name[LID_MAXMEMBERS];	/* the members written */
static size_t nnames;
static struct pskd_buf against;		/* the verdicts' AGAINST */
static struct pskd_buf what;		/* a verdict's WHAT */
static struct lid_pred *top;		/* the first prediction's answers */
static size_t ntop;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -f, --field NAME,...   the text members (default text)\n"
	    "  -k, --top N            also NAME_top: the N best labels\n"
	    "  -m, --model FILE|NAME  a fastText .bin or .ftz; lid176: the\n"
	    "                         installed lid.176.ftz\n"
	    "  -o, --output FILE      the kept documents (default stdout)\n"
	    "  -P, --progress         progress on stderr, even in a pipe\n"
	    "  -q, --quiet            no progress\n"
	    "  -t, --threshold P      keep a score above P (default 0.65)\n"
	    "      --as NAME          the member written (default language,\n"
	    "                         with NAME_score; --label: LABEL_score)\n"
	    "      --dropped FILE     the dropped lines, after their verdict\n"
	    "      --id FIELD         the id member (default id)\n"
	    "      --keep L1,L2,...   keep these labels (en,de) above -t\n"
	    "      --label LABEL      write this label's probability\n"
	    "      --min P            keep it at P or more\n"
	    "      --no-annotate      kept documents as they came\n"
	    "      --rejects FILE     bad documents there, and go on\n"
	    "      --verdicts FILE    one verdict a document\n"
	    "      --help, --version\n");
	exit(PSKD_EXIT_OK);
}

/* A member name: letters, digits and underscores (it names a verdict). */
static int
name_ok(const char *p)
{
	if (*p == '\0')
		return 0;
	for (; *p != '\0'; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '_')
			return 0;
	return 1;
}

static void
add_number(struct pskd_buf *b, double v)
{
	char tmp[40];

	pskd_format_double(tmp, sizeof(tmp), v);
	pskd_buf_add(b, tmp, strlen(tmp));
}

/* --keep: the labels' flags, and "en,de>0.65" for the verdicts. */
static void
keep_labels(void)
{
	const char *p = opt.keep, *q;
	int32_t i;

	inkeep = pskd_xcalloc((size_t)model.nlabels, 1);
	if (opt.keep == NULL)
		memset(inkeep, 1, (size_t)model.nlabels);
	while (p != NULL) {
		q = strchr(p, ',');
		i = lid_model_label(&model, p, q ? (size_t)(q - p) : strlen(p));
		if (i < 0) {
			pskd_warnx("--keep: '%.*s' is not a label of %s",
			    q ? (int)(q - p) : (int)strlen(p), p, opt.model);
			pskd_usage_error(NULL);
		}
		if (against.len > 0)
			pskd_buf_addc(&against, ',');
		pskd_buf_add(&against, model.label[i], model.labellen[i]);
		inkeep[i] = 1;
		p = q ? q + 1 : NULL;
	}
	pskd_buf_add(&against, ">", 1);
	add_number(&against, opt.t);
	pskd_buf_addc(&against, '\0');
}

/* --label: its index, the default name, ">=0.018" for the verdicts. */
static void
label_arg(void)
{
	char *dflt;

	want = lid_model_label(&model, opt.label, strlen(opt.label));
	if (want < 0) {
		pskd_warnx("--label: '%s' is not a label of %s", opt.label,
		    opt.model);
		pskd_usage_error(NULL);
	}
	if (opt.as == NULL) {
		dflt = pskd_xstrndup(model.label[want], model.labellen[want]);
		name[0] = pskd_xconcat(dflt, "_score");
		free(dflt);
		if (!name_ok(name[0])) {
			pskd_warnx("--label: name the member with --as (%s is "
			    "not letters, digits and underscores)", name[0]);
			pskd_usage_error(NULL);
		}
	} else
		name[0] = pskd_xstrdup(opt.as);
	nnames = 1;
	pskd_buf_add(&against, ">=", 2);
	add_number(&against, opt.min);
	pskd_buf_addc(&against, '\0');
}

static _Noreturn void
doc_failed(void)
{
	pskd_fail_at(s.source, s.lineno, "%s: %s", model.path, err.msg);
}

/*
 * A threshold for fastText's predict below which no label of probability
 * over t is pruned.  Hierarchical softmax prunes a node when its partial
 * score (a sum of log(x + 1e-5), x <= 1) is under log(threshold + 1e-5);
 * on the way down to a leaf the score can still grow by log(1 + 1e-5) a
 * level, at most nlabels levels, and each float addition may round by
 * 2^-24 of the score's size.  The threshold leaves that much room and a
 * thousandth more; softmax's test (p < threshold) needs less.  -1: prune
 * nothing.
 */
static float
below(double t)
{
	double lt = t > 0 ? -log(t) : 0;
	double room = (double)model.nlabels * (1e-5 + (lt + 1) * 1.2e-7) + 1e-3;
	double l = t * exp(-room) - 1e-5;

	return l > 0 ? (float)l : -1.0f;
}

/*
 * datatrove's LanguageFilter: kept if a kept label's score is over -t
 * (with no --keep: the top label's).  The top label decides most; else
 * every label that could pass is predicted, with the same scores.
 */
static int
passes(void)
{
	size_t i;

	if (ntop > 0 && inkeep[top[0].label] && top[0].prob > opt.t)
		return 1;
	if (opt.keep == NULL)
		return 0;
	if (lid_text_predict(&text, -1, below(opt.t), &err) == -1)
		doc_failed();
	for (i = 0; i < text.npred; i++)
		if (inkeep[text.pred[i].label] && text.pred[i].prob > opt.t)
			return 1;
	return 0;
}

static void
add_label(struct pskd_buf *b, int32_t i)
{
	pskd_json_quote(b, (const unsigned char *)model.label[i],
	    model.labellen[i]);
}

/* Kept, with mm's values written into the line. */
static void
keep_members(void)
{
	lid_members_apply(&mm, &s.doc, s.line, s.len);
	pskd_stage_keep_as(&s, mm.line.p, mm.line.len);
}

/* Dropped, the verdict's WHAT in what. */
static void
drop(void)
{
	pskd_buf_addc(&what, '\0');
	pskd_stage_drop(&s, name[0], (const char *)what.p,
	    (const char *)against.p);
}

static void
keep_language(void)
{
	size_t i;

	for (i = 0; i < nnames; i++)
		mm.value[i].len = 0;
	if (ntop > 0) {
		add_label(&mm.value[0], top[0].label);
		lid_score_json(&mm.value[1], top[0].prob);
	} else {
		pskd_buf_add(&mm.value[0], "null", 4);
		pskd_buf_addc(&mm.value[1], '0');
	}
	if (nnames == 3) {
		pskd_buf_addc(&mm.value[2], '{');
		for (i = 0; i < ntop; i++) {
			if (i > 0)
				pskd_buf_addc(&mm.value[2], ',');
			add_label(&mm.value[2], top[i].label);
			pskd_buf_addc(&mm.value[2], ':');
			lid_score_json(&mm.value[2], top[i].prob);
		}
		pskd_buf_addc(&mm.value[2], '}');
	}
	keep_members();
}

static void
language(void)
{
	if (lid_text_set(&text, s.doc.text, s.doc.textlen, &err) == -1 ||
	    lid_text_predict(&text, (int32_t)opt.k, 0.0f, &err) == -1)
		doc_failed();
	ntop = text.npred;
	memcpy(top, text.pred, ntop * sizeof(*top));
	if (!filtering || passes()) {
		if (opt.bare)
			pskd_stage_keep(&s);
		else
			keep_language();
		return;
	}
	/* The verdict: "fr:0.97" against "en>0.65". */
	what.len = 0;
	if (ntop > 0)
		pskd_buf_add(&what, model.label[top[0].label],
		    model.labellen[top[0].label]);
	pskd_buf_addc(&what, ':');
	if (ntop > 0)
		lid_score_json(&what, top[0].prob);
	else
		pskd_buf_addc(&what, '0');
	drop();
}

static void
label(void)
{
	float p = 0;
	size_t i;

	/* Every label, none pruned: the one asked for is among them. */
	if (lid_text_set(&text, s.doc.text, s.doc.textlen, &err) == -1 ||
	    lid_text_predict(&text, -1, -1.0f, &err) == -1)
		doc_failed();
	for (i = 0; i < text.npred; i++)
		if (text.pred[i].label == want)
			p = text.pred[i].prob;
	if (!opt.minset || p >= opt.min) {
		if (opt.bare)
			pskd_stage_keep(&s);
		else {
			mm.value[0].len = 0;
			lid_score_json(&mm.value[0], p);
			keep_members();
		}
		return;
	}
	what.len = 0;
	lid_score_json(&what, p);
	drop();
}

/* Options that need others, names; exits 2 when they do not fit. */
static void
check_options(void)
{
	if (opt.model == NULL) {
		pskd_warnx("give the model: -m FILE, or -m lid176");
		pskd_usage_error(NULL);
	}
	if (opt.minset && opt.label == NULL) {
		pskd_warnx("--min needs --label");
		pskd_usage_error(NULL);
	}
	filtering = mode.mode == MODE_LABEL ? opt.minset :
	    opt.keep != NULL || opt.tset;
	if (opt.bare && !filtering) {
		pskd_warnx("--no-annotate needs --keep, -t or --min");
		pskd_usage_error(NULL);
	}
	if (opt.as != NULL && !name_ok(opt.as)) {
		pskd_warnx("--as: '%s' is not letters, digits and underscores",
		    opt.as);
		pskd_usage_error(NULL);
	}
}

static void
setup(void)
{
	const char *base = opt.as ? opt.as : "language";

	if (lid_model_open(&model, opt.model, &err) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", err.msg);
	if (mode.mode == MODE_LABEL)
		label_arg();
	else {
		keep_labels();
		name[0] = pskd_xstrdup(base);
		name[1] = pskd_xconcat(base, "_score");
		nnames = 2;
		if (opt.k > 1)
			name[nnames++] = pskd_xconcat(base, "_top");
	}
	top = pskd_xcalloc((size_t)model.nlabels, sizeof(*top));
	lid_text_init(&text, &model);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "progress",	no_argument,		NULL, 'P' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "field",	required_argument,	NULL, 'f' },
		{ "top",	required_argument,	NULL, 'k' },
		{ "model",	required_argument,	NULL, 'm' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "threshold",	required_argument,	NULL, 't' },
		{ "as",		required_argument,	NULL, OPT_AS },
		{ "dropped",	required_argument,	NULL, OPT_DROPPED },
		{ "id",		required_argument,	NULL, OPT_ID },
		{ "keep",	required_argument,	NULL, OPT_KEEP },
		{ "label",	required_argument,	NULL, OPT_LABEL },
		{ "min",	required_argument,	NULL, OPT_MIN },
		{ "no-annotate", no_argument,		NULL, OPT_NO_ANNOTATE },
		{ "rejects",	required_argument,	NULL, OPT_REJECTS },
		{ "verdicts",	required_argument,	NULL, OPT_VERDICTS },
		{ "help",	no_argument,		NULL, OPT_HELP },
		{ "version",	no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	size_t i;
	int c;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "Pqf:k:m:o:t:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 'f': opt.fields = optarg; break;
		case 'k':
			opt.k = (uint32_t)pskd_optnum("-k", optarg, 1, 1000000,
			    0);
			pskd_mode_set(&mode, MODE_LANGUAGE, "-k");
			break;
		case 'm': opt.model = optarg; break;
		case 'o': opt.output = optarg; break;
		case 't':
			opt.t = pskd_optreal("-t", optarg, 0, 1);
			opt.tset = 1;
			pskd_mode_set(&mode, MODE_LANGUAGE, "-t");
			break;
		case OPT_AS: opt.as = optarg; break;
		case OPT_DROPPED: opt.dropped = optarg; break;
		case OPT_ID: opt.id = optarg; break;
		case OPT_KEEP:
			opt.keep = optarg;
			pskd_mode_set(&mode, MODE_LANGUAGE, "--keep");
			break;
		case OPT_LABEL:
			opt.label = optarg;
			pskd_mode_set(&mode, MODE_LABEL, "--label");
			break;
		case OPT_MIN:
			opt.min = pskd_optreal("--min", optarg, 0, 1);
			opt.minset = 1;
			break;
		case OPT_NO_ANNOTATE: opt.bare = 1; break;
		case OPT_REJECTS: opt.rejects = optarg; break;
		case OPT_VERDICTS: opt.verdicts = optarg; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	check_options();
	argc -= optind;
	argv += optind;

	setup();
	s.fields = opt.fields;
	s.idfield = opt.id;
	s.output = opt.output;
	s.verdicts = opt.verdicts;
	s.dropped = opt.dropped;
	s.rejects = opt.rejects;
	pskd_stage_open(&s, argc, argv);
	if (lid_members_init(&mm, &s.doc, (const char *const *)name,
	    nnames) == -1)
		pskd_errx(PSKD_EXIT_USAGE, "too many members to find");
	while (pskd_stage_next(&s)) {
		if (mode.mode == MODE_LABEL)
			label();
		else
			language();
	}
	c = pskd_stage_close(&s);
	lid_members_free(&mm);
	lid_text_free(&text);
	lid_model_close(&model);
	for (i = 0; i < nnames; i++)
		free(name[i]);
	free(inkeep);
	free(top);
	pskd_buf_free(&against);
	pskd_buf_free(&what);
	return c;
}
