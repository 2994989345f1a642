/*
 * column.c - the pages of a column chunk: a dictionary page (at most one,
 * first), data pages v1 (levels, then values, all compressed) and v2
 * (levels uncompressed before the values, which may be), index pages
 * skipped.  The sizes a header claims are checked against the chunk, the
 * levels against the column's maximums, the entries against the chunk's
 * count.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parquet/codec.h"
#include "parquet/column.h"

#define READAHEAD	PSKD_BUFSIZE

static int
fail(struct pq_column *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct pq_column *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

static int
page_fail(struct pq_column *c, const char *why)
{
	return fail(c, "page at byte %llu: %s",
	    (unsigned long long)c->page_at, why);
}

int
pq_column_open(struct pq_column *c, int fd, uint64_t size,
    const struct pq_chunk *ch, int type, size_t width, int max_def,
    int max_rep)
{
	unsigned char *win = c->win, *page = c->page;
	size_t wcap = c->wcap, pagecap = c->pagecap;
	int64_t start;

	/* The buffers of the chunk before (pq_column_release) serve again. */
	memset(c, 0, sizeof(*c));
	c->win = win;
	c->wcap = wcap;
	c->page = page;
	c->pagecap = pagecap;
	c->fd = fd;
	c->type = type;
	c->width = width;
	c->max_def = max_def;
	c->max_rep = max_rep;
	pq_vals_init(&c->vals, type);
	pq_vals_init(&c->dict, type);
	if (!ch->has_meta)
		return fail(c, "column chunk without its metadata");
	if (ch->external)
		return fail(c, "column chunk in another file");
	if (ch->encrypted)
		return fail(c, "encrypted column chunk (not supported)");
	if ((int)ch->type != type)
		return fail(c, "column chunk of another type than the schema");
	c->codec = ch->codec;
	/* The dictionary page, when there is one, comes first. */
	start = ch->data_page_offset;
	if (ch->dictionary_page_offset > 0 &&
	    ch->dictionary_page_offset < start)
		start = ch->dictionary_page_offset;
	if (start < 4 || ch->total_compressed_size < 0 ||
	    (uint64_t)start > size ||
	    (uint64_t)ch->total_compressed_size > size - (uint64_t)start)
		return fail(c, "column chunk outside the file");
	if (ch->num_values < 0)
		return fail(c, "negative number of values");
	c->pos = (uint64_t)start;
	c->end = (uint64_t)start + (uint64_t)ch->total_compressed_size;
	c->values_left = ch->num_values;
	return 0;
}

void
pq_column_release(struct pq_column *c)
{
	free(c->dictpage);
	c->dictpage = NULL;
	pq_vals_free(&c->dict);
	pq_vals_free(&c->vals);
	pq_dec_free(&c->dec);
	pskd_buf_free(&c->arena);
}

void
pq_column_close(struct pq_column *c)
{
	pq_column_release(c);
	free(c->win);
	free(c->page);
	memset(c, 0, sizeof(*c));
}

/* The file's bytes [off, off + n), n <= what is left of the chunk. */
static const unsigned char *
window(struct pq_column *c, uint64_t off, size_t n)
{
	size_t want, done = 0;
	ssize_t got;

	if (off >= c->woff && off + n <= c->woff + c->wlen)
		return c->win + (off - c->woff);
	want = n > READAHEAD ? n : READAHEAD;
	if (want > c->end - off)
		want = (size_t)(c->end - off);
	if (want > c->wcap || c->win == NULL) {
		free(c->win);
		c->win = pskd_xmalloc(want ? want : 1);
		c->wcap = want;
		/* One call, not a fault a page (they are dear in a VM). */
		pskd_prefault(c->win, want);
	}
	while (done < want) {
		got = pread(c->fd, c->win + done, want - done,
		    (off_t)(off + done));
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0) {
			fail(c, "%s", got == 0 ? "the file ends inside a column "
			    "chunk" : strerror(errno));
			c->wlen = 0;
			return NULL;
		}
		done += (size_t)got;
	}
	c->woff = off;
	c->wlen = want;
	return c->win;
}

static int
level_width(int max)
{
	int w = 0;

	while (max >> w)
		w++;
	return w;
}

/* A v1 level section at *p: RLE with a length before it, or BIT_PACKED. */
static int
v1_levels(struct pq_column *c, struct pq_rle *r, int enc, int max,
    int32_t count, const unsigned char **p, const unsigned char *end)
{
	int w = level_width(max);
	uint64_t len;

	if (enc == PQ_RLE) {
		if (end - *p < 4 || pskd_get_le32(*p) > (size_t)(end - *p) - 4)
			return page_fail(c, "level data longer than the page");
		len = pskd_get_le32(*p);
		pq_rle_init(r, *p + 4, (size_t)len, w);
		*p += 4 + len;
		return 0;
	}
	if (enc == PQ_BIT_PACKED) {
		len = ((uint64_t)count * (uint64_t)w + 7) / 8;
		if (len > (uint64_t)(end - *p))
			return page_fail(c, "level data longer than the page");
		pq_bitpacked_init(r, *p, (size_t)len, w);
		*p += len;
		return 0;
	}
	return page_fail(c, "unknown encoding of levels");
}

/* Decompress a page's body (or point at it when it is not compressed). */
static const unsigned char *
body(struct pq_column *c, const unsigned char *src, size_t n, size_t want,
    int compressed)
{
	const char *err;

	/*
	 * No bytes at all is an empty body, not a compressed one: a v2 page
	 * of nulls only has its levels and nothing after them (parquet-mr
	 * writes it so, and DuckDB and arrow-rs read it so).
	 */
	if (!compressed || c->codec == PQ_UNCOMPRESSED || (n == 0 &&
	    want == 0)) {
		if (n != want) {
			page_fail(c, "uncompressed page not of the size its "
			    "header says");
			return NULL;
		}
		return src;
	}
	if (pq_decompress(c->codec, src, n, &c->page, &c->pagecap, want,
	    &err) == -1) {
		page_fail(c, err);
		return NULL;
	}
	return c->page;
}

static int
dictionary_page(struct pq_column *c, const struct pq_page *h,
    const unsigned char *src)
{
	const unsigned char *p;
	const char *err;

	if (c->has_dict || c->seen_data)
		return page_fail(c, "a second dictionary page, or one after "
		    "data");
	if (h->encoding != PQ_PLAIN && h->encoding != PQ_PLAIN_DICTIONARY)
		return page_fail(c, "dictionary page not PLAIN");
	if ((p = body(c, src, (size_t)h->compressed_size,
	    (size_t)h->uncompressed_size, 1)) == NULL)
		return -1;
	/* Its values point into it: a copy of its own, kept. */
	c->dictpage = pskd_xmalloc(h->uncompressed_size ? (size_t)
	    h->uncompressed_size : 1);
	memcpy(c->dictpage, p, (size_t)h->uncompressed_size);
	if (pq_plain_all(c->type, c->width, c->dictpage,
	    (size_t)h->uncompressed_size, (size_t)h->num_values, &c->dict,
	    &err) == -1)
		return page_fail(c, err);
	c->has_dict = 1;
	return 0;
}

static int
data_page(struct pq_column *c, const struct pq_page *h,
    const unsigned char *src)
{
	const unsigned char *p, *end, *lev;
	const char *err;
	size_t nvalues = 0;
	int64_t levels;

	c->seen_data = 1;
	pq_dec_free(&c->dec);
	if (h->type == PQ_DATA_PAGE) {
		if ((p = body(c, src, (size_t)h->compressed_size,
		    (size_t)h->uncompressed_size, 1)) == NULL)
			return -1;
		end = p + h->uncompressed_size;
		if (c->max_rep > 0 && v1_levels(c, &c->rep, h->rep_encoding,
		    c->max_rep, h->num_values, &p, end) == -1)
			return -1;
		if (c->max_def > 0 && v1_levels(c, &c->def, h->def_encoding,
		    c->max_def, h->num_values, &p, end) == -1)
			return -1;
	} else {
		levels = (int64_t)h->rep_length + h->def_length;
		if (levels > h->compressed_size || levels > h->uncompressed_size)
			return page_fail(c, "level data longer than the page");
		if (h->num_nulls > h->num_values)
			return page_fail(c, "more nulls than values");
		nvalues = (size_t)(h->num_values - h->num_nulls);
		lev = src;
		pq_rle_init(&c->rep, lev, (size_t)h->rep_length,
		    level_width(c->max_rep));
		pq_rle_init(&c->def, lev + h->rep_length, (size_t)h->def_length,
		    level_width(c->max_def));
		if ((p = body(c, src + levels, (size_t)(h->compressed_size -
		    levels), (size_t)(h->uncompressed_size - levels),
		    h->is_compressed)) == NULL)
			return -1;
		end = p + (h->uncompressed_size - levels);
	}
	if (pq_dec_init(&c->dec, h->encoding, c->type, c->width, p,
	    (size_t)(end - p), nvalues, c->has_dict ? &c->dict : NULL,
	    &c->arena, &err) == -1)
		return page_fail(c, err);
	c->page_left = h->num_values;
	return 0;
}

/* The next data page: 1, 0 at the end of the chunk, -1 on an error. */
static int
next_page(struct pq_column *c)
{
	struct pq_page h;
	const unsigned char *p;
	const char *err = NULL;
	size_t n, left;
	long hlen;

	for (;;) {
		if (c->pos >= c->end) {
			if (c->values_left > 0)
				return fail(c, "column chunk ends %lld values "
				    "short", (long long)c->values_left);
			return 0;
		}
		c->page_at = c->pos;
		/* A header takes what it takes: read more until it parses. */
		left = (size_t)(c->end - c->pos);
		for (n = left < 256 ? left : 256;; n = n * 4 < left ? n * 4 :
		    left) {
			if ((p = window(c, c->pos, n)) == NULL)
				return -1;
			if ((hlen = pq_page_parse(&h, p, n, &err)) > 0 ||
			    n == left)
				break;
		}
		if (hlen <= 0)
			return page_fail(c, err ? err : "bad page header");
		if ((uint64_t)h.compressed_size > left - (size_t)hlen)
			return page_fail(c, "page longer than its column chunk");
		if ((p = window(c, c->pos + (size_t)hlen,
		    (size_t)h.compressed_size)) == NULL)
			return -1;
		c->pos += (size_t)hlen + (size_t)h.compressed_size;
		switch (h.type) {
		case PQ_DICTIONARY_PAGE:
			if (dictionary_page(c, &h, p) == -1)
				return -1;
			continue;
		case PQ_DATA_PAGE:
		case PQ_DATA_PAGE_V2:
			if (h.num_values > c->values_left)
				return page_fail(c, "more values in the pages "
				    "than in the column chunk");
			c->values_left -= h.num_values;
			if (data_page(c, &h, p) == -1)
				return -1;
			if (c->page_left > 0)
				return 1;
			continue;
		default:
			continue;	/* an index page, or a kind unknown */
		}
	}
}

/* Levels into out (bytes), each at most max; 0 or -1. */
static int
levels(struct pq_column *c, struct pq_rle *r, int max, uint8_t *out,
    size_t k)
{
	const char *err = "levels cut short";
	size_t i, got;

	if (max == 0) {
		memset(out, 0, k);
		return 0;
	}
	got = pq_rle_get(r, c->lev, k, &err);
	if (got != k)
		return page_fail(c, got == (size_t)-1 ? err :
		    "fewer levels than values in the page");
	for (i = 0; i < k; i++) {
		if (c->lev[i] > (uint32_t)max)
			return page_fail(c, "level above the column's maximum");
		out[i] = (uint8_t)c->lev[i];
	}
	return 0;
}

int
pq_column_fill(struct pq_column *c)
{
	const char *err;
	size_t k, i, present = 0;
	int r;

	if (c->ib < c->nb)
		return 1;
	while (c->page_left == 0)
		if ((r = next_page(c)) <= 0)
			return r;
	k = c->page_left < PQ_BATCH ? (size_t)c->page_left : PQ_BATCH;
	if (levels(c, &c->rep, c->max_rep, c->repb, k) == -1 ||
	    levels(c, &c->def, c->max_def, c->defb, k) == -1)
		return -1;
	for (i = 0; i < k; i++)
		present += c->defb[i] == c->max_def;
	if (pq_dec_get(&c->dec, &c->vals, present, &err) == -1)
		return page_fail(c, err);
	c->page_left -= (int64_t)k;
	c->nb = k;
	c->ib = 0;
	c->iv = 0;
	return 1;
}
