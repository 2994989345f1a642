/*
 * decode.c - Parquet's encodings (Encodings.md of apache/parquet-format),
 * a batch at a time.  Every length and count is checked against the bytes
 * there are before it is used; a value or level a page lacks is an error,
 * never a read past the page.
 */
#include <stdlib.h>
#include <string.h>

#include "parquet/decode.h"
#include "parquet/meta.h"

size_t
pq_type_size(int type)
{
	switch (type) {
	case PQ_BOOLEAN: return 1;
	case PQ_INT32: case PQ_FLOAT: return 4;
	case PQ_INT64: case PQ_DOUBLE: return 8;
	case PQ_INT96: return 12;
	default: return 0;
	}
}

void
pq_vals_init(struct pq_vals *v, int type)
{
	memset(v, 0, sizeof(*v));
	v->size = pq_type_size(type);
}

void
pq_vals_reserve(struct pq_vals *v, size_t n)
{
	if (n <= v->cap)
		return;
	if (v->size > 0)
		v->fixed = pskd_xreallocarray(v->fixed, n, v->size);
	else
		v->ba = pskd_xreallocarray(v->ba, n, sizeof(*v->ba));
	v->cap = n;
}

void
pq_vals_free(struct pq_vals *v)
{
	free(v->fixed);
	free(v->ba);
	memset(v, 0, sizeof(*v));
}

/* ULEB128 of up to 64 bits; *ok cleared when the bytes end or overflow. */
static uint64_t
uleb(const unsigned char **pp, const unsigned char *end, int *ok)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		if (p >= end || shift > 63) {
			*ok = 0;
			return 0;
		}
		v |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
		if (!(*p++ & 0x80))
			break;
	}
	*pp = p;
	return v;
}

static uint64_t
unzigzag(uint64_t v)
{
	return (v >> 1) ^ (0 - (v & 1));
}

/* width bits (0-64) at bit offset bit of p, least significant first. */
static uint64_t
bits_at(const unsigned char *p, uint64_t bit, unsigned width)
{
	const unsigned char *q = p + (bit >> 3);
	unsigned shift = (unsigned)(bit & 7), need, i;
	uint64_t v = 0;

	if (width == 0)
		return 0;
	need = (shift + width + 7) >> 3;
	for (i = 0; i < need && i < 8; i++)
		v |= (uint64_t)q[i] << (8 * i);
	v >>= shift;
	if (need == 9)
		v |= (uint64_t)q[8] << (64 - shift);
	if (width < 64)
		v &= ((uint64_t)1 << width) - 1;
	return v;
}

/* ---- the RLE / bit-packed hybrid ---------------------------------------- */

void
pq_rle_init(struct pq_rle *r, const unsigned char *p, size_t n, int width)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->end = p + n;
	r->width = width;
}

void
pq_bitpacked_init(struct pq_rle *r, const unsigned char *p, size_t n,
    int width)
{
	pq_rle_init(r, p, n, width);
	r->msb = 1;
}

/* The next run's header; 0 at the end of the data. */
static int
next_run(struct pq_rle *r, const char **err)
{
	uint64_t h;
	size_t k, nb;
	int ok = 1;

	while (r->run == 0) {
		if (r->p >= r->end)
			return 0;
		h = uleb(&r->p, r->end, &ok);
		if (!ok || h >> 1 > UINT32_MAX) {
			*err = "bad run header in RLE data";
			return -1;
		}
		r->packed = h & 1;
		if (r->packed) {
			r->run = (h >> 1) * 8;
			r->ingroup = 0;
			continue;
		}
		r->run = h >> 1;
		nb = ((size_t)r->width + 7) / 8;
		if ((size_t)(r->end - r->p) < nb) {
			*err = "RLE run cut short";
			return -1;
		}
		r->value = 0;
		for (k = 0; k < nb; k++)
			r->value |= (uint32_t)r->p[k] << (8 * k);
		r->p += nb;
	}
	return 1;
}

/* The next group of eight bit-packed values (fewer where the bytes end). */
static void
next_group(struct pq_rle *r)
{
	size_t avail = (size_t)(r->end - r->p), have = 8, i;
	unsigned w = (unsigned)r->width;

	if (w > 0 && avail < w)
		have = avail * 8 / w;
	for (i = 0; i < have; i++)
		r->group[8 - have + i] = (uint32_t)bits_at(r->p, i * w, w);
	r->p += w > 0 && avail < w ? avail : w;
	r->ingroup = (int)have;
	if (have < 8)		/* the data ends inside this group */
		r->run = have;
}

size_t
pq_rle_get(struct pq_rle *r, uint32_t *out, size_t n, const char **err)
{
	size_t k = 0, m;
	uint64_t total;
	int ret;

	if (r->msb) {
		/* BIT_PACKED: most significant bit first, no runs. */
		total = (uint64_t)(r->end - r->p) * 8;
		for (; k < n && r->bitpos + (uint64_t)r->width <= total; k++) {
			uint32_t v = 0;
			int b;

			for (b = 0; b < r->width; b++, r->bitpos++)
				v = v << 1 | (r->p[r->bitpos >> 3] >>
				    (7 - (r->bitpos & 7)) & 1);
			out[k] = v;
		}
		return k;
	}
	while (k < n) {
		if (r->run == 0) {
			if ((ret = next_run(r, err)) < 0)
				return (size_t)-1;
			if (ret == 0 && r->width == 0) {
				/* Zero bits a value: writers may leave out runs. */
				memset(out + k, 0, (n - k) * sizeof(*out));
				return n;
			}
			if (ret == 0)
				break;
		}
		if (!r->packed || r->width == 0) {
			/*
			 * A repeat, or a bit-packed run of zero-bit values
			 * (all 0, in no bytes: a dictionary of one value).
			 */
			m = n - k < r->run ? n - k : (size_t)r->run;
			for (size_t i = 0; i < m; i++)
				out[k + i] = r->packed ? 0 : r->value;
			k += m;
			r->run -= m;
			continue;
		}
		if (r->ingroup == 0) {
			if (r->p >= r->end) {
				r->run = 0;
				break;
			}
			next_group(r);
			if (r->ingroup == 0)
				break;
		}
		out[k++] = r->group[8 - r->ingroup--];
		r->run--;
	}
	return k;
}

/* ---- DELTA_BINARY_PACKED ----------------------------------------------- */

static int
dbp_header(struct pq_dbp *d, const unsigned char *p, size_t n,
    const char **err)
{
	uint64_t total, first;
	int ok = 1;

	memset(d, 0, sizeof(*d));
	d->end = p + n;
	d->per_block = uleb(&p, d->end, &ok);
	d->minis = uleb(&p, d->end, &ok);
	total = uleb(&p, d->end, &ok);
	first = uleb(&p, d->end, &ok);
	if (!ok || d->per_block == 0 || d->per_block % 128 != 0 ||
	    d->per_block > 1u << 20 || d->minis == 0 ||
	    d->per_block % d->minis != 0 ||
	    (d->per_block / d->minis) % 32 != 0) {
		*err = "bad DELTA_BINARY_PACKED header";
		return -1;
	}
	d->p = p;
	d->per_mini = d->per_block / d->minis;
	d->left = total;
	d->first = total > 0;
	d->last = unzigzag(first);
	return 0;
}

int
pq_dbp_init(struct pq_dbp *d, const unsigned char *p, size_t n,
    const char **err)
{
	return dbp_header(d, p, n, err);
}

/* Start the next miniblock (a new block's header first when needed). */
static int
dbp_mini(struct pq_dbp *d, const char **err)
{
	uint64_t bytes, avail, need, w;
	int ok = 1;

	if (d->widths == NULL || d->mini == d->minis) {
		d->min_delta = unzigzag(uleb(&d->p, d->end, &ok));
		if (!ok || (uint64_t)(d->end - d->p) < d->minis) {
			*err = "DELTA_BINARY_PACKED block cut short";
			return -1;
		}
		d->widths = d->p;
		d->p += d->minis;
		d->mini = 0;
	}
	w = d->widths[d->mini++];
	if (w > 64) {
		*err = "DELTA_BINARY_PACKED bit width over 64";
		return -1;
	}
	bytes = d->per_mini * w / 8;
	avail = (uint64_t)(d->end - d->p);
	/* The last miniblock should be padded; its values must be there. */
	need = ((d->left < d->per_mini ? d->left : d->per_mini) * w + 7) / 8;
	if (avail < need) {
		*err = "DELTA_BINARY_PACKED miniblock cut short";
		return -1;
	}
	d->data = d->p;
	d->p += bytes < avail ? bytes : avail;
	d->bit = 0;
	d->inmini = d->per_mini;
	return 0;
}

size_t
pq_dbp_get(struct pq_dbp *d, int64_t *out, size_t n, const char **err)
{
	size_t k = 0;
	unsigned w;

	if (k < n && d->first) {
		out[k++] = (int64_t)d->last;
		d->first = 0;
		d->left--;
	}
	while (k < n && d->left > 0) {
		if (d->inmini == 0 && dbp_mini(d, err) == -1)
			return (size_t)-1;
		w = d->widths[d->mini - 1];
		for (; k < n && d->left > 0 && d->inmini > 0; k++) {
			/* Unsigned: the format's arithmetic wraps. */
			d->last += d->min_delta + bits_at(d->data, d->bit, w);
			d->bit += w;
			d->inmini--;
			d->left--;
			out[k] = (int64_t)d->last;
		}
	}
	return k;
}

const unsigned char *
pq_dbp_end(const unsigned char *p, size_t n, uint64_t *count,
    const char **err)
{
	struct pq_dbp d;
	uint64_t left, m, take, w, bytes, avail;
	int ok = 1;

	if (dbp_header(&d, p, n, err) == -1)
		return NULL;
	*count = d.left;
	left = d.left > 0 ? d.left - 1 : 0;
	while (left > 0) {
		(void)uleb(&d.p, d.end, &ok);
		if (!ok || (uint64_t)(d.end - d.p) < d.minis) {
			*err = "DELTA_BINARY_PACKED block cut short";
			return NULL;
		}
		d.widths = d.p;
		d.p += d.minis;
		for (m = 0; m < d.minis && left > 0; m++) {
			w = d.widths[m];
			if (w > 64) {
				*err = "DELTA_BINARY_PACKED bit width over 64";
				return NULL;
			}
			take = left < d.per_mini ? left : d.per_mini;
			bytes = d.per_mini * w / 8;
			avail = (uint64_t)(d.end - d.p);
			if (avail < (take * w + 7) / 8) {
				*err = "DELTA_BINARY_PACKED miniblock cut short";
				return NULL;
			}
			d.p += bytes < avail ? bytes : avail;
			left -= take;
		}
	}
	return d.p;
}

/* ---- a page's values ----------------------------------------------------- */

int
pq_dec_init(struct pq_dec *d, int enc, int type, size_t width,
    const unsigned char *p, size_t n, size_t n_values,
    const struct pq_vals *dict, struct pskd_buf *arena, const char **err)
{
	const unsigned char *q;
	uint64_t count, count2;
	size_t k;

	memset(d, 0, sizeof(*d));
	d->enc = enc;
	d->type = type;
	d->width = type == PQ_FLBA ? width : pq_type_size(type);
	d->p = p;
	d->end = p + n;
	d->arena = arena;
	switch (enc) {
	case PQ_PLAIN:
		return 0;
	case PQ_PLAIN_DICTIONARY:
	case PQ_RLE_DICTIONARY:
		if (dict == NULL) {
			*err = "dictionary encoding without a dictionary page";
			return -1;
		}
		d->dict = dict;
		if (n == 0) {
			/* No indices: right only for a page of nulls. */
			pq_rle_init(&d->rle, p, 0, 1);
			return 0;
		}
		if (p[0] > 32) {
			*err = "bad bit width of dictionary indices";
			return -1;
		}
		pq_rle_init(&d->rle, p + 1, n - 1, p[0]);
		return 0;
	case PQ_RLE:
		if (type != PQ_BOOLEAN)
			break;
		if (n < 4 || pskd_get_le32(p) > n - 4) {
			*err = "RLE booleans: bad length";
			return -1;
		}
		pq_rle_init(&d->rle, p + 4, pskd_get_le32(p), 1);
		return 0;
	case PQ_DELTA_BINARY_PACKED:
		if (type != PQ_INT32 && type != PQ_INT64)
			break;
		return pq_dbp_init(&d->dbp, p, n, err);
	case PQ_DELTA_LENGTH_BYTE_ARRAY:
		if (type != PQ_BYTE_ARRAY)
			break;
		if ((q = pq_dbp_end(p, n, &count, err)) == NULL)
			return -1;
		if (count < n_values) {
			*err = "fewer lengths than values";
			return -1;
		}
		d->p = q;
		return pq_dbp_init(&d->dbp, p, (size_t)(q - p), err);
	case PQ_DELTA_BYTE_ARRAY:
		if (type != PQ_BYTE_ARRAY && type != PQ_FLBA)
			break;
		if ((q = pq_dbp_end(p, n, &count, err)) == NULL ||
		    pq_dbp_init(&d->prefix, p, (size_t)(q - p), err) == -1)
			return -1;
		p = q;
		if ((q = pq_dbp_end(p, (size_t)(d->end - p), &count2, err)) ==
		    NULL || pq_dbp_init(&d->dbp, p, (size_t)(q - p), err) == -1)
			return -1;
		if (count < n_values || count2 < n_values) {
			*err = "fewer lengths than values";
			return -1;
		}
		d->p = q;
		return 0;
	case PQ_BYTE_STREAM_SPLIT:
		if (type != PQ_FLOAT && type != PQ_DOUBLE && type != PQ_INT32 &&
		    type != PQ_INT64 && type != PQ_FLBA)
			break;
		k = d->width;
		if (n % k != 0 || n / k < n_values) {
			*err = "BYTE_STREAM_SPLIT data not of its size";
			return -1;
		}
		d->base = p;
		d->count = n / k;
		return 0;
	}
	*err = "an encoding this type cannot have, or an unknown one";
	return -1;
}

void
pq_dec_free(struct pq_dec *d)
{
	free(d->ibuf);
	free(d->lbuf);
	free(d->pbuf);
	d->pbuf = NULL;
	pskd_buf_free(&d->prev);
	d->ibuf = NULL;
	d->lbuf = NULL;
}

static int
plain(struct pq_dec *d, struct pq_vals *out, size_t n, const char **err)
{
	size_t avail = (size_t)(d->end - d->p), i, len;

	switch (d->type) {
	case PQ_BOOLEAN:
		if ((uint64_t)avail * 8 < d->bit + n) {
			*err = "PLAIN booleans cut short";
			return -1;
		}
		for (i = 0; i < n; i++, d->bit++)
			out->fixed[i] = d->p[d->bit >> 3] >> (d->bit & 7) & 1;
		return 0;
	case PQ_BYTE_ARRAY:
		for (i = 0; i < n; i++) {
			if (avail < 4 || pskd_get_le32(d->p) > avail - 4) {
				*err = "PLAIN byte array cut short";
				return -1;
			}
			len = pskd_get_le32(d->p);
			out->ba[i].p = d->p + 4;
			out->ba[i].len = len;
			d->p += 4 + len;
			avail -= 4 + len;
		}
		return 0;
	case PQ_FLBA:
		if (avail / d->width < n) {
			*err = "PLAIN values cut short";
			return -1;
		}
		for (i = 0; i < n; i++, d->p += d->width) {
			out->ba[i].p = d->p;
			out->ba[i].len = d->width;
		}
		return 0;
	default:
		if (avail / d->width < n) {
			*err = "PLAIN values cut short";
			return -1;
		}
		memcpy(out->fixed, d->p, n * d->width);
		d->p += n * d->width;
		return 0;
	}
}

static int
indices(struct pq_dec *d, size_t n, const char **err)
{
	size_t got;

	if (d->ibuf == NULL)
		d->ibuf = pskd_xreallocarray(NULL, PQ_BATCH, sizeof(*d->ibuf));
	got = pq_rle_get(&d->rle, d->ibuf, n, err);
	if (got == (size_t)-1)
		return -1;
	if (got < n) {
		*err = "fewer values than the levels say";
		return -1;
	}
	return 0;
}

static int
dictionary(struct pq_dec *d, struct pq_vals *out, size_t n, const char **err)
{
	const struct pq_vals *dict = d->dict;
	size_t i, sz = dict->size;

	if (indices(d, n, err) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (d->ibuf[i] >= dict->n) {
			*err = "dictionary index out of range";
			return -1;
		}
	if (sz == 0)
		for (i = 0; i < n; i++)
			out->ba[i] = dict->ba[d->ibuf[i]];
	else if (sz == 4)
		for (i = 0; i < n; i++)
			memcpy(out->fixed + 4 * i, dict->fixed + 4 *
			    (size_t)d->ibuf[i], 4);
	else if (sz == 8)
		for (i = 0; i < n; i++)
			memcpy(out->fixed + 8 * i, dict->fixed + 8 *
			    (size_t)d->ibuf[i], 8);
	else
		for (i = 0; i < n; i++)
			memcpy(out->fixed + sz * i, dict->fixed + sz *
			    (size_t)d->ibuf[i], sz);
	return 0;
}

static int
lengths(struct pq_dbp *dbp, int64_t **buf, size_t n, const char **err)
{
	size_t got;

	if (*buf == NULL)
		*buf = pskd_xreallocarray(NULL, PQ_BATCH, sizeof(**buf));
	got = pq_dbp_get(dbp, *buf, n, err);
	if (got == (size_t)-1)
		return -1;
	if (got < n) {
		*err = "fewer values than the levels say";
		return -1;
	}
	return 0;
}

static int
delta_length(struct pq_dec *d, struct pq_vals *out, size_t n,
    const char **err)
{
	size_t i;

	if (lengths(&d->dbp, &d->lbuf, n, err) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (d->lbuf[i] < 0 || (uint64_t)d->lbuf[i] >
		    (uint64_t)(d->end - d->p)) {
			*err = "DELTA_LENGTH_BYTE_ARRAY length past the data";
			return -1;
		}
		out->ba[i].p = d->p;
		out->ba[i].len = (size_t)d->lbuf[i];
		d->p += d->lbuf[i];
	}
	return 0;
}

/*
 * DELTA_BYTE_ARRAY: each value is a prefix of the one before and a
 * suffix, made in the arena; pointers fixed once the arena stops moving.
 */
static int
delta_bytes(struct pq_dec *d, struct pq_vals *out, size_t n,
    const char **err)
{
	struct pskd_buf *a = d->arena;
	int64_t *pre;
	size_t i, plen, slen;

	if (lengths(&d->prefix, &d->pbuf, n, err) == -1 ||
	    lengths(&d->dbp, &d->lbuf, n, err) == -1)
		return -1;
	pre = d->pbuf;
	a->len = 0;
	for (i = 0; i < n; i++) {
		if (pre[i] < 0 || (uint64_t)pre[i] > d->prev.len ||
		    d->lbuf[i] < 0 || (uint64_t)d->lbuf[i] >
		    (uint64_t)(d->end - d->p)) {
			*err = "DELTA_BYTE_ARRAY prefix or suffix past the data";
			return -1;
		}
		plen = (size_t)pre[i];
		slen = (size_t)d->lbuf[i];
		if (d->type == PQ_FLBA && plen + slen != d->width) {
			*err = "DELTA_BYTE_ARRAY value not of the column's width";
			return -1;
		}
		d->prev.len = plen;
		pskd_buf_add(&d->prev, d->p, slen);
		d->p += slen;
		out->ba[i].p = (const unsigned char *)(uintptr_t)a->len;
		out->ba[i].len = d->prev.len;
		pskd_buf_add(a, d->prev.p, d->prev.len);
	}
	for (i = 0; i < n; i++)
		out->ba[i].p = a->p + (size_t)(uintptr_t)out->ba[i].p;
	return 0;
}

static int
stream_split(struct pq_dec *d, struct pq_vals *out, size_t n,
    const char **err)
{
	size_t i, j, k = d->width;
	unsigned char *dst;

	if (d->count - d->index < n) {
		*err = "fewer values than the levels say";
		return -1;
	}
	if (d->type == PQ_FLBA) {
		d->arena->len = 0;
		pskd_buf_reserve(d->arena, n * k);
		dst = d->arena->p;
	} else
		dst = out->fixed;
	for (i = 0; i < n; i++, d->index++)
		for (j = 0; j < k; j++)
			dst[i * k + j] = d->base[j * d->count + d->index];
	if (d->type == PQ_FLBA) {
		d->arena->len = n * k;
		for (i = 0; i < n; i++) {
			out->ba[i].p = dst + i * k;
			out->ba[i].len = k;
		}
	}
	return 0;
}

int
pq_dec_get(struct pq_dec *d, struct pq_vals *out, size_t n, const char **err)
{
	size_t i;
	int ret;

	pq_vals_reserve(out, n);
	out->n = 0;
	if (n == 0)
		return 0;
	switch (d->enc) {
	case PQ_PLAIN:
		ret = plain(d, out, n, err);
		break;
	case PQ_PLAIN_DICTIONARY:
	case PQ_RLE_DICTIONARY:
		ret = dictionary(d, out, n, err);
		break;
	case PQ_RLE:
		if ((ret = indices(d, n, err)) == 0)
			for (i = 0; i < n; i++)
				out->fixed[i] = d->ibuf[i] != 0;
		break;
	case PQ_DELTA_BINARY_PACKED:
		if ((ret = lengths(&d->dbp, &d->lbuf, n, err)) == 0) {
			if (d->type == PQ_INT32)
				for (i = 0; i < n; i++)
					pskd_put_le32(out->fixed + 4 * i,
					    (uint32_t)d->lbuf[i]);
			else
				for (i = 0; i < n; i++)
					pskd_put_le64(out->fixed + 8 * i,
					    (uint64_t)d->lbuf[i]);
		}
		break;
	case PQ_DELTA_LENGTH_BYTE_ARRAY:
		ret = delta_length(d, out, n, err);
		break;
	case PQ_DELTA_BYTE_ARRAY:
		ret = delta_bytes(d, out, n, err);
		break;
	default:
		ret = stream_split(d, out, n, err);
		break;
	}
	if (ret == 0)
		out->n = n;
	return ret;
}

int
pq_plain_all(int type, size_t width, const unsigned char *p, size_t len,
    size_t n, struct pq_vals *out, const char **err)
{
	struct pq_dec d;
	size_t least = type == PQ_BOOLEAN ? 0 : type == PQ_BYTE_ARRAY ? 4 :
	    type == PQ_FLBA ? width : pq_type_size(type);

	/* A count the bytes cannot hold is refused before any allocation. */
	if ((type == PQ_BOOLEAN && n / 8 > len) || (least > 0 &&
	    n > len / least)) {
		*err = "dictionary page with more values than bytes";
		return -1;
	}
	if (pq_dec_init(&d, PQ_PLAIN, type, width, p, len, n, NULL, NULL,
	    err) == -1)
		return -1;
	pq_vals_init(out, type);
	return pq_dec_get(&d, out, n, err);
}
