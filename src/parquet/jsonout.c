/*
 * jsonout.c - Parquet values as JSON text.
 *
 * Strings: '"', '\\' and the control characters below U+0020 escaped
 * (\b \t \n \f \r, else \u00xx), everything else as it is.  Numbers: the
 * fewest significant digits that read back as the same double (or float,
 * for FLOAT columns), laid out as ECMAScript's Number::toString lays them
 * out.  Dates and times: ISO 8601 strings.  DECIMAL: a string of its exact
 * digits, scale digits after the point.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "parquet/jsonout.h"

void
pq_out_init(struct pq_out *o, int fd, const char *name)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->name = name;
	pskd_buf_reserve(&o->b, PSKD_BUFSIZE + 4096);
}

int
pq_out_flush(struct pq_out *o)
{
	if (o->fd == -1 || o->b.len == 0) {
		o->b.len = 0;
		return 0;
	}
	if (pskd_write_all(o->fd, o->b.p, o->b.len) == -1)
		return -1;
	o->b.len = 0;
	return 0;
}

void
pq_out_free(struct pq_out *o)
{
	pskd_buf_free(&o->b);
}

/* ---- strings ---------------------------------------------------------- */

/* Bytes at the start of s that go out as they are (printable ASCII). */
static size_t
plain_run(const unsigned char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	static int simd = -1;

	if (simd == -1)
		simd = pskd_simd();
	if (simd) {
		const __m128i quote = _mm_set1_epi8('"');
		const __m128i bslash = _mm_set1_epi8('\\');
		const __m128i space = _mm_set1_epi8(' ');
		__m128i x, m;
		int mask;

		for (; i + 16 <= n; i += 16) {
			x = _mm_loadu_si128((const __m128i *)(const void *)
			    (s + i));
			/* Signed: below ' ' is a control byte or >= 0x80. */
			m = _mm_or_si128(_mm_cmpgt_epi8(space, x),
			    _mm_or_si128(_mm_cmpeq_epi8(x, quote),
			    _mm_cmpeq_epi8(x, bslash)));
			if ((mask = _mm_movemask_epi8(m)) != 0)
				return i + (size_t)__builtin_ctz((unsigned)mask);
		}
	}
#endif
	while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' &&
	    s[i] != '\\')
		i++;
	return i;
}

static const char hex[] = "0123456789abcdef";

/* One ASCII byte that needs an escape. */
static void
escape(struct pq_out *o, unsigned char c)
{
	unsigned char e[6] = { '\\', 'u', '0', '0', 0, 0 };

	switch (c) {
	case '"': pq_out_add(o, "\\\"", 2); return;
	case '\\': pq_out_add(o, "\\\\", 2); return;
	case '\b': pq_out_add(o, "\\b", 2); return;
	case '\t': pq_out_add(o, "\\t", 2); return;
	case '\n': pq_out_add(o, "\\n", 2); return;
	case '\f': pq_out_add(o, "\\f", 2); return;
	case '\r': pq_out_add(o, "\\r", 2); return;
	}
	e[4] = (unsigned char)hex[c >> 4];
	e[5] = (unsigned char)hex[c & 15];
	pq_out_add(o, e, 6);
}

int
pq_out_string(struct pq_out *o, const unsigned char *s, size_t n, int lax,
    size_t *bad)
{
	unsigned char sur[6] = { '\\', 'u', 'd', 'c', 0, 0 };
	size_t i = 0, r, k;
	uint32_t cp;

	pq_out_c(o, '"');
	while (i < n) {
		r = plain_run(s + i, n - i);
		pq_out_add(o, s + i, r);
		i += r;
		/* Non-ASCII characters, as many as come in a row. */
		while (i < n && s[i] >= 0x80) {
			k = pskd_utf8_decode(s + i, n - i, &cp);
			if (k > 0) {
				pq_out_add(o, s + i, k);
				i += k;
				continue;
			}
			if (!lax) {
				*bad = i;
				return -1;
			}
			/* The byte as a lone low surrogate (PEP 383). */
			sur[4] = (unsigned char)hex[s[i] >> 4];
			sur[5] = (unsigned char)hex[s[i] & 15];
			pq_out_add(o, sur, 6);
			i++;
		}
		if (i < n && s[i] < 0x80 && (s[i] < 0x20 || s[i] == '"' ||
		    s[i] == '\\'))
			escape(o, s[i++]);
	}
	pq_out_c(o, '"');
	return 0;
}

/* ---- numbers ---------------------------------------------------------- */

void
pq_out_u64(struct pq_out *o, uint64_t v)
{
	unsigned char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (unsigned char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	pq_out_add(o, p, (size_t)(buf + sizeof(buf) - p));
}

void
pq_out_i64(struct pq_out *o, int64_t v)
{
	if (v < 0) {
		pq_out_c(o, '-');
		pq_out_u64(o, 0 - (uint64_t)v);
	} else
		pq_out_u64(o, (uint64_t)v);
}

/*
 * digits[0..k) and the point's position n (value = 0.d1d2...dk x 10^n),
 * laid out as ECMAScript's Number::toString does.
 */
static void
layout(struct pq_out *o, int neg, const char *d, int k, int n)
{
	char buf[64];
	int len = 0, i, e;

	if (neg)
		buf[len++] = '-';
	if (k <= n && n <= 21) {
		memcpy(buf + len, d, (size_t)k);
		len += k;
		for (i = k; i < n; i++)
			buf[len++] = '0';
	} else if (0 < n && n <= 21) {
		memcpy(buf + len, d, (size_t)n);
		len += n;
		buf[len++] = '.';
		memcpy(buf + len, d + n, (size_t)(k - n));
		len += k - n;
	} else if (-6 < n && n <= 0) {
		buf[len++] = '0';
		buf[len++] = '.';
		for (i = n; i < 0; i++)
			buf[len++] = '0';
		memcpy(buf + len, d, (size_t)k);
		len += k;
	} else {
		buf[len++] = d[0];
		if (k > 1) {
			buf[len++] = '.';
			memcpy(buf + len, d + 1, (size_t)(k - 1));
			len += k - 1;
		}
		e = n - 1;
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "e%c%d",
		    e < 0 ? '-' : '+', e < 0 ? -e : e);
	}
	pq_out_add(o, buf, (size_t)len);
}

/*
 * The shortest of the correctly rounded decimals of lo..hi significant
 * digits that reads back as v (as a float when single).  By DBL_DIG (and
 * FLT_DIG), when a decimal of at most lo digits reads back, the one of lo
 * digits is it with zeros after.
 */
static void
shortest(struct pq_out *o, double v, int single)
{
	char buf[40], d[24];
	int p, k = 0, exp, neg;
	char *s;

	if (isnan(v) || isinf(v)) {
		pq_out_add(o, "null", 4);
		return;
	}
	if (v == 0) {
		pq_out_c(o, '0');
		return;
	}
	for (p = single ? 6 : 15;; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p - 1, v);
		if (p == (single ? 9 : 17) || (single ?
		    strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v))
			break;
	}
	s = buf;
	neg = *s == '-';
	s += neg;
	for (; *s != 'e'; s++)
		if (*s != '.')
			d[k++] = *s;
	exp = atoi(s + 1);
	while (k > 1 && d[k - 1] == '0')
		k--;
	layout(o, neg, d, k, exp + 1);
}

void
pq_out_double(struct pq_out *o, double v)
{
	shortest(o, v, 0);
}

void
pq_out_float(struct pq_out *o, float v)
{
	shortest(o, v, 1);
}

/* ---- dates and times --------------------------------------------------- */

/* The proleptic Gregorian date of a day count from 1970-01-01. */
static void
civil(int64_t days, int64_t *y, int *m, int *d)
{
	int64_t z = days + 719468, era, doe, yoe, doy, mp;

	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;			/* 0..146096 */
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;		/* March is 0 */
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* YYYY-MM-DD; a year outside 0..9999 as a sign and six digits or more. */
static int
date_text(char *buf, size_t n, int64_t days)
{
	int64_t y;
	int m, d;

	civil(days, &y, &m, &d);
	if (y >= 0 && y <= 9999)
		return snprintf(buf, n, "%04d-%02d-%02d", (int)y, m, d);
	return snprintf(buf, n, "%c%06lld-%02d-%02d", y < 0 ? '-' : '+',
	    (long long)(y < 0 ? -y : y), m, d);
}

/* Floor division and its remainder, 0 <= *rem < div. */
static int64_t
floor_div(int64_t v, int64_t div, int64_t *rem)
{
	int64_t q = v / div, r = v % div;

	if (r < 0) {
		r += div;
		q--;
	}
	*rem = r;
	return q;
}

static const int64_t per_second[] = { 1, 1000, 1000000, 1000000000 };
static const int digits_of[] = { 0, 3, 6, 9 };

/* HH:MM:SS.fff of a time of day in unit (0 <= t < a day). */
static int
time_text(char *buf, size_t n, int64_t t, int unit)
{
	int64_t ps = per_second[unit], s = t / ps;

	return snprintf(buf, n, "%02lld:%02lld:%02lld.%0*lld",
	    (long long)(s / 3600), (long long)(s / 60 % 60),
	    (long long)(s % 60), digits_of[unit], (long long)(t % ps));
}

/* A day count and a time of that day in unit, as a string. */
static void
date_time(struct pq_out *o, int64_t days, int64_t t, int unit, int utc)
{
	char buf[80];
	int len;

	len = date_text(buf, sizeof(buf), days);
	buf[len++] = 'T';
	len += time_text(buf + len, sizeof(buf) - (size_t)len, t, unit);
	if (utc)
		buf[len++] = 'Z';
	pq_out_c(o, '"');
	pq_out_add(o, buf, (size_t)len);
	pq_out_c(o, '"');
}

static void
timestamp(struct pq_out *o, int64_t v, int unit, int utc)
{
	int64_t t, days;

	days = floor_div(v, 86400 * per_second[unit], &t);
	date_time(o, days, t, unit, utc);
}

/* ---- decimals ------------------------------------------------------------ */

/* A string of digits (and sign) with the point scale digits from the end. */
static void
decimal_text(struct pq_out *o, int neg, const char *d, size_t k, int scale)
{
	size_t s = (size_t)scale;

	pq_out_c(o, '"');
	if (neg)
		pq_out_c(o, '-');
	if (s == 0) {
		pq_out_add(o, d, k);
	} else if (k > s) {
		pq_out_add(o, d, k - s);
		pq_out_c(o, '.');
		pq_out_add(o, d + k - s, s);
	} else {
		pq_out_add(o, "0.", 2);
		for (; s > k; s--)
			pq_out_c(o, '0');
		pq_out_add(o, d, k);
	}
	pq_out_c(o, '"');
}

#define DECIMAL_MAX	128	/* bytes of a DECIMAL we print */

/* A big-endian two's complement integer of n bytes as decimal digits. */
static int
decimal_bytes(struct pq_out *o, const unsigned char *p, size_t n, int scale)
{
	unsigned char mag[DECIMAL_MAX];
	char digits[DECIMAL_MAX * 3 + 16], *q;
	size_t i, start = 0, k;
	uint32_t rem, chunk;
	int neg = n > 0 && (p[0] & 0x80), carry = 1, j;

	if (n > DECIMAL_MAX)
		return -1;
	for (i = 0; i < n; i++)
		mag[i] = neg ? (unsigned char)~p[i] : p[i];
	if (neg)	/* two's complement: invert, add one */
		for (i = n; i-- > 0 && carry;) {
			mag[i] = (unsigned char)(mag[i] + 1);
			carry = mag[i] == 0;
		}
	/* Divide by 10^9 until nothing is left, nine digits at a time. */
	q = digits + sizeof(digits);
	for (;;) {
		while (start < n && mag[start] == 0)
			start++;
		if (start == n)
			break;
		rem = 0;
		for (i = start; i < n; i++) {
			uint64_t cur = (uint64_t)rem << 8 | mag[i];

			mag[i] = (unsigned char)(cur / 1000000000);
			rem = (uint32_t)(cur % 1000000000);
		}
		chunk = rem;
		for (j = 0; j < 9; j++) {
			*--q = (char)('0' + chunk % 10);
			chunk /= 10;
		}
	}
	while (q < digits + sizeof(digits) - 1 && *q == '0')
		q++;
	if (q == digits + sizeof(digits))
		*--q = '0';
	k = (size_t)(digits + sizeof(digits) - q);
	decimal_text(o, neg && !(k == 1 && *q == '0'), q, k, scale);
	return 0;
}

static void
decimal_int(struct pq_out *o, int64_t v, int scale)
{
	char d[24], *q = d + sizeof(d);
	uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	do {
		*--q = (char)('0' + m % 10);
		m /= 10;
	} while (m > 0);
	decimal_text(o, v < 0, q, (size_t)(d + sizeof(d) - q), scale);
}

/* ---- values --------------------------------------------------------------- */

static float
half_to_float(unsigned h)
{
	unsigned e = h >> 10 & 0x1f, f = h & 0x3ff;
	float v;

	if (e == 0)
		v = ldexpf((float)f, -24);
	else if (e == 31)
		v = f ? NAN : INFINITY;
	else
		v = ldexpf((float)(f | 0x400), (int)e - 25);
	return h & 0x8000 ? -v : v;
}

static void
uuid(struct pq_out *o, const unsigned char *p)
{
	char buf[38];
	int i, len = 0;

	buf[len++] = '"';
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			buf[len++] = '-';
		buf[len++] = hex[p[i] >> 4];
		buf[len++] = hex[p[i] & 15];
	}
	buf[len++] = '"';
	pq_out_add(o, buf, (size_t)len);
}

int
pq_out_value(struct pq_out *o, const struct pq_node *leaf,
    const struct pq_vals *v, size_t i, int lax, size_t *bad,
    const char **err)
{
	const unsigned char *f = v->fixed ? v->fixed + i * v->size : NULL;
	const struct pq_bytes *b = v->ba ? &v->ba[i] : NULL;
	int64_t days, t;
	char buf[80];
	int len;
	float fl;
	double db;

	switch (leaf->kind) {
	case PQ_K_BOOL:
		if (f[0])
			pq_out_add(o, "true", 4);
		else
			pq_out_add(o, "false", 5);
		return 0;
	case PQ_K_INT32:
		pq_out_i64(o, (int32_t)pskd_get_le32(f));
		return 0;
	case PQ_K_UINT32:
		pq_out_u64(o, pskd_get_le32(f));
		return 0;
	case PQ_K_INT64:
		pq_out_i64(o, (int64_t)pskd_get_le64(f));
		return 0;
	case PQ_K_UINT64:
		pq_out_u64(o, pskd_get_le64(f));
		return 0;
	case PQ_K_FLOAT:
		memcpy(&fl, f, 4);
		pq_out_float(o, fl);
		return 0;
	case PQ_K_DOUBLE:
		memcpy(&db, f, 8);
		pq_out_double(o, db);
		return 0;
	case PQ_K_FLOAT16:
		pq_out_float(o, half_to_float(pskd_get_le16(b->p)));
		return 0;
	case PQ_K_STRING:
	case PQ_K_BINARY:
		if (pq_out_string(o, b->p, b->len, lax ||
		    leaf->kind == PQ_K_BINARY, bad) == -1) {
			*err = "invalid UTF-8";
			return -1;
		}
		return 0;
	case PQ_K_DATE:
		len = date_text(buf + 1, sizeof(buf) - 2,
		    (int32_t)pskd_get_le32(f));
		buf[0] = '"';
		buf[len + 1] = '"';
		pq_out_add(o, buf, (size_t)len + 2);
		return 0;
	case PQ_K_TIME:
		t = leaf->type == PQ_INT32 ? (int32_t)pskd_get_le32(f) :
		    (int64_t)pskd_get_le64(f);
		if (t < 0 || t >= 86400 * per_second[leaf->unit]) {
			*err = "TIME outside a day";
			return -1;
		}
		len = time_text(buf + 1, sizeof(buf) - 2, t, leaf->unit);
		buf[0] = '"';
		buf[len + 1] = '"';
		pq_out_add(o, buf, (size_t)len + 2);
		return 0;
	case PQ_K_TIMESTAMP:
		timestamp(o, (int64_t)pskd_get_le64(f), leaf->unit, leaf->utc);
		return 0;
	case PQ_K_INT96:
		/* Nanoseconds of the day, then the Julian day number. */
		days = (int64_t)(int32_t)pskd_get_le32(f + 8) - 2440588;
		days += floor_div((int64_t)pskd_get_le64(f), 86400000000000LL,
		    &t);
		date_time(o, days, t, PQ_NANOS, 0);
		return 0;
	case PQ_K_DECIMAL:
		if (leaf->type == PQ_INT32)
			decimal_int(o, (int32_t)pskd_get_le32(f), leaf->scale);
		else if (leaf->type == PQ_INT64)
			decimal_int(o, (int64_t)pskd_get_le64(f), leaf->scale);
		else if (decimal_bytes(o, b->p, b->len, leaf->scale) == -1) {
			*err = "DECIMAL wider than 128 bytes";
			return -1;
		}
		return 0;
	case PQ_K_UUID:
		uuid(o, b->p);
		return 0;
	case PQ_K_INTERVAL:
		len = snprintf(buf, sizeof(buf), "{\"months\":%u,\"days\":%u,"
		    "\"milliseconds\":%u}", pskd_get_le32(b->p),
		    pskd_get_le32(b->p + 4), pskd_get_le32(b->p + 8));
		pq_out_add(o, buf, (size_t)len);
		return 0;
	}
	*err = "unknown kind of value";
	return -1;
}
