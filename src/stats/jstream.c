/*
 * jstream.c - a JSON Lines document read in pieces (jstream.h): the
 * grammar of lib's json.c as a state machine over the bytes, with its
 * stack of open containers (at most JS_MAXDEPTH) and, for each, the
 * members asked for whose path goes on inside it.  Each check is made
 * where json.c makes it, so that an error has its words and its byte:
 * the four hex digits of a \u escape are taken whole before they are
 * judged (a line that ends among them is "truncated"), and so are the six
 * bytes of a low surrogate's escape and the bytes of a UTF-8 character.
 */
#include <stdio.h>
#include <string.h>

#include "pskd.h"
#include "stats/jstream.h"

enum {
	ST_START,	/* before the object */
	ST_END,		/* after it: blanks only */
	ST_OBJECT,	/* after '{': a member name or '}' */
	ST_KEY,		/* after ',' in an object: a member name */
	ST_COLON,
	ST_ARRAY,	/* after '[': a value or ']' */
	ST_VALUE,
	ST_AFTER,	/* after a value: ',' or the container's end */
	ST_STRING,
	ST_NUMBER,
	ST_LITERAL,
	ST_FAILED
};

enum { ES_NONE, ES_BACKSLASH, ES_HEX, ES_LOW, ES_UTF8 };
enum { N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

static int
fail(struct jstream *j, uint64_t at, const char *msg)
{
	snprintf(j->err, sizeof(j->err), "%s", msg);
	j->erroff = at;
	j->state = ST_FAILED;
	return -1;
}

static int
blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void
forget(struct jstream *j, uint32_t set)
{
	size_t k;

	for (k = 0; set != 0 && k < j->nf; k++)
		if (set >> k & 1) {
			struct js_field *f = &j->f[k];

			f->kind = PSKD_JSON_MISSING;
			f->null = f->over = 0;
			f->bytes = f->chars = 0;
			f->value.len = 0;
		}
}

void
js_begin(struct jstream *j, struct js_field *f, size_t nf)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->nf = nf;
	forget(j, nf >= 32 ? UINT32_MAX : (1u << nf) - 1);
}

void
js_free(struct js_field *f, size_t nf)
{
	size_t k;

	for (k = 0; k < nf; k++)
		pskd_buf_free(&f[k].value);
}

/* Up to cap bytes of a value kept for the fields of here that want it. */
static void
keep(struct jstream *j, const unsigned char *p, size_t n)
{
	size_t k, room;

	for (k = 0; k < j->nf; k++) {
		struct js_field *f = &j->f[k];

		if (!(j->here >> k & 1) || f->cap == 0)
			continue;
		room = f->cap - f->value.len;
		if (n > room)
			f->over = 1;
		pskd_buf_add(&f->value, p, n < room ? n : room);
	}
}

/* Unescaped text of the string being read: n bytes, c characters. */
static void
text(struct jstream *j, const unsigned char *p, size_t n, uint64_t c)
{
	struct js_field *f;
	size_t k;

	if (j->key || j->here == 0)
		return;
	if ((j->here & (j->here - 1)) == 0) {	/* one field: most often */
		f = &j->f[__builtin_ctz(j->here)];
		f->bytes += n;
		f->chars += c;
		if (f->cap > 0)
			keep(j, p, n);
		return;
	}
	for (k = 0; k < j->nf; k++)
		if (j->here >> k & 1) {
			j->f[k].bytes += n;
			j->f[k].chars += c;
		}
	keep(j, p, n);
}

static void
code_point(struct jstream *j, uint32_t cp)
{
	unsigned char b[4];

	text(j, b, pskd_utf8_encode(cp, b), 1);
}

/* A value ended: the fields it is the value of get its kind. */
static void
ended(struct jstream *j, uint32_t here, enum pskd_json_kind kind, int null)
{
	size_t k;

	for (k = 0; here != 0 && k < j->nf; k++)
		if (here >> k & 1) {
			j->f[k].kind = kind;
			j->f[k].null = null;
		}
	j->state = j->depth == 0 ? ST_END : ST_AFTER;
}

static int
open_container(struct jstream *j, int object, uint64_t at)
{
	struct js_level *l;

	if (j->depth >= JS_MAXDEPTH)
		return fail(j, at, "nested too deeply");
	l = &j->lv[j->depth++];
	l->object = (unsigned char)object;
	l->active = object ? j->deeper : 0;
	l->here = j->here;
	j->state = object ? ST_OBJECT : ST_ARRAY;
	return 0;
}

static void
close_container(struct jstream *j)
{
	const struct js_level *l = &j->lv[--j->depth];

	ended(j, l->here, PSKD_JSON_OTHER, 0);
}

static int
begin_value(struct jstream *j, unsigned char c, uint64_t at)
{
	forget(j, j->here | j->deeper);
	j->start = at;
	switch (c) {
	case '"':
		j->state = ST_STRING;
		j->key = 0;
		j->sub = ES_NONE;
		return 0;
	case '{':
		return open_container(j, 1, at);
	case '[':
		return open_container(j, 0, at);
	case 't': j->word = "true"; break;
	case 'f': j->word = "false"; break;
	case 'n': j->word = "null"; break;
	default:
		if (c == '-')
			j->sub = N_MINUS;
		else if (c == '0')
			j->sub = N_ZERO;
		else if (c >= '1' && c <= '9')
			j->sub = N_INT;
		else
			return fail(j, at, "invalid number");
		j->state = ST_NUMBER;
		keep(j, &c, 1);
		return 0;
	}
	j->state = ST_LITERAL;
	j->sub = 1;
	keep(j, &c, 1);
	return 0;
}

/* The member name just read: which fields it leads to. */
static void
match_key(struct jstream *j)
{
	const struct js_level *l = &j->lv[j->depth - 1];
	const char *seg;
	size_t k, len;

	j->here = j->deeper = 0;
	for (k = 0; l->active != 0 && k < j->nf; k++) {
		if (!(l->active >> k & 1) ||
		    (seg = pskd_json_segment(j->f[k].name, j->depth - 1,
		    &len)) == NULL || len != j->keylen ||
		    memcmp(seg, j->keyb, len) != 0)
			continue;
		if (seg[len] == '\0')
			j->here |= 1u << k;
		else
			j->deeper |= 1u << k;
	}
}

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at hold[from], their first at the line's byte at. */
static int
hex4(struct jstream *j, size_t from, uint64_t at, uint32_t *v)
{
	size_t k;
	int h;

	*v = 0;
	for (k = 0; k < 4; k++) {
		if ((h = hexval(j->hold[from + k])) < 0)
			return fail(j, at + k, "invalid \\u escape");
		*v = *v << 4 | (uint32_t)h;
	}
	return 0;
}

/* The bytes an escape or a character still needs, into hold. */
static size_t
gather(struct jstream *j, const unsigned char *p, size_t n)
{
	size_t k = j->want - j->nhold;

	if (k > n)
		k = n;
	memcpy(j->hold + j->nhold, p, k);
	j->nhold += k;
	return k;
}

/* The held bytes are complete: judge them. */
static int
held(struct jstream *j)
{
	uint32_t cp, lo;

	switch (j->sub) {
	case ES_UTF8:
		if (pskd_utf8_decode(j->hold, j->want, &cp) == 0)
			return fail(j, j->holdat, "invalid UTF-8");
		text(j, j->hold, j->want, 1);
		break;
	case ES_HEX:
		if (hex4(j, 0, j->esc + 2, &cp) == -1)
			return -1;
		if (cp >= 0xDC00 && cp <= 0xDFFF)
			return fail(j, j->esc, "lone low surrogate in \\u "
			    "escape");
		if (cp >= 0xD800 && cp <= 0xDBFF) {
			/* Its low half: six more bytes, "\uDC00". */
			j->hold[6] = (unsigned char)(cp >> 8);
			j->hold[7] = (unsigned char)cp;
			j->sub = ES_LOW;
			j->nhold = 0;
			j->want = 6;
			return 0;
		}
		code_point(j, cp);
		break;
	case ES_LOW:
		if (j->hold[0] != '\\' || j->hold[1] != 'u')
			return fail(j, j->esc, "lone high surrogate in \\u "
			    "escape");
		if (hex4(j, 2, j->esc + 8, &lo) == -1)
			return -1;
		if (lo < 0xDC00 || lo > 0xDFFF)
			return fail(j, j->esc, "lone high surrogate in \\u "
			    "escape");
		cp = (uint32_t)j->hold[6] << 8 | j->hold[7];
		code_point(j, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
		break;
	}
	j->sub = ES_NONE;
	return 0;
}

static int
escape(struct jstream *j, unsigned char c)
{
	unsigned char to;

	switch (c) {
	case '"': case '\\': case '/': to = c; break;
	case 'b': to = '\b'; break;
	case 'f': to = '\f'; break;
	case 'n': to = '\n'; break;
	case 'r': to = '\r'; break;
	case 't': to = '\t'; break;
	case 'u':
		j->sub = ES_HEX;
		j->nhold = 0;
		j->want = 4;
		return 0;
	default:
		return fail(j, j->esc, "invalid escape");
	}
	text(j, &to, 1, 1);
	j->sub = ES_NONE;
	return 0;
}

/* The bytes of a string from p[0]; returns how many it took, or -1. */
static ssize_t
string(struct jstream *j, const unsigned char *p, size_t n)
{
	size_t i = 0, run, len;
	uint32_t cp;
	unsigned char c;

	while (i < n) {
		if (j->sub == ES_BACKSLASH) {
			if (escape(j, p[i++]) == -1)
				return -1;
			continue;
		}
		if (j->sub != ES_NONE) {
			i += gather(j, p + i, n - i);
			if (j->nhold == j->want && held(j) == -1)
				return -1;
			continue;
		}
		for (run = i; i < n && p[i] != '"' && p[i] != '\\' &&
		    p[i] >= 0x20 && p[i] < 0x80; i++)
			;
		if (i > run)
			text(j, p + run, i - run, i - run);
		if (i == n)
			break;
		c = p[i];
		if (c == '"') {
			i++;
			if (j->key)
				j->state = ST_COLON;	/* js_feed matches it */
			else
				ended(j, j->here, PSKD_JSON_STRING, 0);
			break;
		}
		if (c < 0x20)
			return fail(j, j->at + i, "control character in string");
		if (c == '\\') {
			j->esc = j->at + i++;
			j->sub = ES_BACKSLASH;
			continue;
		}
		len = c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ?
		    4 : 0;
		if (len == 0)
			return fail(j, j->at + i, "invalid UTF-8");
		if (n - i >= len) {
			if (pskd_utf8_decode(p + i, len, &cp) == 0)
				return fail(j, j->at + i, "invalid UTF-8");
			text(j, p + i, len, 1);
			i += len;
			continue;
		}
		/* Cut by the end of this piece: held until it is whole. */
		j->sub = ES_UTF8;
		j->holdat = j->at + i;
		j->nhold = 0;
		j->want = len;
	}
	return (ssize_t)i;
}

/* The number goes on with c (1), or ended before it (0), or is bad. */
static int
number(struct jstream *j, unsigned char c)
{
	int digit = c >= '0' && c <= '9';

	switch (j->sub) {
	case N_MINUS:
		if (c == '0')
			j->sub = N_ZERO;
		else if (digit)
			j->sub = N_INT;
		else
			return fail(j, j->start, "invalid number");
		return 1;
	case N_ZERO:
	case N_INT:
		if (j->sub == N_INT && digit)
			return 1;
		if (c == '.') {
			j->sub = N_DOT;
			return 1;
		}
		/* FALLTHROUGH */
	case N_FRAC:
		if (j->sub == N_FRAC && digit)
			return 1;
		if (c == 'e' || c == 'E') {
			j->sub = N_E;
			return 1;
		}
		return 0;
	case N_DOT:
		if (!digit)
			return fail(j, j->start, "invalid number");
		j->sub = N_FRAC;
		return 1;
	case N_E:
		if (c == '+' || c == '-') {
			j->sub = N_ESIGN;
			return 1;
		}
		/* FALLTHROUGH */
	case N_ESIGN:
		if (!digit)
			return fail(j, j->start, "invalid number");
		j->sub = N_EXP;
		return 1;
	default:
		return digit;
	}
}

/* One byte outside a string, number or literal. */
static int
structure(struct jstream *j, unsigned char c, uint64_t at)
{
	const struct js_level *l = j->depth ? &j->lv[j->depth - 1] : NULL;

	if (blank(c))
		return 0;
	switch (j->state) {
	case ST_START:
		if (c != '{')
			return fail(j, at, "not a JSON object");
		j->here = 0;
		j->deeper = j->nf >= 32 ? UINT32_MAX : (1u << j->nf) - 1;
		return open_container(j, 1, at);
	case ST_END:
		return fail(j, at, "trailing characters after the object");
	case ST_OBJECT:
		if (c == '}') {
			close_container(j);
			return 0;
		}
		/* FALLTHROUGH */
	case ST_KEY:
		if (c != '"')
			return fail(j, at, "expected a member name");
		j->state = ST_STRING;
		j->key = 1;
		j->keylen = 0;
		j->sub = ES_NONE;
		j->start = at;
		return 0;
	case ST_COLON:
		if (c != ':')
			return fail(j, at, "expected ':'");
		j->state = ST_VALUE;
		return 0;
	case ST_ARRAY:
		if (c == ']') {
			close_container(j);
			return 0;
		}
		j->here = j->deeper = 0;
		return begin_value(j, c, at);
	case ST_VALUE:
		return begin_value(j, c, at);
	default:	/* ST_AFTER */
		if (c == ',') {
			j->state = l->object ? ST_KEY : ST_VALUE;
			j->here = j->deeper = 0;
			return 0;
		}
		if (c == (l->object ? '}' : ']')) {
			close_container(j);
			return 0;
		}
		return fail(j, at, l->object ? "expected ',' or '}'" :
		    "expected ',' or ']'");
	}
}

/* The raw bytes of a member name, as far as a wanted name can be. */
static void
key_bytes(struct jstream *j, const unsigned char *p, size_t n)
{
	size_t room = JS_KEYCAP - j->keylen;

	if (n > room) {
		/* Longer than any name asked for: it matches none. */
		n = room;
		j->keylen = JS_KEYCAP + 1;
	}
	if (j->keylen <= JS_KEYCAP) {
		memcpy(j->keyb + j->keylen, p, n);
		j->keylen += n;
	}
}

int
js_feed(struct jstream *j, const unsigned char *p, size_t n)
{
	size_t i = 0;
	ssize_t k;
	int r;

	while (i < n) {
		switch (j->state) {
		case ST_FAILED:
			return -1;
		case ST_STRING:
			if ((k = string(j, p + i, n - i)) < 0)
				return -1;
			if (j->key && j->keylen <= JS_KEYCAP)
				key_bytes(j, p + i, (size_t)k -
				    (j->state == ST_COLON));
			if (j->key && j->state == ST_COLON)
				match_key(j);
			i += (size_t)k;
			j->at += (uint64_t)k;
			continue;
		case ST_NUMBER:
			if ((r = number(j, p[i])) == -1)
				return -1;
			if (r == 0) {
				ended(j, j->here, PSKD_JSON_NUMBER, 0);
				continue;	/* p[i] again, after the value */
			}
			keep(j, p + i, 1);
			break;
		case ST_LITERAL:
			if ((unsigned char)j->word[j->sub] != p[i])
				return fail(j, j->start, "invalid value");
			keep(j, p + i, 1);
			if (j->word[++j->sub] == '\0')
				ended(j, j->here, PSKD_JSON_OTHER,
				    j->word[0] == 'n');
			break;
		default:
			if (structure(j, p[i], j->at) == -1)
				return -1;
			break;
		}
		i++;
		j->at++;
	}
	return 0;
}

int
js_end(struct jstream *j)
{
	const struct js_level *l = j->depth ? &j->lv[j->depth - 1] : NULL;
	uint64_t at = j->at;

	if (j->state == ST_NUMBER) {
		if (j->sub == N_MINUS || j->sub == N_DOT || j->sub == N_E ||
		    j->sub == N_ESIGN)
			return fail(j, j->start, "invalid number");
		ended(j, j->here, PSKD_JSON_NUMBER, 0);
	}
	switch (j->state) {
	case ST_FAILED:
		return -1;
	case ST_END:
		return 0;
	case ST_START:
		return fail(j, at, "empty line, expected a JSON object");
	case ST_OBJECT:
	case ST_KEY:
		return fail(j, at, "expected a member name");
	case ST_COLON:
		return fail(j, at, "expected ':'");
	case ST_ARRAY:
	case ST_VALUE:
		return fail(j, at, "expected a value");
	case ST_LITERAL:
		return fail(j, j->start, "invalid value");
	case ST_STRING:
		switch (j->sub) {
		case ES_UTF8:
			return fail(j, j->holdat, "invalid UTF-8");
		case ES_BACKSLASH:
			return fail(j, j->esc, "unterminated string");
		case ES_HEX:
			return fail(j, j->esc + 2, "truncated \\u escape");
		case ES_LOW:
			return fail(j, j->esc, "lone high surrogate in \\u "
			    "escape");
		default:
			return fail(j, j->start, "unterminated string");
		}
	default:	/* ST_AFTER */
		return fail(j, at, l->object ? "expected ',' or '}'" :
		    "expected ',' or ']'");
	}
}
