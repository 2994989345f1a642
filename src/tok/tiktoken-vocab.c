/*
 * tiktoken-vocab.c - byte-level BPE vocabularies in tiktoken's ranks
 * format (bpe-ranks.h), encoded as tiktoken does (bpe.h): the encodings of
 * OpenAI's tiktoken (tiktoken.h), with their patterns and special tokens,
 * and the vocabularies of pskd-tok --train, whose companion file names
 * their special tokens and pattern (train-special.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "bpe.h"
#include "bpe-pretok.h"
#include "bpe-ranks.h"
#include "tiktoken.h"
#include "train-special.h"
#include "vocab.h"

struct ranks_vocab {
	struct pskd_ranks ranks;
	struct pskd_bpe	 bpe;
	int		 ready;		/* bpe initialised */
	struct pskd_companion companion;
};

static int
unknown(const char *encoding, struct pskd_error *e)
{
	pskd_error_set(e, 0, "-E %s: unknown encoding (%s or char)", encoding,
	    pskd_tiktoken_names);
	return PSKD_EXIT_USAGE;
}

static int
cannot_tell(const char *path, struct pskd_error *e)
{
	pskd_error_set(e, 0, "-v %s: cannot tell its encoding; give -E", path);
	return PSKD_EXIT_USAGE;
}

/* The ranks in p[0..n) into a new struct ranks_vocab. */
static int
parse_ranks(struct pskd_vocab *v, const char *path, const unsigned char *p,
    size_t n, struct pskd_error *e)
{
	struct ranks_vocab *rv = pskd_xcalloc(1, sizeof(*rv));
	char err[256];

	v->impl = rv;
	rv->companion.pattern = -1;
	if (pskd_ranks_parse(&rv->ranks, p, n, err, sizeof(err)) == -1) {
		pskd_error_set(e, 0, "%s%s%s", path, err[0] >= '0' &&
		    err[0] <= '9' ? ":" : ": ", err);
		return PSKD_EXIT_DATA;
	}
	if (!pskd_bpe_complete(&rv->ranks)) {
		pskd_error_set(e, 0, "%s: not a byte-level vocabulary: some "
		    "single bytes are not tokens", path);
		return PSKD_EXIT_DATA;
	}
	v->nvocab = rv->ranks.n;
	return 0;
}

/* The special tokens of an encoding; V at least its n_vocab. */
static void
encoding_specials(struct pskd_vocab *v, const struct pskd_tiktoken *t)
{
	v->special = pskd_xcalloc(t->nspecial, sizeof(*v->special));
	memcpy(v->special, t->special, t->nspecial * sizeof(*v->special));
	v->nspecial = t->nspecial;
	if (t->nvocab > v->nvocab)
		v->nvocab = t->nvocab;
}

/* A special token is no other token; V counts it. */
static int
check_specials(struct pskd_vocab *v, const char *path, struct pskd_error *e)
{
	const struct pskd_ranks *r = &((struct ranks_vocab *)v->impl)->ranks;
	const struct pskd_vocab_special *s;
	size_t i;

	for (i = 0; i < v->nspecial; i++) {
		s = &v->special[i];
		if (s->id < r->n && r->len[s->id] != 0 &&
		    (r->len[s->id] != s->len || memcmp(r->bytes +
		    r->off[s->id], s->text, s->len) != 0)) {
			pskd_error_set(e, 0, "%s: rank %u is both a token and "
			    "the special token %s", path, s->id, s->text);
			return PSKD_EXIT_DATA;
		}
		if (s->id >= v->nvocab)
			v->nvocab = (uint64_t)s->id + 1;
	}
	return 0;
}

/*
 * A vocabulary of pskd-tok --train: its special tokens and pattern from
 * the companion file c (the encoding's when it names none).
 */
static int
trained(struct pskd_vocab *v, const char *path, const char *encoding,
    const struct pskd_tiktoken *t, const struct pskd_companion *c,
    struct pskd_error *e)
{
	const struct ranks_vocab *rv = v->impl;
	size_t i;

	if (c->pattern != -1 && t != NULL && t->pattern != c->pattern) {
		pskd_error_set(e, 0, "-E %s: %s was trained with the pattern "
		    "of %s", encoding, path, pskd_pretok_name(c->pattern));
		return PSKD_EXIT_USAGE;
	}
	if (t == NULL && c->pattern != -1)
		t = pskd_tiktoken_named(pskd_pretok_name(c->pattern));
	if (t == NULL)
		t = pskd_tiktoken_of_file(path, rv->ranks.ntokens);
	v->pattern = t ? t->pattern : -1;
	if (c->n == 0) {
		/* No special token named: the encoding's, as without one. */
		if (t == NULL)
			return cannot_tell(path, e);
		encoding_specials(v, t);
		return 0;
	}
	v->special = pskd_xcalloc(c->n, sizeof(*v->special));
	for (i = 0; i < c->n; i++) {
		v->special[i].text = c->sp[i].text;
		v->special[i].len = c->sp[i].len;
		v->special[i].id = c->sp[i].rank;
	}
	v->nspecial = c->n;
	return 0;
}

/*
 * A ranks file: an encoding of tiktoken's (found by its name, or told by
 * -E, the file's name or its size), or with a companion VOCAB.special a
 * vocabulary of pskd-tok --train.
 */
static int
ranks_load(struct pskd_vocab *v, const char *path, const unsigned char *p,
    size_t n, const char *encoding, struct pskd_error *e)
{
	const struct pskd_tiktoken *t = NULL;
	struct ranks_vocab *rv;
	int rc;

	if (v->byname)
		t = pskd_tiktoken_named(v->name);
	else if (encoding != NULL && (t = pskd_tiktoken_named(encoding)) ==
	    NULL)
		return unknown(encoding, e);
	if ((rc = parse_ranks(v, path, p, n, e)) != 0)
		return rc;
	rv = v->impl;
	if (!v->byname && (rc = pskd_special_load(path, p, n,
	    &rv->companion, e)) != 0) {
		if (rc < 0)
			return PSKD_EXIT_DATA;
		v->kind = &pskd_vocab_trained;
		if ((rc = trained(v, path, encoding, t, &rv->companion, e)) !=
		    0)
			return rc;
		return check_specials(v, path, e);
	}
	if (t == NULL && (t = pskd_tiktoken_of_file(path,
	    rv->ranks.ntokens)) == NULL)
		return cannot_tell(path, e);
	v->pattern = t->pattern;
	encoding_specials(v, t);
	return check_specials(v, path, e);
}

static int
ranks_ready(struct pskd_vocab *v, struct pskd_error *e)
{
	struct ranks_vocab *rv = v->impl;

	if (v->pattern == -1)
		return cannot_tell(v->name, e);
	if (!rv->ready) {
		pskd_bpe_init(&rv->bpe, &rv->ranks, v->pattern);
		rv->ready = 1;
	}
	return 0;
}

static int
ranks_ordinary(struct pskd_vocab *v, const unsigned char *s, size_t n,
    struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	struct ranks_vocab *rv = v->impl;

	(void)bad;
	(void)badcp;
	pskd_bpe_encode(&rv->bpe, s, n, out);
	return 0;
}

static int
ranks_encode(struct pskd_vocab *v, const unsigned char *s, size_t n,
    int allow, struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	return pskd_vocab_encode_split(v, s, n, allow, out, bad, badcp,
	    ranks_ordinary);
}

static int
ranks_decode(struct pskd_vocab *v, const uint32_t *ids, size_t n, int flags,
    struct pskd_buf *out, size_t *bad)
{
	const struct pskd_ranks *r = &((struct ranks_vocab *)v->impl)->ranks;
	size_t i;

	(void)flags;
	for (i = 0; i < n; i++) {
		if (ids[i] >= r->n || r->len[ids[i]] == 0) {
			*bad = i;
			return -1;
		}
		pskd_buf_add(out, r->bytes + r->off[ids[i]], r->len[ids[i]]);
	}
	return 0;
}

static uint32_t
ranks_token(const struct pskd_vocab *v, const unsigned char *t, size_t n)
{
	return pskd_ranks_find(&((struct ranks_vocab *)v->impl)->ranks, t, n);
}

static size_t
ranks_cut(const struct pskd_vocab *v, const unsigned char *s, size_t n)
{
	return pskd_vocab_cut_pattern(v, v->pattern, s, n);
}

static void
ranks_free(struct pskd_vocab *v)
{
	struct ranks_vocab *rv = v->impl;

	if (rv->ready)
		pskd_bpe_free(&rv->bpe);
	pskd_ranks_free(&rv->ranks);
	pskd_special_free(&rv->companion);
	free(v->special);
	free(rv);
}

/* Both loaded by ranks_load: trained when the file has a companion. */
#define RANKS_KIND \
	.sniff = NULL, .load = ranks_load, .ready = ranks_ready, \
	.encode = ranks_encode, .decode = ranks_decode, .token = ranks_token, \
	.cut = ranks_cut, .free = ranks_free

const struct pskd_vocab_kind pskd_vocab_tiktoken = {
	.name = "tiktoken", RANKS_KIND
};

const struct pskd_vocab_kind pskd_vocab_trained = {
	.name = "trained", RANKS_KIND
};
