/*
 * pskd-window - cut a token stream (.psk.d, idx[V]) into language-model
 * windows: sample k is (tokens[kS .. kS+T), tokens[kS+1 .. kS+T]), or with
 * --single the T+1 tokens tokens[kS .. kS+T] in one leaf.  With
 * --align bos or --pack best-fit the windows are rows of whole documents
 * instead (src/batch/pack.c); --segments adds each window's segment ids.
 * Streams with memory proportional to T (and to N documents of best-fit).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "batch/gather.h"
#include "batch/pack.h"
#include "batch/scan.h"

static const char usage_text[] =
    "pskd-window [--segments] [--single] [-e id] [-o file] [-s stride] "
    "-t length [file]\n"
    "       pskd-window --align bos | --pack best-fit [-N docs] -e id\n"
    "                   [--segments] [--single] [-o file] -t length [file]";

enum { OPT_ALIGN = 256, OPT_PACK, OPT_SEGMENTS, OPT_SINGLE, OPT_HELP,
    OPT_VERSION };

enum { MODE_PLAIN, MODE_ALIGN = PACK_ALIGN, MODE_BESTFIT = PACK_BESTFIT };

static struct {
	struct pskd_mode mode;		/* --align, --pack (-s: plain) */
	uint64_t	 eot;		/* -e */
	int		 eot_set;
	uint64_t	 docs;		/* -N */
	int		 docs_set;
	const char	*output;	/* -o */
	uint64_t	 stride;	/* -s; 0: the length */
	int		 segments;	/* --segments */
	int		 single;	/* --single */
	uint64_t	 len;		/* -t */
} opt = {
	.mode = { MODE_PLAIN, NULL },
	.eot = 0,
	.eot_set = 0,
	.docs = 1000,
	.docs_set = 0,
	.output = NULL,
	.stride = 0,
	.segments = 0,
	.single = 0,
	.len = 0,
};

static const char *inname;
static struct pskd_error perr;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("      --align bos       rows of whole documents, in order, "
	    "padded\n"
	    "      --pack best-fit   rows of whole documents from a buffer, "
	    "cropped\n"
	    "  -N, --buffer N        best-fit: documents in the buffer "
	    "(default 1000)\n"
	    "      --segments        a leaf of segment ids in each window\n"
	    "      --single          one leaf of T+1 tokens per window\n"
	    "  -e, --eot ID          the end-of-text id, last of each "
	    "document\n"
	    "  -o, --output FILE     write FILE atomically (default stdout)\n"
	    "  -s, --stride S        tokens from one window to the next "
	    "(default T)\n"
	    "  -t, --length T        tokens of input (and of target) per "
	    "window\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

static inline uint64_t
token(const unsigned char *p, unsigned w)
{
	return w == 1 ? p[0] : w == 2 ? pskd_get_le16(p) :
	    w == 4 ? pskd_get_le32(p) : pskd_get_le64(p);
}

/* Check n tokens at p, the first of them number first, against the bound. */
static void
check_tokens(const struct pskd_leaf *tok, const unsigned char *p, size_t n,
    uint64_t first)
{
	const unsigned w = tok->width;
	size_t bad;

	if (w < 8 ? tok->bound >= (uint64_t)1 << (8 * w) : tok->bound == 0)
		return;		/* the bound fills the width */
	bad = (size_t)pskd_idx_over(p, n, w, tok->bound);
	if (bad < n)
		pskd_fail_at(inname, 0, "E%d: token %llu: %llu out of bound "
		    "idx[%llu]", PSKD_E_VALUE,
		    (unsigned long long)(first + bad),
		    (unsigned long long)token(p + bad * w, w),
		    (unsigned long long)tok->bound);
}

/* The tokens at hand, as many as the declared count allows. */
static size_t
usable(ssize_t got, unsigned w, uint64_t seen, uint64_t count)
{
	size_t avail = (size_t)got / w * w;

	if (count != PSKD_COUNT_STREAM && seen + avail / w > count) {
		avail = (size_t)(count - seen) * w;
		if ((size_t)got > avail)
			pskd_fail_at(inname, 0, "E%d: data after the last of "
			    "%llu samples", PSKD_E_MAGIC,
			    (unsigned long long)count);
	}
	return avail;
}

/* The input ended after seen tokens, with rest bytes of a partial one. */
static void
input_end(uint64_t seen, uint64_t count, size_t rest)
{
	if (rest != 0)
		pskd_fail_at(inname, 0, "E%d: truncated: %zu bytes after the "
		    "last whole token", PSKD_E_TRUNC, rest);
	if (count != PSKD_COUNT_STREAM && seen < count)
		pskd_fail_at(inname, 0, "E%d: truncated at sample %llu (%llu "
		    "samples declared)", PSKD_E_TRUNC, (unsigned long long)seen,
		    (unsigned long long)count);
}

/* The segment ids of the T+1 tokens at p (a new one after each -e id). */
static void
plain_segments(unsigned char *seg, unsigned sw, const unsigned char *p,
    unsigned w)
{
	const size_t R = (size_t)opt.len + 1;
	size_t i, e;
	uint64_t id;

	for (i = 0, id = 1; i < R; i += e, id++) {
		e = scan_find(p + i * w, R - i, w, opt.eot);
		e += e < R - i;		/* the id ends its segment */
		pack_fill(seg + i * sw, sw, e, id);
	}
}

/*
 * The loop: peek at least one window (and a few MiB more, so that reads
 * and writes go in big blocks), write every window that lies in the bytes
 * at hand, skip to the start of the next window, repeat.  Every token is
 * checked against the bound once, when it first comes into view.
 */
static void
cut(struct pskd_reader *r, struct pskd_sink *out, const struct pskd_leaf *tok,
    uint64_t count, unsigned sw)
{
	struct pskd_gather g;
	const unsigned w = tok->width;
	const size_t win = (size_t)(opt.len + 1) * w;
	const size_t step = (size_t)opt.stride * w;
	const size_t body = (size_t)opt.len * w, want = win + (4u << 20);
	const unsigned char *p;
	unsigned char *seg = NULL;
	uint64_t seen = 0;	/* tokens before p */
	size_t pos, avail, checked = 0, skip = 0;
	ssize_t got;

	if (sw > 0)
		seg = pskd_xreallocarray(NULL, (size_t)opt.len + 1, sw);
	/* Windows go from the reader's buffer to writev(2), uncopied. */
	pskd_gather_init(&g, &out->w);
	for (;;) {
		got = pskd_reader_peek(r, want, &p);
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", inname);
		avail = usable(got, w, seen, count);
		if (checked < avail) {
			check_tokens(tok, p + checked, (avail - checked) / w,
			    seen + checked / w);
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
			if (seg != NULL) {
				plain_segments(seg, sw, p + pos, w);
				pskd_gather_copy(&g, seg,
				    (size_t)(opt.len + 1) * sw);
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
			seen += avail / w;
			input_end(seen, count, (size_t)got % w);
			break;
		}
		pskd_reader_skip(r, pos);
		seen += pos / w;
		checked -= pos;
	}
	pskd_gather_free(&g);
	free(seg);
}

/* ---- --align bos, --pack best-fit ------------------------------------- */

struct rows {
	struct pskd_sink *out;
	struct pskd_gather g;
	const struct pack *k;
	unsigned	 w, sw;
	unsigned char	*seg;
	size_t		 queued;	/* rows queued in g */
};

/*
 * A row to writev(2) from the packer's ring, where it stays until the ring
 * comes round: everything queued is written before that.
 */
static void
emit(void *arg, const struct pack_row *row)
{
	struct rows *s = arg;
	const size_t body = (size_t)opt.len * s->w;

	if (opt.single)
		pskd_gather_add(&s->g, row->tok, body + s->w);
	else {
		pskd_gather_add(&s->g, row->tok, body);
		pskd_gather_add(&s->g, row->tok + s->w, body);
	}
	if (s->sw > 0) {
		pack_segments(s->seg, s->sw, opt.len + 1, row->len,
		    row->npieces);
		pskd_gather_copy(&s->g, s->seg, (size_t)(opt.len + 1) * s->sw);
	}
	s->out->count++;
	if (++s->queued == s->k->nring - 1) {
		(void)pskd_gather_flush(&s->g);
		s->queued = 0;
	}
}

/* Documents from the stream into the packer, a chunk at a time. */
static void
pack_stream(struct pskd_reader *r, struct pskd_sink *out,
    const struct pskd_leaf *tok, uint64_t count, unsigned sw)
{
	struct rows s;
	struct pack k;
	const unsigned w = tok->width;
	const unsigned char *p;
	uint64_t seen = 0;
	size_t n, i, e;
	ssize_t got;

	memset(&s, 0, sizeof(s));
	s.out = out;
	s.k = &k;
	s.w = w;
	s.sw = sw;
	if (sw > 0)
		s.seg = pskd_xreallocarray(NULL, (size_t)opt.len + 1, sw);
	pack_init(&k, (enum pack_mode)opt.mode.mode, opt.len + 1, w,
	    (size_t)opt.docs, opt.eot, emit, &s);
	pskd_gather_init(&s.g, &out->w);
	while (!out->w.error) {
		got = pskd_reader_peek(r, PSKD_BUFSIZE, &p);
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", inname);
		n = usable(got, w, seen, count) / w;
		if (n == 0) {
			input_end(seen, count, (size_t)got % w);
			break;
		}
		check_tokens(tok, p, n, seen);
		for (i = 0; i < n; i += e) {
			e = scan_find(p + i * w, n - i, w, opt.eot);
			if (e < n - i) {
				pack_data(&k, p + i * w, ++e);
				pack_doc_end(&k);
			} else
				pack_data(&k, p + i * w, e);
		}
		pskd_reader_skip(r, n * w);
		seen += n;
	}
	if (!out->w.error)
		pack_finish(&k);
	(void)pskd_gather_flush(&s.g);
	pskd_gather_free(&s.g);
	pack_free(&k);
	free(s.seg);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "align", required_argument, NULL, OPT_ALIGN },
		{ "pack", required_argument, NULL, OPT_PACK },
		{ "buffer", required_argument, NULL, 'N' },
		{ "segments", no_argument, NULL, OPT_SEGMENTS },
		{ "single", no_argument, NULL, OPT_SINGLE },
		{ "eot", required_argument, NULL, 'e' },
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
	uint64_t n, nout, T;
	char text[256];
	unsigned sw = 0;
	int c, k;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "N:e:o:s:t:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case OPT_ALIGN:
			(void)pack_option("--align", optarg);
			pskd_mode_set(&opt.mode, MODE_ALIGN, "--align");
			break;
		case OPT_PACK:
			(void)pack_option("--pack", optarg);
			pskd_mode_set(&opt.mode, MODE_BESTFIT, "--pack");
			break;
		case 'N':
			opt.docs = pskd_optnum("-N", optarg, 1, 1u << 24, 0);
			opt.docs_set = 1;
			break;
		case OPT_SEGMENTS: opt.segments = 1; break;
		case OPT_SINGLE: opt.single = 1; break;
		case 'e':
			opt.eot = pskd_optnum("-e", optarg, 0, UINT64_MAX, 0);
			opt.eot_set = 1;
			break;
		case 'o': opt.output = optarg; break;
		case 's':
			opt.stride = pskd_optnum("-s", optarg, 1, 1ULL << 32,
			    0);
			pskd_mode_set(&opt.mode, MODE_PLAIN, "-s");
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
	if (opt.docs_set && opt.mode.mode != MODE_BESTFIT) {
		pskd_warnx("-N: only --pack best-fit has a buffer");
		pskd_usage_error(NULL);
	}
	if (!opt.eot_set && (opt.segments || opt.mode.mode != MODE_PLAIN)) {
		pskd_warnx("%s needs the end-of-text id (-e ID)",
		    opt.mode.flag ? opt.mode.flag : "--segments");
		pskd_usage_error(NULL);
	}
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
	if (opt.eot_set && opt.eot >= tok->bound)
		pskd_fail_at(inname, 0, "-e %llu: out of bound idx[%llu]",
		    (unsigned long long)opt.eot,
		    (unsigned long long)tok->bound);

	T = opt.len;
	k = snprintf(text, sizeof(text), opt.single ? "idx[%llu][seq: %llu]" :
	    "idx[%llu][seq: %llu], idx[%llu][seq: %llu]",
	    (unsigned long long)tok->bound,
	    (unsigned long long)(T + (uint64_t)opt.single),
	    (unsigned long long)tok->bound, (unsigned long long)T);
	if (opt.segments) {
		snprintf(text + k, sizeof(text) - (size_t)k,
		    ", idx[%llu][seg: %llu]", (unsigned long long)(T + 2),
		    (unsigned long long)(T + 1));
		sw = pskd_idx_width(T + 2);
	}
	if (opt.segments || !opt.single) {
		memmove(text + 1, text, strlen(text) + 1);
		text[0] = '(';
		strcat(text, ")");
	}
	if (pskd_type_parse(&ot, text, strlen(text), &perr) == -1)
		pskd_fail_at(inname, 0, "%s", perr.msg);
	nout = PSKD_COUNT_STREAM;
	if ((n = h.count) != PSKD_COUNT_STREAM && opt.mode.mode == MODE_PLAIN)
		nout = n < T + 1 ? 0 : 1 + (n - (T + 1)) / opt.stride;
	pskd_output_open(&o, opt.output, 1);
	pskd_sink_init(&out, o.fd, o.name, &ot, nout);
	if (opt.mode.mode == MODE_PLAIN)
		cut(&r, &out, tok, h.count, sw);
	else
		pack_stream(&r, &out, tok, h.count, sw);
	if (pskd_sink_finish(&out) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", o.name);
	pskd_output_close(&o, &out.w);
	pskd_type_free(&ot);
	pskd_header_free(&h);
	pskd_reader_close(&r);
	return 0;
}
