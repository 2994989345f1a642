/*
 * pskd-redact - JSON Lines documents with the email addresses and public
 * IPv4 addresses of their text replaced the way datatrove's PIIFormatter
 * replaces them (emails first, then addresses, each from its own list in
 * turn), the turn starting over with each document.  Only the bytes of
 * each match in the line change, to the replacement; a document with
 * nothing to replace leaves as it came.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "quality/quality.h"

static const char usage_text[] =
    "pskd-redact [-Pq] [-f fields] [-o file] [-s name=value ...]\n"
    "                   [--id field] [--rejects file] [--verdicts file]\n"
    "                   [file ...]\n"
    "       pskd-redact --settings [-s name=value ...]";

enum { OPT_ID = 256, OPT_REJECTS, OPT_VERDICTS, OPT_SETTINGS, OPT_HELP,
	OPT_VERSION };

static struct q_settings cfg;
static struct q_redactor red;
static uint64_t nchanged;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -f, --field NAME,...   the text members (default text)\n"
	    "  -o, --output FILE      the documents (default stdout)\n"
	    "  -P, --progress         progress on stderr, even if not a tty\n"
	    "  -q, --quiet            no progress\n"
	    "  -s, --set NAME=VALUE   a switch or list (--settings lists "
	    "them)\n"
	    "      --id NAME          the id member (default id)\n"
	    "      --rejects FILE     bad documents to FILE as TSV, and on\n"
	    "      --verdicts FILE    one verdict a document\n"
	    "      --settings         print every setting and its value\n"
	    "      --help             this text\n"
	    "      --version          the version\n");
	exit(0);
}

static void
redact(struct pskd_stage *st)
{
	if (q_redact(&red, st->line, st->len, st->doc.f, st->doc.nf) == 0) {
		pskd_stage_keep(st);
		return;
	}
	nchanged++;
	pskd_stage_keep_as(st, red.line.p, red.line.len);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "field",		required_argument,	NULL, 'f' },
		{ "output",		required_argument,	NULL, 'o' },
		{ "progress",		no_argument,		NULL, 'P' },
		{ "quiet",		no_argument,		NULL, 'q' },
		{ "set",		required_argument,	NULL, 's' },
		{ "id",			required_argument,	NULL, OPT_ID },
		{ "rejects",		required_argument,	NULL, OPT_REJECTS },
		{ "verdicts",		required_argument,	NULL, OPT_VERDICTS },
		{ "settings",		no_argument,		NULL, OPT_SETTINGS },
		{ "help",		no_argument,		NULL, OPT_HELP },
		{ "version",		no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static struct pskd_stage st;
	struct pskd_error e;
	struct pskd_writer w;
	int c, settings = 0, rc;

	pskd_init(argv, usage_text);
	q_settings_default(&cfg);
	while ((c = getopt_long(argc, argv, "f:o:Pqs:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'f': st.fields = optarg; break;
		case 'o': st.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 's':
			if (q_settings_set(&cfg, Q_SET_REDACT, optarg,
			    &e) == -1) {
				pskd_warnx("-s: %s", e.msg);
				pskd_usage_error(NULL);
			}
			break;
		case OPT_ID: st.idfield = optarg; break;
		case OPT_REJECTS: st.rejects = optarg; break;
		case OPT_VERDICTS: st.verdicts = optarg; break;
		case OPT_SETTINGS: settings = 1; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (settings) {
		if (argc > 0)
			pskd_usage_error(NULL);
		pskd_writer_init(&w, 1, "<stdout>");
		q_settings_print(&cfg, Q_SET_REDACT, &w, NULL);
		pskd_writer_finish(&w);
		q_settings_free(&cfg);
		return 0;
	}
	red.s = &cfg;
	pskd_stage_open(&st, argc, argv);
	while (pskd_stage_next(&st))
		redact(&st);
	pskd_progress(1, "%llu emails, %llu addresses replaced in %llu "
	    "documents", (unsigned long long)red.nemails, (unsigned long long)red.nips,
	    (unsigned long long)nchanged);
	rc = pskd_stage_close(&st);
	q_settings_free(&cfg);
	q_redactor_free(&red);
	return rc;
}
