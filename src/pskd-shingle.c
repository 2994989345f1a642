/*
 * pskd-shingle - documents (JSON Lines, or plain lines) to shingle frames:
 * the set of XXH3-64 hashes of the word (or character) n-grams of each
 * document's normalised text, with the document's id and original line.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "dedup/shingle.h"
#include "dedup/steps.h"

static const char usage_text[] =
    "pskd-shingle [-ls] [-c N | -w N] [-f fields] [-m size] [-n steps]\n"
    "                    [--id field] [--rejects file] [file ...]";

enum { OPT_ID = 256, OPT_REJECTS, OPT_HELP, OPT_VERSION };

static struct {
	uint32_t	 unit;		/* -c or -w */
	uint32_t	 n;
	const char	*field;		/* -f */
	int		 plain;		/* -l */
	uint64_t	 memory;	/* -m */
	const char	*memtext;	/* -m as given */
	unsigned	 norm;		/* -n */
	int		 skip;		/* -s */
	const char	*id;		/* --id */
	const char	*rejects;	/* --rejects */
} opt = {
	.unit = PSKD_UNIT_WORDS,
	.n = 5,
	.field = "text",
	.memory = 1ULL << 30,
	.memtext = "1G",
	.norm = PSKD_NORM_ALL,
	.id = "id",
};

static struct pskd_writer out;
static struct pskd_rejects rejects;	/* --rejects, -s */
static struct pskd_frame_relay relay;	/* lines go out from the reader's buffer */
static struct pskd_shingler sh;
static struct pskd_doc doc;
static struct pskd_buf idbuf;
static const unsigned char *textp;
static size_t textlen;
static uint64_t ndocs;			/* documents shingled */
static uint64_t held;			/* bytes of the line and text */

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -c, --char-ngrams N    character n-grams of N code points\n"
	    "  -f, --field NAME,...   the text members, a.b nested, several "
	    "joined\n"
	    "                         by a blank line (default text)\n"
	    "  -l, --lines            plain text, one document a line\n"
	    "  -m, --memory SIZE      the most one document may take (default "
	    "1G)\n"
	    "  -n, --normalize STEPS  case,punct,digits,space,marks, all or "
	    "none\n"
	    "  -s, --skip-bad         skip bad lines, count them, exit 1\n"
	    "  -w, --shingle-width N  word n-grams of N words (default 5)\n"
	    "      --id NAME          the id member (default id)\n"
	    "      --rejects FILE     bad documents to FILE as TSV, and on\n"
	    "      --help             this text\n"
	    "      --version          the version\n");
	exit(0);
}

static unsigned
parse_steps(const char *s)
{
	unsigned bits;
	char bad[64];

	if (pskd_norm_steps(s, &bits, bad, sizeof(bad)) == -1) {
		pskd_warnx("-n: unknown step '%s'", bad);
		pskd_usage_error(NULL);
	}
	return bits;
}

/* A document's name for frames: its id, else SOURCE:LINE. */
static void
name_line(const char *name, uint64_t lineno)
{
	pskd_buf_reserve(&idbuf, strlen(name) + 24);
	idbuf.len = (size_t)snprintf((char *)idbuf.p, idbuf.cap, "%s:%llu",
	    name, (unsigned long long)lineno);
	if (idbuf.len > PSKD_FRAME_MAX_ID)
		idbuf.len = PSKD_FRAME_MAX_ID;
}

/*
 * A bad document: with --rejects, a TSV line (source, line, reason) and a
 * rejected frame for pskd-lsh's verdicts; with -s a count; else the end.
 */
static void
bad_line(const char *name, uint64_t lineno, const unsigned char *line,
    size_t len, const char *why)
{
	if (opt.rejects == NULL && !opt.skip)
		pskd_fail_at(name, lineno, "%s", why);
	pskd_rejects_add(&rejects, name, lineno, why);
	if (opt.rejects == NULL)
		return;
	name_line(name, lineno);
	pskd_frame_relay_rejected(&relay, idbuf.p, idbuf.len, line, len);
}

/*
 * The text (textp, textlen) and id (idbuf) of one line; -1 for a bad line,
 * with why.
 */
static int
document(const char *name, uint64_t lineno, const unsigned char *line,
    size_t len, char *why, size_t whysize)
{
	size_t off;

	if (opt.plain) {
		off = pskd_utf8_check(line, len);
		if (off != len) {
			snprintf(why, whysize, "invalid UTF-8 at byte %zu", off);
			return -1;
		}
		textp = line;
		textlen = len;
		name_line(name, lineno);
		return 0;
	}
	if (pskd_doc_parse(&doc, line, len) == -1) {
		snprintf(why, whysize, "%s", doc.err);
		return -1;
	}
	textp = doc.text;
	textlen = doc.textlen;
	if (doc.id == NULL) {
		name_line(name, lineno);
		return 0;
	}
	if (doc.idlen > PSKD_FRAME_MAX_ID) {
		snprintf(why, whysize, "id longer than %u bytes",
		    PSKD_FRAME_MAX_ID);
		return -1;
	}
	idbuf.len = 0;
	pskd_buf_add(&idbuf, doc.id, doc.idlen);
	return 0;
}

/*
 * Room for a line under -m (pskd-shingle(1), MEMORY), before its text is
 * decoded: the line, and its text, which is no longer (twice with several
 * members: each, and joined); the shingler gets the rest.  0, or -1 with
 * why.
 */
static int
room(size_t len, char *why, size_t whysize)
{
	held = (uint64_t)len * (opt.plain ? 1 : doc.nf > 1 ? 3 : 2);
	if (held < opt.memory) {
		sh.budget = (size_t)(opt.memory - held);
		return 0;
	}
	snprintf(why, whysize, "document too large for -m %s (its line and "
	    "text take up to %llu bytes)", opt.memtext,
	    (unsigned long long)held);
	return -1;
}

/*
 * After a large document, what grew for it goes: the shingler's buffers,
 * and the text's (the JSON reader made again; the reader shrinks itself).
 */
static void
release(void)
{
	struct pskd_error e;

	pskd_shingler_release(&sh);
	if (opt.plain || held < PSKD_KEEP_GROWN)
		return;
	pskd_doc_free(&doc);
	if (pskd_doc_init(&doc, opt.field, opt.id, &e) == -1)
		pskd_errx(PSKD_EXIT_DATA, "-f: %s", e.msg);
}

static void
shingle_file(const char *path)
{
	struct pskd_reader r;
	const unsigned char *line;
	unsigned char *d;
	size_t len, nh;
	char why[400];
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_frame_relay_watch(&relay, &r);
	r.max = opt.memory < SIZE_MAX ? (size_t)opt.memory : SIZE_MAX;
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (r.cut) {
			/* Not held whole: rejected without its line. */
			snprintf(why, sizeof(why), "document too large for "
			    "-m %s (a line longer than that)", opt.memtext);
			bad_line(r.name, r.lineno, line, 0, why);
			continue;
		}
		if (room(len, why, sizeof(why)) == -1 || document(r.name,
		    r.lineno, line, len, why, sizeof(why)) == -1) {
			bad_line(r.name, r.lineno, line, len, why);
			release();
			continue;
		}
		nh = pskd_shingler_hash(&sh, textp, textlen);
		if (nh == SIZE_MAX) {
			if (sh.need > sh.budget + (size_t)1)
				snprintf(why, sizeof(why), "document too large "
				    "for -m %s (it takes %llu bytes)",
				    opt.memtext, (unsigned long long)(held +
				    sh.need));
			else
				snprintf(why, sizeof(why), "document too large "
				    "for -m %s (its normalised text alone takes "
				    "more)", opt.memtext);
			bad_line(r.name, r.lineno, line, len, why);
			release();
			continue;
		}
		if (nh > UINT32_MAX)
			pskd_errx(PSKD_EXIT_DATA, "%s:%llu: too many shingles",
			    r.name, (unsigned long long)r.lineno);
		ndocs++;
		d = pskd_frame_relay_begin(&relay, idbuf.p, idbuf.len, line,
		    len, (uint32_t)nh);
		pskd_frame_relay_end(&relay, (uint32_t)pskd_shingler_put(&sh, d));
		release();
		if (out.error)
			break;
	}
	pskd_frame_relay_flush(&relay);
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r.name);
	pskd_reader_close(&r);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "char-ngrams",	required_argument,	NULL, 'c' },
		{ "field",		required_argument,	NULL, 'f' },
		{ "lines",		no_argument,		NULL, 'l' },
		{ "memory",		required_argument,	NULL, 'm' },
		{ "normalize",		required_argument,	NULL, 'n' },
		{ "skip-bad",		no_argument,		NULL, 's' },
		{ "shingle-width",	required_argument,	NULL, 'w' },
		{ "id",			required_argument,	NULL, OPT_ID },
		{ "rejects",		required_argument,	NULL, OPT_REJECTS },
		{ "help",		no_argument,		NULL, OPT_HELP },
		{ "version",		no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_frame_params fp;
	struct pskd_error e;
	int c, cset = 0, wset = 0, i;

	pskd_init(argv, usage_text);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "c:f:lm:n:sw:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.n = (uint32_t)pskd_optnum("-c", optarg, 1, 1024, 0);
			opt.unit = PSKD_UNIT_CHARS;
			cset = 1;
			break;
		case 'f': opt.field = optarg; break;
		case 'l': opt.plain = 1; break;
		case 'm':
			opt.memory = pskd_optnum("-m", optarg, 1, UINT64_MAX,
			    PSKD_NUM_SIZE);
			opt.memtext = optarg;
			break;
		case 'n': opt.norm = parse_steps(optarg); break;
		case 's': opt.skip = 1; break;
		case 'w':
			opt.n = (uint32_t)pskd_optnum("-w", optarg, 1, 1024, 0);
			wset = 1;
			break;
		case OPT_ID: opt.id = optarg; break;
		case OPT_REJECTS: opt.rejects = optarg; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	if (cset && wset) {
		pskd_warnx("-c and -w exclude each other");
		pskd_usage_error(NULL);
	}
	if (pskd_doc_init(&doc, opt.field, opt.id, &e) == -1) {
		pskd_warnx("-f: %s", e.msg);
		pskd_usage_error(NULL);
	}
	argc -= optind;
	argv += optind;

	pskd_refuse_tty(1, "<stdout>");
	pskd_writer_init(&out, 1, "<stdout>");
	pskd_frame_relay_init(&relay, &out);
	pskd_pipe_grow(1);
	pskd_shingler_init(&sh, opt.unit, opt.n, opt.norm);
	memset(&fp, 0, sizeof(fp));
	fp.kind = PSKD_FRAME_SHINGLES;
	fp.unit = opt.unit;
	fp.n = opt.n;
	fp.norm = opt.norm;
	fp.shingle_seed = PSKD_SHINGLE_SEED;
	fp.rejects = opt.rejects != NULL;
	pskd_frame_write_header(&out, &fp);
	pskd_rejects_open(&rejects, opt.rejects);
	for (i = 0; i < (argc > 0 ? argc : 1) && !out.error; i++)
		shingle_file(argc > 0 ? argv[i] : NULL);
	pskd_writer_finish(&out);
	pskd_rejects_close(&rejects);
	pskd_doc_free(&doc);
	if (rejects.n == 0)
		return 0;
	/* --rejects: a success if any document went through. */
	return opt.rejects != NULL && ndocs > 0 ? 0 : PSKD_EXIT_DATA;
}
