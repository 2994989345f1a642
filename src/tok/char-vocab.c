/*
 * char-vocab.c - character vocabularies (char.h) as a kind of vocabulary
 * (-E char -v FILE): the file parsed and written a line at a time, a
 * character a token, <|endoftext|> the one after the last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "char.h"
#include "vocab.h"

#define NCP	0x110000

static int
hexval(unsigned c)
{
	if (c >= '0' && c <= '9')
		return (int)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (int)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (int)(c - 'A' + 10);
	return -1;
}

/* Undo the escapes of s[0..n) into out; its length, or -1. */
static long
unescape(const unsigned char *s, size_t n, unsigned char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		if (++i == n)
			return -1;
		switch (s[i]) {
		case '\\': out[o++] = '\\'; break;
		case 'n': out[o++] = '\n'; break;
		case 't': out[o++] = '\t'; break;
		case 'r': out[o++] = '\r'; break;
		case 'x':
			if (i + 2 >= n || hexval(s[i + 1]) < 0 ||
			    hexval(s[i + 2]) < 0)
				return -1;
			out[o++] = (unsigned char)(hexval(s[i + 1]) << 4 |
			    hexval(s[i + 2]));
			i += 2;
			break;
		default:
			return -1;
		}
	}
	return (long)o;
}

int
pskd_charvocab_parse(struct pskd_charvocab *v, const unsigned char *p,
    size_t n, char *err, size_t errsize)
{
	const unsigned char *line, *end = p + n, *nl;
	unsigned char buf[8];
	uint64_t lineno = 0;
	size_t cap = 0;
	uint32_t cp;
	long k;

	memset(v, 0, sizeof(*v));
	v->id = pskd_xcalloc(NCP, sizeof(uint32_t));
	for (line = p; line < end; line = nl + 1) {
		lineno++;
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (nl - line > 8) {
			snprintf(err, errsize, "%llu: not one character",
			    (unsigned long long)lineno);
			goto fail;
		}
		if ((k = unescape(line, (size_t)(nl - line), buf)) < 0) {
			snprintf(err, errsize, "%llu: invalid escape",
			    (unsigned long long)lineno);
			goto fail;
		}
		if (k == 0 || pskd_utf8_decode(buf, (size_t)k, &cp) !=
		    (size_t)k) {
			snprintf(err, errsize, "%llu: not one UTF-8 character",
			    (unsigned long long)lineno);
			goto fail;
		}
		if (v->id[cp] != 0) {
			snprintf(err, errsize, "%llu: U+%04X given twice",
			    (unsigned long long)lineno, cp);
			goto fail;
		}
		if (v->n == cap) {
			cap = cap ? cap * 2 : 256;
			v->chars = pskd_xreallocarray(v->chars, cap,
			    sizeof(*v->chars));
		}
		v->chars[v->n++] = cp;
		v->id[cp] = v->n;
	}
	return 0;
fail:
	pskd_charvocab_free(v);
	return -1;
}

void
pskd_charvocab_free(struct pskd_charvocab *v)
{
	free(v->chars);
	free(v->id);
	memset(v, 0, sizeof(*v));
}

void
pskd_charvocab_line(struct pskd_buf *b, uint32_t cp)
{
	unsigned char u[4];
	char hex[8];

	if (cp == '\\')
		pskd_buf_add(b, "\\\\", 2);
	else if (cp == '\n')
		pskd_buf_add(b, "\\n", 2);
	else if (cp == '\t')
		pskd_buf_add(b, "\\t", 2);
	else if (cp == '\r')
		pskd_buf_add(b, "\\r", 2);
	else if (cp < 0x20 || cp == 0x7f) {
		snprintf(hex, sizeof(hex), "\\x%02x", cp);
		pskd_buf_add(b, hex, 4);
	} else
		pskd_buf_add(b, u, pskd_utf8_encode(cp, u));
	pskd_buf_addc(b, '\n');
}

/* ---- the kind ----------------------------------------------------------- */

/*
 * A character vocabulary, told from the other kinds' files without -E
 * char: every line one (escaped) character, at most four bytes, where a
 * line of a ranks file has six or more and a tokenizer.json has longer
 * ones.
 */
static int
char_sniff(const unsigned char *p, size_t n)
{
	const unsigned char *end = p + n, *nl;

	if (n == 0)
		return 0;
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (nl == p || nl - p > 4)
			return 0;
	}
	return 1;
}

static int
char_load(struct pskd_vocab *v, const char *path, const unsigned char *p,
    size_t n, const char *encoding, struct pskd_error *e)
{
	struct pskd_charvocab *cv;
	char err[256];

	(void)encoding;
	cv = pskd_xcalloc(1, sizeof(*cv));
	v->impl = cv;
	if (pskd_charvocab_parse(cv, p, n, err, sizeof(err)) == -1) {
		pskd_error_set(e, 0, "%s:%s", path, err);
		return PSKD_EXIT_DATA;
	}
	v->special = pskd_xcalloc(1, sizeof(*v->special));
	v->special[0].text = "<|endoftext|>";
	v->special[0].len = 13;
	v->special[0].id = cv->n;
	v->nspecial = 1;
	v->nvocab = (uint64_t)cv->n + 1;
	return 0;
}

static int
char_ordinary(struct pskd_vocab *v, const unsigned char *s, size_t n,
    struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	const struct pskd_charvocab *cv = v->impl;
	size_t i, k;
	uint32_t cp;

	pskd_ids_reserve(out, n);
	for (i = 0; i < n; i += k) {
		k = pskd_utf8_decode(s + i, n - i, &cp);
		if (k == 0 || cv->id[cp] == 0) {
			*bad = i;
			*badcp = k ? cp : PSKD_NOT_CHAR;
			return -1;
		}
		out->v[out->n++] = cv->id[cp] - 1;
	}
	return 0;
}

static int
char_encode(struct pskd_vocab *v, const unsigned char *s, size_t n, int allow,
    struct pskd_ids *out, size_t *bad, uint32_t *badcp)
{
	return pskd_vocab_encode_split(v, s, n, allow, out, bad, badcp,
	    char_ordinary);
}

static int
char_decode(struct pskd_vocab *v, const uint32_t *ids, size_t n, int flags,
    struct pskd_buf *out, size_t *bad)
{
	const struct pskd_charvocab *cv = v->impl;
	size_t i;

	(void)flags;
	pskd_buf_reserve(out, 4 * n);
	for (i = 0; i < n; i++) {
		if (ids[i] >= cv->n) {
			*bad = i;
			return -1;
		}
		out->len += pskd_utf8_encode(cv->chars[ids[i]],
		    out->p + out->len);
	}
	return 0;
}

static uint32_t
char_token(const struct pskd_vocab *v, const unsigned char *t, size_t n)
{
	const struct pskd_charvocab *cv = v->impl;
	uint32_t cp;

	if (pskd_utf8_decode(t, n, &cp) == n && cv->id[cp] != 0)
		return cv->id[cp] - 1;
	return PSKD_RANK_NONE;
}

static size_t
char_cut(const struct pskd_vocab *v, const unsigned char *s, size_t n)
{
	return pskd_vocab_cut_chars(v, s, n);
}

static void
char_free(struct pskd_vocab *v)
{
	pskd_charvocab_free(v->impl);
	free(v->impl);
	free(v->special);
}

const struct pskd_vocab_kind pskd_vocab_char = {
	.name = "char",
	.sniff = char_sniff,
	.load = char_load,
	.encode = char_encode,
	.decode = char_decode,
	.token = char_token,
	.cut = char_cut,
	.free = char_free,
};
