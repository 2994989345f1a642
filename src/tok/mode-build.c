/*
 * mode-build.c - pskd-tok --build-vocab: the character vocabulary of the
 * input (char.h), every distinct character once, by code point; and
 * --compile: a tokenizer.json's tables as pskd-tok loads them
 * (hf-compiled.c), for a faster start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "char.h"
#include "tok.h"
#include "vocab.h"

static const struct pskd_tok_opt *opt;
static unsigned char *seen;		/* a bit per code point */

static void
collect(const char *name, uint64_t line, const unsigned char *s, size_t n)
{
	size_t i, k, col;
	uint32_t cp;

	for (i = 0; i < n; i += k) {
		if ((k = pskd_utf8_decode(s + i, n - i, &cp)) == 0) {
			pskd_tok_locate(s, i, &line, &col);
			pskd_fail_at(name, line, "invalid UTF-8 at byte %zu",
			    col);
		}
		seen[cp >> 3] |= (unsigned char)(1u << (cp & 7));
	}
}

static void
build_reader(struct pskd_reader *r)
{
	const unsigned char *line, *p;
	size_t len;
	ssize_t got;
	uint64_t lines = 1;
	int rc;

	if (opt->input == 'r') {
		/* Characters are independent: cut between any two. */
		while ((got = pskd_reader_peek(r, PSKD_BUFSIZE, &p)) > 0) {
			const unsigned char *nl;
			size_t cut = (size_t)got, k;

			if (got >= (ssize_t)PSKD_BUFSIZE) {
				for (k = cut; k > cut - 4 &&
				    (p[k - 1] & 0xc0) == 0x80; k--)
					;
				if (p[k - 1] >= 0xc0)
					cut = k - 1;
			}

			collect(r->name, lines, p, cut);
			for (nl = p; (nl = memchr(nl, '\n',
			    (size_t)(p + cut - nl))) != NULL; nl++)
				lines++;
			pskd_reader_skip(r, cut);
		}
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r->name);
		return;
	}
	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		if (opt->input == 'l') {
			collect(r->name, r->lineno, line, len);
			continue;
		}
		if (pskd_doc_parse(opt->doc, line, len) == -1)
			pskd_fail_at(r->name, r->lineno, "%s", opt->doc->err);
		collect(r->name, r->lineno, opt->doc->text,
		    opt->doc->textlen);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
}

void
pskd_tok_build(const struct pskd_tok_opt *o, int argc, char **argv)
{
	struct pskd_output out;
	struct pskd_writer w;
	struct pskd_buf line = { 0 };
	uint32_t cp;

	opt = o;
	seen = pskd_xcalloc(0x110000 / 8, 1);
	pskd_tok_each_input(argc, argv, build_reader);
	pskd_output_writer(&out, &w, opt->output, 0);
	for (cp = 0; cp < 0x110000; cp++) {
		if (!(seen[cp >> 3] & (1u << (cp & 7))))
			continue;
		line.len = 0;
		pskd_charvocab_line(&line, cp);
		pskd_writer_write(&w, line.p, line.len);
	}
	pskd_buf_free(&line);
	pskd_output_close(&out, &w);
	free(seen);
}


void
pskd_tok_compile(const struct pskd_tok_opt *o, int argc, char **argv)
{
	struct pskd_output out;
	struct pskd_writer w;
	struct pskd_buf b = { 0 };
	struct pskd_error e;
	int rc;

	(void)argc;
	(void)argv;
	if ((rc = pskd_vocab_compile(o->encoding, o->vocab, &b, &e)) != 0)
		pskd_errx(rc, "%s", e.msg);
	pskd_output_writer(&out, &w, o->output, 1);
	pskd_writer_write(&w, b.p, b.len);
	pskd_output_close(&out, &w);
	pskd_buf_free(&b);
}
