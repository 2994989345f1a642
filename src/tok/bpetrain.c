/*
 * bpetrain.c - `pskd-tok --train N`: learn a byte-level BPE vocabulary of N
 * tokens from documents and write it as a tiktoken ranks file.
 *
 * The documents are cut into pre-tokens by one of the tiktoken patterns and
 * counted (memory grows with the distinct pre-tokens, not the input); the
 * merges are then learned from the counts (trainbpe.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pskd.h"
#include "bpetrain.h"
#include "pretok.h"
#include "trainbpe.h"

static const char usage_text[] =
    "pskd-tok --train N [-l | -r] [-Pq] [-E pattern] [-f field]\n"
    "                [--min-frequency F] [-o file] [--special token]"
    " [file ...]";

static struct {
	size_t		 ntokens;	/* --train */
	int		 pattern;	/* -E */
	const char	*field;		/* -f */
	int		 lines;		/* -l */
	int		 raw;		/* -r */
	uint64_t	 minfreq;	/* --min-frequency */
	const char	*output;	/* -o */
	char		**special;	/* --special */
	size_t		 nspecial;
} opt;

static struct pskd_wordcount *wc;
static int show;		/* progress lines */
static uint64_t nread;		/* bytes of input, for progress */

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("      --train N             learn a vocabulary of N tokens "
	    "(256 bytes + merges)\n"
	    "  -E, --encoding PATTERN    pre-tokenizer: r50k_base, p50k_base,"
	    "\n"
	    "                            cl100k_base (default) or o200k_base\n"
	    "  -f, --field NAME          the text of a JSON document "
	    "(default text)\n"
	    "  -l, --lines               plain text, one document a line\n"
	    "  -r, --raw                 plain text, each file one document\n"
	    "      --min-frequency F     merge only pairs seen F times or "
	    "more (1)\n"
	    "  -o, --output FILE         write FILE and FILE.special "
	    "atomically\n"
	    "      --special TOKEN       a special token after the merges "
	    "(repeatable;\n"
	    "                            default <|endoftext|>)\n"
	    "  -P, --progress            progress on stderr even when not a "
	    "terminal\n"
	    "  -q, --quiet               no progress\n"
	    "      --help                this text\n"
	    "      --version             the version\n");
	exit(0);
}

static _Noreturn void
fail_at(const struct pskd_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static _Noreturn void
fail_at(const struct pskd_reader *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", r->name,
	    (unsigned long long)r->lineno, msg);
}

static void
count_text(const unsigned char *s, size_t n)
{
	pskd_wordcount_text(wc, opt.pattern, s, n, n);
}

static void
progress_count(void)
{
	pskd_progress(0, "counting: %llu MiB, %zu distinct pre-tokens",
	    (unsigned long long)(nread >> 20), pskd_wordcount_size(wc));
}

/* JSON Lines, or with -l plain lines: one document a line. */
static void
read_lines(struct pskd_reader *r)
{
	struct pskd_json_field f;
	const unsigned char *line;
	char err[256];
	size_t len, off;
	int rc;

	memset(&f, 0, sizeof(f));
	f.name = opt.field;
	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		nread += len + 1;
		if (opt.lines) {
			if ((off = pskd_utf8_check(line, len)) != len)
				fail_at(r, "invalid UTF-8 at byte %zu", off);
			count_text(line, len);
		} else {
			if (pskd_json_fields(line, len, &f, 1, err, sizeof(err),
			    &off) == -1)
				fail_at(r, "%s at byte %zu", err, off);
			if (f.kind != PSKD_JSON_STRING)
				fail_at(r, "no string field \"%s\"", opt.field);
			count_text(f.value.p, f.value.len);
		}
		if (show)
			progress_count();
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
	pskd_buf_free(&f.value);
}

/* -r: the whole file is one document, read in chunks: pskd_train_cut(). */
static void
read_raw(struct pskd_reader *r)
{
	const unsigned char *p, *q, *nl;
	size_t want = PSKD_BUFSIZE, n, cut, look, pos, off;
	uint64_t linestart = 0, base = 0;
	ssize_t got;
	int eof;

	r->lineno = 1;
	for (;;) {
		if ((got = pskd_reader_peek(r, want, &p)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r->name);
		n = (size_t)got;
		eof = n < want;
		look = 0;
		cut = eof ? n : pskd_train_cut(p, n, &look);
		if ((off = pskd_utf8_check(p, cut)) != cut) {
			for (q = p; (nl = memchr(q, '\n', (size_t)(p + off - q)))
			    != NULL; q = nl + 1) {
				r->lineno++;
				linestart = base + (uint64_t)(nl - p) + 1;
			}
			fail_at(r, "invalid UTF-8 at byte %llu",
			    (unsigned long long)(base + off - linestart));
		}
		/* The character after the cut is lookahead for the pieces. */
		pos = cut ? pskd_wordcount_text(wc, opt.pattern, p, cut + look,
		    cut) : 0;
		if (pos == 0 && !eof) {
			want = n + PSKD_BUFSIZE;	/* no place to cut yet */
			continue;
		}
		for (q = p; (nl = memchr(q, '\n', (size_t)(p + pos - q))) !=
		    NULL; q = nl + 1) {
			r->lineno++;
			linestart = base + (uint64_t)(nl - p) + 1;
		}
		nread += pos;
		base += pos;
		pskd_reader_skip(r, pos);
		if (show)
			progress_count();
		if (eof)
			break;
		want = PSKD_BUFSIZE;
	}
}

static void
read_file(const char *path)
{
	struct pskd_reader r;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	if (opt.raw)
		read_raw(&r);
	else
		read_lines(&r);
	pskd_reader_close(&r);
}

static void
progress_merge(size_t ntok, size_t want)
{
	pskd_progress(0, "merges: %zu / %zu", ntok - 256, want - 256);
}

static void
put_base64(struct pskd_writer *w, const unsigned char *s, size_t n)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char q[4];
	uint32_t v;
	size_t i;

	for (i = 0; i + 3 <= n; i += 3) {
		v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
		q[0] = b64[v >> 18];
		q[1] = b64[v >> 12 & 63];
		q[2] = b64[v >> 6 & 63];
		q[3] = b64[v & 63];
		pskd_writer_write(w, q, 4);
	}
	if (i < n) {
		v = (uint32_t)s[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)s[i + 1] << 8;
		q[0] = b64[v >> 18];
		q[1] = b64[v >> 12 & 63];
		q[2] = i + 1 < n ? b64[v >> 6 & 63] : '=';
		q[3] = '=';
		pskd_writer_write(w, q, 4);
	}
}

static void
put_rank(struct pskd_writer *w, const unsigned char *s, size_t n,
    uint64_t rank)
{
	put_base64(w, s, n);
	pskd_writer_putc(w, ' ');
	pskd_writer_u64(w, rank);
	pskd_writer_putc(w, '\n');
}

static void
write_ranks(struct pskd_writer *w, const struct pskd_bpe_vocab *v)
{
	size_t r;

	for (r = 0; r < v->ntokens; r++)
		put_rank(w, v->bytes + v->off[r], v->off[r + 1] - v->off[r], r);
	for (r = 0; r < opt.nspecial; r++)
		put_rank(w, (const unsigned char *)opt.special[r],
		    strlen(opt.special[r]), v->ntokens + r);
}

static void
write_specials(struct pskd_writer *w, const struct pskd_bpe_vocab *v)
{
	size_t r;

	for (r = 0; r < opt.nspecial; r++) {
		pskd_writer_puts(w, opt.special[r]);
		pskd_writer_putc(w, ' ');
		pskd_writer_u64(w, v->ntokens + r);
		pskd_writer_putc(w, '\n');
	}
}

static uint64_t
number(const char *what, const char *s, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v < min ||
	    v > max)
		pskd_errx(PSKD_EXIT_USAGE, "%s %s: not a number from %llu to "
		    "%llu", what, s, (unsigned long long)min,
		    (unsigned long long)max);
	return v;
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
	opt.special[opt.nspecial++] = (char *)s;
}

static void
parse_options(int argc, char **argv)
{
	enum { O_TRAIN = 256, O_MINFREQ, O_SPECIAL, O_HELP, O_VERSION };
	static const struct option longopts[] = {
		{ "encoding", required_argument, NULL, 'E' },
		{ "field", required_argument, NULL, 'f' },
		{ "lines", no_argument, NULL, 'l' },
		{ "min-frequency", required_argument, NULL, O_MINFREQ },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "raw", no_argument, NULL, 'r' },
		{ "special", required_argument, NULL, O_SPECIAL },
		{ "train", required_argument, NULL, O_TRAIN },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	const char *enc = "cl100k_base";
	int c, train = 0;

	opt.field = "text";
	opt.minfreq = 1;
	while ((c = getopt_long(argc, argv, "E:f:lo:Pqr", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'E': enc = optarg; break;
		case 'f': opt.field = optarg; break;
		case 'l': opt.lines = 1; break;
		case 'o': opt.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 'r': opt.raw = 1; break;
		case O_MINFREQ:
			opt.minfreq = number("--min-frequency", optarg, 1,
			    UINT64_MAX);
			break;
		case O_SPECIAL: add_special(optarg); break;
		case O_TRAIN:
			opt.ntokens = (size_t)number("--train", optarg, 256,
			    1u << 31);
			train = 1;
			break;
		case O_HELP: usage(); break;
		case O_VERSION: puts("pskd-tok " PSKD_VERSION); exit(0);
		default: pskd_usage_error(usage_text);
		}
	}
	if (!train || (opt.lines && opt.raw))
		pskd_usage_error(usage_text);
	if ((opt.pattern = pskd_pretok_pattern(enc)) == -1)
		pskd_errx(PSKD_EXIT_USAGE, "-E %s: not a BPE pattern "
		    "(r50k_base, p50k_base, cl100k_base, o200k_base)", enc);
	if (opt.nspecial == 0)
		add_special("<|endoftext|>");
}

/* An output: a file written atomically, or standard output. */
struct output {
	const char	*name;		/* NULL: not written */
	int		 file;
	struct pskd_outfile of;
	struct pskd_writer w;
};

static void
out_open(struct output *o, const char *path)
{
	o->name = path ? path : "<stdout>";
	o->file = path != NULL;
	if (o->file && pskd_outfile_open(&o->of, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_writer_init(&o->w, o->file ? o->of.fd : 1, o->name);
}

static void
out_flush(struct output *o)
{
	if (o->name != NULL && o->file && pskd_writer_flush(&o->w) == -1) {
		errno = o->w.error;
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
	}
}

/* Rename a flushed file into place; finish standard output. */
static void
out_commit(struct output *o)
{
	if (o->name == NULL)
		return;
	if (!o->file) {
		pskd_writer_finish(&o->w);
		return;
	}
	free(o->w.buf);
	if (pskd_outfile_commit(&o->of) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
}

int
pskd_tok_train_main(int argc, char **argv)
{
	struct output ranks, specials;
	struct pskd_bpe_vocab v;
	struct stat st;
	char *spath = NULL;
	long long dup;
	size_t i;

	pskd_setprogname(argv[0]);
	parse_options(argc, argv);
	argc -= optind;
	argv += optind;
	memset(&specials, 0, sizeof(specials));
	out_open(&ranks, opt.output);
	/* FILE.special beside a file; a device or a FIFO gets no companion. */
	if (opt.output != NULL && (stat(opt.output, &st) == -1 ||
	    S_ISREG(st.st_mode))) {
		i = strlen(opt.output) + sizeof(".special");
		spath = pskd_xmalloc(i);
		snprintf(spath, i, "%s.special", opt.output);
		out_open(&specials, spath);
	}
	show = pskd_progress_enabled();

	wc = pskd_wordcount_new();
	if (argc == 0)
		read_file(NULL);
	for (i = 0; i < (size_t)argc; i++)
		read_file(argv[i]);
	if (show)
		pskd_progress(1, "counted %llu MiB, %zu distinct pre-tokens",
		    (unsigned long long)(nread >> 20), pskd_wordcount_size(wc));

	pskd_bpe_learn(wc, opt.ntokens, opt.minfreq, &v,
	    show ? progress_merge : NULL);
	if (show)
		pskd_progress(1, "merges: %zu / %zu", v.ntokens - 256,
		    opt.ntokens - 256);
	pskd_wordcount_free(wc);
	if (v.ntokens < opt.ntokens)
		pskd_warnx("--train: %zu tokens, not %zu: %s", v.ntokens,
		    opt.ntokens, v.stopcount > 0 ? "no pair left occurs "
		    "--min-frequency times" : "no pair left to merge");
	for (i = 0; i < opt.nspecial; i++) {
		dup = pskd_bpe_vocab_find(&v,
		    (const unsigned char *)opt.special[i],
		    strlen(opt.special[i]));
		if (dup >= 0)
			pskd_errx(PSKD_EXIT_DATA, "--special %s: already an "
			    "ordinary token (rank %lld)", opt.special[i], dup);
	}

	write_ranks(&ranks.w, &v);
	if (specials.name != NULL)
		write_specials(&specials.w, &v);
	/* Both complete before either is renamed into place. */
	out_flush(&ranks);
	out_flush(&specials);
	out_commit(&specials);
	out_commit(&ranks);
	free(spath);
	pskd_bpe_vocab_free(&v);
	return 0;
}
