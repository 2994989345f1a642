/*
 * hfload.c - read a tokenizer.json (hf.h): the model (BPE only: vocab,
 * merges as "a b" strings or ["a", "b"] pairs, unk_token, fuse_unk,
 * byte_fallback, ignore_merges, continuing_subword_prefix,
 * end_of_word_suffix), the added tokens, the normalizer, pre-tokenizer,
 * post-processor and decoder.  Anything else a file asks for is refused
 * with the place it is asked for, so no file is encoded otherwise than HF
 * tokenizers would.
 *
 * The vocabulary and the merges are read in a second walk, once the
 * pre-tokenizer says whether the tokens are in the ByteLevel alphabet
 * (then they are kept as the bytes they stand for).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pskd.h"
#include "hf.h"
#include "hf-json.h"
#include "bpe-pretok.h"

/* Where a load is: its walk, scratch strings, where to go on an error. */
struct ld {
	struct pskd_jscan j;
	struct pskd_buf	 s, key;
	const unsigned char *vocab, *merges;	/* where they start */
	size_t		 vocablen, mergeslen;	/* and their extent */
	int		 model_seen;
	int		 mapped;		/* the file is mapped */
	const unsigned char *start;		/* of the file */
	jmp_buf		 fail;			/* die() returns here */
	char		*err;			/* with "LINE: message" */
	size_t		 errsize;
	char		*unk;			/* the model's unk_token */
};

/*
 * The pages of a mapped file before the walk's place, given back: they are
 * clean, read again if needed, and need not stay beside the tables.
 */
static void
release(struct ld *l)
{
	static size_t page;
	uintptr_t a, b;

	if (!l->mapped)
		return;
	if (page == 0)
		page = (size_t)sysconf(_SC_PAGESIZE);
	a = (uintptr_t)l->start;
	b = (uintptr_t)l->j.p & ~(uintptr_t)(page - 1);
	if (b > a + (1u << 20))
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
}

static _Noreturn void
die(struct ld *l, const char *why)
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
static void
walk_from(struct ld *l, const unsigned char *p)
{
	const unsigned char *end = l->j.end;

	pskd_jscan_init(&l->j, p, (size_t)(end - p));
	l->j.start = l->start;
}

static _Noreturn void
unsupported(struct ld *l, const char *what, const char *type)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s %s is not supported", what, type);
	/* die() keeps the first error: this one. */
	die(l, pskd_xstrdup(msg));
}

static void
check(struct ld *l)
{
	if (l->j.err != NULL)
		die(l, l->j.err);
}

static char *
string(struct ld *l, size_t *len)
{
	if (!pskd_jscan_string(&l->j, &l->s))
		die(l, "expected a string");
	if (len != NULL)
		*len = l->s.len;
	return pskd_xstrndup((const char *)l->s.p, l->s.len);
}

static int
boolean(struct ld *l)
{
	int v;

	if (!pskd_jscan_bool(&l->j, &v))
		die(l, "expected true or false");
	return v;
}

static int64_t
integer(struct ld *l, int64_t min, int64_t max)
{
	int64_t v;

	if (!pskd_jscan_int(&l->j, min, max, &v))
		die(l, l->j.err ? l->j.err : "expected a number");
	return v;
}

static int
key_is(const struct ld *l, const char *name)
{
	return strcmp((const char *)l->key.p, name) == 0;
}

/* The "type" member, which files put first; NULL for null. */
static char *
type_of(struct ld *l)
{
	if (!pskd_jscan_member(&l->j, &l->key) || !key_is(l, "type"))
		die(l, "expected \"type\" first");
	return string(l, NULL);
}

/*
 * A Replace or Split pattern, {"String": s} or {"Regex": r}: compiled, and
 * its text (the caller's to free) and which it is.
 */
static struct pskd_hf_regex *
pattern(struct ld *l, char **text, size_t *len, int *literal_out)
{
	struct pskd_hf_regex *re;
	char err[256], *p;
	size_t n;
	int literal;

	if (!pskd_jscan_object(&l->j) || !pskd_jscan_member(&l->j, &l->key))
		die(l, "expected {\"String\": ...} or {\"Regex\": ...}");
	literal = key_is(l, "String");
	if (!literal && !key_is(l, "Regex"))
		die(l, "expected {\"String\": ...} or {\"Regex\": ...}");
	p = string(l, &n);
	if ((re = pskd_hf_regex_new(p, n, literal, err, sizeof(err))) == NULL)
		die(l, pskd_xstrdup(err));
	*text = p;
	*len = n;
	*literal_out = literal;
	if (pskd_jscan_member(&l->j, &l->key))
		die(l, "expected one of String and Regex");
	check(l);
	return re;
}

static char *
pattern_string(struct ld *l, size_t *len)
{
	char *p;

	if (!pskd_jscan_object(&l->j) || !pskd_jscan_member(&l->j, &l->key))
		die(l, "expected {\"String\": ...}");
	if (!key_is(l, "String"))
		unsupported(l, "a decoder's pattern", (const char *)l->key.p);
	p = string(l, len);
	if (pskd_jscan_member(&l->j, &l->key))
		die(l, "expected only String");
	check(l);
	return p;
}

/* A single character (Metaspace's replacement, Strip's content). */
static void
one_char(struct ld *l, char *out, size_t *len)
{
	uint32_t cp;
	size_t n;
	char *p = string(l, &n);

	if (n == 0 || n > 4 || pskd_utf8_decode((unsigned char *)p, n, &cp) !=
	    n)
		die(l, "expected one character");
	memcpy(out, p, n);
	*len = n;
	free(p);
}

static int
behavior(struct ld *l)
{
	static const char *const names[] = { "Removed", "Isolated",
	    "MergedWithPrevious", "MergedWithNext", "Contiguous" };
	char *s = string(l, NULL);
	int i;

	for (i = 0; i < 5; i++)
		if (strcmp(s, names[i]) == 0)
			break;
	if (i == 5)
		unsupported(l, "the split behavior", s);
	free(s);
	return i;
}

/* A Sequence's list: each element through fn. */
static void
each(struct ld *l, struct pskd_hf *hf, void (*fn)(struct ld *,
    struct pskd_hf *), const char *what)
{
	if (!pskd_jscan_array(&l->j))
		die(l, what);
	while (pskd_jscan_next(&l->j))
		fn(l, hf);
	check(l);
}

/* ---- normalizers ------------------------------------------------------- */

static void
normalizer(struct ld *l, struct pskd_hf *hf)
{
	static const char *const simple[] = { "NFC", "NFD", "NFKC", "NFKD",
	    "Lowercase" };
	struct pskd_hf_norm z;
	char *type;
	int i, lit;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		die(l, "expected a normalizer");
	memset(&z, 0, sizeof(z));
	type = type_of(l);
	z.type = -1;
	for (i = 0; i < 5; i++)
		if (strcmp(type, simple[i]) == 0)
			z.type = HF_N_NFC + i;
	if (strcmp(type, "Strip") == 0) {
		z.type = HF_N_STRIP;
		z.left = z.right = 1;
	} else if (strcmp(type, "Prepend") == 0)
		z.type = HF_N_PREPEND;
	else if (strcmp(type, "Replace") == 0)
		z.type = HF_N_REPLACE;
	else if (strcmp(type, "Sequence") != 0 && z.type == -1)
		unsupported(l, "the normalizer", type);
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (strcmp(type, "Sequence") == 0 && key_is(l, "normalizers"))
			each(l, hf, normalizer, "expected a list of normalizers");
		else if (z.type == HF_N_STRIP && key_is(l, "strip_left"))
			z.left = boolean(l);
		else if (z.type == HF_N_STRIP && key_is(l, "strip_right"))
			z.right = boolean(l);
		else if (z.type == HF_N_PREPEND && key_is(l, "prepend"))
			z.a = string(l, &z.alen);
		else if (z.type == HF_N_REPLACE && key_is(l, "pattern")) {
			/* A string is kept: found without the regex. */
			z.re = pattern(l, &z.a, &z.alen, &lit);
			if (!lit || z.alen == 0) {
				free(z.a);
				z.a = NULL;
			}
		} else if (z.type == HF_N_REPLACE && key_is(l, "content"))
			z.b = string(l, &z.blen);
		else if (!pskd_jscan_skip(&l->j))
			break;
	}
	check(l);
	if ((z.type == HF_N_PREPEND && z.a == NULL) ||
	    (z.type == HF_N_REPLACE && (z.re == NULL || z.b == NULL)))
		die(l, "a normalizer without its pattern or text");
	if (strcmp(type, "Sequence") != 0) {
		hf->norm = pskd_xreallocarray(hf->norm, hf->nnorm + 1,
		    sizeof(*hf->norm));
		hf->norm[hf->nnorm++] = z;
	}
	free(type);
}

/* ---- pre-tokenizers ---------------------------------------------------- */

/* The Split patterns the hand-written pre-tokenizers cut exactly. */
static const struct {
	const char	*pattern;
	int		 fast;
} fast_patterns[] = {
	{ "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
	    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_CL100K },
	{ "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
	    "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_CL100K_N1 },
	{ "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_R50K },
	{ "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*"
	    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
	    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+"
	    "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|"
	    "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|"
	    "\\s+(?!\\S)|\\s+", PSKD_PAT_O200K },
};

const char *
pskd_hf_pattern_text(int fast)
{
	size_t i;

	for (i = 0; i < sizeof(fast_patterns) / sizeof(fast_patterns[0]);
	    i++)
		if (fast_patterns[i].fast == fast)
			return fast_patterns[i].pattern;
	return NULL;
}

int
pskd_hf_fast_pattern(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(fast_patterns) / sizeof(fast_patterns[0]);
	    i++)
		if (strlen(fast_patterns[i].pattern) == n &&
		    memcmp(fast_patterns[i].pattern, p, n) == 0)
			return fast_patterns[i].fast;
	return -1;
}


static int
prepend_scheme(struct ld *l)
{
	char *s = string(l, NULL);
	int v;

	if (strcmp(s, "always") == 0)
		v = HF_PREPEND_ALWAYS;
	else if (strcmp(s, "first") == 0)
		v = HF_PREPEND_FIRST;
	else if (strcmp(s, "never") == 0)
		v = HF_PREPEND_NEVER;
	else
		unsupported(l, "the prepend_scheme", s);
	free(s);
	return v;
}

static void
pretokenizer(struct ld *l, struct pskd_hf *hf)
{
	static const char *const names[] = { "ByteLevel", "Split",
	    "Metaspace", "Digits", "Punctuation", "Whitespace",
	    "WhitespaceSplit" };
	struct pskd_hf_pretok z;
	char err[256], *type, *text;
	size_t n;
	int i, seq, scheme = -1, aps = -1, lit;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		die(l, "expected a pre-tokenizer");
	memset(&z, 0, sizeof(z));
	z.fast = -1;
	type = type_of(l);
	seq = strcmp(type, "Sequence") == 0;
	for (i = 0; i < 7 && strcmp(type, names[i]) != 0; i++)
		;
	if (i == 7 && !seq)
		unsupported(l, "the pre-tokenizer", type);
	z.type = i;
	/* HF's defaults. */
	z.prefix_space = z.use_regex = 1;
	z.behavior = HF_ISOLATED;
	z.split = 1;
	memcpy(z.rep, "\xe2\x96\x81", 3);	/* ▁ */
	z.replen = 3;
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (seq && key_is(l, "pretokenizers"))
			each(l, hf, pretokenizer, "expected a list of "
			    "pre-tokenizers");
		else if (z.type == HF_P_BYTELEVEL &&
		    key_is(l, "add_prefix_space"))
			z.prefix_space = boolean(l);
		else if (z.type == HF_P_BYTELEVEL && key_is(l, "use_regex"))
			z.use_regex = boolean(l);
		else if (z.type == HF_P_SPLIT && key_is(l, "pattern")) {
			/* A regex that a fast path may cut, or a string. */
			z.re = pattern(l, &text, &n, &lit);
			if (!lit)
				z.fast = pskd_hf_fast_pattern(text, n);
			free(text);
		}
		else if ((z.type == HF_P_SPLIT || z.type == HF_P_PUNCT) &&
		    key_is(l, "behavior"))
			z.behavior = behavior(l);
		else if (z.type == HF_P_SPLIT && key_is(l, "invert"))
			z.invert = boolean(l);
		else if (z.type == HF_P_METASPACE &&
		    key_is(l, "replacement"))
			one_char(l, z.rep, &z.replen);
		else if (z.type == HF_P_METASPACE &&
		    key_is(l, "prepend_scheme"))
			scheme = prepend_scheme(l);
		else if (z.type == HF_P_METASPACE &&
		    key_is(l, "add_prefix_space"))
			aps = boolean(l);
		else if (z.type == HF_P_METASPACE && key_is(l, "split"))
			z.split = boolean(l);
		else if (z.type == HF_P_DIGITS &&
		    key_is(l, "individual_digits"))
			z.individual = boolean(l);
		else if (!pskd_jscan_skip(&l->j))
			break;
	}
	check(l);
	free(type);
	if (seq)
		return;
	/* Metaspace: the old add_prefix_space, or the scheme. */
	z.prepend = scheme != -1 ? scheme : aps == 0 ? HF_PREPEND_NEVER :
	    HF_PREPEND_ALWAYS;
	if (z.type == HF_P_SPLIT && z.re == NULL)
		die(l, "Split without its pattern");
	if (z.type == HF_P_BYTELEVEL && z.use_regex)
		z.fast = PSKD_PAT_R50K;
	if (z.type == HF_P_WHITESPACE && (z.re = pskd_hf_regex_new(
	    "\\w+|[^\\w\\s]+", 13, 0, err, sizeof(err))) == NULL)
		die(l, pskd_xstrdup(err));
	hf->pre = pskd_xreallocarray(hf->pre, hf->npre + 1, sizeof(*hf->pre));
	hf->pre[hf->npre++] = z;
}

/* ---- decoders ---------------------------------------------------------- */


static void
decoder(struct ld *l, struct pskd_hf *hf)
{
	static const char *const names[] = { "ByteLevel", "ByteFallback",
	    "Fuse", "Strip", "Replace", "Metaspace" };
	struct pskd_hf_dec z;
	char *type, rep[4];
	int i, seq, scheme = -1, aps = -1;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		die(l, "expected a decoder");
	memset(&z, 0, sizeof(z));
	type = type_of(l);
	seq = strcmp(type, "Sequence") == 0;
	for (i = 0; i < 6 && strcmp(type, names[i]) != 0; i++)
		;
	if (i == 6 && !seq)
		unsupported(l, "the decoder", type);
	z.type = i;
	if (z.type == HF_D_METASPACE) {
		z.a = pskd_xstrndup("\xe2\x96\x81", 3);
		z.alen = 3;
	}
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (seq && key_is(l, "decoders")) {
			each(l, hf, decoder, "expected a list of decoders");
		} else if (z.type == HF_D_STRIP && key_is(l, "content")) {
			one_char(l, rep, &z.alen);
			z.a = pskd_xstrndup(rep, z.alen);
		} else if (z.type == HF_D_STRIP && key_is(l, "start")) {
			z.start = (int)integer(l, 0, 1 << 20);
		} else if (z.type == HF_D_STRIP && key_is(l, "stop")) {
			z.stop = (int)integer(l, 0, 1 << 20);
		} else if (z.type == HF_D_REPLACE && key_is(l, "pattern")) {
			z.a = pattern_string(l, &z.alen);
		} else if (z.type == HF_D_REPLACE && key_is(l, "content")) {
			z.b = string(l, &z.blen);
		} else if (z.type == HF_D_METASPACE &&
		    key_is(l, "replacement")) {
			one_char(l, rep, &z.alen);
			free(z.a);
			z.a = pskd_xstrndup(rep, z.alen);
		} else if (z.type == HF_D_METASPACE &&
		    key_is(l, "prepend_scheme")) {
			scheme = prepend_scheme(l);
		} else if (z.type == HF_D_METASPACE &&
		    key_is(l, "add_prefix_space")) {
			aps = boolean(l);
		} else if (!pskd_jscan_skip(&l->j))
			break;
	}
	check(l);
	free(type);
	if (seq)
		return;
	z.prepend = scheme != -1 ? scheme : aps == 0 ? HF_PREPEND_NEVER :
	    HF_PREPEND_ALWAYS;
	if ((z.type == HF_D_STRIP && z.a == NULL) || (z.type == HF_D_REPLACE &&
	    (z.a == NULL || z.b == NULL || z.alen == 0)))
		die(l, "a decoder without its pattern or content");
	hf->dec = pskd_xreallocarray(hf->dec, hf->ndec + 1, sizeof(*hf->dec));
	hf->dec[hf->ndec++] = z;
}

/* ---- added tokens ------------------------------------------------------ */

static void
added_tokens(struct ld *l, struct pskd_hf *hf)
{
	struct pskd_hf_added a;
	int64_t id;
	int seen;

	if (!pskd_jscan_array(&l->j))
		die(l, "expected a list of added tokens");
	while (pskd_jscan_next(&l->j)) {
		if (!pskd_jscan_object(&l->j))
			die(l, "expected an added token");
		memset(&a, 0, sizeof(a));
		id = -1;
		seen = 0;
		while (pskd_jscan_member(&l->j, &l->key)) {
			if (key_is(l, "id")) {
				id = integer(l, 0, PSKD_RANK_MAX - 1);
			} else if (key_is(l, "content")) {
				a.text = string(l, &a.len);
				seen = 1;
			} else if (key_is(l, "special")) {
				a.special = (unsigned char)boolean(l);
			} else if (key_is(l, "single_word")) {
				a.single_word = (unsigned char)boolean(l);
			} else if (key_is(l, "lstrip")) {
				a.lstrip = (unsigned char)boolean(l);
			} else if (key_is(l, "rstrip")) {
				a.rstrip = (unsigned char)boolean(l);
			} else if (key_is(l, "normalized")) {
				a.normalized = (unsigned char)boolean(l);
			} else if (!pskd_jscan_skip(&l->j))
				break;
		}
		check(l);
		if (id < 0 || !seen)
			die(l, "an added token without its id or content");
		if (a.len == 0) {
			free(a.text);
			continue;	/* HF ignores it */
		}
		a.id = (uint32_t)id;
		hf->added = pskd_xreallocarray(hf->added, hf->nadded + 1,
		    sizeof(*hf->added));
		hf->added[hf->nadded++] = a;
	}
	check(l);
}

/* ---- the post-processor: tokens around a text -------------------------- */

struct tmpl {
	char		**before, **after;	/* special token names */
	size_t		 nbefore, nafter;
	char		**names;		/* special_tokens */
	uint32_t	**ids;
	size_t		*nids, nnames;
};

static void
push_ids(uint32_t **v, size_t *n, const uint32_t *ids, size_t k)
{
	*v = pskd_xreallocarray(*v, *n + k, sizeof(**v));
	memcpy(*v + *n, ids, k * sizeof(**v));
	*n += k;
}

/* "single": [{"SpecialToken": {"id": NAME}}, {"Sequence": {"id": "A"}}] */
static void
template_single(struct ld *l, struct tmpl *t)
{
	char *name;
	int seen = 0, special;

	if (!pskd_jscan_array(&l->j))
		die(l, "expected the template's pieces");
	while (pskd_jscan_next(&l->j)) {
		if (!pskd_jscan_object(&l->j) ||
		    !pskd_jscan_member(&l->j, &l->key))
			die(l, "expected a piece of the template");
		special = key_is(l, "SpecialToken");
		if (!special && !key_is(l, "Sequence"))
			die(l, "expected SpecialToken or Sequence");
		if (!pskd_jscan_object(&l->j))
			die(l, "expected a piece of the template");
		name = NULL;
		while (pskd_jscan_member(&l->j, &l->key)) {
			if (key_is(l, "id"))
				name = string(l, NULL);
			else if (!pskd_jscan_skip(&l->j))
				break;
		}
		if (pskd_jscan_member(&l->j, &l->key))
			die(l, "expected one of SpecialToken and Sequence");
		check(l);
		if (name == NULL)
			die(l, "a piece of the template without its id");
		if (!special) {
			if (seen || strcmp(name, "A") != 0)
				die(l, "a template for one text has the "
				    "sequence A once");
			seen = 1;
			free(name);
		} else if (!seen) {
			t->before = pskd_xreallocarray(t->before,
			    t->nbefore + 1, sizeof(*t->before));
			t->before[t->nbefore++] = name;
		} else {
			t->after = pskd_xreallocarray(t->after, t->nafter + 1,
			    sizeof(*t->after));
			t->after[t->nafter++] = name;
		}
	}
	check(l);
}

static void
template_specials(struct ld *l, struct tmpl *t)
{
	size_t k;
	int64_t id;

	if (!pskd_jscan_object(&l->j))
		die(l, "expected the template's special tokens");
	while (pskd_jscan_member(&l->j, &l->key)) {
		k = t->nnames++;
		t->names = pskd_xreallocarray(t->names, t->nnames,
		    sizeof(*t->names));
		t->ids = pskd_xreallocarray(t->ids, t->nnames, sizeof(*t->ids));
		t->nids = pskd_xreallocarray(t->nids, t->nnames,
		    sizeof(*t->nids));
		t->names[k] = pskd_xstrdup((const char *)l->key.p);
		t->ids[k] = NULL;
		t->nids[k] = 0;
		if (!pskd_jscan_object(&l->j))
			die(l, "expected a special token");
		while (pskd_jscan_member(&l->j, &l->key)) {
			if (!key_is(l, "ids")) {
				if (!pskd_jscan_skip(&l->j))
					break;
				continue;
			}
			if (!pskd_jscan_array(&l->j))
				die(l, "expected a list of ids");
			while (pskd_jscan_next(&l->j)) {
				id = integer(l, 0, PSKD_RANK_MAX - 1);
				t->ids[k] = pskd_xreallocarray(t->ids[k],
				    t->nids[k] + 1, sizeof(**t->ids));
				t->ids[k][t->nids[k]++] = (uint32_t)id;
			}
		}
		check(l);
	}
	check(l);
}

static void
template_ids(struct ld *l, struct tmpl *t, char **names, size_t n,
    uint32_t **v, size_t *nv)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < t->nnames; k++)
			if (strcmp(t->names[k], names[i]) == 0)
				break;
		if (k == t->nnames)
			die(l, "the template names a special token it does "
			    "not define");
		push_ids(v, nv, t->ids[k], t->nids[k]);
	}
}

/* RobertaProcessing's and BertProcessing's ["</s>", 2]: the id. */
static uint32_t
name_id(struct ld *l)
{
	int64_t id;

	if (!pskd_jscan_array(&l->j) || !pskd_jscan_next(&l->j))
		die(l, "expected [token, id]");
	free(string(l, NULL));
	if (!pskd_jscan_next(&l->j))
		die(l, "expected [token, id]");
	id = integer(l, 0, PSKD_RANK_MAX - 1);
	if (pskd_jscan_next(&l->j))
		die(l, "expected [token, id]");
	check(l);
	return (uint32_t)id;
}


static void
post_processor(struct ld *l, struct pskd_hf *hf)
{
	struct tmpl t;
	char *type;
	uint32_t cls = 0, sep = 0;
	int kind;
	size_t i;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		die(l, "expected a post-processor");
	memset(&t, 0, sizeof(t));
	type = type_of(l);
	if (strcmp(type, "TemplateProcessing") == 0)
		kind = 1;
	else if (strcmp(type, "RobertaProcessing") == 0 ||
	    strcmp(type, "BertProcessing") == 0)
		kind = 2;
	else if (strcmp(type, "ByteLevel") == 0)
		kind = 0;	/* offsets only */
	else if (strcmp(type, "Sequence") == 0)
		kind = 3;
	else
		unsupported(l, "the post-processor", type);
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (kind == 1 && key_is(l, "single"))
			template_single(l, &t);
		else if (kind == 1 && key_is(l, "special_tokens"))
			template_specials(l, &t);
		else if (kind == 2 && key_is(l, "cls"))
			cls = name_id(l);
		else if (kind == 2 && key_is(l, "sep"))
			sep = name_id(l);
		else if (kind == 3 && key_is(l, "processors"))
			each(l, hf, post_processor, "expected a list of "
			    "post-processors");
		else if (!pskd_jscan_skip(&l->j))
			break;
	}
	check(l);
	if (kind == 1) {
		template_ids(l, &t, t.before, t.nbefore, &hf->bos, &hf->nbos);
		template_ids(l, &t, t.after, t.nafter, &hf->eos, &hf->neos);
		for (i = 0; i < t.nbefore; i++)
			free(t.before[i]);
		for (i = 0; i < t.nafter; i++)
			free(t.after[i]);
		for (i = 0; i < t.nnames; i++) {
			free(t.names[i]);
			free(t.ids[i]);
		}
		free(t.before);
		free(t.after);
		free(t.names);
		free(t.ids);
		free(t.nids);
	} else if (kind == 2) {
		push_ids(&hf->bos, &hf->nbos, &cls, 1);
		push_ids(&hf->eos, &hf->neos, &sep, 1);
	}
	free(type);
}

/* ---- the model --------------------------------------------------------- */

/* Model options; vocab and merges only found, read later. */
static void
model(struct ld *l, struct pskd_hf *hf, char **unk)
{
	char *type = NULL;

	if (!pskd_jscan_object(&l->j))
		die(l, "expected the model");
	l->model_seen = 1;
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (key_is(l, "type")) {
			type = string(l, NULL);
			if (strcmp(type, "BPE") != 0)
				unsupported(l, "the model", type);
		} else if (key_is(l, "vocab")) {
			pskd_jscan_peek(&l->j);
			l->vocab = l->j.p;
			if (!pskd_jscan_skip(&l->j))
				break;
			l->vocablen = (size_t)(l->j.p - l->vocab);
			release(l);
		} else if (key_is(l, "merges")) {
			pskd_jscan_peek(&l->j);
			l->merges = l->j.p;
			if (!pskd_jscan_skip(&l->j))
				break;
			l->mergeslen = (size_t)(l->j.p - l->merges);
			release(l);
		} else if (key_is(l, "dropout")) {
			if (!pskd_jscan_null(&l->j))
				die(l, "dropout is not supported");
		} else if (key_is(l, "unk_token")) {
			if (!pskd_jscan_null(&l->j))
				*unk = string(l, NULL);
		} else if (key_is(l, "continuing_subword_prefix")) {
			if (!pskd_jscan_null(&l->j))
				hf->prefix = string(l, &hf->prefixlen);
		} else if (key_is(l, "end_of_word_suffix")) {
			if (!pskd_jscan_null(&l->j))
				hf->suffix = string(l, &hf->suffixlen);
		} else if (key_is(l, "fuse_unk")) {
			hf->fuse_unk = boolean(l);
		} else if (key_is(l, "byte_fallback")) {
			hf->byte_fallback = boolean(l);
		} else if (key_is(l, "ignore_merges")) {
			hf->ignore_merges = boolean(l);
		} else if (!pskd_jscan_skip(&l->j))
			break;
	}
	check(l);
	if (l->vocab == NULL || l->merges == NULL)
		die(l, "a BPE model without its vocab or merges");
	free(type);
}

/* s[0..n) with the ByteLevel alphabet undone into out; 0 if not in it. */
static int
unbyte(const unsigned char *s, size_t n, struct pskd_buf *out)
{
	uint32_t cp;
	unsigned char *o;
	size_t i;
	int b;

	/* The alphabet is U+0021 .. U+0143: one or two bytes of UTF-8. */
	pskd_buf_reserve(out, n);
	o = out->p;
	for (i = 0; i < n; i++) {
		if (s[i] < 0x80) {
			cp = s[i];
		} else if (s[i] >= 0xc2 && s[i] <= 0xc5 && i + 1 < n &&
		    (s[i + 1] & 0xc0) == 0x80) {
			cp = (uint32_t)(s[i] & 0x1f) << 6 | (s[i + 1] & 0x3f);
			i++;
		} else
			return 0;
		if ((b = pskd_hf_char_byte(cp)) < 0)
			return 0;
		*o++ = (unsigned char)b;
	}
	out->len = (size_t)(o - out->p);
	return 1;
}

/* A token's text as the vocabulary keeps it (undone if byte-level). */
static void
as_stored(const struct pskd_hf *hf, const unsigned char *s, size_t n,
    struct pskd_buf *out)
{
	if (!hf->bytelevel || !unbyte(s, n, out)) {
		out->len = 0;
		pskd_buf_add(out, s, n);
	}
}

static void
vocab(struct ld *l, struct pskd_hf *hf)
{
	struct pskd_buf bytes = { 0 }, tok = { 0 };
	uint32_t *off = NULL, *len = NULL, *id = NULL;
	size_t n = 0, cap = l->vocablen / 6 + 1;	/* "a":0, at least */
	char err[256];

	off = pskd_xreallocarray(NULL, cap, sizeof(*off));
	len = pskd_xreallocarray(NULL, cap, sizeof(*len));
	id = pskd_xreallocarray(NULL, cap, sizeof(*id));
	pskd_buf_reserve(&bytes, l->vocablen);
	walk_from(l, l->vocab);
	if (!pskd_jscan_object(&l->j))
		die(l, "expected the vocab, an object");
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			off = pskd_xreallocarray(off, cap, sizeof(*off));
			len = pskd_xreallocarray(len, cap, sizeof(*len));
			id = pskd_xreallocarray(id, cap, sizeof(*id));
		}
		id[n] = (uint32_t)integer(l, 0, PSKD_RANK_MAX - 1);
		as_stored(hf, l->key.p, l->key.len, &tok);
		if (tok.len == 0)
			die(l, "an empty token");
		off[n] = (uint32_t)bytes.len;
		len[n++] = (uint32_t)tok.len;
		pskd_buf_add(&bytes, tok.p, tok.len);
		if ((n & 16383) == 0)
			release(l);
	}
	check(l);
	if (bytes.p == NULL)
		bytes.p = pskd_xmalloc(1);
	if (pskd_ranks_build(&hf->vocab, bytes.p, off, len, id, n, err,
	    sizeof(err)) == -1)
		die(l, pskd_xstrdup(err));
	free(off);
	free(len);
	free(id);
	pskd_buf_free(&tok);
}

/* A merge read but not yet looked up: its three tokens in the arena. */
#define BATCH	64

struct pend {
	size_t		 off[3], len[3];	/* a, b, a and b joined */
	uint64_t	 k0[3], h[3];
	uint32_t	 k1[3];
};

/* The merges as read: left, right, result; rank the index. */
struct mlist {
	uint32_t	*v;
	size_t		 n, cap;
};

/* Look up a batch of merges (their slots prefetched) and list them. */
static void
resolve(struct ld *l, struct pskd_hf *hf, struct pend *q, size_t nq,
    const struct pskd_buf *arena, struct mlist *ml)
{
	uint32_t id[3];
	size_t i, k;

	for (i = 0; i < nq; i++) {
		for (k = 0; k < 3; k++) {
			id[k] = pskd_ranks_find_keyed(&hf->vocab,
			    arena->p + q[i].off[k], q[i].len[k], q[i].k0[k],
			    q[i].k1[k], q[i].h[k]);
			if (id[k] == PSKD_RANK_NONE)
				die(l, k < 2 ? "a merge of a token that is not "
				    "in the vocab" : "a merge whose result is "
				    "not in the vocab");
		}
		if (ml->n + 3 > ml->cap) {
			ml->cap = ml->cap ? ml->cap * 2 : 3 * 4096;
			ml->v = pskd_xreallocarray(ml->v, ml->cap,
			    sizeof(*ml->v));
		}
		memcpy(ml->v + ml->n, id, sizeof(id));
		ml->n += 3;
	}
}

/*
 * The merges into their tables: a table by pair for a vocabulary of
 * characters (a pair given twice keeps its later rank, as HF's map does);
 * for a byte-level one, the merges by the token each makes (a counting
 * sort), a pair given twice again with its later rank.
 */
static void
tables(struct pskd_hf *hf, const struct mlist *ml)
{
	uint32_t *v = ml->v, n = (uint32_t)(ml->n / 3), i, c, k, *fill;

	if (!hf->bytelevel) {
		pskd_hf_merges_init(&hf->merges, n);
		for (i = 0; i < n; i++)
			pskd_hf_merges_add(&hf->merges, v[3 * i],
			    v[3 * i + 1], i, v[3 * i + 2]);
		return;
	}
	hf->mstart = pskd_xcalloc((size_t)hf->vocab.n + 1, sizeof(uint32_t));
	hf->mleft = pskd_xreallocarray(NULL, n ? n : 1, sizeof(uint32_t));
	hf->mrank = pskd_xreallocarray(NULL, n ? n : 1, sizeof(uint32_t));
	for (i = 0; i < n; i++)
		hf->mstart[v[3 * i + 2] + 1]++;
	for (c = 0; c < hf->vocab.n; c++)
		hf->mstart[c + 1] += hf->mstart[c];
	fill = pskd_xreallocarray(NULL, hf->vocab.n + 1, sizeof(uint32_t));
	memcpy(fill, hf->mstart, (hf->vocab.n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		c = v[3 * i + 2];
		for (k = hf->mstart[c]; k < fill[c]; k++)
			if (hf->mleft[k] == v[3 * i])
				break;
		if (k < fill[c]) {
			hf->mrank[k] = i;	/* the same pair again */
			continue;
		}
		hf->mleft[fill[c]] = v[3 * i];
		hf->mrank[fill[c]++] = i;
	}
	/* A pair given twice leaves an unused entry: never matched. */
	for (c = 0; c < hf->vocab.n; c++)
		for (k = fill[c]; k < hf->mstart[c + 1]; k++)
			hf->mleft[k] = PSKD_RANK_NONE;
	free(fill);
}

/* A token of a merge into the arena, its slot prefetched. */
static void
queue(struct pskd_hf *hf, struct pend *q, int k, const unsigned char *s,
    size_t n, struct pskd_buf *arena, struct pskd_buf *tok)
{
	as_stored(hf, s, n, tok);
	q->off[k] = arena->len;
	q->len[k] = tok->len;
	pskd_buf_add(arena, tok->p, tok->len);
}

/* The keys of a queued merge's tokens; their slots prefetched. */
static void
keys(struct pskd_hf *hf, struct pend *q, const struct pskd_buf *arena)
{
	int k;

	for (k = 0; k < 3; k++) {
		q->h[k] = pskd_ranks_keyof(arena->p + q->off[k], q->len[k],
		    &q->k0[k], &q->k1[k]);
		__builtin_prefetch(&hf->vocab.slot[q->h[k] & hf->vocab.mask]);
	}
}

/*
 * The usual case, a byte-level merge "a b" without a prefix, straight
 * into the arena: a's bytes, b's, and the new token is the two together.
 * 0 if a or b is not in the alphabet (then the general way).
 */
static int
queue_bytes(const unsigned char *s, size_t la, size_t lb, struct pend *q,
    struct pskd_buf *arena, struct pskd_buf *tok)
{
	size_t start = arena->len;

	if (!unbyte(s, la, tok))
		return 0;
	q->len[0] = tok->len;
	pskd_buf_add(arena, tok->p, tok->len);
	if (!unbyte(s + la + 1, lb, tok)) {
		arena->len = start;
		return 0;
	}
	q->len[1] = tok->len;
	pskd_buf_add(arena, tok->p, tok->len);
	q->off[0] = q->off[2] = start;
	q->off[1] = start + q->len[0];
	q->len[2] = q->len[0] + q->len[1];
	return 1;
}

static void
merges(struct ld *l, struct pskd_hf *hf)
{
	struct pskd_buf a = { 0 }, tok = { 0 }, joined = { 0 }, arena = { 0 };
	struct mlist ml = { NULL, 0, 0 };
	struct pend q[BATCH];
	const unsigned char *sp, *ms;
	size_t la, strip, nq = 0, mn;

	walk_from(l, l->merges);
	if (!pskd_jscan_array(&l->j))
		die(l, "expected the merges, a list");
	/* At most one merge a 6 bytes ("a b",): room, touched as used. */
	ml.cap = 3 * (l->mergeslen / 6 + 1);
	ml.v = pskd_xreallocarray(NULL, ml.cap, sizeof(*ml.v));
	while (pskd_jscan_next(&l->j)) {
		if (pskd_jscan_peek(&l->j) == PSKD_J_STRING) {
			/* "a b": one space. */
			if (!pskd_jscan_str(&l->j, &ms, &mn, &l->s))
				check(l);
			sp = memchr(ms, ' ', mn);
			if (sp == NULL || memchr(sp + 1, ' ', mn -
			    (size_t)(sp - ms) - 1) != NULL)
				die(l, "a merge is \"a b\", one space");
			la = (size_t)(sp - ms);
			if (la == 0 || la + 1 == mn)
				die(l, "a merge with an empty part");
			if (hf->bytelevel && hf->prefixlen == 0 &&
			    queue_bytes(ms, la, mn - la - 1, &q[nq], &arena,
			    &tok))
				goto queued;
			a.len = 0;
			pskd_buf_add(&a, ms, la);
			pskd_buf_add(&a, sp + 1, mn - la - 1);
		} else {
			if (!pskd_jscan_array(&l->j) || !pskd_jscan_next(&l->j))
				die(l, "a merge is \"a b\" or [\"a\", \"b\"]");
			pskd_jscan_string(&l->j, &a);
			la = a.len;
			if (!pskd_jscan_next(&l->j) ||
			    !pskd_jscan_string(&l->j, &l->s))
				die(l, "a merge is \"a b\" or [\"a\", \"b\"]");
			pskd_buf_add(&a, l->s.p, l->s.len);
			if (pskd_jscan_next(&l->j))
				die(l, "a merge is \"a b\" or [\"a\", \"b\"]");
			if (la == 0 || a.len == la)
				die(l, "a merge with an empty part");
		}
		check(l);
		/* a, b, and the new token: a and b without its prefix. */
		strip = hf->prefixlen < a.len - la ? hf->prefixlen : a.len - la;
		joined.len = 0;
		pskd_buf_add(&joined, a.p, la);
		pskd_buf_add(&joined, a.p + la + strip, a.len - la - strip);
		queue(hf, &q[nq], 0, a.p, la, &arena, &tok);
		queue(hf, &q[nq], 1, a.p + la, a.len - la, &arena, &tok);
		queue(hf, &q[nq], 2, joined.p, joined.len, &arena, &tok);
queued:
		if (++nq == BATCH) {
			for (la = 0; la < nq; la++)
				keys(hf, &q[la], &arena);
			resolve(l, hf, q, nq, &arena, &ml);
			nq = 0;
			arena.len = 0;
			if ((ml.n / 3 & 16383) == 0)
				release(l);
		}
	}
	check(l);
	for (la = 0; la < nq; la++)
		keys(hf, &q[la], &arena);
	resolve(l, hf, q, nq, &arena, &ml);
	tables(hf, &ml);
	free(ml.v);
	pskd_buf_free(&a);
	pskd_buf_free(&tok);
	pskd_buf_free(&joined);
	pskd_buf_free(&arena);
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
	as_stored(hf, (const unsigned char *)*s, *n, &b);
	free(*s);
	*s = (char *)b.p;
	*n = b.len;
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

	for (i = 0; i < hf->nadded; i++) {
		a = &hf->added[i];
		for (j = 0; j < k; j++)
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
			as_stored(hf, (const unsigned char *)a->text, a->len,
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

/*
 * Where words may be cut without changing their tokens: where no merge
 * can join what is on either side.  A merge makes a merge result from two
 * symbols, so a place no merge result spans is never crossed: before a ▁
 * that follows another character when no merge result holds such a pair
 * (SentencePiece-like vocabularies, where a word is all the text), and
 * around an ASCII character that no merge result holds (digits and line
 * breaks in Llama 2's).  Only when each character is a symbol of its own
 * whatever its neighbours: no prefix or suffix, no whole-word lookup, and
 * no unk to fuse (byte fallback for every byte, or no unk_token).
 */
static void
cuts(struct pskd_hf *hf)
{
	static const unsigned char bar[3] = { 0xe2, 0x96, 0x81 };
	const struct pskd_ranks *r = &hf->vocab;
	const unsigned char *t;
	unsigned char seen[128];
	uint32_t k;
	size_t i, j;
	unsigned b;
	int bars = 1;

	if (hf->bytelevel || hf->prefixlen || hf->suffixlen ||
	    hf->ignore_merges)
		return;
	for (b = 0; b < 256 && hf->unk != PSKD_RANK_NONE; b++)
		if (hf->fallback[b] == PSKD_RANK_NONE)
			return;
	memset(seen, 0, sizeof(seen));
	for (j = 0; j <= hf->merges.mask; j++) {
		if (hf->merges.slot[j].key == 0)
			continue;
		k = hf->merges.slot[j].id;
		t = r->bytes + r->off[k];
		for (i = 0; i < r->len[k]; i++) {
			if (t[i] < 128)
				seen[t[i]] = 1;
			if (i > 0 && i + 3 <= r->len[k] &&
			    memcmp(t + i, bar, 3) == 0 && !(i >= 3 &&
			    memcmp(t + i - 3, bar, 3) == 0))
				bars = 0;
		}
	}
	hf->metacut = bars && pskd_ranks_find(r, bar, 3) != PSKD_RANK_NONE;
	for (b = 0; b < 128; b++)
		hf->alone[b] = !seen[b];
}


void
pskd_hf_load(struct pskd_hf *hf, const char *file, const unsigned char *p,
    size_t n, int mapped)
{
	char err[512];

	if (pskd_hf_parse(hf, p, n, mapped, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s:%s", file, err);
}

void
pskd_hf_free(struct pskd_hf *hf)
{
	size_t i;

	pskd_ranks_free(&hf->vocab);
	pskd_hf_merges_free(&hf->merges);
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

int
pskd_hf_parse(struct pskd_hf *hf, const unsigned char *p, size_t n,
    int mapped, char *err, size_t errsize)
{
	static struct ld l;	/* static: longjmp keeps nothing in registers */
	char name[8];
	size_t i;
	unsigned b;

	memset(hf, 0, sizeof(*hf));
	memset(&l, 0, sizeof(l));
	l.mapped = mapped;
	l.start = p;
	l.err = err;
	l.errsize = errsize;
	if (setjmp(l.fail) != 0) {
		pskd_buf_free(&l.s);
		pskd_buf_free(&l.key);
		return -1;
	}
	pskd_jscan_init(&l.j, p, n);
	if (!pskd_jscan_object(&l.j))
		die(&l, "not a tokenizer.json: expected an object");
	while (pskd_jscan_member(&l.j, &l.key)) {
		if (key_is(&l, "model"))
			model(&l, hf, &l.unk);
		else if (key_is(&l, "added_tokens"))
			added_tokens(&l, hf);
		else if (key_is(&l, "normalizer"))
			normalizer(&l, hf);
		else if (key_is(&l, "pre_tokenizer"))
			pretokenizer(&l, hf);
		else if (key_is(&l, "post_processor"))
			post_processor(&l, hf);
		else if (key_is(&l, "decoder"))
			decoder(&l, hf);
		else if (key_is(&l, "truncation") || key_is(&l, "padding")) {
			if (!pskd_jscan_null(&l.j))
				die(&l, "truncation and padding are not "
				    "supported (set them to null)");
		} else if (!pskd_jscan_skip(&l.j))
			break;
	}
	check(&l);
	pskd_jscan_end(&l.j);
	check(&l);
	if (!l.model_seen)
		die(&l, "not a tokenizer.json: no model");
	for (i = 0; i < hf->npre; i++)
		if (hf->pre[i].type == HF_P_BYTELEVEL)
			hf->bytelevel = 1;
	affix(hf, &hf->prefix, &hf->prefixlen);
	affix(hf, &hf->suffix, &hf->suffixlen);
	vocab(&l, hf);
	merges(&l, hf);
	hf->unk = PSKD_RANK_NONE;
	if (l.unk != NULL && (hf->unk = pskd_ranks_find(&hf->vocab, l.unk,
	    strlen(l.unk))) == PSKD_RANK_NONE)
		die(&l, "the unk_token is not in the vocab");
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
	cuts(hf);
	for (b = 0; b < PSKD_HF_CHARS; b++) {
		unsigned char u[4];

		hf->charid[b] = pskd_ranks_find(&hf->vocab, u,
		    pskd_utf8_encode(b, u));
	}
	pskd_buf_free(&l.s);
	pskd_buf_free(&l.key);
	return 0;
}

/* ---- the ByteLevel alphabet -------------------------------------------- */

/*
 * GPT-2's: the printable bytes ! to ~, ¡ to ¬ and ® to ÿ stand for
 * themselves; the other 68, in order, for U+0100 onwards.
 */
static int
printable(unsigned b)
{
	return (b >= '!' && b <= '~') || (b >= 0xa1 && b <= 0xac) ||
	    (b >= 0xae && b <= 0xff);
}

uint32_t
pskd_hf_byte_char(unsigned b)
{
	unsigned i, k = 0;

	if (printable(b))
		return b;
	for (i = 0; i < b; i++)
		if (!printable(i))
			k++;
	return 0x100 + k;
}

int
pskd_hf_char_byte(uint32_t cp)
{
	static int16_t back[0x144];
	static int ready;
	unsigned b;

	if (!ready) {
		for (b = 0; b < 0x144; b++)
			back[b] = -1;
		for (b = 0; b < 256; b++)
			back[pskd_hf_byte_char(b)] = (int16_t)b;
		ready = 1;
	}
	return cp < 0x144 ? back[cp] : -1;
}
