/* value.c - sample values: encodings, bounds, and the text form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

int
pskd_f64_to_f32(double v, uint32_t *bits)
{
	float f = (float)v;

	if (isnan(v)) {
		*bits = 0x7FC00000u;
		return 0;
	}
	if ((double)f != v)
		return -1;
	memcpy(bits, &f, 4);
	return 0;
}

int
pskd_f64_to_bf16(double v, uint16_t *bits)
{
	uint32_t b;

	if (pskd_f64_to_f32(v, &b) == -1 || (b & 0xFFFF) != 0)
		return -1;
	*bits = (uint16_t)(b >> 16);
	return 0;
}

double
pskd_f32_to_f64(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, 4);
	return (double)f;
}

double
pskd_bf16_to_f64(uint16_t bits)
{
	return pskd_f32_to_f64((uint32_t)bits << 16);
}

uint64_t
pskd_leaf_idx(const struct pskd_leaf *l, const unsigned char *sample,
    uint64_t i)
{
	const unsigned char *p = sample + l->offset + i * l->width;

	switch (l->width) {
	case 1: return p[0];
	case 2: return pskd_get_le16(p);
	case 4: return pskd_get_le32(p);
	default: return pskd_get_le64(p);
	}
}

double
pskd_leaf_real(const struct pskd_leaf *l, const unsigned char *sample,
    uint64_t i)
{
	const unsigned char *p = sample + l->offset + i * l->width;
	uint64_t b;
	double d;

	switch (l->enc) {
	case PSKD_ENC_F32:
		return pskd_f32_to_f64(pskd_get_le32(p));
	case PSKD_ENC_BF16:
		return pskd_bf16_to_f64(pskd_get_le16(p));
	default:
		b = pskd_get_le64(p);
		memcpy(&d, &b, 8);
		return d;
	}
}

int
pskd_sample_check(const struct pskd_type *t, const unsigned char *sample,
    struct pskd_error *e)
{
	size_t i;
	uint64_t k, v;

	for (i = 0; i < t->nleaves; i++) {
		const struct pskd_leaf *l = &t->leaves[i];

		/* A bound that fills its width cannot be exceeded. */
		if (l->real || (l->width < 8 && l->bound == 1ull << (8 * l->width)))
			continue;
		for (k = 0; k < l->nelem; k++) {
			v = pskd_leaf_idx(l, sample, k);
			if (v >= l->bound) {
				pskd_error_set(e, PSKD_E_VALUE,
				    "leaf %zu, element %llu: %llu out of bound "
				    "idx[%llu]", i, (unsigned long long)k,
				    (unsigned long long)v,
				    (unsigned long long)l->bound);
				return -1;
			}
		}
	}
	return 0;
}

void
pskd_format_double(char *out, size_t size, double v)
{
	int prec;

	if (isnan(v)) {
		snprintf(out, size, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(out, size, v < 0 ? "-Infinity" : "Infinity");
		return;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(out, size, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
	snprintf(out, size, "%.17g", v);
}

/*
 * NaNs in the text form: "NaN" is the canonical NaN of the leaf's encoding
 * (positive, quiet, no payload: what "NaN" parses to); any other NaN is
 * "NaN:0x" and the element's bits in its encoding, 16, 8 or 4 hex digits,
 * so that the text gives back every bit (pskd(5), NaNs).
 */
static const struct nanform {
	unsigned	 digits;
	uint64_t	 canonical;
	uint64_t	 exponent;	/* all ones in a NaN */
	uint64_t	 mantissa;	/* not zero in a NaN */
} nanforms[] = {
	[PSKD_ENC_F64] = { 16, 0x7FF8000000000000u, 0x7FF0000000000000u,
	    0x000FFFFFFFFFFFFFu },
	[PSKD_ENC_F32] = { 8, 0x7FC00000u, 0x7F800000u, 0x007FFFFFu },
	[PSKD_ENC_BF16] = { 4, 0x7FC0u, 0x7F80u, 0x007Fu }
};

static uint64_t
real_bits(const struct pskd_leaf *l, const unsigned char *p)
{
	switch (l->enc) {
	case PSKD_ENC_F32: return pskd_get_le32(p);
	case PSKD_ENC_BF16: return pskd_get_le16(p);
	default: return pskd_get_le64(p);
	}
}

static int
is_nan(const struct nanform *f, uint64_t bits)
{
	return (bits & f->exponent) == f->exponent && (bits & f->mantissa) != 0;
}

static void
format_elem(struct pskd_buf *b, const struct pskd_leaf *l,
    const unsigned char *sample, uint64_t i)
{
	const struct nanform *f = &nanforms[l->enc];
	char tmp[40];
	uint64_t bits;
	int n;

	if (l->real) {
		bits = real_bits(l, sample + l->offset + i * l->width);
		if (is_nan(f, bits) && bits != f->canonical)
			snprintf(tmp, sizeof(tmp), "NaN:0x%0*llx",
			    (int)f->digits, (unsigned long long)bits);
		else
			pskd_format_double(tmp, sizeof(tmp),
			    pskd_leaf_real(l, sample, i));
		pskd_buf_add(b, tmp, strlen(tmp));
	} else {
		n = snprintf(tmp, sizeof(tmp), "%llu",
		    (unsigned long long)pskd_leaf_idx(l, sample, i));
		pskd_buf_add(b, tmp, (size_t)n);
	}
}

/* Elements [*i, ...) of dimension d onwards, as nested arrays. */
static void
format_dims(struct pskd_buf *b, const struct pskd_leaf *l,
    const unsigned char *sample, size_t d, uint64_t *i)
{
	uint64_t k;

	if (d == l->ndim) {
		format_elem(b, l, sample, (*i)++);
		return;
	}
	pskd_buf_addc(b, '[');
	for (k = 0; k < l->dim[d]; k++) {
		if (k)
			pskd_buf_addc(b, ',');
		format_dims(b, l, sample, d + 1, i);
	}
	pskd_buf_addc(b, ']');
}

void
pskd_sample_format(struct pskd_buf *b, const struct pskd_type *t,
    const unsigned char *sample)
{
	size_t s;
	uint64_t i;
	int first = 1;

	for (s = 0; s < t->nshape; s++) {
		const struct pskd_shape *sh = &t->shape[s];

		if (sh->op != PSKD_SHAPE_CLOSE && !first)
			pskd_buf_addc(b, ',');
		first = 0;
		switch (sh->op) {
		case PSKD_SHAPE_OPEN:
			pskd_buf_addc(b, '[');
			first = 1;
			break;
		case PSKD_SHAPE_CLOSE:
			pskd_buf_addc(b, ']');
			break;
		case PSKD_SHAPE_LEAF:
			i = 0;
			format_dims(b, &t->leaves[sh->n], sample, 0, &i);
			break;
		}
	}
}

/* ---- parsing the text form ---- */

struct sparse {
	const unsigned char *p;
	size_t		 n;
	size_t		 i;
	unsigned char	*out;
	struct pskd_error *e;
	size_t		 leaf;
};

static void
sws(struct sparse *s)
{
	while (s->i < s->n && (s->p[s->i] == ' ' || s->p[s->i] == '\t' ||
	    s->p[s->i] == '\r'))
		s->i++;
}

static int
shape_err(struct sparse *s, const char *what)
{
	pskd_error_set(s->e, PSKD_E_MISMATCH, "column %zu: %s (the sample does "
	    "not have the shape of the type)", s->i + 1, what);
	return -1;
}

static int
want(struct sparse *s, unsigned char c)
{
	char msg[32];

	sws(s);
	if (s->i < s->n && s->p[s->i] == c) {
		s->i++;
		return 0;
	}
	snprintf(msg, sizeof(msg), "expected '%c'", c);
	return shape_err(s, msg);
}

/* "NaN:0x" and the bits of a NaN in the leaf's encoding, to dst. */
static int
parse_nan_bits(struct sparse *s, const struct pskd_leaf *l, uint64_t k,
    const char *tmp, unsigned char *dst)
{
	const struct nanform *f = &nanforms[l->enc];
	uint64_t bits = 0;
	unsigned j, c;

	if (strncmp(tmp, "NaN:0x", 6) != 0 || strlen(tmp + 6) != f->digits)
		goto bad;
	for (j = 0; j < f->digits; j++) {
		c = (unsigned char)tmp[6 + j];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c = c - 'a' + 10;
		else
			goto bad;
		bits = bits << 4 | c;
	}
	if (!is_nan(f, bits))
		goto bad;
	switch (l->enc) {
	case PSKD_ENC_F32: pskd_put_le32(dst, (uint32_t)bits); break;
	case PSKD_ENC_BF16: pskd_put_le16(dst, (uint16_t)bits); break;
	default: pskd_put_le64(dst, bits); break;
	}
	return 0;
bad:
	pskd_error_set(s->e, PSKD_E_VALUE, "leaf %zu, element %llu: '%.40s' is "
	    "not a NaN of %s (NaN:0x and %u lowercase hex digits of its bits)",
	    s->leaf, (unsigned long long)k, tmp, pskd_enc_name(l->enc),
	    f->digits);
	return -1;
}

static int
parse_elem(struct sparse *s, const struct pskd_leaf *l, uint64_t k)
{
	unsigned char *dst = s->out + l->offset + k * l->width;
	char tmp[64];
	size_t start, len;
	uint64_t v = 0;
	double d;
	char *end;
	uint32_t f32;
	uint16_t b16;

	sws(s);
	start = s->i;
	while (s->i < s->n && s->p[s->i] != ',' && s->p[s->i] != ']' &&
	    s->p[s->i] != '[' && s->p[s->i] != ' ' && s->p[s->i] != '\t' &&
	    s->p[s->i] != '\r')
		s->i++;
	len = s->i - start;
	if (len == 0)
		return shape_err(s, "expected a number");
	if (len >= sizeof(tmp))
		goto bad;
	memcpy(tmp, s->p + start, len);
	tmp[len] = '\0';
	if (!l->real) {
		size_t j;

		for (j = 0; j < len; j++) {
			if (tmp[j] < '0' || tmp[j] > '9')
				goto bad;
			if (v > (UINT64_MAX - (uint64_t)(tmp[j] - '0')) / 10)
				goto bound;
			v = v * 10 + (uint64_t)(tmp[j] - '0');
		}
		if (len > 1 && tmp[0] == '0')
			goto bad;
		if (v >= l->bound)
			goto bound;
		switch (l->width) {
		case 1: dst[0] = (unsigned char)v; break;
		case 2: pskd_put_le16(dst, (uint16_t)v); break;
		case 4: pskd_put_le32(dst, (uint32_t)v); break;
		default: pskd_put_le64(dst, v); break;
		}
		return 0;
	}
	if (strncmp(tmp, "NaN:", 4) == 0)
		return parse_nan_bits(s, l, k, tmp, dst);
	if (strcmp(tmp, "NaN") == 0)
		d = NAN;
	else if (strcmp(tmp, "Infinity") == 0)
		d = INFINITY;
	else if (strcmp(tmp, "-Infinity") == 0)
		d = -INFINITY;
	else {
		/* JSON number syntax only: no hex, no "inf", no leading '+'. */
		size_t j = tmp[0] == '-';

		if (j >= len || tmp[j] < '0' || tmp[j] > '9')
			goto bad;
		for (; j < len; j++)
			if (!((tmp[j] >= '0' && tmp[j] <= '9') || tmp[j] == '.' ||
			    tmp[j] == 'e' || tmp[j] == 'E' || tmp[j] == '-' ||
			    tmp[j] == '+'))
				goto bad;
		d = strtod(tmp, &end);
		if (*end != '\0')
			goto bad;
	}
	switch (l->enc) {
	case PSKD_ENC_F32:
		if (pskd_f64_to_f32(d, &f32) == -1)
			goto inexact;
		pskd_put_le32(dst, f32);
		break;
	case PSKD_ENC_BF16:
		if (pskd_f64_to_bf16(d, &b16) == -1)
			goto inexact;
		pskd_put_le16(dst, b16);
		break;
	default:
		memcpy(&v, &d, 8);
		pskd_put_le64(dst, v);
		break;
	}
	return 0;
bad:
	pskd_error_set(s->e, PSKD_E_VALUE, "leaf %zu, element %llu: '%.*s' is "
	    "not %s", s->leaf, (unsigned long long)k, (int)(len > 40 ? 40 : len),
	    s->p + start, l->real ? "a number" : "an index (a whole number)");
	return -1;
bound:
	pskd_error_set(s->e, PSKD_E_VALUE, "leaf %zu, element %llu: %.*s out "
	    "of bound idx[%llu]", s->leaf, (unsigned long long)k,
	    (int)(len > 40 ? 40 : len), s->p + start,
	    (unsigned long long)l->bound);
	return -1;
inexact:
	pskd_error_set(s->e, PSKD_E_VALUE, "leaf %zu, element %llu: %s is not "
	    "exactly representable in %s", s->leaf, (unsigned long long)k, tmp,
	    pskd_enc_name(l->enc));
	return -1;
}

static int
parse_dims(struct sparse *s, const struct pskd_leaf *l, size_t d,
    uint64_t *k)
{
	uint64_t j;

	if (d == l->ndim)
		return parse_elem(s, l, (*k)++);
	if (want(s, '[') == -1)
		return -1;
	for (j = 0; j < l->dim[d]; j++) {
		if (j && want(s, ',') == -1)
			return -1;
		if (parse_dims(s, l, d + 1, k) == -1)
			return -1;
	}
	return want(s, ']');
}

int
pskd_sample_parse(const struct pskd_type *t, const unsigned char *text,
    size_t len, unsigned char *out, struct pskd_error *e)
{
	struct sparse s = { text, len, 0, out, e, 0 };
	size_t i;
	uint64_t k;
	int first = 1;

	for (i = 0; i < t->nshape; i++) {
		const struct pskd_shape *sh = &t->shape[i];

		if (sh->op != PSKD_SHAPE_CLOSE && !first &&
		    want(&s, ',') == -1)
			return -1;
		first = 0;
		switch (sh->op) {
		case PSKD_SHAPE_OPEN:
			if (want(&s, '[') == -1)
				return -1;
			first = 1;
			break;
		case PSKD_SHAPE_CLOSE:
			if (want(&s, ']') == -1)
				return -1;
			break;
		case PSKD_SHAPE_LEAF:
			s.leaf = sh->n;
			k = 0;
			if (parse_dims(&s, &t->leaves[sh->n], 0, &k) == -1)
				return -1;
			break;
		}
	}
	sws(&s);
	if (s.i != s.n)
		return shape_err(&s, "unexpected text after the sample");
	return 0;
}

/*
 * Index of the first element >= bound among n contiguous elements of width
 * w, or n.  Blocks of 64 reduce to their maximum first: a loop without an
 * early exit, which the compiler turns into vector code: 1 GiB of u32 in
 * memory in 0.29 s with SSE2, 0.15 s with AVX2 (measured here); only a
 * block that holds a bad element is searched.
 */
#define OVER_BLOCK 64
#define FIRST_OVER(name, type, get, attr)				\
attr static uint64_t							\
name(const unsigned char *p, uint64_t n, uint64_t bound)		\
{									\
	uint64_t k = 0;							\
	size_t j;							\
	type mx, v;							\
									\
	for (; n - k >= OVER_BLOCK; k += OVER_BLOCK) {			\
		mx = 0;							\
		for (j = 0; j < OVER_BLOCK; j++) {			\
			v = get(p + (k + j) * sizeof(type));		\
			mx = v > mx ? v : mx;				\
		}							\
		if (mx >= bound)					\
			break;						\
	}								\
	for (; k < n; k++)						\
		if (get(p + k * sizeof(type)) >= bound)			\
			return k;					\
	return n;							\
}

static inline uint8_t
get_u8(const unsigned char *p)
{
	return p[0];
}

FIRST_OVER(first_over8, uint8_t, get_u8, )
FIRST_OVER(first_over16, uint16_t, pskd_get_le16, )
FIRST_OVER(first_over32, uint32_t, pskd_get_le32, )
FIRST_OVER(first_over64, uint64_t, pskd_get_le64, )
#if defined(__x86_64__)
#define AVX2 __attribute__((target("avx2")))
FIRST_OVER(first_over8_avx2, uint8_t, get_u8, AVX2)
FIRST_OVER(first_over16_avx2, uint16_t, pskd_get_le16, AVX2)
FIRST_OVER(first_over32_avx2, uint32_t, pskd_get_le32, AVX2)
FIRST_OVER(first_over64_avx2, uint64_t, pskd_get_le64, AVX2)
#endif

uint64_t
pskd_idx_over(const unsigned char *p, uint64_t n, unsigned w, uint64_t bound)
{
#if defined(__x86_64__)
	static int avx2 = -1;

	if (avx2 == -1)
		avx2 = pskd_simd() >= PSKD_SIMD_AVX2;
	if (avx2 && n >= OVER_BLOCK)
		switch (w) {
		case 1: return first_over8_avx2(p, n, bound);
		case 2: return first_over16_avx2(p, n, bound);
		case 4: return first_over32_avx2(p, n, bound);
		default: return first_over64_avx2(p, n, bound);
		}
#endif
	switch (w) {
	case 1: return first_over8(p, n, bound);
	case 2: return first_over16(p, n, bound);
	case 4: return first_over32(p, n, bound);
	default: return first_over64(p, n, bound);
	}
}

/* A leaf whose values can be out of bounds: an index short of its width. */
static int
leaf_bounded(const struct pskd_leaf *l)
{
	return !l->real && !(l->width < 8 && l->bound == 1ull << (8 * l->width));
}

int
pskd_type_bounded(const struct pskd_type *t)
{
	size_t i;

	for (i = 0; i < t->nleaves; i++)
		if (leaf_bounded(&t->leaves[i]))
			return 1;
	return 0;
}

int
pskd_samples_check(const struct pskd_type *t, const unsigned char *p,
    uint64_t n, uint64_t *bad, struct pskd_error *e)
{
	size_t i;
	uint64_t k, at;

	for (i = 0; i < t->nleaves; i++) {
		const struct pskd_leaf *l = &t->leaves[i];

		if (!leaf_bounded(l))
			continue;
		if (t->nleaves == 1) {
			/* Samples are the leaf: one flat run of elements. */
			at = pskd_idx_over(p, n * l->nelem, l->width, l->bound);
			if (at == n * l->nelem)
				continue;
			*bad = at / l->nelem;
			return pskd_sample_check(t, p + *bad * t->sample_size, e);
		}
		for (k = 0; k < n; k++) {
			const unsigned char *s = p + k * t->sample_size;

			if (pskd_idx_over(s + l->offset, l->nelem, l->width,
			    l->bound) != l->nelem) {
				*bad = k;
				return pskd_sample_check(t, s, e);
			}
		}
	}
	return 0;
}
