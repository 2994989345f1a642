/*
 * hf-load-pipeline.c - the parts of a tokenizer.json around its model:
 * the normalizers, pre-tokenizers and decoders (each a list in the order
 * they run, a Sequence flattened), the added tokens and the
 * post-processor's tokens around a text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "hf.h"
#include "hf-load.h"
#include "bpe-pretok.h"

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
		ld_die(l, "expected {\"String\": ...} or {\"Regex\": ...}");
	literal = ld_key_is(l, "String");
	if (!literal && !ld_key_is(l, "Regex"))
		ld_die(l, "expected {\"String\": ...} or {\"Regex\": ...}");
	p = ld_string(l, &n);
	if ((re = pskd_hf_regex_new(p, n, literal, err, sizeof(err))) == NULL)
		ld_die(l, pskd_xstrdup(err));
	*text = p;
	*len = n;
	*literal_out = literal;
	if (pskd_jscan_member(&l->j, &l->key))
		ld_die(l, "expected one of String and Regex");
	ld_check(l);
	return re;
}

static char *
pattern_string(struct ld *l, size_t *len)
{
	char *p;

	if (!pskd_jscan_object(&l->j) || !pskd_jscan_member(&l->j, &l->key))
		ld_die(l, "expected {\"String\": ...}");
	if (!ld_key_is(l, "String"))
		ld_unsupported(l, "a decoder's pattern",
		    (const char *)l->key.p);
	p = ld_string(l, len);
	if (pskd_jscan_member(&l->j, &l->key))
		ld_die(l, "expected only String");
	ld_check(l);
	return p;
}

/* A single character (Metaspace's replacement, Strip's content). */
static void
one_char(struct ld *l, char *out, size_t *len)
{
	uint32_t cp;
	size_t n;
	char *p = ld_string(l, &n);

	if (n == 0 || n > 4 || pskd_utf8_decode((unsigned char *)p, n, &cp) !=
	    n)
		ld_die(l, "expected one character");
	memcpy(out, p, n);
	*len = n;
	free(p);
}

static int
behavior(struct ld *l)
{
	static const char *const names[] = { "Removed", "Isolated",
	    "MergedWithPrevious", "MergedWithNext", "Contiguous" };
	char *s = ld_string(l, NULL);
	int i;

	for (i = 0; i < 5; i++)
		if (strcmp(s, names[i]) == 0)
			break;
	if (i == 5)
		ld_unsupported(l, "the split behavior", s);
	free(s);
	return i;
}

/* A Sequence's list: each element through fn. */
static void
each(struct ld *l, struct pskd_hf *hf, void (*fn)(struct ld *,
    struct pskd_hf *), const char *what)
{
	if (!pskd_jscan_array(&l->j))
		ld_die(l, what);
	while (pskd_jscan_next(&l->j))
		fn(l, hf);
	ld_check(l);
}

/* ---- normalizers ------------------------------------------------------- */

/* By HF_N_*: the first five take no options. */
const char *const pskd_hf_norm_names[] = { "NFC", "NFD", "NFKC", "NFKD",
    "Lowercase", "Strip", "Prepend", "Replace" };

void
ld_normalizer(struct ld *l, struct pskd_hf *hf)
{
	const char *const *simple = pskd_hf_norm_names;
	struct pskd_hf_norm z;
	char *type;
	int i, lit;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		ld_die(l, "expected a normalizer");
	memset(&z, 0, sizeof(z));
	z.line = ld_line(l);
	type = ld_type_of(l);
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
		ld_unsupported(l, "the normalizer", type);
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (strcmp(type, "Sequence") == 0 &&
		    ld_key_is(l, "normalizers"))
			each(l, hf, ld_normalizer, "expected a list of "
			    "normalizers");
		else if (z.type == HF_N_STRIP && ld_key_is(l, "strip_left"))
			z.left = ld_boolean(l);
		else if (z.type == HF_N_STRIP && ld_key_is(l, "strip_right"))
			z.right = ld_boolean(l);
		else if (z.type == HF_N_PREPEND && ld_key_is(l, "prepend"))
			z.a = ld_string(l, &z.alen);
		else if (z.type == HF_N_REPLACE && ld_key_is(l, "pattern")) {
			/* A string is kept: found without the regex. */
			z.re = pattern(l, &z.a, &z.alen, &lit);
			if (!lit || z.alen == 0) {
				free(z.a);
				z.a = NULL;
			}
		} else if (z.type == HF_N_REPLACE && ld_key_is(l, "content"))
			z.b = ld_string(l, &z.blen);
		else if (!pskd_jscan_skip(&l->j))
			break;
	}
	ld_check(l);
	if ((z.type == HF_N_PREPEND && z.a == NULL) ||
	    (z.type == HF_N_REPLACE && (z.re == NULL || z.b == NULL)))
		ld_die(l, "a normalizer without its pattern or text");
	if (strcmp(type, "Sequence") != 0) {
		hf->norm = pskd_xreallocarray(hf->norm, hf->nnorm + 1,
		    sizeof(*hf->norm));
		hf->norm[hf->nnorm++] = z;
	}
	free(type);
}


static int
prepend_scheme(struct ld *l)
{
	char *s = ld_string(l, NULL);
	int v;

	if (strcmp(s, "always") == 0)
		v = HF_PREPEND_ALWAYS;
	else if (strcmp(s, "first") == 0)
		v = HF_PREPEND_FIRST;
	else if (strcmp(s, "never") == 0)
		v = HF_PREPEND_NEVER;
	else
		ld_unsupported(l, "the prepend_scheme", s);
	free(s);
	return v;
}

/* By HF_P_*. */
const char *const pskd_hf_pretok_names[] = { "ByteLevel", "Split",
    "Metaspace", "Digits", "Punctuation", "Whitespace", "WhitespaceSplit" };

void
ld_pretokenizer(struct ld *l, struct pskd_hf *hf)
{
	const char *const *names = pskd_hf_pretok_names;
	struct pskd_hf_pretok z;
	char err[256], *type, *text;
	size_t n;
	int i, seq, scheme = -1, aps = -1, lit;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		ld_die(l, "expected a pre-tokenizer");
	memset(&z, 0, sizeof(z));
	z.line = ld_line(l);
	z.fast = -1;
	type = ld_type_of(l);
	seq = strcmp(type, "Sequence") == 0;
	for (i = 0; i < 7 && strcmp(type, names[i]) != 0; i++)
		;
	if (i == 7 && !seq)
		ld_unsupported(l, "the pre-tokenizer", type);
	z.type = i;
	/* HF's defaults. */
	z.prefix_space = z.use_regex = 1;
	z.behavior = HF_ISOLATED;
	z.split = 1;
	memcpy(z.rep, PSKD_HF_BAR, PSKD_HF_BARLEN);
	z.replen = PSKD_HF_BARLEN;
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (seq && ld_key_is(l, "pretokenizers"))
			each(l, hf, ld_pretokenizer, "expected a list of "
			    "pre-tokenizers");
		else if (z.type == HF_P_BYTELEVEL &&
		    ld_key_is(l, "add_prefix_space"))
			z.prefix_space = ld_boolean(l);
		else if (z.type == HF_P_BYTELEVEL && ld_key_is(l, "use_regex"))
			z.use_regex = ld_boolean(l);
		else if (z.type == HF_P_SPLIT && ld_key_is(l, "pattern")) {
			/* A regex that a fast path may cut, or a string. */
			z.re = pattern(l, &text, &n, &lit);
			if (!lit)
				z.fast = pskd_pretok_of_regex(text, n);
			free(text);
		}
		else if ((z.type == HF_P_SPLIT || z.type == HF_P_PUNCT) &&
		    ld_key_is(l, "behavior"))
			z.behavior = behavior(l);
		else if (z.type == HF_P_SPLIT && ld_key_is(l, "invert"))
			z.invert = ld_boolean(l);
		else if (z.type == HF_P_METASPACE &&
		    ld_key_is(l, "replacement"))
			one_char(l, z.rep, &z.replen);
		else if (z.type == HF_P_METASPACE &&
		    ld_key_is(l, "prepend_scheme"))
			scheme = prepend_scheme(l);
		else if (z.type == HF_P_METASPACE &&
		    ld_key_is(l, "add_prefix_space"))
			aps = ld_boolean(l);
		else if (z.type == HF_P_METASPACE && ld_key_is(l, "split"))
			z.split = ld_boolean(l);
		else if (z.type == HF_P_DIGITS &&
		    ld_key_is(l, "individual_digits"))
			z.individual = ld_boolean(l);
		else if (!pskd_jscan_skip(&l->j))
			break;
	}
	ld_check(l);
	free(type);
	if (seq)
		return;
	/* Metaspace: the old add_prefix_space, or the scheme. */
	z.prepend = scheme != -1 ? scheme : aps == 0 ? HF_PREPEND_NEVER :
	    HF_PREPEND_ALWAYS;
	if (z.type == HF_P_SPLIT && z.re == NULL)
		ld_die(l, "Split without its pattern");
	if (z.type == HF_P_BYTELEVEL && z.use_regex)
		z.fast = PSKD_PAT_R50K;
	if (z.type == HF_P_WHITESPACE && (z.re = pskd_hf_regex_new(
	    "\\w+|[^\\w\\s]+", 13, 0, err, sizeof(err))) == NULL)
		ld_die(l, pskd_xstrdup(err));
	hf->pre = pskd_xreallocarray(hf->pre, hf->npre + 1, sizeof(*hf->pre));
	hf->pre[hf->npre++] = z;
}

/* ---- decoders ---------------------------------------------------------- */


void
ld_decoder(struct ld *l, struct pskd_hf *hf)
{
	static const char *const names[] = { "ByteLevel", "ByteFallback",
	    "Fuse", "Strip", "Replace", "Metaspace" };
	struct pskd_hf_dec z;
	char *type, rep[4];
	int i, seq, scheme = -1, aps = -1;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		ld_die(l, "expected a decoder");
	memset(&z, 0, sizeof(z));
	type = ld_type_of(l);
	seq = strcmp(type, "Sequence") == 0;
	for (i = 0; i < 6 && strcmp(type, names[i]) != 0; i++)
		;
	if (i == 6 && !seq)
		ld_unsupported(l, "the decoder", type);
	z.type = i;
	if (z.type == HF_D_METASPACE) {
		z.a = pskd_xstrndup(PSKD_HF_BAR, PSKD_HF_BARLEN);
		z.alen = PSKD_HF_BARLEN;
	}
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (seq && ld_key_is(l, "decoders")) {
			each(l, hf, ld_decoder, "expected a list of decoders");
		} else if (z.type == HF_D_STRIP && ld_key_is(l, "content")) {
			one_char(l, rep, &z.alen);
			z.a = pskd_xstrndup(rep, z.alen);
		} else if (z.type == HF_D_STRIP && ld_key_is(l, "start")) {
			z.start = (int)ld_integer(l, 0, 1 << 20);
		} else if (z.type == HF_D_STRIP && ld_key_is(l, "stop")) {
			z.stop = (int)ld_integer(l, 0, 1 << 20);
		} else if (z.type == HF_D_REPLACE && ld_key_is(l, "pattern")) {
			z.a = pattern_string(l, &z.alen);
		} else if (z.type == HF_D_REPLACE && ld_key_is(l, "content")) {
			z.b = ld_string(l, &z.blen);
		} else if (z.type == HF_D_METASPACE &&
		    ld_key_is(l, "replacement")) {
			one_char(l, rep, &z.alen);
			free(z.a);
			z.a = pskd_xstrndup(rep, z.alen);
		} else if (z.type == HF_D_METASPACE &&
		    ld_key_is(l, "prepend_scheme")) {
			scheme = prepend_scheme(l);
		} else if (z.type == HF_D_METASPACE &&
		    ld_key_is(l, "add_prefix_space")) {
			aps = ld_boolean(l);
		} else if (!pskd_jscan_skip(&l->j))
			break;
	}
	ld_check(l);
	free(type);
	if (seq)
		return;
	z.prepend = scheme != -1 ? scheme : aps == 0 ? HF_PREPEND_NEVER :
	    HF_PREPEND_ALWAYS;
	if ((z.type == HF_D_STRIP && z.a == NULL) || (z.type == HF_D_REPLACE &&
	    (z.a == NULL || z.b == NULL || z.alen == 0)))
		ld_die(l, "a decoder without its pattern or content");
	hf->dec = pskd_xreallocarray(hf->dec, hf->ndec + 1, sizeof(*hf->dec));
	hf->dec[hf->ndec++] = z;
}

/* ---- added tokens ------------------------------------------------------ */

void
ld_added_tokens(struct ld *l, struct pskd_hf *hf)
{
	struct pskd_hf_added a;
	int64_t id;
	int seen;

	if (!pskd_jscan_array(&l->j))
		ld_die(l, "expected a list of added tokens");
	while (pskd_jscan_next(&l->j)) {
		if (!pskd_jscan_object(&l->j))
			ld_die(l, "expected an added token");
		memset(&a, 0, sizeof(a));
		id = -1;
		seen = 0;
		while (pskd_jscan_member(&l->j, &l->key)) {
			if (ld_key_is(l, "id")) {
				id = ld_integer(l, 0, PSKD_RANK_MAX - 1);
			} else if (ld_key_is(l, "content")) {
				a.text = ld_string(l, &a.len);
				seen = 1;
			} else if (ld_key_is(l, "special")) {
				a.special = (unsigned char)ld_boolean(l);
			} else if (ld_key_is(l, "single_word")) {
				a.single_word = (unsigned char)ld_boolean(l);
			} else if (ld_key_is(l, "lstrip")) {
				a.lstrip = (unsigned char)ld_boolean(l);
			} else if (ld_key_is(l, "rstrip")) {
				a.rstrip = (unsigned char)ld_boolean(l);
			} else if (ld_key_is(l, "normalized")) {
				a.normalized = (unsigned char)ld_boolean(l);
			} else if (!pskd_jscan_skip(&l->j))
				break;
		}
		ld_check(l);
		if (id < 0 || !seen)
			ld_die(l, "an added token without its id or content");
		if (a.len == 0) {
			free(a.text);
			continue;	/* HF ignores it */
		}
		a.id = (uint32_t)id;
		hf->added = pskd_xreallocarray(hf->added, hf->nadded + 1,
		    sizeof(*hf->added));
		hf->added[hf->nadded++] = a;
	}
	ld_check(l);
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
	if (k == 0)
		return;		/* ids may be NULL */
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
		ld_die(l, "expected the template's pieces");
	while (pskd_jscan_next(&l->j)) {
		if (!pskd_jscan_object(&l->j) ||
		    !pskd_jscan_member(&l->j, &l->key))
			ld_die(l, "expected a piece of the template");
		special = ld_key_is(l, "SpecialToken");
		if (!special && !ld_key_is(l, "Sequence"))
			ld_die(l, "expected SpecialToken or Sequence");
		if (!pskd_jscan_object(&l->j))
			ld_die(l, "expected a piece of the template");
		name = NULL;
		while (pskd_jscan_member(&l->j, &l->key)) {
			if (ld_key_is(l, "id"))
				name = ld_string(l, NULL);
			else if (!pskd_jscan_skip(&l->j))
				break;
		}
		if (pskd_jscan_member(&l->j, &l->key))
			ld_die(l, "expected one of SpecialToken and Sequence");
		ld_check(l);
		if (name == NULL)
			ld_die(l, "a piece of the template without its id");
		if (!special) {
			if (seen || strcmp(name, "A") != 0)
				ld_die(l, "a template for one text has the "
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
	ld_check(l);
}

static void
template_specials(struct ld *l, struct tmpl *t)
{
	size_t k;
	int64_t id;

	if (!pskd_jscan_object(&l->j))
		ld_die(l, "expected the template's special tokens");
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
			ld_die(l, "expected a special token");
		while (pskd_jscan_member(&l->j, &l->key)) {
			if (!ld_key_is(l, "ids")) {
				if (!pskd_jscan_skip(&l->j))
					break;
				continue;
			}
			if (!pskd_jscan_array(&l->j))
				ld_die(l, "expected a list of ids");
			while (pskd_jscan_next(&l->j)) {
				id = ld_integer(l, 0, PSKD_RANK_MAX - 1);
				t->ids[k] = pskd_xreallocarray(t->ids[k],
				    t->nids[k] + 1, sizeof(**t->ids));
				t->ids[k][t->nids[k]++] = (uint32_t)id;
			}
		}
		ld_check(l);
	}
	ld_check(l);
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
			ld_die(l, "the template names a special token it does "
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
		ld_die(l, "expected [token, id]");
	free(ld_string(l, NULL));
	if (!pskd_jscan_next(&l->j))
		ld_die(l, "expected [token, id]");
	id = ld_integer(l, 0, PSKD_RANK_MAX - 1);
	if (pskd_jscan_next(&l->j))
		ld_die(l, "expected [token, id]");
	ld_check(l);
	return (uint32_t)id;
}


void
ld_post_processor(struct ld *l, struct pskd_hf *hf)
{
	struct tmpl t;
	char *type;
	uint32_t cls = 0, sep = 0;
	int kind;
	size_t i;

	if (pskd_jscan_null(&l->j))
		return;
	if (!pskd_jscan_object(&l->j))
		ld_die(l, "expected a post-processor");
	memset(&t, 0, sizeof(t));
	type = ld_type_of(l);
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
		ld_unsupported(l, "the post-processor", type);
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (kind == 1 && ld_key_is(l, "single"))
			template_single(l, &t);
		else if (kind == 1 && ld_key_is(l, "special_tokens"))
			template_specials(l, &t);
		else if (kind == 2 && ld_key_is(l, "cls"))
			cls = name_id(l);
		else if (kind == 2 && ld_key_is(l, "sep"))
			sep = name_id(l);
		else if (kind == 3 && ld_key_is(l, "processors"))
			each(l, hf, ld_post_processor, "expected a list of "
			    "post-processors");
		else if (!pskd_jscan_skip(&l->j))
			break;
	}
	ld_check(l);
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
