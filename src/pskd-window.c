/*
 * pskd-window - cut a token stream (.psk.d, idx[V]) into language-model
 * windows: sample k is (tokens[kS .. kS+T), tokens[kS+1 .. kS+T]), or with
 * --single the T+1 tokens tokens[kS .. kS+T] in one leaf.  Streams with
 * memory proportional to T.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/gather.h"

static const char usage_text[] =
    "pskd-window [--single] [-o file] [-s stride] -t length [file]";

enum { OPT_SINGLE = 256, OPT_HELP, OPT_VERSION };

static struct {
	int		 single;	/* --single */
	const char	*output;	/* -o */
	uint64_t	 stride;	/* -s; 0: the length */
	uint64_t	 len;		/* -t */
} opt = {
	.single = 0,
	.output = NULL,
	.stride = 0,
	.len = 0,
};

static const char *inname;
static struct pskd_error perr;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("      --single          one leaf of T+1 tokens per window\n"
	    "  -o, --output FILE     write FILE atomically (default stdout)\n"
	    "  -s, --stride S        tokens from one window to the next "
	    "(default T)\n"
	    "  -t, --length T        tokens of input (and of target) per "
	    "window\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

/*
 * The loop: peek at least one window (and a few MiB more, so that reads
 * and writes go in big blocks), write every window that lies in the bytes
 * at hand, skip to the start of the next window, repeat.  Every token is
 * checked against the bound once, when it first comes into view.
 */
static void
cut(struct pskd_reader *r, struct pskd_sink *out, const struct pskd_leaf *tok,
    uint64_t count)
{
	struct pskd_gather g;
	const unsigned w = tok->width;
	const size_t win = (size_t)(opt.len + 1) * w;
	const size_t step = (size_t)opt.stride * w;
	const size_t body = (size_t)opt.len * w, want = win + (4u << 20);
	const int check = w < 8 ? tok->bound < (uint64_t)1 << (8 * w) :
	    tok->bound != 0;
	const unsigned char *p;
	uint64_t seen = 0;	/* tokens before p */
	size_t pos, avail, checked = 0, skip = 0, bad;
	ssize_t got;

	/* Windows go from the reader's buffer to writev(2), uncopied. */
	pskd_gather_init(&g, &out->w);
	for (;;) {
		got = pskd_reader_peek(r, want, &p);
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", inname);
		avail = (size_t)got / w * w;
		if (count != PSKD_COUNT_STREAM &&
		    seen + avail / w > count) {
			avail = (size_t)(count - seen) * w;
			if ((size_t)got > avail)
				pskd_fail_at(inname, 0, "E%d: data after the "
				    "last of %llu samples", PSKD_E_MAGIC,
				    (unsigned long long)count);
		}
		if (check && checked < avail) {
			bad = (size_t)pskd_idx_over(p + checked,
			    (avail - checked) / w, w, tok->bound);
			if (bad < (avail - checked) / w) {
				uint64_t k = seen + checked / w + bad;

				pskd_fail_at(inname, 0, "E%d: token %llu: %llu "
				    "out of bound idx[%llu]", PSKD_E_VALUE,
				    (unsigned long long)k,
				    (unsigned long long)pskd_leaf_idx(tok, p +
				    checked + bad * w, 0),
				    (unsigned long long)tok->bound);
			}
			checked = avail;
		}
		pos = skip < avail ? skip : avail;
		skip -= pos;
		for (; skip == 0 && avail - pos >= win && !out->w.error;
		    pos += step) {
			if (opt.single)
				pskd_gather_add(&g, p + pos, win);
			else {
				pskd_gather_add(&g, p + pos, body);
				pskd_gather_add(&g, p + pos + w, body);
			}
			out->count++;
			if (step > avail - pos) {
				skip = step - (avail - pos);
				pos = avail;
				break;
			}
		}
		/* The next peek may move the buffer. */
		if (pskd_gather_flush(&g) == -1)
			break;
		if ((size_t)got < want && avail - pos < win &&
		    (r->eof || got == 0)) {
			/* End of input: what is left is the short tail. */
			if ((size_t)got % w != 0)
				pskd_fail_at(inname, 0, "E%d: truncated: %zu "
				    "bytes after the last whole token",
				    PSKD_E_TRUNC,
				    (size_t)got % w);
			seen += avail / w;
			break;
		}
		pskd_reader_skip(r, pos);
		seen += pos / w;
		checked -= pos;
	}
	pskd_gather_free(&g);
	if (out->w.error)
		return;
	if (count != PSKD_COUNT_STREAM && seen < count)
		pskd_fail_at(inname, 0, "E%d: truncated at sample %llu (%llu "
		    "samples declared)", PSKD_E_TRUNC, (unsigned long long)seen,
		    (unsigned long long)count);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "single", no_argument, NULL, OPT_SINGLE },
		{ "output", required_argument, NULL, 'o' },
		{ "stride", required_argument, NULL, 's' },
		{ "length", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_output o;
	struct pskd_reader r;
	struct pskd_header h;
	struct pskd_sink out;
	struct pskd_type ot;
	const struct pskd_leaf *tok;
	uint64_t n, nout;
	char text[128];
	int c;

	pskd_init(argv, usage_text);
	/* Memory is a few windows: keep them addressable. */
	while ((c = getopt_long(argc, argv, "o:s:t:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SINGLE: opt.single = 1; break;
		case 'o': opt.output = optarg; break;
		case 's':
			opt.stride = pskd_optnum("-s", optarg, 1, 1ULL << 32,
			    0);
			break;
		case 't':
			opt.len = pskd_optnum("-t", optarg, 1, 1ULL << 32, 0);
			break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || opt.len == 0)
		pskd_usage_error(NULL);
	if (opt.stride == 0)
		opt.stride = opt.len;

	if (pskd_reader_open(&r, argc ? argv[0] : NULL) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", argv[0]);
	inname = r.name;
	if (pskd_header_read(&h, &r, &perr) == -1)
		pskd_fail_at(inname, 0, "%s", perr.msg);
	tok = h.type.leaves;
	if (h.type.params || h.type.nleaves != 1 || tok->real ||
	    tok->ndim != 0)
		pskd_fail_at(inname, 0, "E%d: not a token stream: type %s is "
		    "not idx[V] (pipe pskd-tok into it)", PSKD_E_MISMATCH,
		    h.type.text);

	snprintf(text, sizeof(text), opt.single ? "idx[%llu][seq: %llu]" :
	    "(idx[%llu][seq: %llu], idx[%llu][seq: %llu])",
	    (unsigned long long)tok->bound,
	    (unsigned long long)(opt.len + opt.single),
	    (unsigned long long)tok->bound, (unsigned long long)opt.len);
	if (pskd_type_parse(&ot, text, strlen(text), &perr) == -1)
		pskd_fail_at(inname, 0, "%s", perr.msg);
	nout = PSKD_COUNT_STREAM;
	if ((n = h.count) != PSKD_COUNT_STREAM)
		nout = n < opt.len + 1 ? 0 : 1 + (n - (opt.len + 1)) /
		    opt.stride;
	pskd_output_open(&o, opt.output, 1);
	pskd_sink_init(&out, o.fd, o.name, &ot, nout);
	cut(&r, &out, tok, h.count);
	if (pskd_sink_finish(&out) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", o.name);
	pskd_output_close(&o, &out.w);
	pskd_type_free(&ot);
	pskd_header_free(&h);
	pskd_reader_close(&r);
	return 0;
}
