/*
 * type.c - the sample type of a .psk.d file, in Presk syntax:
 *
 *	type  := leaf | "(" type { "," type } ")" | "params" NAME
 *	leaf  := ( "ℝ" | "idx" "[" size "]" ) { "[" dim "]" }
 *	size  := NUMBER | NAME
 *	dim   := NUMBER | NAME ":" NUMBER | NAME | NAME ":" NAME
 *
 * A NAME without a literal leaves the type open (E9001).  Parentheses
 * around a single type only group it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

#define MAXLEAVES 65536

struct parse {
	const char	*s;
	size_t		 n;
	size_t		 i;
	struct pskd_type *t;
	struct pskd_error *e;
	int		 depth;
};

static size_t
column(const struct parse *p, size_t at)
{
	size_t col = 1, k;

	for (k = 0; k < at && k < p->n; k++)
		if (((unsigned char)p->s[k] & 0xC0) != 0x80)
			col++;
	return col;
}

static int
perr(struct parse *p, size_t at, const char *what)
{
	pskd_error_set(p->e, PSKD_E_TYPE, "type: column %zu: %s",
	    column(p, at), what);
	return -1;
}

static void
ws(struct parse *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
	    p->s[p->i] == '\n' || p->s[p->i] == '\r'))
		p->i++;
}

static int
isname0(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
isname(int c)
{
	return isname0(c) || (c >= '0' && c <= '9');
}

static int
peekc(struct parse *p, char c)
{
	ws(p);
	return p->i < p->n && p->s[p->i] == c;
}

static int
expect(struct parse *p, char c)
{
	char msg[32];

	if (peekc(p, c)) {
		p->i++;
		return 0;
	}
	snprintf(msg, sizeof(msg), "expected '%c'", c);
	return perr(p, p->i, msg);
}

/* A NAME (returned as a copy) or NUMBER (in *v, name NULL). */
static int
atom(struct parse *p, char **name, uint64_t *v)
{
	size_t start;

	ws(p);
	start = p->i;
	*name = NULL;
	if (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
		*v = 0;
		while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9') {
			unsigned d = (unsigned)(p->s[p->i] - '0');

			if (*v > (UINT64_MAX - d) / 10)
				return perr(p, start, "number too large");
			*v = *v * 10 + d;
			p->i++;
		}
		return 0;
	}
	if (p->i < p->n && isname0((unsigned char)p->s[p->i])) {
		while (p->i < p->n && isname((unsigned char)p->s[p->i]))
			p->i++;
		*name = pskd_xstrndup(p->s + start, p->i - start);
		return 0;
	}
	return perr(p, start, "expected a number or a name");
}

static int
dim(struct parse *p, struct pskd_leaf *l)
{
	char *name, *name2, msg[160];
	uint64_t v;
	size_t start;

	if (l->ndim == PSKD_MAXDIM)
		return perr(p, p->i, "too many dimensions");
	ws(p);
	start = p->i;
	if (atom(p, &name, &v) == -1)
		return -1;
	if (name != NULL) {
		l->dimname[l->ndim] = name;
		if (!peekc(p, ':')) {
			snprintf(msg, sizeof(msg),
			    "type not closed: dimension %s has no literal size",
			    name);
			return perr(p, start, msg);
		}
		p->i++;
		ws(p);
		start = p->i;
		if (atom(p, &name2, &v) == -1)
			return -1;
		if (name2 != NULL) {
			snprintf(msg, sizeof(msg),
			    "type not closed: dimension %s: %s is not a literal",
			    name, name2);
			free(name2);
			return perr(p, start, msg);
		}
	}
	if (v == 0)
		return perr(p, start, "a dimension must be at least 1");
	l->dim[l->ndim++] = v;
	return expect(p, ']');
}

static int
leaf(struct parse *p)
{
	struct pskd_type *t = p->t;
	struct pskd_leaf *l;
	char *name, msg[160];
	uint64_t v;
	size_t start;

	if (t->nleaves == MAXLEAVES)
		return perr(p, p->i, "too many leaves");
	t->leaves = pskd_xreallocarray(t->leaves, t->nleaves + 1,
	    sizeof(*t->leaves));
	l = &t->leaves[t->nleaves];
	memset(l, 0, sizeof(*l));
	t->shape = pskd_xreallocarray(t->shape, t->nshape + 1,
	    sizeof(*t->shape));
	t->shape[t->nshape].op = PSKD_SHAPE_LEAF;
	t->shape[t->nshape++].n = t->nleaves++;
	ws(p);
	start = p->i;
	if (p->n - p->i >= 3 && memcmp(p->s + p->i, "\xe2\x84\x9d", 3) == 0) {
		l->real = 1;
		p->i += 3;
	} else if (p->n - p->i >= 3 && memcmp(p->s + p->i, "idx", 3) == 0 &&
	    (p->n - p->i == 3 || !isname((unsigned char)p->s[p->i + 3]))) {
		p->i += 3;
		if (expect(p, '[') == -1)
			return -1;
		ws(p);
		start = p->i;
		if (atom(p, &name, &v) == -1)
			return -1;
		if (name != NULL) {
			snprintf(msg, sizeof(msg),
			    "type not closed: idx bound %s has no literal", name);
			free(name);
			return perr(p, start, msg);
		}
		if (v == 0)
			return perr(p, start, "idx[0] has no values");
		l->bound = v;
		if (expect(p, ']') == -1)
			return -1;
	} else
		return perr(p, start, "not a data type (expected ℝ, idx or '(')");
	while (peekc(p, '[')) {
		p->i++;
		if (dim(p, l) == -1)
			return -1;
	}
	return 0;
}

static int
type(struct parse *p)
{
	size_t open, members = 0;

	ws(p);
	if (p->i >= p->n || p->s[p->i] != '(')
		return leaf(p);
	if (++p->depth > 64)
		return perr(p, p->i, "nested too deeply");
	p->i++;
	open = p->t->nshape;
	p->t->shape = pskd_xreallocarray(p->t->shape, p->t->nshape + 1,
	    sizeof(*p->t->shape));
	p->t->shape[p->t->nshape].op = PSKD_SHAPE_OPEN;
	p->t->nshape++;
	for (;;) {
		if (type(p) == -1)
			return -1;
		members++;
		if (peekc(p, ',')) {
			p->i++;
			continue;
		}
		if (expect(p, ')') == -1)
			return -1;
		break;
	}
	p->depth--;
	if (members == 1) {
		/* Grouping only: drop the OPEN entry. */
		memmove(&p->t->shape[open], &p->t->shape[open + 1],
		    (p->t->nshape - open - 1) * sizeof(*p->t->shape));
		p->t->nshape--;
		return 0;
	}
	p->t->shape[open].n = members;
	p->t->shape = pskd_xreallocarray(p->t->shape, p->t->nshape + 1,
	    sizeof(*p->t->shape));
	p->t->shape[p->t->nshape].op = PSKD_SHAPE_CLOSE;
	p->t->shape[p->t->nshape++].n = members;
	return 0;
}

unsigned
pskd_idx_width(uint64_t bound)
{
	uint64_t max = bound - 1;

	if (max <= 0xFF)
		return 1;
	if (max <= 0xFFFF)
		return 2;
	if (max <= 0xFFFFFFFFu)
		return 4;
	return 8;
}

/* Widths, offsets and the sample size from bounds, dims and encodings. */
static int
layout(struct pskd_type *t, struct pskd_error *e)
{
	static const unsigned encw[] = { 8, 4, 2 };
	uint64_t off = 0;
	size_t i, d;

	for (i = 0; i < t->nleaves; i++) {
		struct pskd_leaf *l = &t->leaves[i];

		l->nelem = 1;
		for (d = 0; d < l->ndim; d++) {
			if (l->dim[d] > UINT64_MAX / l->nelem)
				goto overflow;
			l->nelem *= l->dim[d];
		}
		l->width = l->real ? encw[l->enc] : pskd_idx_width(l->bound);
		if (l->nelem > UINT64_MAX / l->width)
			goto overflow;
		l->size = l->nelem * l->width;
		l->offset = off;
		if (l->size > UINT64_MAX - off)
			goto overflow;
		off += l->size;
	}
	t->sample_size = off;
	return 0;
overflow:
	pskd_error_set(e, PSKD_E_TYPE, "type: the sample size overflows 64 bits");
	return -1;
}

int
pskd_type_parse(struct pskd_type *t, const char *text, size_t len,
    struct pskd_error *e)
{
	struct parse p = { text, len, 0, t, e, 0 };
	size_t bad;

	memset(t, 0, sizeof(*t));
	t->text = pskd_xstrndup(text, len);
	bad = pskd_utf8_check((const unsigned char *)text, len);
	if (bad != len) {
		pskd_error_set(e, PSKD_E_TYPE, "type: byte %zu: invalid UTF-8",
		    bad + 1);
		return -1;
	}
	if (memchr(text, '\0', len) != NULL)
		return perr(&p, (size_t)((const char *)memchr(text, 0, len) -
		    text), "NUL byte in type");
	ws(&p);
	if (len - p.i >= 6 && memcmp(text + p.i, "params", 6) == 0 &&
	    (len - p.i == 6 || !isname((unsigned char)text[p.i + 6]))) {
		char *name;
		uint64_t v;

		p.i += 6;
		if (atom(&p, &name, &v) == -1)
			return -1;
		if (name == NULL)
			return perr(&p, p.i, "params needs a name");
		free(name);
		t->params = 1;
	} else if (type(&p) == -1)
		return -1;
	ws(&p);
	if (p.i != len)
		return perr(&p, p.i, "unexpected text after the type");
	return t->params ? 0 : layout(t, e);
}

void
pskd_type_free(struct pskd_type *t)
{
	size_t i, d;

	/* A name may be set past ndim when parsing stopped at its dimension. */
	for (i = 0; i < t->nleaves; i++)
		for (d = 0; d < PSKD_MAXDIM; d++)
			free(t->leaves[i].dimname[d]);
	free(t->leaves);
	free(t->shape);
	free(t->text);
	memset(t, 0, sizeof(*t));
}

const char *
pskd_enc_name(enum pskd_enc enc)
{
	switch (enc) {
	case PSKD_ENC_F32: return "f32";
	case PSKD_ENC_BF16: return "bf16";
	default: return "f64";
	}
}

int
pskd_type_set_encodings(struct pskd_type *t, const char *list,
    struct pskd_error *e)
{
	size_t i, nreal = 0, given = 0, k;
	const char *s = list, *comma;

	for (i = 0; i < t->nleaves; i++)
		nreal += (size_t)t->leaves[i].real;
	if (*s != '\0')
		for (given = 1, k = 0; s[k] != '\0'; k++)
			given += s[k] == ',';
	if (given != nreal) {
		pskd_error_set(e, PSKD_E_MISMATCH,
		    "%zu encodings given for %zu real leaves", given, nreal);
		return -1;
	}
	for (i = 0; i < t->nleaves; i++) {
		struct pskd_leaf *l = &t->leaves[i];
		size_t n;

		if (!l->real)
			continue;
		comma = strchr(s, ',');
		n = comma ? (size_t)(comma - s) : strlen(s);
		if (n == 3 && memcmp(s, "f64", 3) == 0)
			l->enc = PSKD_ENC_F64;
		else if (n == 3 && memcmp(s, "f32", 3) == 0)
			l->enc = PSKD_ENC_F32;
		else if (n == 4 && memcmp(s, "bf16", 4) == 0)
			l->enc = PSKD_ENC_BF16;
		else {
			pskd_error_set(e, PSKD_E_TYPE,
			    "unknown encoding '%.*s' (f64, f32 or bf16)",
			    (int)n, s);
			return -1;
		}
		s += n + (comma != NULL);
	}
	return layout(t, e);
}

int
pskd_type_set_codes(struct pskd_type *t, const unsigned char *codes, size_t n,
    struct pskd_error *e)
{
	size_t i;

	if (n != t->nleaves) {
		pskd_error_set(e, PSKD_E_MAGIC,
		    "header lists %zu leaf encodings for %zu leaves", n,
		    t->nleaves);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (codes[i] > PSKD_ENC_BF16 ||
		    (codes[i] != 0 && !t->leaves[i].real)) {
			pskd_error_set(e, PSKD_E_MAGIC,
			    "leaf %zu: invalid encoding code %u", i,
			    codes[i]);
			return -1;
		}
		t->leaves[i].enc = (enum pskd_enc)codes[i];
	}
	return layout(t, e);
}

int
pskd_type_narrow(const struct pskd_type *t)
{
	size_t i;

	for (i = 0; i < t->nleaves; i++)
		if (t->leaves[i].real && t->leaves[i].enc != PSKD_ENC_F64)
			return 1;
	return 0;
}

char *
pskd_type_encodings(const struct pskd_type *t)
{
	struct pskd_buf b = { 0 };
	size_t i;

	for (i = 0; i < t->nleaves; i++) {
		if (!t->leaves[i].real)
			continue;
		if (b.len)
			pskd_buf_addc(&b, ',');
		pskd_buf_add(&b, pskd_enc_name(t->leaves[i].enc),
		    strlen(pskd_enc_name(t->leaves[i].enc)));
	}
	pskd_buf_addc(&b, '\0');
	return (char *)b.p;
}

static void
format_leaf(struct pskd_buf *b, const struct pskd_leaf *l,
    const char *extra_name, uint64_t extra_dim)
{
	char tmp[64];
	size_t d;
	int n;

	if (l->real)
		pskd_buf_add(b, "\xe2\x84\x9d", 3);
	else {
		n = snprintf(tmp, sizeof(tmp), "idx[%llu]",
		    (unsigned long long)l->bound);
		pskd_buf_add(b, tmp, (size_t)n);
	}
	if (extra_name != NULL) {
		n = snprintf(tmp, sizeof(tmp), "[%s: %llu]", extra_name,
		    (unsigned long long)extra_dim);
		pskd_buf_add(b, tmp, (size_t)n);
	}
	for (d = 0; d < l->ndim; d++) {
		if (l->dimname[d] != NULL) {
			pskd_buf_addc(b, '[');
			pskd_buf_add(b, l->dimname[d], strlen(l->dimname[d]));
			n = snprintf(tmp, sizeof(tmp), ": %llu]",
			    (unsigned long long)l->dim[d]);
		} else
			n = snprintf(tmp, sizeof(tmp), "[%llu]",
			    (unsigned long long)l->dim[d]);
		pskd_buf_add(b, tmp, (size_t)n);
	}
}

char *
pskd_type_format(const struct pskd_type *t, const char *extra_name,
    uint64_t extra_dim)
{
	struct pskd_buf b = { 0 };
	size_t i;
	int first = 1;

	for (i = 0; i < t->nshape; i++) {
		switch (t->shape[i].op) {
		case PSKD_SHAPE_OPEN:
			if (!first)
				pskd_buf_add(&b, ", ", 2);
			pskd_buf_addc(&b, '(');
			first = 1;
			continue;
		case PSKD_SHAPE_CLOSE:
			pskd_buf_addc(&b, ')');
			break;
		case PSKD_SHAPE_LEAF:
			if (!first)
				pskd_buf_add(&b, ", ", 2);
			format_leaf(&b, &t->leaves[t->shape[i].n], extra_name,
			    extra_dim);
			break;
		}
		first = 0;
	}
	pskd_buf_addc(&b, '\0');
	return (char *)b.p;
}
