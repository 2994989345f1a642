/*
 * mode-train.c - `pskd-tok --train N`: learn a byte-level BPE vocabulary of
 * N tokens from documents and write it (train-write.c) as a tiktoken ranks
 * file or a tokenizer.json.
 *
 * The documents are cut into pre-tokens by one of the tiktoken patterns and
 * counted (memory grows with the distinct pre-tokens, not the input); the
 * merges are then learned from the counts (train-learn.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pskd.h"
#include "hf.h"
#include "bpe-pretok.h"
#include "tok.h"
#include "train.h"
#include "train-special.h"

static const struct pskd_tok_opt *opt;
static int pattern;		/* PSKD_PAT_* of -E */
static struct pskd_wordcount *wc;
static int show;		/* progress lines */
static uint64_t nread;		/* bytes of input, for progress */

static void
count_text(const unsigned char *s, size_t n)
{
	pskd_wordcount_text(wc, pattern, s, n, n);
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
	const unsigned char *line;
	size_t len, off;
	int rc;

	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		nread += len + 1;
		if (opt->input == 'l') {
			if ((off = pskd_utf8_check(line, len)) != len)
				pskd_fail_at(r->name, r->lineno, "invalid "
				    "UTF-8 at byte %zu", off);
			count_text(line, len);
		} else {
			if (pskd_doc_parse(opt->doc, line, len) == -1)
				pskd_fail_at(r->name, r->lineno, "%s",
				    opt->doc->err);
			count_text(opt->doc->text, opt->doc->textlen);
		}
		if (show)
			progress_count();
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
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
			pskd_fail_at(r->name, r->lineno, "invalid UTF-8 at "
			    "byte %llu", (unsigned long long)(base + off -
			    linestart));
		}
		/* The character after the cut is lookahead for the pieces. */
		pos = cut ? pskd_wordcount_text(wc, pattern, p, cut + look,
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
	if (opt->input == 'r')
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

/*
 * The section of the companion spath for the ranks file now at path, to
 * keep in the new companion: 1 with it in old (no line: path has no
 * companion); 0 when there is no such file, or its companion is not for
 * it (the old pair did not go together: nothing to keep).
 */
static int
old_section(const char *path, const char *spath, struct pskd_companion *old)
{
	struct pskd_buf b = { 0 };
	char err[256];
	uint64_t h;
	int rc = 1;

	memset(old, 0, sizeof(*old));
	old->pattern = -1;
	if (pskd_slurp(path, 0, &b) == -1)
		return 0;
	h = pskd_special_hash(b.p, b.len);
	b.len = 0;
	if (pskd_slurp(spath, 1u << 30, &b) == 0)
		rc = pskd_special_parse(b.p, b.len, h, old, err, sizeof(err)) ==
		    1;
	else if (errno != ENOENT)
		rc = 0;
	pskd_buf_free(&b);
	old->hasranks = 1;
	old->ranks = h;
	return rc;
}

/* -o NAME.json: a tokenizer.json. */
static int
json_output(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return n >= 5 && strcmp(path + n - 5, ".json") == 0;
}

void
pskd_tok_train(const struct pskd_tok_opt *o, int argc, char **argv)
{
	struct pskd_output ranks, specials;
	struct pskd_writer rw, sw;
	struct pskd_bpe_vocab v;
	struct pskd_companion old;
	struct stat st;
	char *spath = NULL;
	long long dup;
	uint64_t hash = 0;
	size_t i;
	int keep;

	opt = o;
	if ((pattern = pskd_pretok_pattern(opt->encoding ? opt->encoding :
	    "cl100k_base")) == -1)
		pskd_errx(PSKD_EXIT_USAGE, "-E %s: not a BPE pattern "
		    "(r50k_base, p50k_base, cl100k_base, o200k_base)",
		    opt->encoding);
	pskd_output_writer(&ranks, &rw, opt->output, 0);
	/*
	 * FILE.special beside a file; a device or a FIFO gets no companion,
	 * nor does a tokenizer.json (which holds it all).
	 */
	if (ranks.file && !json_output(opt->output) &&
	    (stat(opt->output, &st) == -1 || S_ISREG(st.st_mode))) {
		i = strlen(opt->output) + sizeof(".special");
		spath = pskd_xmalloc(i);
		snprintf(spath, i, "%s.special", opt->output);
		pskd_output_writer(&specials, &sw, spath, 0);
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

	pskd_bpe_learn(wc, opt->ntokens, opt->minfreq, &v,
	    show ? progress_merge : NULL);
	if (show)
		pskd_progress(1, "merges: %zu / %zu", v.ntokens - 256,
		    opt->ntokens - 256);
	pskd_wordcount_free(wc);
	if (v.ntokens < opt->ntokens)
		pskd_warnx("--train: %zu tokens, not %zu: %s", v.ntokens,
		    opt->ntokens, v.stopcount > 0 ? "no pair left occurs "
		    "--min-frequency times" : "no pair left to merge");
	for (i = 0; i < opt->nspecial; i++) {
		dup = pskd_bpe_vocab_find(&v,
		    (const unsigned char *)opt->special[i],
		    strlen(opt->special[i]));
		if (dup >= 0)
			pskd_errx(PSKD_EXIT_DATA, "--special %s: already an "
			    "ordinary token (rank %lld)", opt->special[i], dup);
	}

	if (json_output(opt->output)) {
		pskd_train_write_json(&rw, &v, pattern, opt->special,
		    opt->nspecial);
	} else {
		hash = pskd_train_write_ranks(&rw, &v, opt->special,
		    opt->nspecial);
	}
	if (spath != NULL) {
		keep = old_section(opt->output, spath, &old);
		pskd_train_write_special(&sw, &v, pattern, opt->special,
		    opt->nspecial, hash, keep ? &old : NULL);
		pskd_special_free(&old);
	}
	/*
	 * Both complete before either is renamed into place; the companion
	 * first, which holds the sections of the new ranks and the old: a
	 * run stopped between the two renames leaves the old ranks with
	 * their section, one after leaves the new ones with theirs.
	 */
	if (ranks.file && pskd_writer_flush(&rw) == -1) {
		errno = rw.error;
		pskd_err(PSKD_EXIT_DATA, "%s", ranks.name);
	}
	if (spath != NULL)
		pskd_output_close(&specials, &sw);
	pskd_output_close(&ranks, &rw);
	free(spath);
	pskd_bpe_vocab_free(&v);
}
