/*
 * hf-load.c - read a tokenizer.json (hf.h): the walk over the whole file,
 * which hands each part to its reader (hf-load-pipeline.c,
 * hf-load-model.c), what the readers share (hf-load.h), and what is
 * worked out once all is read: the ids of the added tokens, the unk and
 * byte-fallback tokens, where words may be cut (hf-cuts.c).  The model
 * is BPE only: vocab, merges as "a b" strings or ["a", "b"] pairs,
 * unk_token, fuse_unk, byte_fallback, ignore_merges,
 * continuing_subword_prefix, end_of_word_suffix.  Anything else a file
 * asks for is refused with the place it is asked for, so no file is
 * encoded otherwise than HF tokenizers would.
 *
 * The vocabulary and the merges are read in a second walk, once the
 * pre-tokenizer says whether the tokens are in the ByteLevel alphabet
 * (then they are kept as the bytes they stand for).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "pskd.h"
#include "hf.h"
#include "hf-json.h"
#include "hf-load.h"

_Noreturn void
ld_die(struct ld *l, const char *why)
{
	uint64_t line;
	size_t col;

	pskd_jscan_fail(&l->j, why);
	pskd_jscan_where(&l->j, &line, &col);
	snprintf(l->err, l->errsize, "%llu: %s", (unsigned long long)line,
	    l->j.err);
	longjmp(l->fail, 1);
}

/* A second walk from p, its lines counted from the file's start. */
void
ld_walk_from(struct ld *l, const unsigned char *p)
{
	const unsigned char *end = l->j.end;

	pskd_jscan_init(&l->j, p, (size_t)(end - p));
	l->j.start = l->start;
}

_Noreturn void
ld_unsupported(struct ld *l, const char *what, const char *type)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s %s is not supported", what, type);
	/* ld_die() keeps the first error: this one. */
	ld_die(l, pskd_xstrdup(msg));
}

uint64_t
ld_line(struct ld *l)
{
	const unsigned char *p = l->j.p, *nl;

	if (l->lineat == NULL || p < l->lineat) {
		l->lineat = l->start;
		l->line = 1;
	}
	while ((nl = memchr(l->lineat, '\n', (size_t)(p - l->lineat))) !=
	    NULL) {
		l->line++;
		l->lineat = nl + 1;
	}
	return l->line;
}

void
ld_check(struct ld *l)
{
	if (l->j.err != NULL)
		ld_die(l, l->j.err);
}

char *
ld_string(struct ld *l, size_t *len)
{
	if (!pskd_jscan_string(&l->j, &l->s))
		ld_die(l, "expected a string");
	if (len != NULL)
		*len = l->s.len;
	return pskd_xstrndup((const char *)l->s.p, l->s.len);
}

int
ld_boolean(struct ld *l)
{
	int v;

	if (!pskd_jscan_bool(&l->j, &v))
		ld_die(l, "expected true or false");
	return v;
}

int64_t
ld_integer(struct ld *l, int64_t min, int64_t max)
{
	int64_t v;

	if (!pskd_jscan_int(&l->j, min, max, &v))
		ld_die(l, l->j.err ? l->j.err : "expected a number");
	return v;
}

int
ld_key_is(const struct ld *l, const char *name)
{
	return strcmp((const char *)l->key.p, name) == 0;
}

/* The "type" member, which files put first; NULL for null. */
char *
ld_type_of(struct ld *l)
{
	if (!pskd_jscan_member(&l->j, &l->key) || !ld_key_is(l, "type"))
		ld_die(l, "expected \"type\" first");
	return ld_string(l, NULL);
}

/* ---- the whole file ---------------------------------------------------- */

int
pskd_hf_sniff(const unsigned char *head, size_t n)
{
	size_t i = 0;

	if (n >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && (head[i] == ' ' || head[i] == '\n' ||
	    head[i] == '\r' || head[i] == '\t'))
		i++;
	return i < n && head[i] == '{';
}

/* Prefix and suffix as the vocabulary keeps its tokens. */
static void
affix(const struct pskd_hf *hf, char **s, size_t *n)
{
	struct pskd_buf b = { 0 };

	if (*s == NULL || *n == 0) {
		*n = 0;
		return;
	}
	ld_as_stored(hf, (const unsigned char *)*s, *n, &b);
	free(*s);
	*s = (char *)b.p;
	*n = b.len;
}

void
ld_settle(struct ld *l, struct pskd_hf *hf)
{
	size_t i;

	if (l->settled)
		return;
	l->settled = 1;
	for (i = 0; i < hf->npre; i++)
		if (hf->pre[i].type == HF_P_BYTELEVEL)
			hf->bytelevel = 1;
	if (hf->bytelevel && (hf->prefixlen > 0 || hf->suffixlen > 0))
		ld_die(l, "a ByteLevel pre-tokenizer with a "
		    "continuing_subword_prefix or end_of_word_suffix is not "
		    "supported");
	affix(hf, &hf->prefix, &hf->prefixlen);
	affix(hf, &hf->suffix, &hf->suffixlen);
}

/* 1 when two added tokens have the same text (a table of their hashes:
   Gemma 3 has 6415 of them). */
static int
added_twice(const struct pskd_hf *hf)
{
	const struct pskd_hf_added *a, *b;
	size_t size, mask, i, h, *slot;
	int twice = 0;

	for (size = 16; size < hf->nadded * 2; size *= 2)
		;
	mask = size - 1;
	slot = pskd_xcalloc(size, sizeof(*slot));	/* index + 1 */
	for (i = 0; i < hf->nadded && !twice; i++) {
		a = &hf->added[i];
		for (h = (size_t)XXH3_64bits(a->text, a->len) & mask;
		    slot[h] != 0; h = (h + 1) & mask) {
			b = &hf->added[slot[h] - 1];
			if (b->len == a->len && memcmp(b->text, a->text,
			    a->len) == 0) {
				twice = 1;
				break;
			}
		}
		slot[h] = i + 1;
	}
	free(slot);
	return twice;
}

/*
 * The ids of the added tokens, as HF gives them when it loads a file (the
 * file's own are not read back): a text added before keeps its id (the
 * later entry replaces the earlier, which is dropped); a token of the
 * model has its id; any other takes the next after the vocab's size.
 */
static void
added_ids(struct pskd_hf *hf)
{
	struct pskd_buf tok = { 0 };
	struct pskd_hf_added *a;
	uint32_t next = hf->vocab.ntokens, id;
	size_t i, j, k = 0;
	int twice = added_twice(hf);

	for (i = 0; i < hf->nadded; i++) {
		a = &hf->added[i];
		for (j = twice ? 0 : k; j < k; j++)
			if (hf->added[j].len == a->len &&
			    memcmp(hf->added[j].text, a->text, a->len) == 0)
				break;
		if (j < k) {
			id = hf->added[j].id;
			free(hf->added[j].text);
			memmove(&hf->added[j], &hf->added[j + 1],
			    (k - j - 1) * sizeof(*a));
			k--;
		} else {
			ld_as_stored(hf, (const unsigned char *)a->text, a->len,
			    &tok);
			id = pskd_ranks_find(&hf->vocab, tok.p, tok.len);
			if (id == PSKD_RANK_NONE)
				id = next++;
		}
		hf->added[k] = *a;
		hf->added[k++].id = id;
	}
	hf->nadded = k;
	pskd_buf_free(&tok);
}

void
pskd_hf_free(struct pskd_hf *hf)
{
	size_t i;

	pskd_ranks_free(&hf->vocab);
	pskd_hf_merges_free(&hf->merges);
	free(hf->splits.msplit);
	free(hf->splits.pairmerge);
	free(hf->mstart);
	free(hf->mleft);
	free(hf->mrank);
	free(hf->prefix);
	free(hf->suffix);
	for (i = 0; i < hf->nnorm; i++) {
		free(hf->norm[i].a);
		free(hf->norm[i].b);
		pskd_hf_regex_free(hf->norm[i].re);
	}
	free(hf->norm);
	for (i = 0; i < hf->npre; i++)
		pskd_hf_regex_free(hf->pre[i].re);
	free(hf->pre);
	for (i = 0; i < hf->ndec; i++) {
		free(hf->dec[i].a);
		free(hf->dec[i].b);
	}
	free(hf->dec);
	for (i = 0; i < hf->nadded; i++)
		free(hf->added[i].text);
	free(hf->added);
	free(hf->bos);
	free(hf->eos);
	memset(hf, 0, sizeof(*hf));
}

/* A compiled file's tables where the vocab and merges would be read. */
static void
install(struct ld *l, struct pskd_hf *hf, struct ld_tables *t)
{
	if (t->bytelevel != hf->bytelevel)
		ld_die(l, "a compiled tokenizer whose tables are not of its "
		    "pre-tokenizer");
	hf->vocab = t->vocab;
	hf->mstart = t->mstart;
	hf->mleft = t->mleft;
	hf->mrank = t->mrank;
	hf->merges = t->merges;
	hf->apart = t->apart;
	hf->splits = t->splits;
	memset(&t->splits, 0, sizeof(t->splits));
	memset(&t->vocab, 0, sizeof(t->vocab));
	memset(&t->merges, 0, sizeof(t->merges));
	t->mstart = t->mleft = t->mrank = NULL;
}

int
pskd_hf_parse(struct pskd_hf *hf, const unsigned char *p, size_t n,
    char *err, size_t errsize)
{
	return ld_parse(hf, p, n, NULL, err, errsize);
}

int
ld_parse(struct pskd_hf *hf, const unsigned char *p, size_t n,
    struct ld_tables *t, char *err, size_t errsize)
{
	static struct ld l;	/* static: longjmp keeps nothing in registers */
	char name[8];
	size_t i;
	unsigned b;

	memset(hf, 0, sizeof(*hf));
	memset(&l, 0, sizeof(l));
	l.start = p;
	l.err = err;
	l.errsize = errsize;
	if (setjmp(l.fail) != 0) {
		pskd_buf_free(&l.s);
		pskd_buf_free(&l.key);
		free(l.mlist);
		return -1;
	}
	l.direct = t == NULL;
	l.back = pskd_hf_char_bytes();
	pskd_jscan_init(&l.j, p, n);
	if (!pskd_jscan_object(&l.j))
		ld_die(&l, "not a tokenizer.json: expected an object");
	while (pskd_jscan_member(&l.j, &l.key)) {
		if (ld_key_is(&l, "model"))
			ld_model(&l, hf, &l.unk);
		else if (ld_key_is(&l, "added_tokens"))
			ld_added_tokens(&l, hf);
		else if (ld_key_is(&l, "normalizer"))
			ld_normalizer(&l, hf);
		else if (ld_key_is(&l, "pre_tokenizer")) {
			if (l.pre_seen)
				ld_die(&l, "the pre_tokenizer given twice");
			ld_pretokenizer(&l, hf);
			l.pre_seen = 1;
		} else if (ld_key_is(&l, "post_processor"))
			ld_post_processor(&l, hf);
		else if (ld_key_is(&l, "decoder"))
			ld_decoder(&l, hf);
		else if (ld_key_is(&l, "truncation") ||
		    ld_key_is(&l, "padding")) {
			if (!pskd_jscan_null(&l.j))
				ld_die(&l, "truncation and padding are not "
				    "supported (set them to null)");
		} else if (!pskd_jscan_skip(&l.j))
			break;
	}
	ld_check(&l);
	pskd_jscan_end(&l.j);
	ld_check(&l);
	if (!l.model_seen)
		ld_die(&l, "not a tokenizer.json: no model");
	ld_settle(&l, hf);
	hf->vocabat = (size_t)(l.vocab - p);
	hf->vocablen = l.vocablen;
	hf->mergesat = (size_t)(l.merges - p);
	hf->mergeslen = l.mergeslen;
	if (t != NULL)
		install(&l, hf, t);
	else {
		if (!l.vocab_read)
			ld_vocab(&l, hf);
		if (!l.merges_read)
			ld_merges(&l, hf);
	}
	hf->unk = PSKD_RANK_NONE;
	if (l.unk != NULL && (hf->unk = pskd_ranks_find(&hf->vocab, l.unk,
	    strlen(l.unk))) == PSKD_RANK_NONE)
		ld_die(&l, "the unk_token is not in the vocab");
	free(l.unk);
	for (b = 0; b < 256; b++) {
		snprintf(name, sizeof(name), "<0x%02X>", b);
		hf->fallback[b] = hf->byte_fallback ?
		    pskd_ranks_find(&hf->vocab, name, 6) : PSKD_RANK_NONE;
	}
	added_ids(hf);
	hf->nvocab = hf->vocab.n;
	for (i = 0; i < hf->nadded; i++) {
		if (hf->added[i].id >= hf->nvocab)
			hf->nvocab = (uint64_t)hf->added[i].id + 1;
		if (hf->added[i].normalized)
			hf->anynormalized++;
	}
	/*
	 * Without a normalizer the normalized text is the text: when all
	 * added tokens are normalized (GPT-2's), matching them on the text
	 * is the same, and the fast way stays open.
	 */
	if (hf->nnorm == 0 && hf->anynormalized == (int)hf->nadded) {
		for (i = 0; i < hf->nadded; i++)
			hf->added[i].normalized = 0;
		hf->anynormalized = 0;
	}
	for (b = 0; b < PSKD_HF_CHARS; b++) {
		unsigned char u[4];

		hf->charid[b] = pskd_ranks_find(&hf->vocab, u,
		    pskd_utf8_encode(b, u));
	}
	hf->metaid = pskd_ranks_find(&hf->vocab,
	    (const unsigned char *)PSKD_HF_BAR, PSKD_HF_BARLEN);
	if (t == NULL)
		ld_cuts(hf, l.mlist, l.nmlist);
	else
		hf->cut = t->cut;
	free(l.mlist);
	pskd_buf_free(&l.s);
	pskd_buf_free(&l.key);
	return 0;
}
