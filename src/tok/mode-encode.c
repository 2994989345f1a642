/*
 * mode-encode.c - pskd-tok's main mode: documents (JSON Lines, lines with -l,
 * whole files with -r) to a token stream, .psk.d of type idx[V] with one
 * token a sample, each document followed by the end-of-text token.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tok.h"
#include "vocab.h"

static const struct pskd_tok_opt *opt;
static struct pskd_vocab voc;
static uint32_t *bos, *eos;		/* the tokens around a document */
static size_t nbos, neos;
static int indoc;			/* a document begun, not ended */
static struct pskd_ids ids;
static struct pskd_sink sink;
static unsigned width;			/* bytes per id */
static unsigned char *outbuf;
static uint64_t nbytes_in;
static struct pskd_rejects rejects;	/* --rejects */
static uint64_t ndocs;

/* The ids as the stream's bytes: converted into outbuf, or as they are. */
static const void *
id_bytes(void)
{
	size_t i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (width == sizeof(*ids.v))
		return ids.v;
#endif
	outbuf = pskd_xreallocarray(outbuf, ids.cap, width);
	switch (width) {
	case 1:
		for (i = 0; i < ids.n; i++)
			outbuf[i] = (unsigned char)ids.v[i];
		break;
	case 2:
		for (i = 0; i < ids.n; i++)
			pskd_put_le16(outbuf + 2 * i, (uint16_t)ids.v[i]);
		break;
	default:
		for (i = 0; i < ids.n; i++)
			pskd_put_le32(outbuf + 4 * i, ids.v[i]);
		break;
	}
	return outbuf;
}

static void
flush_ids(void)
{
	if (ids.n == 0)
		return;
	pskd_sink_samples(&sink, id_bytes(), ids.n * width, ids.n);
	ids.n = 0;
	if (sink.w.error) {
		errno = sink.w.error;
		pskd_err(PSKD_EXIT_DATA, "%s", sink.w.name);
	}
}

/*
 * A bad document: the end, or with --rejects a TSV line (source, line,
 * reason), its tokens so far taken back (ids from mark on), and on.
 */
static void
reject(const char *name, uint64_t line, size_t mark, const char *fmt, ...)
{
	char why[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (opt->rejects == NULL)
		pskd_fail_at(name, line, "%s", why);
	pskd_rejects_add(&rejects, name, line, why);
	ids.n = mark;
	indoc = 0;
}

/*
 * A document, or with -r a piece of one (last: its end): check, encode,
 * begin it with the --bos tokens and end it with the -e ones.  (--rejects
 * needs whole documents: a bad one leaves no token.)
 */
static void
document(const char *name, uint64_t line, const unsigned char *s, size_t n,
    int last)
{
	size_t bad, col, mark = ids.n;
	uint32_t cp;

	if (!indoc) {
		if (nbos > 0) {
			pskd_ids_reserve(&ids, nbos);
			memcpy(ids.v + ids.n, bos, nbos * sizeof(*bos));
			ids.n += nbos;
		}
		indoc = 1;
	}
	if (!opt->bytes && (bad = pskd_utf8_check(s, n)) != n) {
		pskd_tok_locate(s, bad, &line, &col);
		reject(name, line, mark, "invalid UTF-8 at byte %zu", col);
		return;
	}
	if (voc.kind->encode(&voc, s, n, opt->allow_special, &ids, &bad,
	    &cp) == -1) {
		pskd_tok_locate(s, bad, &line, &col);
		if (cp == PSKD_NOT_DONE)
			reject(name, line, mark, "%s", voc.why);
		else if (cp == PSKD_NOT_CHAR)
			reject(name, line, mark, "invalid UTF-8 at byte %zu",
			    col);
		else
			reject(name, line, mark, "character U+%04X not in "
			    "vocabulary", cp);
		return;
	}
	if (last) {
		ndocs++;
		if (neos > 0) {
			pskd_ids_reserve(&ids, neos);
			memcpy(ids.v + ids.n, eos, neos * sizeof(*eos));
			ids.n += neos;
		}
		indoc = 0;
	}
	nbytes_in += n;
	if (ids.n >= (1u << 16))	/* stay in the cache */
		flush_ids();
}

/*
 * The newlines in p[0..n), for the line numbers of messages: eight bytes
 * at a time (a memchr a line was 2% of a run), a byte counter each, the
 * counters summed before they can overflow.
 */
static uint64_t
newlines(const unsigned char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL, low7 = ones * 0x7f;
	uint64_t k = 0, acc, v;
	size_t i = 0, j;

	while (i + 8 <= n) {
		acc = 0;
		for (j = 0; j < 255 && i + 8 <= n; j++, i += 8) {
			memcpy(&v, p + i, 8);
			v ^= ones * '\n';	/* a newline is a zero byte */
			acc += ~(((v & low7) + low7) | v) >> 7 & ones;
		}
		acc = (acc & 0x00ff00ff00ff00ffULL) + (acc >> 8 &
		    0x00ff00ff00ff00ffULL);
		k += acc * 0x0001000100010001ULL >> 48;
	}
	for (; i < n; i++)
		k += p[i] == '\n';
	return k;
}

/*
 * -r: each input one document, in pieces of PSKD_BUFSIZE or more cut
 * where the vocabulary says the cut cannot change the ids (kind->cut),
 * RAW_MAX at most: memory holds one piece and its ids.
 */
#define RAW_MAX		(4u << 20)

static void
read_raw(struct pskd_reader *r)
{
	const unsigned char *p;
	size_t want = PSKD_BUFSIZE, n, cut;
	uint64_t line = 1;
	ssize_t got;
	int eof, any = 0;

	for (;;) {
		if ((got = pskd_reader_peek(r, want, &p)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r->name);
		n = (size_t)got;
		eof = n < want;
		if (n == 0 && !any)
			return;		/* an empty input: no document */
		cut = eof ? n : voc.kind->cut(&voc, p, n);
		if (cut == 0 && want < RAW_MAX) {
			want = want * 2 < RAW_MAX ? want * 2 : RAW_MAX;
			continue;
		}
		if (cut == 0)
			pskd_fail_at(r->name, line, "%u MiB without a place "
			    "where -r may cut the document for %s (its bound: "
			    "see pskd-tok(1))", RAW_MAX >> 20, voc.name);
		any = 1;
		document(r->name, line, p, cut, eof);
		if (eof)
			break;
		line += newlines(p, cut);
		pskd_reader_skip(r, cut);
		want = PSKD_BUFSIZE;
		if (pskd_progress_enabled())
			pskd_progress(0, "%llu MB, %llu tokens",
			    (unsigned long long)(nbytes_in >> 20),
			    (unsigned long long)(sink.count + ids.n));
	}
}

/* JSON Lines or -l: one document a line. */
static void
read_lines(struct pskd_reader *r)
{
	const unsigned char *line;
	size_t len;
	int rc;

	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		if (opt->input == 'l')
			document(r->name, r->lineno, line, len, 1);
		else if (pskd_doc_parse(opt->doc, line, len) == -1)
			reject(r->name, r->lineno, ids.n, "%s", opt->doc->err);
		else
			document(r->name, r->lineno, opt->doc->text,
			    opt->doc->textlen, 1);
		if (pskd_progress_enabled() && (r->lineno & 1023) == 0)
			pskd_progress(0, "%llu MB, %llu tokens",
			    (unsigned long long)(nbytes_in >> 20),
			    (unsigned long long)(sink.count + ids.n));
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
}

/* The id of a token given as text (-e, --bos): a special token's, else a
 * single ordinary token's; exit 2 if it is neither. */
static uint32_t *
token_id(const char *opt_name, const char *t)
{
	uint32_t *id = pskd_xmalloc(sizeof(*id));

	if ((*id = pskd_vocab_id(&voc, t)) == PSKD_RANK_NONE)
		pskd_errx(PSKD_EXIT_USAGE, "%s %s: not a token of %s",
		    opt_name, t, voc.name);
	return id;
}

/* --bos, --no-bos, -e, --no-eot, or what the vocabulary says. */
static void
around(void)
{
	if (opt->bos != NULL) {
		bos = token_id("--bos", opt->bos);
		nbos = 1;
	} else if (!opt->nobos && voc.template) {
		bos = voc.bos;
		nbos = voc.nbos;
	}
	if (opt->eot != NULL) {
		eos = token_id("-e", opt->eot);
		neos = 1;
	} else if (!opt->noeot && voc.template) {
		eos = voc.eos;
		neos = voc.neos;
	} else if (!opt->noeot) {
		eos = token_id("-e", "<|endoftext|>");
		neos = 1;
	}
}

void
pskd_tok_encode(const struct pskd_tok_opt *o, int argc, char **argv)
{
	struct pskd_output out;
	struct pskd_type t;
	struct pskd_error e;
	char text[64];
	int rc;

	opt = o;
	if (opt->output == NULL || strcmp(opt->output, "-") == 0)
		pskd_refuse_tty(1, "<stdout>");
	if ((rc = pskd_vocab_open(&voc, opt->encoding, opt->vocab, &e)) != 0 ||
	    (voc.kind->ready != NULL && (rc = voc.kind->ready(&voc, &e)) !=
	    0))
		pskd_errx(rc, "%s", e.msg);
	around();
	snprintf(text, sizeof(text), "idx[%llu]",
	    (unsigned long long)voc.nvocab);
	if (pskd_type_parse(&t, text, strlen(text), &e) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", e.msg);
	width = pskd_idx_width(voc.nvocab);
	pskd_output_open(&out, opt->output, 1);
	pskd_pipe_grow(out.fd);
	pskd_sink_init(&sink, out.fd, out.name, &t, PSKD_COUNT_STREAM);
	pskd_rejects_open(&rejects, opt->rejects);
	pskd_tok_each_input(argc, argv, opt->input == 'r' ? read_raw :
	    read_lines);
	flush_ids();
	if (pskd_sink_finish(&sink) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", out.name);
	pskd_output_close(&out, &sink.w);
	pskd_rejects_close(&rejects);
	if (pskd_progress_enabled())
		pskd_progress(1, "%llu MB, %llu tokens",
		    (unsigned long long)(nbytes_in >> 20),
		    (unsigned long long)sink.count);
	pskd_type_free(&t);
	/* With bad documents, a success if any document went through. */
	if (rejects.n > 0 && ndocs == 0)
		exit(PSKD_EXIT_DATA);
}
