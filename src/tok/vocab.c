/*
 * vocab.c - which kind of vocabulary a file is, where a named one is
 * installed, its file read once, and what every kind shares: special
 * tokens by text, where a text may be cut.
 */
#define _GNU_SOURCE		/* memmem */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "tiktoken.h"
#include "hf.h"
#include "vocab.h"

/* Tried in this order on a -v file; the last takes any file. */
static const struct pskd_vocab_kind *const kinds[] = {
	&pskd_vocab_char,
	&pskd_vocab_hf,
	&pskd_vocab_tiktoken,
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* The whole of path into b: 0, or PSKD_EXIT_DATA with e set. */
static int
slurp(const char *path, struct pskd_whole *b, struct pskd_error *e)
{
	/* "-" is a file of that name here, not the standard input. */
	if (pskd_whole_open(b, strcmp(path, "-") == 0 ? "./-" : path,
	    PSKD_VOCAB_MAXFILE) == 0)
		return 0;
	if (errno == EFBIG)
		pskd_error_set(e, 0, "%s: larger than 4 GiB", path);
	else
		pskd_error_set(e, 0, "%s: %s", path, strerror(errno));
	return PSKD_EXIT_DATA;
}

/*
 * Without -v, the file of -E (or cl100k_base): a tiktoken encoding's ranks
 * or an installed tokenizer.json, found by name; into path.
 */
static int
find(struct pskd_vocab *v, const char *encoding, char **path,
    struct pskd_error *e)
{
	const struct pskd_tiktoken *t;
	char *tried;

	if (encoding == NULL)
		encoding = "cl100k_base";
	if ((t = pskd_tiktoken_named(encoding)) != NULL) {
		v->kind = &pskd_vocab_tiktoken;
		v->name = t->name;
		v->byname = 1;
		if ((*path = pskd_data_find(t->name, ".tiktoken", &tried)) ==
		    NULL) {
			pskd_error_set(e, 0, "%s.tiktoken: not found in %s "
			    "(give -v FILE, or run make deps)", t->name, tried);
			free(tried);
			return PSKD_EXIT_DATA;
		}
	} else if ((*path = pskd_data_find(encoding, ".json", &tried)) !=
	    NULL) {
		v->kind = &pskd_vocab_hf;
		v->name = *path;
		v->byname = 1;
	} else {
		free(tried);
		pskd_error_set(e, 0, "-E %s: unknown encoding (%s or char)",
		    encoding, pskd_tiktoken_names);
		return PSKD_EXIT_USAGE;
	}
	free(tried);
	return 0;
}

/* pskd_vocab_open, its file left open in b (closed on an error). */
static int
open_kept(struct pskd_vocab *v, const char *encoding, const char *path,
    struct pskd_whole *b, struct pskd_error *e)
{
	char *found = NULL;
	size_t i;
	int rc, chars = encoding != NULL && strcmp(encoding, "char") == 0;

	memset(v, 0, sizeof(*v));
	v->pattern = -1;
	if (chars && path == NULL) {
		pskd_error_set(e, 0, "-E char needs -v FILE (make one with "
		    "--build-vocab)");
		return PSKD_EXIT_USAGE;
	}
	if (path == NULL && (rc = find(v, encoding, &found, e)) != 0)
		return rc;
	if (found != NULL)
		path = found;
	else
		v->name = path;
	if ((rc = slurp(path, b, e)) != 0) {
		/* A bad -E is said first (a tiktoken -E with a -v file). */
		if (encoding != NULL && !chars && !v->byname &&
		    pskd_tiktoken_named(encoding) == NULL) {
			pskd_error_set(e, 0, "-E %s: unknown encoding (%s or "
			    "char)", encoding, pskd_tiktoken_names);
			rc = PSKD_EXIT_USAGE;
		}
		goto out;
	}
	if (chars)
		v->kind = &pskd_vocab_char;
	/* A character vocabulary only when -E is none or char. */
	for (i = encoding == NULL ? 0 : 1; i < NKINDS && v->kind == NULL; i++)
		if (kinds[i]->sniff == NULL || kinds[i]->sniff(b->p, b->len))
			v->kind = kinds[i];
	rc = v->kind->load(v, path, b->p, b->len, v->kind == &pskd_vocab_hf &&
	    v->byname ? NULL : encoding, e);
out:
	if (rc != 0)
		pskd_whole_close(b);
	/* found stays: v->name may be it. */
	return rc;
}

int
pskd_vocab_open(struct pskd_vocab *v, const char *encoding, const char *path,
    struct pskd_error *e)
{
	struct pskd_whole b = { 0 };
	int rc;

	if ((rc = open_kept(v, encoding, path, &b, e)) == 0)
		pskd_whole_close(&b);
	return rc;
}

int
pskd_vocab_compile(const char *encoding, const char *path,
    struct pskd_buf *out, struct pskd_error *e)
{
	struct pskd_vocab v;
	struct pskd_whole b = { 0 };
	int rc;

	if ((rc = open_kept(&v, encoding, path, &b, e)) != 0) {
		pskd_vocab_free(&v);
		return rc;
	}
	if (v.kind != &pskd_vocab_hf || pskd_hf_compiled_sniff(b.p, b.len)) {
		pskd_error_set(e, 0, "%s: --compile: %s", v.name,
		    v.kind != &pskd_vocab_hf ? "not a tokenizer.json" :
		    "compiled already");
		rc = PSKD_EXIT_DATA;
	} else
		pskd_hf_vocab_compile(&v, b.p, b.len, out);
	pskd_whole_close(&b);
	pskd_vocab_free(&v);
	return rc;
}

void
pskd_vocab_free(struct pskd_vocab *v)
{
	if (v->kind != NULL && v->kind->free != NULL && v->impl != NULL)
		v->kind->free(v);
	memset(v, 0, sizeof(*v));
}

uint32_t
pskd_vocab_id(const struct pskd_vocab *v, const char *t)
{
	size_t i, n = strlen(t);

	for (i = 0; i < v->nspecial; i++)
		if (v->special[i].len == n &&
		    memcmp(v->special[i].text, t, n) == 0)
			return v->special[i].id;
	if (n == 0)
		return PSKD_RANK_NONE;
	return v->kind->token(v, (const unsigned char *)t, n);
}

/*
 * The first special token in s[from..n): its offset (n: none), *which its
 * index in v->special; the longest of those that start there.  at[i] is
 * where special token i is next at or after an earlier from (n: nowhere;
 * SIZE_MAX: not looked for),
 * looked for again only once from passes it: the text is searched once
 * for each, not once for each occurrence of another.
 */
static size_t
next_special(const struct pskd_vocab *v, const unsigned char *s,
    size_t n, size_t from, size_t *at, size_t *which)
{
	const unsigned char *p;
	size_t i, best = n, blen = 0;

	for (i = 0; i < v->nspecial; i++) {
		if (at[i] == SIZE_MAX || at[i] < from) {
			p = memmem(s + from, n - from, v->special[i].text,
			    v->special[i].len);
			at[i] = p != NULL ? (size_t)(p - s) : n;
		}
		if (at[i] < n && (at[i] < best || (at[i] == best &&
		    v->special[i].len > blen))) {
			best = at[i];
			blen = v->special[i].len;
			*which = i;
		}
	}
	return best;
}

int
pskd_vocab_encode_split(struct pskd_vocab *v, const unsigned char *s,
    size_t n, int allow, struct pskd_ids *out, size_t *bad, uint32_t *badcp,
    pskd_vocab_ordinary_fn *ordinary)
{
	static size_t *at;
	static size_t nat;
	size_t pos = 0, next, k = 0, i;
	int rc = 0;

	if (!allow || v->nspecial == 0)
		return ordinary(v, s, n, out, bad, badcp);
	if (nat < v->nspecial) {
		at = pskd_xreallocarray(at, v->nspecial, sizeof(*at));
		nat = v->nspecial;
	}
	for (i = 0; i < v->nspecial; i++)
		at[i] = SIZE_MAX;	/* not looked for yet */
	while (pos < n) {
		next = next_special(v, s, n, pos, at, &k);
		if (ordinary(v, s + pos, next - pos, out, bad, badcp) == -1) {
			*bad += pos;
			rc = -1;
			break;
		}
		if (next == n)
			break;
		pskd_ids_push(out, v->special[k].id);
		pos = next + v->special[k].len;
	}
	return rc;
}

/*
 * Does an occurrence of a special token in t[0..n) hold t[p - 1] and t[p]?
 * (Any occurrence in t[p - len + 1 .. p + len - 1) does.)
 */
static int
in_special(const struct pskd_vocab *v, const unsigned char *t, size_t n,
    size_t p)
{
	size_t i, a, b, len;

	for (i = 0; i < v->nspecial; i++) {
		if ((len = v->special[i].len) < 2)
			continue;
		a = p >= len - 1 ? p - (len - 1) : 0;
		b = p + len - 1 < n ? p + len - 1 : n;
		if (b - a >= len && memmem(t + a, b - a, v->special[i].text,
		    len) != NULL)
			return 1;
	}
	return 0;
}

/*
 * Where the cuts of s[0..n) are looked for: before n - (the longest
 * special token), so that one that spans a place is wholly in s.
 */
static size_t
cut_limit(const struct pskd_vocab *v, size_t n)
{
	size_t i, max = 2;

	for (i = 0; i < v->nspecial; i++)
		if (v->special[i].len > max)
			max = v->special[i].len;
	return n > max ? n - max : 0;
}

static int
ascii_letter(unsigned c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/*
 * Before t[p], a character P, when the one before it is a letter (\p{L})
 * and P is none of white space, letter, mark, number (the classes of
 * bpe-pretok.h), the apostrophe of the contractions, \r or \n: a piece
 * of every pattern that holds the letter ends there (letters, o200k's
 * letters and marks, a contraction), and every piece starts afresh at P.
 */
static int
after_letter(const unsigned char *t, size_t n, size_t p)
{
	uint32_t cp, prev;
	size_t k;

	if ((t[p] & 0xc0) == 0x80 || t[p] == '\'' || t[p] == '\r' ||
	    t[p] == '\n' || pskd_utf8_decode(t + p, n - p, &cp) == 0 ||
	    (pskd_pretok_class(cp) & (PSKD_CLASS_L | PSKD_CLASS_N |
	    PSKD_CLASS_U | PSKD_CLASS_W | PSKD_CLASS_S)) != 0)
		return 0;
	for (k = p - 1; k > 0 && p - k < 4 && (t[k] & 0xc0) == 0x80; k--)
		;
	return pskd_utf8_decode(t + k, p - k, &prev) == p - k &&
	    (pskd_pretok_class(prev) & PSKD_CLASS_L) != 0;
}

/*
 * Is the character that ends t[0..p) white space?  (r50k_base's pieces of
 * white space before a line break and a non-space: see below.)
 */
static int
space_before(const unsigned char *t, size_t p)
{
	uint32_t cp;
	size_t k;

	for (k = p - 1; k > 0 && p - k < 4 && (t[k] & 0xc0) == 0x80; k--)
		;
	return pskd_utf8_decode(t + k, p - k, &cp) == p - k &&
	    (pskd_pretok_class(cp) & PSKD_CLASS_S) != 0;
}

/*
 * The places where the pieces of pattern end, whatever follows: before
 * t[p] when t[p-1] is a newline and t[p] printable ASCII but '/' (o200k
 * takes a '/' after newlines into the piece), for r50k_base only when no
 * white space comes before that newline (its \s+(?!\S) leaves the last
 * of a run of white space before a letter to a piece of its own, which a
 * text cut there ends with the run: main's -r cut "\n\nx" so); when t[p]
 * is a space between two ASCII letters; before a character of punctuation
 * (or another that is in no class of the patterns) that follows a letter
 * (after_letter).  Never inside a special token.
 */
size_t
pskd_vocab_cut_pattern(const struct pskd_vocab *v, int pattern,
    const unsigned char *t, size_t n)
{
	size_t p;

	for (p = cut_limit(v, n); p > 0; p--) {
		if ((t[p - 1] == '\n' && t[p] > ' ' && t[p] < 0x7f &&
		    t[p] != '/' && (pattern != PSKD_PAT_R50K || p < 2 ||
		    !space_before(t, p - 1))) || (t[p] == ' ' &&
		    ascii_letter(t[p - 1]) && ascii_letter(t[p + 1])) ||
		    after_letter(t, n, p)) {
			if (!in_special(v, t, n, p))
				return p;
		}
	}
	return 0;
}

/* The last boundary between two characters, but inside a special token. */
size_t
pskd_vocab_cut_chars(const struct pskd_vocab *v, const unsigned char *t,
    size_t n)
{
	size_t p;

	for (p = cut_limit(v, n) + 1; p-- > 1;)
		if ((t[p] & 0xc0) != 0x80 && !in_special(v, t, n, p))
			return p;
	return 0;
}
