/*
 * mode-decode.c - pskd-tok -d: ids back to text.  A token stream (idx[V], one
 * token a sample) is one text, written exactly as the tokens' bytes; any
 * other type whose leaves are all idx[V] (windows, batches) is read row by
 * row, a row being the last dimension of a leaf, each decoded on its own
 * and ended with a newline; the segment ids of pskd-window --segments (a
 * leaf whose last dimension is named seg) are not tokens, and are left
 * out.  Special tokens are written as their text, and the text between
 * two of them is decoded as one (a kind's decoder may treat the start of
 * a text specially).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tiktoken.h"
#include "tok.h"
#include "vocab.h"

static struct pskd_vocab voc;
static const char *inname;
static unsigned char *isspecial;	/* a bit per id up to the largest */
static uint64_t nspecialbits;
static struct pskd_buf text;
static uint32_t *row;
static size_t rowcap;

static void
mark_specials(void)
{
	size_t i;

	for (i = 0; i < voc.nspecial; i++)
		if (!voc.special[i].inner && voc.special[i].id >= nspecialbits)
			nspecialbits = (uint64_t)voc.special[i].id + 1;
	isspecial = pskd_xcalloc((size_t)(nspecialbits + 7) / 8, 1);
	for (i = 0; i < voc.nspecial; i++)
		if (!voc.special[i].inner)
			isspecial[voc.special[i].id >> 3] |=
			    (unsigned char)(1u << (voc.special[i].id & 7));
}

static inline int
special(uint32_t id)
{
	return id < nspecialbits && (isspecial[id >> 3] >> (id & 7) & 1);
}

/* A run of ordinary ids through the kind's decoder into text. */
static void
run(const uint32_t *ids, size_t n, uint64_t k, unsigned step, int flags)
{
	size_t bad;

	if (n > 0 && voc.kind->decode(&voc, ids, n, flags, &text, &bad) == -1)
		pskd_fail_at(inname, 0, "E%d: sample %llu: %llu is not a "
		    "token of %s", PSKD_E_VALUE,
		    (unsigned long long)(k + bad * step),
		    (unsigned long long)ids[bad], voc.name);
}

static void
special_text(uint32_t id)
{
	const struct pskd_vocab_special *sp;
	size_t i;

	/* The special one (an inner one may share its id). */
	for (i = 0, sp = NULL; i < voc.nspecial; i++)
		if (voc.special[i].id == id && !voc.special[i].inner)
			sp = &voc.special[i];

	pskd_buf_add(&text, sp->text, sp->len);
}

/*
 * A token stream: the ordinary ids since the last special token wait in
 * pending until the next special token or the end says where their text
 * ends (a decoder may treat its end specially), up to PENDING_MAX of them.
 */
#define PENDING_MAX	(1u << 20)

static uint32_t *pending;
static size_t npending, cappending;
static uint64_t pending_at;		/* the sample of pending[0] */
static int pending_first = PSKD_DEC_FIRST;

static void
flush_pending(int last)
{
	run(pending, npending, pending_at, 1, pending_first |
	    (last ? PSKD_DEC_LAST : 0));
	pending_at += npending;
	npending = 0;
	pending_first = last ? PSKD_DEC_FIRST : 0;
}

/* A token stream: n samples of one id each, at p, from sample k. */
static void
stream_chunk(const struct pskd_leaf *l, const unsigned char *p, size_t n,
    uint64_t k)
{
	uint64_t id;
	size_t i;

	for (i = 0; i < n; i++) {
		id = pskd_leaf_idx(l, p + i * l->width, 0);
		if (id > UINT32_MAX)
			pskd_fail_at(inname, 0, "E%d: sample %llu: %llu is "
			    "not a token of %s", PSKD_E_VALUE,
			    (unsigned long long)(k + i),
			    (unsigned long long)id, voc.name);
		if (special((uint32_t)id)) {
			flush_pending(1);
			special_text((uint32_t)id);
			pending_at = k + i + 1;
			continue;
		}
		if (npending == cappending) {
			cappending = cappending ? cappending * 2 : 65536;
			pending = pskd_xreallocarray(pending, cappending,
			    sizeof(*pending));
		}
		if (npending == 0)
			pending_at = k + i;
		pending[npending++] = (uint32_t)id;
		if (npending == PENDING_MAX)
			flush_pending(0);
	}
}

static uint32_t *
row_room(size_t n)
{
	if (n > rowcap) {
		rowcap = n;
		row = pskd_xreallocarray(row, rowcap, sizeof(*row));
	}
	return row;
}

/* A row of sample k: its runs and special tokens, one text. */
static void
decode_row(const uint32_t *ids, size_t n, uint64_t k)
{
	size_t i = 0, j;

	while (i < n) {
		for (j = i; j < n && !special(ids[j]); j++)
			;
		run(ids + i, j - i, k, 0, PSKD_DEC_FIRST | PSKD_DEC_LAST);
		if (j == n)
			break;
		special_text(ids[j]);
		i = j + 1;
	}
}

/* The segment ids of pskd-window --segments: not tokens. */
static int
segment_leaf(const struct pskd_leaf *l)
{
	return !l->real && l->ndim > 0 && l->dimname[l->ndim - 1] != NULL &&
	    strcmp(l->dimname[l->ndim - 1], "seg") == 0;
}

/* Sample k of another type: each row of each leaf a line. */
static void
sample_rows(const struct pskd_type *t, const unsigned char *s, uint64_t k)
{
	const struct pskd_leaf *l;
	uint64_t id, e, len;
	uint32_t *ids;
	size_t i, j;

	for (i = 0; i < t->nleaves; i++) {
		l = &t->leaves[i];
		if (segment_leaf(l))
			continue;
		len = l->ndim ? l->dim[l->ndim - 1] : 1;
		ids = row_room((size_t)len);
		for (e = 0; e < l->nelem; e += len) {
			for (j = 0; j < len; j++) {
				id = pskd_leaf_idx(l, s, e + j);
				ids[j] = id > UINT32_MAX ? UINT32_MAX :
				    (uint32_t)id;
			}
			decode_row(ids, (size_t)len, k);
			pskd_buf_addc(&text, '\n');
		}
	}
}

/* All leaves idx[V], one V: that V, or 0. */
static uint64_t
token_bound(const struct pskd_type *t)
{
	size_t i;

	if (t->params || t->nleaves == 0)
		return 0;
	for (i = 0; i < t->nleaves; i++)
		if (t->leaves[i].real || (t->leaves[i].bound !=
		    t->leaves[0].bound && !(i > 0 &&
		    segment_leaf(&t->leaves[i]))))
			return 0;
	return t->leaves[0].bound;
}

void
pskd_tok_decode(const struct pskd_tok_opt *opt, int argc, char **argv)
{
	struct pskd_output out;
	struct pskd_reader r;
	struct pskd_header h;
	struct pskd_error e;
	struct pskd_writer w;
	const struct pskd_leaf *l;
	const char *encoding = opt->encoding;
	const unsigned char *p;
	uint64_t k = 0, bound;
	size_t i, n, ss;
	const struct pskd_tiktoken *t;
	ssize_t got;
	int stream, rc;

	if (argc > 1)
		pskd_usage_error(NULL);
	if (pskd_reader_open(&r, argc ? argv[0] : NULL) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", argv[0]);
	inname = r.name;
	if (pskd_header_read(&h, &r, &e) == -1)
		pskd_fail_at(r.name, 0, "%s", e.msg);
	if ((bound = token_bound(&h.type)) == 0)
		pskd_fail_at(r.name, 0, "E%d: not tokens: type %s, not idx[V] "
		    "leaves", PSKD_E_MISMATCH, h.type.text);
	l = h.type.leaves;
	stream = h.type.nleaves == 1 && l->ndim == 0;
	if (encoding == NULL && opt->vocab == NULL &&
	    (t = pskd_tiktoken_of_size(bound)) != NULL)
		encoding = t->name;
	if ((rc = pskd_vocab_open(&voc, encoding, opt->vocab, &e)) != 0)
		pskd_errx(rc, "%s", e.msg);
	if (bound != voc.nvocab)
		pskd_fail_at(r.name, 0, "E%d: type %s is not idx[%llu] of %s",
		    PSKD_E_MISMATCH, h.type.text,
		    (unsigned long long)voc.nvocab, voc.name);
	mark_specials();
	ss = h.type.sample_size;
	pskd_output_writer(&out, &w, opt->output, 0);
	for (;;) {
		if ((got = pskd_reader_peek(&r, PSKD_BUFSIZE, &p)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r.name);
		if (got == 0)
			break;
		n = (size_t)got / ss;
		if (n == 0)
			pskd_fail_at(r.name, 0, "E%d: truncated at sample %llu",
			    PSKD_E_TRUNC, (unsigned long long)k);
		if (h.count != PSKD_COUNT_STREAM && k + n > h.count)
			pskd_fail_at(r.name, 0, "E%d: data after the last of "
			    "%llu samples", PSKD_E_MAGIC,
			    (unsigned long long)h.count);
		text.len = 0;
		if (stream)
			stream_chunk(l, p, n, k);
		else
			for (i = 0; i < n; i++)
				sample_rows(&h.type, p + i * ss, k + i);
		pskd_writer_write(&w, text.p, text.len);
		k += n;
		pskd_reader_skip(&r, n * ss);
	}
	if (h.count != PSKD_COUNT_STREAM && k < h.count)
		pskd_fail_at(r.name, 0, "E%d: truncated at sample %llu (%llu "
		    "samples declared)", PSKD_E_TRUNC, (unsigned long long)k,
		    (unsigned long long)h.count);
	if (stream) {
		text.len = 0;
		flush_pending(1);
		pskd_writer_write(&w, text.p, text.len);
	}
	pskd_output_close(&out, &w);
	pskd_reader_close(&r);
	pskd_header_free(&h);
}
