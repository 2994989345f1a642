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

static const char usage_text[] =
    "pskd-shingle [-ls] [-c N | -w N] [-f field] [-n steps] [file ...]";

enum { OPT_HELP = 256, OPT_VERSION };

static struct {
	uint32_t	 unit;		/* -c or -w */
	uint32_t	 n;
	const char	*field;		/* -f */
	int		 plain;		/* -l */
	unsigned	 norm;		/* -n */
	int		 skip;		/* -s */
} opt = {
	.unit = PSKD_UNIT_WORDS,
	.n = 5,
	.field = "text",
	.norm = PSKD_NORM_ALL,
};

static struct pskd_writer out;
static struct pskd_frame_relay relay;	/* lines go out from the reader's buffer */
static struct pskd_shingler sh;
static struct pskd_buf idbuf;
static const unsigned char *textp;
static size_t textlen;
static uint64_t nskipped;
static char firstbad[512];

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -c, --char-ngrams N    character n-grams of N code points\n"
	    "  -f, --field NAME       the text field (default text)\n"
	    "  -l, --lines            plain text, one document a line\n"
	    "  -n, --normalize STEPS  case,punct,digits,space,marks, all or "
	    "none\n"
	    "  -s, --skip-bad         skip bad lines, count them, exit 1\n"
	    "  -w, --shingle-width N  word n-grams of N words (default 5)\n"
	    "      --help             this text\n"
	    "      --version          the version\n");
	exit(0);
}

static unsigned
parse_steps(const char *s)
{
	static const struct { const char *name; unsigned bit; } steps[] = {
		{ "case", PSKD_NORM_CASE }, { "punct", PSKD_NORM_PUNCT },
		{ "digits", PSKD_NORM_DIGITS }, { "space", PSKD_NORM_SPACE },
		{ "marks", PSKD_NORM_MARKS }, { "all", PSKD_NORM_ALL },
		{ "none", 0 }
	};
	unsigned bits = 0;
	size_t i, len;

	for (;;) {
		len = strcspn(s, ",");
		for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
			if (strlen(steps[i].name) == len &&
			    strncmp(steps[i].name, s, len) == 0)
				break;
		if (i == sizeof(steps) / sizeof(steps[0])) {
			pskd_warnx("-n: unknown step '%.*s'", (int)len, s);
			pskd_usage_error(NULL);
		}
		bits |= steps[i].bit;
		if (s[len] == '\0')
			return bits;
		s += len + 1;
	}
}

static int
bad_line(const char *name, uint64_t lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Report a bad line: an error, or with -s a count. */
static int
bad_line(const char *name, uint64_t lineno, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!opt.skip)
		pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", name,
		    (unsigned long long)lineno, msg);
	if (nskipped++ == 0)
		snprintf(firstbad, sizeof(firstbad), "%s:%llu: %s", name,
		    (unsigned long long)lineno, msg);
	return -1;
}

/*
 * The text (textp, textlen) and id (idbuf) of one line; -1 for a bad line.
 * The JSON fields' buffers are kept from line to line.
 */
static int
document(const char *name, uint64_t lineno, const unsigned char *line,
    size_t len)
{
	static struct pskd_json_field f[2];
	char err[200];
	size_t off;

	idbuf.len = 0;
	if (opt.plain) {
		off = pskd_utf8_check(line, len);
		if (off != len)
			return bad_line(name, lineno, "invalid UTF-8 at byte "
			    "%zu", off);
		textp = line;
		textlen = len;
		goto noid;
	}
	f[0].name = opt.field;
	f[1].name = "id";
	if (pskd_json_fields(line, len, f, 2, err, sizeof(err), &off) == -1)
		return bad_line(name, lineno, "%s at byte %zu", err, off);
	if (f[0].kind != PSKD_JSON_STRING)
		return bad_line(name, lineno, f[0].kind == PSKD_JSON_MISSING ?
		    "no \"%s\" field" : "\"%s\" is not a string", opt.field);
	textp = f[0].value.p;
	textlen = f[0].value.len;
	if (f[1].kind == PSKD_JSON_STRING)
		pskd_buf_add(&idbuf, f[1].value.p, f[1].value.len);
	else if (f[1].kind == PSKD_JSON_NUMBER)
		pskd_buf_add(&idbuf, f[1].raw, f[1].rawlen);
	if (f[1].kind == PSKD_JSON_STRING || f[1].kind == PSKD_JSON_NUMBER) {
		if (idbuf.len > PSKD_FRAME_MAX_ID)
			return bad_line(name, lineno, "id longer than %u bytes",
			    PSKD_FRAME_MAX_ID);
		return 0;
	}
noid:
	pskd_buf_reserve(&idbuf, strlen(name) + 24);
	idbuf.len = (size_t)snprintf((char *)idbuf.p, idbuf.cap, "%s:%llu",
	    name, (unsigned long long)lineno);
	if (idbuf.len > PSKD_FRAME_MAX_ID)
		idbuf.len = PSKD_FRAME_MAX_ID;
	return 0;
}

static void
shingle_file(const char *path)
{
	struct pskd_reader r;
	const unsigned char *line;
	unsigned char *d;
	size_t len, nh;
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_frame_relay_watch(&relay, &r);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (document(r.name, r.lineno, line, len) == -1)
			continue;
		nh = pskd_shingler_hash(&sh, textp, textlen);
		if (nh > UINT32_MAX)
			pskd_errx(PSKD_EXIT_DATA, "%s:%llu: too many shingles",
			    r.name, (unsigned long long)r.lineno);
		d = pskd_frame_relay_begin(&relay, idbuf.p, idbuf.len, line,
		    len, (uint32_t)nh);
		pskd_frame_relay_end(&relay, (uint32_t)pskd_shingler_put(&sh, d));
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
		{ "normalize",		required_argument,	NULL, 'n' },
		{ "skip-bad",		no_argument,		NULL, 's' },
		{ "shingle-width",	required_argument,	NULL, 'w' },
		{ "help",		no_argument,		NULL, OPT_HELP },
		{ "version",		no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_frame_params fp;
	int c, cset = 0, wset = 0, i;

	pskd_init(argv, usage_text);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "c:f:ln:sw:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.n = (uint32_t)pskd_optnum("-c", optarg, 1, 1024, 0);
			opt.unit = PSKD_UNIT_CHARS;
			cset = 1;
			break;
		case 'f': opt.field = optarg; break;
		case 'l': opt.plain = 1; break;
		case 'n': opt.norm = parse_steps(optarg); break;
		case 's': opt.skip = 1; break;
		case 'w':
			opt.n = (uint32_t)pskd_optnum("-w", optarg, 1, 1024, 0);
			wset = 1;
			break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: puts("pskd-shingle " PSKD_VERSION); return 0;
		default: pskd_usage_error(NULL);
		}
	}
	if (cset && wset) {
		pskd_warnx("-c and -w exclude each other");
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
	pskd_frame_write_header(&out, &fp);
	if (argc == 0)
		shingle_file(NULL);
	for (i = 0; i < argc && !out.error; i++)
		shingle_file(argv[i]);
	pskd_writer_finish(&out);
	if (nskipped > 0) {
		pskd_warnx("skipped %llu bad line%s (first: %s)",
		    (unsigned long long)nskipped, nskipped == 1 ? "" : "s",
		    firstbad);
		return PSKD_EXIT_DATA;
	}
	return 0;
}
