/*
 * pskd-filter - JSON Lines documents to the ones that pass the heuristic
 * quality rules of the FineWeb recipe (datatrove's Gopher quality, Gopher
 * repetition, C4 and FineWeb filters) and a url blocklist: each kept byte
 * for byte, each dropped with a verdict naming the first rule it failed,
 * the value measured and the threshold.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "quality/quality.h"

static const char usage_text[] =
    "pskd-filter [-Pq] [-f fields] [-o file] [-r sets] [-s name=value ...]\n"
    "                   [--dropped file] [--id field] [--rejects file]\n"
    "                   [--url-banned file] [--url-blocklist file]\n"
    "                   [--url-field field] [--verdicts file] [file ...]\n"
    "       pskd-filter --settings [-s name=value ...]";

enum {
	OPT_DROPPED = 256, OPT_ID, OPT_REJECTS, OPT_SETTINGS, OPT_URL_BANNED,
	OPT_URL_BLOCKLIST, OPT_URL_FIELD, OPT_VERDICTS, OPT_HELP, OPT_VERSION
};

enum set { SET_GOPHER_QUALITY, SET_GOPHER_REPETITION, SET_C4, SET_FINEWEB,
	SET_URL };

static const char *const set_names[] = {
	"gopher-quality", "gopher-repetition", "c4", "fineweb", "url"
};

/* FineWeb's order: url first, then repetition before quality. */
#define DEFAULT_SETS	"gopher-repetition,gopher-quality,c4,fineweb"

static struct {
	const char	*rules;		/* -r */
	int		 settings;	/* --settings */
	const char	*url_field;	/* --url-field */
} opt = {
	.rules = DEFAULT_SETS,
	.url_field = "url",
};

static enum set sets[8];
static size_t nsets;
static struct q_settings cfg;		/* of every document */
/* -s LANG:NAME=VALUE: the settings of documents in language LANG */
#define MAXLANGS 64
static struct lang {
	char		*name;
	struct q_settings s;
} langs[MAXLANGS];
static size_t nlangs;
static char **setargs;			/* every -s, in order */
static size_t nsetargs;
static struct q_urls *urls;
static struct q_seg *seg;
static struct q_text text;
static struct pskd_buf c4text;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -f, --field NAME,...   the text members (default text)\n"
	    "  -o, --output FILE      the kept documents (default stdout)\n"
	    "  -P, --progress         progress on stderr, even if not a tty\n"
	    "  -q, --quiet            no progress\n"
	    "  -r, --rules SETS       gopher-quality, gopher-repetition, c4,\n"
	    "                         fineweb, url, in the order to apply\n"
	    "                         (default " DEFAULT_SETS ")\n"
	    "  -s, --set NAME=VALUE   a threshold or switch (--settings lists"
	    " them)\n"
	    "      --dropped FILE     verdict and line of each dropped "
	    "document\n"
	    "      --id NAME          the id member (default id)\n"
	    "      --rejects FILE     bad documents to FILE as TSV, and on\n"
	    "      --url-banned FILE  banned substrings of urls, one a line\n"
	    "      --url-blocklist FILE  domains and URLs, one a line\n"
	    "      --url-field NAME   the url member (default url)\n"
	    "      --verdicts FILE    one verdict a document\n"
	    "      --settings         print every setting and its value\n"
	    "      --help             this text\n"
	    "      --version          the version\n");
	exit(0);
}

static void
parse_sets(const char *list)
{
	const char *p = list;
	size_t len, k, i;

	nsets = 0;
	for (;;) {
		len = strcspn(p, ",");
		for (k = 0; k < sizeof(set_names) / sizeof(set_names[0]); k++)
			if (strlen(set_names[k]) == len &&
			    strncmp(set_names[k], p, len) == 0)
				break;
		if (k == sizeof(set_names) / sizeof(set_names[0])) {
			pskd_warnx("-r: unknown rule set '%.*s'", (int)len, p);
			pskd_usage_error(NULL);
		}
		for (i = 0; i < nsets; i++)
			if (sets[i] == (enum set)k) {
				pskd_warnx("-r: %s named twice", set_names[k]);
				pskd_usage_error(NULL);
			}
		sets[nsets++] = (enum set)k;
		if (p[len] == '\0')
			return;
		p += len + 1;
	}
}

/* The language of -s LANG:NAME=VALUE, NULL for a plain NAME=VALUE. */
static const char *
scope(const char *arg, size_t *len)
{
	size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_-");

	*len = n;
	return n > 0 && arg[n] == ':' ? arg : NULL;
}

/* One -s: checked now, applied when every -s is known (settings()). */
static void
setarg(char *arg)
{
	struct q_settings t;
	struct pskd_error e;
	const char *l;
	size_t len, i;

	l = scope(arg, &len);
	q_settings_default(&t);
	if (q_settings_set(&t, Q_SET_FILTER, l ? arg + len + 1 : arg,
	    &e) == -1) {
		pskd_warnx("-s: %s", e.msg);
		pskd_usage_error(NULL);
	}
	q_settings_free(&t);
	setargs = pskd_xreallocarray(setargs, nsetargs + 1, sizeof(*setargs));
	setargs[nsetargs++] = arg;
	if (l == NULL)
		return;
	for (i = 0; i < nlangs; i++)
		if (strlen(langs[i].name) == len &&
		    strncmp(langs[i].name, arg, len) == 0)
			return;
	if (nlangs == MAXLANGS) {
		pskd_warnx("-s: settings for more than %d languages", MAXLANGS);
		pskd_usage_error(NULL);
	}
	langs[nlangs++].name = pskd_xstrndup(arg, len);
}

/*
 * The settings of every document: the defaults, then the plain -s in
 * order; of a language: those, then its own -s in order.
 */
static void
settings(void)
{
	struct pskd_error e;
	const char *l;
	size_t i, k, len;

	for (i = 0; i < nsetargs; i++)
		if (scope(setargs[i], &len) == NULL)
			q_settings_set(&cfg, Q_SET_FILTER, setargs[i], &e);
	for (k = 0; k < nlangs; k++) {
		q_settings_default(&langs[k].s);
		for (i = 0; i < nsetargs; i++)
			if (scope(setargs[i], &len) == NULL)
				q_settings_set(&langs[k].s, Q_SET_FILTER,
				    setargs[i], &e);
		for (i = 0; i < nsetargs; i++) {
			l = scope(setargs[i], &len);
			if (l != NULL && strlen(langs[k].name) == len &&
			    strncmp(langs[k].name, l, len) == 0)
				q_settings_set(&langs[k].s, Q_SET_FILTER,
				    setargs[i] + len + 1, &e);
		}
	}
}

static void
load_list(const char *path, int substrings)
{
	struct pskd_error e;

	if (urls == NULL)
		urls = q_urls_new();
	if (q_urls_load(urls, path, substrings, &e) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", e.msg);
}

/* The rule sets on one document, in order; v->name NULL: it passes. */
static void
judge(struct pskd_stage *st, int urlk, int langk, struct q_verdict *v)
{
	const struct pskd_json_field *f;
	const struct q_settings *cf = &cfg;
	struct pskd_error e;
	size_t i;
	int rc = 0;

	if (langk >= 0 && st->doc.f[langk].kind == PSKD_JSON_STRING) {
		f = &st->doc.f[langk];
		for (i = 0; i < nlangs; i++)
			if (strlen(langs[i].name) == f->value.len &&
			    memcmp(langs[i].name, f->value.p, f->value.len) == 0)
				cf = &langs[i].s;
	}
	q_text_set(&text, st->doc.text, st->doc.textlen);
	v->name = NULL;
	for (i = 0; i < nsets && v->name == NULL && rc == 0; i++) {
		switch (sets[i]) {
		case SET_GOPHER_QUALITY:
			rc = q_gopher_quality(&text, seg, cf, v, &e);
			break;
		case SET_GOPHER_REPETITION:
			rc = q_gopher_repetition(&text, seg, cf, v, &e);
			break;
		case SET_C4:
			rc = q_c4(&text, seg, cf, v, &e);
			if (rc == 0 && v->name == NULL) {
				/* the sets after c4 judge what it passes on */
				c4text.len = 0;
				pskd_buf_add(&c4text, text.passed.p,
				    text.passed.len);
				q_text_set(&text, c4text.p, c4text.len);
			}
			break;
		case SET_FINEWEB:
			rc = q_fineweb(&text, seg, cf, v, &e);
			break;
		case SET_URL:
			f = &st->doc.f[urlk];
			if (f->kind == PSKD_JSON_STRING)
				q_urls_check(urls, f->value.p, f->value.len, v);
			break;
		}
	}
	if (rc == -1)
		pskd_fail_at(st->source, st->lineno, "%s", e.msg);
}

static int
run(struct pskd_stage *st, int argc, char **argv)
{
	struct pskd_error e;
	struct q_verdict v;
	int urlk = -1, langk = -1;
	size_t i;

	if ((seg = q_seg_open(&e)) == NULL)
		pskd_errx(PSKD_EXIT_DATA, "%s", e.msg);
	pskd_stage_open(st, argc, argv);
	if (urls != NULL && (urlk = pskd_doc_extra(&st->doc,
	    opt.url_field)) == -1) {
		pskd_warnx("--url-field: '%s' is not a member name or names "
		    "joined by dots", opt.url_field);
		pskd_usage_error(NULL);
	}
	if (nlangs > 0)
		langk = pskd_doc_extra(&st->doc, "language");
	while (pskd_stage_next(st)) {
		judge(st, urlk, langk, &v);
		if (v.name == NULL)
			pskd_stage_keep(st);
		else
			pskd_stage_drop(st, v.name, v.what, v.against);
	}
	q_text_free(&text);
	pskd_buf_free(&c4text);
	q_seg_close(seg);
	q_urls_free(urls);
	q_settings_free(&cfg);
	for (i = 0; i < nlangs; i++)
		q_settings_free(&langs[i].s);
	return pskd_stage_close(st);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "field",		required_argument,	NULL, 'f' },
		{ "output",		required_argument,	NULL, 'o' },
		{ "progress",		no_argument,		NULL, 'P' },
		{ "quiet",		no_argument,		NULL, 'q' },
		{ "rules",		required_argument,	NULL, 'r' },
		{ "set",		required_argument,	NULL, 's' },
		{ "dropped",		required_argument,	NULL, OPT_DROPPED },
		{ "id",			required_argument,	NULL, OPT_ID },
		{ "rejects",		required_argument,	NULL, OPT_REJECTS },
		{ "url-banned",		required_argument,	NULL,
		    OPT_URL_BANNED },
		{ "url-blocklist",	required_argument,	NULL,
		    OPT_URL_BLOCKLIST },
		{ "url-field",		required_argument,	NULL, OPT_URL_FIELD },
		{ "verdicts",		required_argument,	NULL, OPT_VERDICTS },
		{ "settings",		no_argument,		NULL, OPT_SETTINGS },
		{ "help",		no_argument,		NULL, OPT_HELP },
		{ "version",		no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static struct pskd_stage st;
	struct pskd_writer w;
	const char *banned[16], *blocklists[16];
	size_t nbanned = 0, nblock = 0, i;
	int c, haveurl = 0;

	pskd_init(argv, usage_text);
	q_settings_default(&cfg);
	while ((c = getopt_long(argc, argv, "f:o:Pqr:s:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'f': st.fields = optarg; break;
		case 'o': st.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 'r': opt.rules = optarg; break;
		case 's':
			setarg(optarg);
			break;
		case OPT_DROPPED: st.dropped = optarg; break;
		case OPT_ID: st.idfield = optarg; break;
		case OPT_REJECTS: st.rejects = optarg; break;
		case OPT_URL_BANNED:
		case OPT_URL_BLOCKLIST:
			if (nbanned + nblock == 16) {
				pskd_warnx("more than 16 url lists");
				pskd_usage_error(NULL);
			}
			if (c == OPT_URL_BANNED)
				banned[nbanned++] = optarg;
			else
				blocklists[nblock++] = optarg;
			break;
		case OPT_URL_FIELD: opt.url_field = optarg; break;
		case OPT_VERDICTS: st.verdicts = optarg; break;
		case OPT_SETTINGS: opt.settings = 1; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	settings();
	if (opt.settings) {
		if (argc > 0)
			pskd_usage_error(NULL);
		pskd_writer_init(&w, 1, "<stdout>");
		q_settings_print(&cfg, Q_SET_FILTER, &w, NULL);
		for (i = 0; i < nlangs; i++)
			q_settings_print(&langs[i].s, Q_SET_FILTER, &w,
			    langs[i].name);
		pskd_writer_finish(&w);
		q_settings_free(&cfg);
		return 0;
	}
	parse_sets(opt.rules);
	for (i = 0; i < nsets; i++)
		haveurl |= sets[i] == SET_URL;
	if (haveurl && nbanned + nblock == 0) {
		pskd_warnx("-r url: no --url-blocklist or --url-banned list");
		pskd_usage_error(NULL);
	}
	if (!haveurl && nbanned + nblock > 0) {
		pskd_warnx("--url-blocklist and --url-banned need -r url");
		pskd_usage_error(NULL);
	}
	for (i = 0; i < nblock; i++)
		load_list(blocklists[i], 0);
	for (i = 0; i < nbanned; i++)
		load_list(banned[i], 1);
	return run(&st, argc, argv);
}
