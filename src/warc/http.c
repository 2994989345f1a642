/*
 * http.c - the HTTP response a WARC response record holds (RFC 9112): the
 * status line, the fields that matter here (Content-Type,
 * Transfer-Encoding, Content-Encoding), and the body without its codings.
 * Common Crawl keeps the fields of a body it stored decoded under other
 * names (X-Crawler-Content-Encoding), so only the real names count.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "warc/warc.h"

#define HTTP_FIELDS_MAX	(256u << 10)

static int
lower_copy(char *dst, size_t size, const unsigned char *p, size_t n)
{
	size_t i;

	if (n >= size)
		n = size - 1;
	for (i = 0; i < n; i++)
		dst[i] = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]);
	dst[n] = '\0';
	return 0;
}

void
http_content_type(const char *v, size_t n, char *media, size_t msize,
    char *label, size_t lsize)
{
	const unsigned char *p = (const unsigned char *)v, *semi, *q;
	size_t k, rest;

	media[0] = label[0] = '\0';
	semi = memchr(p, ';', n);
	k = semi ? (size_t)(semi - p) : n;
	q = warc_trim(p, &k);
	lower_copy(media, msize, q, k);
	/* The parameters: the charset's value, quoted or not. */
	while (semi != NULL) {
		p = semi + 1;
		rest = n - (size_t)(p - (const unsigned char *)v);
		semi = memchr(p, ';', rest);
		k = semi ? (size_t)(semi - p) : rest;
		q = warc_trim(p, &k);
		if (k > 8 && strncasecmp((const char *)q, "charset=", 8) == 0) {
			q += 8;
			k -= 8;
			if (k >= 2 && q[0] == '"') {
				q++;
				k--;
				if (memchr(q, '"', k) != NULL)
					k = (size_t)((const unsigned char *)
					    memchr(q, '"', k) - q);
			}
			q = warc_trim(q, &k);
			lower_copy(label, lsize, q, k);
			return;
		}
	}
}

int
http_parse(const unsigned char *p, size_t n, struct http_resp *h)
{
	const unsigned char *line, *nl, *colon, *v, *end;
	size_t len, vlen, limit = n < HTTP_FIELDS_MAX ? n : HTTP_FIELDS_MAX;
	unsigned status = 0;
	size_t i;

	memset(h, 0, sizeof(*h));
	/* "HTTP/1.1 200 OK" (the reason may be missing). */
	if (n < 12 || memcmp(p, "HTTP/", 5) != 0)
		return -1;
	nl = memchr(p, '\n', limit);
	if (nl == NULL)
		return -1;
	for (i = 5; i < (size_t)(nl - p) && p[i] != ' '; i++)
		;
	while (i < (size_t)(nl - p) && p[i] == ' ')
		i++;
	if (i + 3 > (size_t)(nl - p))
		return -1;
	for (len = 0; len < 3; len++) {
		if (p[i + len] < '0' || p[i + len] > '9')
			return -1;
		status = status * 10 + (unsigned)(p[i + len] - '0');
	}
	h->status = (int)status;
	end = p + limit;
	for (line = nl + 1; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (nl == NULL)
			return -1;	/* no end of the fields */
		len = (size_t)(nl - line);
		if (len == 0 || (len == 1 && line[0] == '\r'))
			break;
		colon = memchr(line, ':', len);
		if (colon == NULL)
			continue;
		vlen = len - (size_t)(colon + 1 - line);
		v = warc_trim(colon + 1, &vlen);
		len = (size_t)(colon - line);
		if (len == 12 && strncasecmp((const char *)line,
		    "content-type", 12) == 0 && h->media[0] == '\0')
			http_content_type((const char *)v, vlen, h->media,
			    sizeof(h->media), h->label, sizeof(h->label));
		else if (len == 17 && strncasecmp((const char *)line,
		    "transfer-encoding", 17) == 0) {
			char te[64];

			lower_copy(te, sizeof(te), v, vlen);
			h->chunked = strstr(te, "chunked") != NULL;
		} else if (len == 16 && strncasecmp((const char *)line,
		    "content-encoding", 16) == 0)
			lower_copy(h->coding, sizeof(h->coding), v, vlen);
	}
	if (line >= end)
		return -1;
	h->body = nl + 1;
	h->bodylen = n - (size_t)(h->body - p);
	return 0;
}

/* A hex chunk size at p[0..n) up to its CR LF: 0, or -1. */
static int
chunk_size(const unsigned char *p, size_t n, size_t *pos, uint64_t *size)
{
	size_t i = *pos;
	uint64_t v = 0;
	int digits = 0;
	const unsigned char *nl;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	for (; i < n; i++, digits++) {
		unsigned c = p[i];

		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 32) >= 'a' && (c | 32) <= 'f')
			c = (c | 32) - 'a' + 10;
		else
			break;
		if (v >> 60)
			return -1;
		v = v << 4 | c;
	}
	if (digits == 0 || i >= n)
		return -1;
	/* Extensions (";name=value") up to the line's end. */
	nl = memchr(p + i, '\n', n - i);
	if (nl == NULL)
		return -1;
	*pos = (size_t)(nl - p) + 1;
	*size = v;
	return 0;
}

/*
 * The chunks of a chunked body: 0, or -1 when it does not parse (then
 * the body is taken as it is, as browsers and warcio do).  A body cut
 * short (Common Crawl truncates long ones) keeps what it has.
 */
static int
dechunk(const unsigned char *p, size_t n, struct pskd_buf *out)
{
	size_t pos = 0;
	uint64_t size;

	while (pos < n) {
		if (chunk_size(p, n, &pos, &size) == -1)
			return -1;
		if (size == 0)
			return 0;
		if (size > n - pos)
			size = n - pos;
		pskd_buf_add(out, p + pos, (size_t)size);
		pos += (size_t)size;
		if (pos < n && p[pos] == '\r')
			pos++;
		if (pos < n && p[pos] == '\n')
			pos++;
	}
	return 0;
}

int
http_decode(const struct http_resp *h, size_t max, struct pskd_buf *out,
    char *why, size_t whysize)
{
	struct pskd_buf chunks = { 0 }, tmp = { 0 };
	const unsigned char *p = h->body;
	size_t n = h->bodylen;
	char list[64], *c, *last;
	enum coding codes[8];
	int ncodes = 0, cut = 0, r, i;

	out->len = 0;
	if (h->chunked) {
		if (dechunk(p, n, &chunks) == 0) {
			p = chunks.p;
			n = chunks.len;
		}
	}
	/* Content-Encoding: the codings in the order applied. */
	snprintf(list, sizeof(list), "%s", h->coding);
	for (c = strtok_r(list, ", \t", &last); c != NULL;
	    c = strtok_r(NULL, ", \t", &last)) {
		enum coding k;

		if (strcmp(c, "gzip") == 0 || strcmp(c, "x-gzip") == 0)
			k = CODING_GZIP;
		else if (strcmp(c, "deflate") == 0)
			k = CODING_DEFLATE;
		else if (strcmp(c, "br") == 0)
			k = CODING_BR;
		else if (strcmp(c, "zstd") == 0)
			k = CODING_ZSTD;
		else if (strcmp(c, "identity") == 0)
			continue;
		else {
			snprintf(why, whysize, "content coding '%s'", c);
			pskd_buf_free(&chunks);
			return -1;
		}
		if (ncodes == 8) {
			snprintf(why, whysize, "more than 8 content codings");
			pskd_buf_free(&chunks);
			return -1;
		}
		codes[ncodes++] = k;
	}
	if (ncodes == 0) {
		if (n > max) {
			n = max;
			cut = 1;
		}
		pskd_buf_add(out, p, n);
		pskd_buf_free(&chunks);
		return cut;
	}
	/* The last applied comes off first. */
	for (i = ncodes - 1; i >= 0; i--) {
		struct pskd_buf *dst = i == 0 ? out : &tmp;

		dst->len = 0;
		r = coding_decode(codes[i], p, n, max, dst);
		if (r == -1 && dst->len == 0) {
			snprintf(why, whysize, "a body that does not decode "
			    "as its Content-Encoding");
			pskd_buf_free(&chunks);
			pskd_buf_free(&tmp);
			return -1;
		}
		cut |= r == 1;
		if (i > 0) {
			/* The next coding reads what this one gave. */
			pskd_buf_free(&chunks);
			chunks = tmp;
			memset(&tmp, 0, sizeof(tmp));
			p = chunks.p;
			n = chunks.len;
		}
	}
	pskd_buf_free(&chunks);
	pskd_buf_free(&tmp);
	return cut;
}
