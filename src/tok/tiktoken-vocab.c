/*
 * vocab-ranks.c - byte-level BPE vocabularies in tiktoken's ranks format
 * (ranks.h), encoded as tiktoken does (bpe.h): the encodings of OpenAI's
 * tiktoken, with their patterns and special tokens, and the vocabularies
 * of pskd-tok --train, whose companion file names their special tokens
 * and pattern (trainspecial.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "bpe.h"
#include "bpe-pretok.h"
#include "bpe-ranks.h"
#include "train-special.h"
#include "vocab.h"

/* The tiktoken encodings: pattern, special tokens, the vocabulary size. */
static const struct encoding {
	const char	*name;
	int		 pattern;
	uint32_t	 nranks;	/* tokens in the ranks file */
	uint32_t	 nvocab;	/* V, tiktoken's n_vocab */
	struct pskd_vocab_special special[5];
} encodings[] = {
	{ "r50k_base", PSKD_PAT_R50K, 50256, 50257,
	    { { "<|endoftext|>", 13, 50256, 0 } } },
	{ "p50k_base", PSKD_PAT_R50K, 50280, 50281,
	    { { "<|endoftext|>", 13, 50256, 0 } } },
	{ "cl100k_base", PSKD_PAT_CL100K, 100256, 100277,
	    { { "<|endoftext|>", 13, 100257, 0 },
	    { "<|fim_prefix|>", 14, 100258, 0 },
	    { "<|fim_middle|>", 14, 100259, 0 },
	    { "<|fim_suffix|>", 14, 100260, 0 },
	    { "<|endofprompt|>", 15, 100276, 0 } } },
	{ "o200k_base", PSKD_PAT_O200K, 199998, 200019,
	    { { "<|endoftext|>", 13, 199999, 0 },
	    { "<|endofprompt|>", 15, 200018, 0 } } },
};
#define NENC	(sizeof(encodings) / sizeof(encodings[0]))

struct ranks_vocab {
	struct pskd_ranks ranks;
	struct pskd_bpe	 bpe;
	int		 ready;		/* bpe initialised */
};

static const struct encoding *
encoding_named(const char *name)
{
	size_t i;

	if (strcmp(name, "gpt2") == 0)
		name = "r50k_base";
	for (i = 0; i < NENC; i++)
		if (strcmp(encodings[i].name, name) == 0)
			return &encodings[i];
	return NULL;
}

int
pskd_vocab_is_encoding(const char *name)
{
	return encoding_named(name) != NULL;
}

const char *
pskd_vocab_guess(uint64_t nvocab)
{
	const char *name = NULL;
	size_t i;

	for (i = 0; i < NENC; i++)
		if (encodings[i].nvocab == nvocab)
			name = encodings[i].name;
	return name;
}

/* Which encoding a ranks file is for, from its name or its size. */
static const struct encoding *
guess_encoding(const char *path, uint32_t ntokens)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base ? base + 1 : path;
	for (i = 0; i < NENC; i++) {
		n = strlen(encodings[i].name);
		if (strncmp(base, encodings[i].name, n) == 0 &&
		    (base[n] == '\0' || base[n] == '.'))
			return &encodings[i];
	}
	for (i = 0; i < NENC; i++)
		if (encodings[i].nranks == ntokens)
			return &encodings[i];
	return NULL;
}

/* -E: an encoding, or NULL when none given; exit 2 for an unknown one. */
static const struct encoding *
encoding_opt(const char *encoding)
{
	const struct encoding *enc = NULL;

	if (encoding != NULL && (enc = encoding_named(encoding)) == NULL)
		pskd_errx(PSKD_EXIT_USAGE, "-E %s: unknown encoding "
		    "(r50k_base, p50k_base, cl100k_base, o200k_base or char)",
		    encoding);
	return enc;
}

/* The ranks file path into a new struct ranks_vocab; exit if it is bad. */
static struct ranks_vocab *
load_ranks(struct pskd_vocab *v, const char *path)
{
	struct ranks_vocab *rv = pskd_xcalloc(1, sizeof(*rv));
	char err[256];

	if (pskd_ranks_load(&rv->ranks, path, err, sizeof(err)) == -1) {
		if (err[0] >= '0' && err[0] <= '9')
			pskd_errx(PSKD_EXIT_DATA, "%s:%s", path, err);
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", path, err);
	}
	if (!pskd_bpe_complete(&rv->ranks))
		pskd_errx(PSKD_EXIT_DATA, "%s: not a byte-level vocabulary: "
		    "some single bytes are not tokens", path);
	v->impl = rv;
	v->nvocab = rv->ranks.n;
	return rv;
}

/* The special tokens of an encoding; V at least its n_vocab. */
static void
encoding_specials(struct pskd_vocab *v, const struct encoding *enc)
{
	size_t n;

	for (n = 0; n < 5 && enc->special[n].text != NULL; n++)
		;
	v->special = pskd_xcalloc(n, sizeof(*v->special));
	memcpy(v->special, enc->special, n * sizeof(*v->special));
	v->nspecial = n;
	if (enc->nvocab > v->nvocab)
		v->nvocab = enc->nvocab;
}

/* A special token is no other token; V counts it. */
static void
check_specials(struct pskd_vocab *v, const char *path)
{
	const struct pskd_ranks *r = &((struct ranks_vocab *)v->impl)->ranks;
	const struct pskd_vocab_special *s;
	size_t i;

	for (i = 0; i < v->nspecial; i++) {
		s = &v->special[i];
		if (s->id < r->n && r->len[s->id] != 0 &&
		    (r->len[s->id] != s->len || memcmp(r->bytes +
		    r->off[s->id], s->text, s->len) != 0))
			pskd_errx(PSKD_EXIT_DATA, "%s: rank %u is both a token "
			    "and the special token %s", path, s->id, s->text);
		if (s->id >= v->nvocab)
			v->nvocab = (uint64_t)s->id + 1;
	}
}

static void
tiktoken_load(struct pskd_vocab *v, const char *path, const char *encoding)
{
	const struct encoding *enc = encoding_opt(encoding);
	struct ranks_vocab *rv;
	char *found = NULL, *tried;

	if (path == NULL && enc == NULL)
		enc = encoding_named("cl100k_base");
	if (path == NULL) {
		if ((found = pskd_data_find(enc->name, ".tiktoken", &tried)) ==
		    NULL)
			pskd_errx(PSKD_EXIT_DATA, "%s.tiktoken: not found in "
			    "%s (give -v FILE, or run make deps)", enc->name,
			    tried);
		free(tried);
		path = found;
	}
	v->name = found ? enc->name : path;
	rv = load_ranks(v, path);
	if (enc == NULL && (enc = guess_encoding(path,
	    rv->ranks.ntokens)) == NULL)
		pskd_errx(PSKD_EXIT_USAGE, "-v %s: cannot tell its encoding; "
		    "give -E", path);
	v->pattern = enc->pattern;
	encoding_specials(v, enc);
	check_specials(v, path);
}

static void
trained_load(struct pskd_vocab *v, const char *path, const char *encoding)
{
	const struct encoding *enc = encoding_opt(encoding);
	struct pskd_companion c;
	struct ranks_vocab *rv;
	size_t i;

	v->name = path;
	rv = load_ranks(v, path);
	pskd_special_load(path, &c);
	if (c.pattern != -1 && enc != NULL && enc->pattern != c.pattern)
		pskd_errx(PSKD_EXIT_USAGE, "-E %s: %s was trained with the "
		    "pattern of %s", encoding, path,
		    pskd_pretok_name(c.pattern));
	if (enc == NULL && c.pattern != -1)
		enc = encoding_named(pskd_pretok_name(c.pattern));
	if (enc == NULL)
		enc = guess_encoding(path, rv->ranks.ntokens);
	v->pattern = enc ? enc->pattern : -1;
	if (c.n == 0) {
		/* No special token named: the encoding's, as without one. */
		if (enc == NULL)
			pskd_errx(PSKD_EXIT_USAGE, "-v %s: cannot tell its "
			    "encoding; give -E", path);
		encoding_specials(v, enc);
	} else {
		v->special = pskd_xcalloc(c.n, sizeof(*v->special));
		for (i = 0; i < c.n; i++) {
			v->special[i].text = c.sp[i].text;
			v->special[i].len = c.sp[i].len;
			v->special[i].id = c.sp[i].rank;
		}
		v->nspecial = c.n;
	}
	check_specials(v, path);
}

/* A ranks file with a companion VOCAB.special is a trained vocabulary. */
static int
trained_sniff(const char *path, const unsigned char *head, size_t n)
{
	char *sp;
	size_t k = strlen(path) + sizeof(".special");
	int yes;

	(void)head;
	(void)n;
	sp = pskd_xmalloc(k);
	snprintf(sp, k, "%s.special", path);
	yes = access(sp, F_OK) == 0;
	free(sp);
	return yes;
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
	struct ranks_vocab *rv = v->impl;

	if (!rv->ready) {
		if (v->pattern == -1)
			pskd_errx(PSKD_EXIT_USAGE, "-v %s: cannot tell its "
			    "encoding; give -E", v->name);
		pskd_bpe_init(&rv->bpe, &rv->ranks, v->pattern);
		rv->ready = 1;
	}
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

const struct pskd_vocab_kind pskd_vocab_trained = {
	.name = "trained",
	.sniff = trained_sniff,
	.load = trained_load,
	.encode = ranks_encode,
	.decode = ranks_decode,
	.token = ranks_token,
};

const struct pskd_vocab_kind pskd_vocab_tiktoken = {
	.name = "tiktoken",
	.sniff = NULL,
	.load = tiktoken_load,
	.encode = ranks_encode,
	.decode = ranks_decode,
	.token = ranks_token,
};
