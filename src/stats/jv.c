/*
 * jv.c - a JSON text (RFC 8259) as a tree: recursive descent, depth at most
 * JV_MAXDEPTH, strings checked as UTF-8 and unescaped, numbers kept as text.
 * Kept beside lib's json.c for the walks jv.h names, which json.c's
 * members-by-name interface cannot do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/jv.h"

struct parser {
	const unsigned char *p;
	size_t		 n;
	size_t		 i;
	char		*err;
	size_t		 errsize;
	size_t		*erroff;
	struct pskd_buf	 tmp;
};

static int
fail(struct parser *ps, size_t at, const char *msg)
{
	snprintf(ps->err, ps->errsize, "%s", msg);
	*ps->erroff = at;
	return -1;
}

static void
blanks(struct parser *ps)
{
	while (ps->i < ps->n && (ps->p[ps->i] == ' ' || ps->p[ps->i] == '\t' ||
	    ps->p[ps->i] == '\n' || ps->p[ps->i] == '\r'))
		ps->i++;
}

static int
hex4(struct parser *ps, uint32_t *v)
{
	unsigned c;
	int k;

	if (ps->n - ps->i < 4)
		return fail(ps, ps->i, "truncated \\u escape");
	*v = 0;
	for (k = 0; k < 4; k++) {
		c = ps->p[ps->i++];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return fail(ps, ps->i - 1, "invalid \\u escape");
		*v = *v << 4 | c;
	}
	return 0;
}

/* A string at ps->i (its quote) into ps->tmp, NUL-terminated. */
static int
string(struct parser *ps)
{
	unsigned char enc[4];
	uint32_t cp, lo;
	size_t k, at;
	unsigned c;

	ps->tmp.len = 0;
	ps->i++;
	for (;;) {
		if (ps->i >= ps->n)
			return fail(ps, ps->i, "unterminated string");
		c = ps->p[ps->i];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(ps, ps->i, "control character in a string");
		if (c >= 0x80) {
			k = pskd_utf8_decode(ps->p + ps->i, ps->n - ps->i, &cp);
			if (k == 0)
				return fail(ps, ps->i, "invalid UTF-8");
			pskd_buf_add(&ps->tmp, ps->p + ps->i, k);
			ps->i += k;
			continue;
		}
		ps->i++;
		if (c != '\\') {
			pskd_buf_addc(&ps->tmp, (unsigned char)c);
			continue;
		}
		if (ps->i >= ps->n)
			return fail(ps, ps->i, "unterminated string");
		at = ps->i - 1;
		switch (c = ps->p[ps->i++]) {
		case '"': case '\\': case '/':
			pskd_buf_addc(&ps->tmp, (unsigned char)c); continue;
		case 'b': pskd_buf_addc(&ps->tmp, '\b'); continue;
		case 'f': pskd_buf_addc(&ps->tmp, '\f'); continue;
		case 'n': pskd_buf_addc(&ps->tmp, '\n'); continue;
		case 'r': pskd_buf_addc(&ps->tmp, '\r'); continue;
		case 't': pskd_buf_addc(&ps->tmp, '\t'); continue;
		case 'u': break;
		default: return fail(ps, at, "invalid escape");
		}
		if (hex4(ps, &cp) == -1)
			return -1;
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return fail(ps, at, "lone low surrogate");
		if (cp >= 0xd800 && cp <= 0xdbff) {
			if (ps->n - ps->i < 2 || ps->p[ps->i] != '\\' ||
			    ps->p[ps->i + 1] != 'u')
				return fail(ps, at, "lone high surrogate");
			ps->i += 2;
			if (hex4(ps, &lo) == -1)
				return -1;
			if (lo < 0xdc00 || lo > 0xdfff)
				return fail(ps, at, "lone high surrogate");
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
		pskd_buf_add(&ps->tmp, enc, pskd_utf8_encode(cp, enc));
	}
	ps->i++;
	pskd_buf_addc(&ps->tmp, '\0');
	ps->tmp.len--;
	return 0;
}

static int
digits(struct parser *ps)
{
	size_t from = ps->i;

	while (ps->i < ps->n && ps->p[ps->i] >= '0' && ps->p[ps->i] <= '9')
		ps->i++;
	return ps->i > from ? 0 : fail(ps, ps->i, "digit expected");
}

static int
number(struct parser *ps, struct jv *v)
{
	size_t from = ps->i;

	if (ps->p[ps->i] == '-')
		ps->i++;
	if (ps->i < ps->n && ps->p[ps->i] == '0')
		ps->i++;
	else if (digits(ps) == -1)
		return -1;
	if (ps->i < ps->n && ps->p[ps->i] == '.') {
		ps->i++;
		if (digits(ps) == -1)
			return -1;
	}
	if (ps->i < ps->n && (ps->p[ps->i] | 0x20) == 'e') {
		ps->i++;
		if (ps->i < ps->n && (ps->p[ps->i] == '+' ||
		    ps->p[ps->i] == '-'))
			ps->i++;
		if (digits(ps) == -1)
			return -1;
	}
	v->type = JV_NUMBER;
	v->len = ps->i - from;
	v->str = pskd_xstrndup((const char *)ps->p + from, v->len);
	return 0;
}

static int
word(struct parser *ps, const char *w, enum jv_type t, struct jv *v)
{
	size_t len = strlen(w);

	if (ps->n - ps->i < len || memcmp(ps->p + ps->i, w, len) != 0)
		return fail(ps, ps->i, "unexpected character");
	ps->i += len;
	v->type = t;
	return 0;
}

static int value(struct parser *ps, struct jv *v, int depth);

/* Elements or members up to the closing bracket; ps->i past the opener. */
static int
container(struct parser *ps, struct jv *v, int depth, int obj)
{
	size_t cap = 0;
	char *key = NULL;

	v->type = obj ? JV_OBJECT : JV_ARRAY;
	blanks(ps);
	if (ps->i < ps->n && ps->p[ps->i] == (obj ? '}' : ']')) {
		ps->i++;
		return 0;
	}
	for (;;) {
		blanks(ps);
		if (obj) {
			if (ps->i >= ps->n || ps->p[ps->i] != '"')
				return fail(ps, ps->i, "member name expected");
			if (string(ps) == -1)
				return -1;
			key = pskd_xstrndup((const char *)ps->tmp.p,
			    ps->tmp.len);
			blanks(ps);
			if (ps->i >= ps->n || ps->p[ps->i] != ':') {
				free(key);
				return fail(ps, ps->i, "':' expected");
			}
			ps->i++;
		}
		if (v->n == cap) {
			cap = cap ? 2 * cap : 4;
			v->items = pskd_xreallocarray(v->items, cap,
			    sizeof(*v->items));
			if (obj)
				v->keys = pskd_xreallocarray(v->keys, cap,
				    sizeof(*v->keys));
		}
		memset(&v->items[v->n], 0, sizeof(v->items[0]));
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		if (value(ps, &v->items[v->n - 1], depth + 1) == -1)
			return -1;
		blanks(ps);
		if (ps->i < ps->n && ps->p[ps->i] == ',') {
			ps->i++;
			continue;
		}
		if (ps->i < ps->n && ps->p[ps->i] == (obj ? '}' : ']')) {
			ps->i++;
			return 0;
		}
		return fail(ps, ps->i, obj ? "',' or '}' expected" :
		    "',' or ']' expected");
	}
}

static int
value(struct parser *ps, struct jv *v, int depth)
{
	blanks(ps);
	if (ps->i >= ps->n)
		return fail(ps, ps->i, "value expected");
	if (depth > JV_MAXDEPTH)
		return fail(ps, ps->i, "nested too deeply");
	switch (ps->p[ps->i]) {
	case '{':
		ps->i++;
		return container(ps, v, depth, 1);
	case '[':
		ps->i++;
		return container(ps, v, depth, 0);
	case '"':
		if (string(ps) == -1)
			return -1;
		v->type = JV_STRING;
		v->len = ps->tmp.len;
		v->str = pskd_xmalloc(v->len + 1);
		memcpy(v->str, ps->tmp.p, v->len + 1);
		return 0;
	case 't': return word(ps, "true", JV_TRUE, v);
	case 'f': return word(ps, "false", JV_FALSE, v);
	case 'n': return word(ps, "null", JV_NULL, v);
	default:
		if (ps->p[ps->i] == '-' || (ps->p[ps->i] >= '0' &&
		    ps->p[ps->i] <= '9'))
			return number(ps, v);
		return fail(ps, ps->i, "unexpected character");
	}
}

int
jv_parse(struct jv *v, const unsigned char *p, size_t n, char *err,
    size_t errsize, size_t *erroff)
{
	struct parser ps = { p, n, 0, err, errsize, erroff, { NULL, 0, 0 } };
	int rc;

	memset(v, 0, sizeof(*v));
	rc = value(&ps, v, 0);
	if (rc == 0) {
		blanks(&ps);
		if (ps.i < n)
			rc = fail(&ps, ps.i, "data after the value");
	}
	pskd_buf_free(&ps.tmp);
	if (rc == -1)
		jv_free(v);
	return rc;
}

void
jv_free(struct jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		jv_free(&v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct jv *
jv_member(const struct jv *v, const char *key)
{
	size_t i;

	if (v == NULL || v->type != JV_OBJECT)
		return NULL;
	for (i = v->n; i > 0; i--)
		if (strcmp(v->keys[i - 1], key) == 0)
			return &v->items[i - 1];
	return NULL;
}

int
jv_u64(const struct jv *v, uint64_t *out)
{
	if (v == NULL || v->type != JV_NUMBER)
		return -1;
	return pskd_strtonum(v->str, 0, UINT64_MAX, 0, out);
}
