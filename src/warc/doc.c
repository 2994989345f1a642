/*
 * doc.c - what one WARC record becomes: a JSON Lines document (id, url,
 * date, text; for HTTP responses the status, content type and charset),
 * a line without text (--all), or a count of why it was skipped.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "warc/warc.h"

const char *const doc_skip_names[DOC_NSKIP] = {
	"type", "revisit", "not HTTP", "bad HTTP", "status", "not HTML",
	"content coding", "empty",
};

/* A header value as a JSON string, its bad UTF-8 replaced. */
static void
quote(struct doc *d, struct pskd_buf *out, const char *v, size_t n)
{
	static const struct charset *utf8;

	if (pskd_utf8_check((const unsigned char *)v, n) == n) {
		pskd_json_quote(out, (const unsigned char *)v, n);
		return;
	}
	if (utf8 == NULL)
		utf8 = charset_label("utf-8", 5);
	d->tmp.len = 0;
	convert_utf8(utf8, (const unsigned char *)v, n, &d->tmp);
	pskd_json_quote(out, d->tmp.p, d->tmp.len);
}

static void
member(struct doc *d, struct pskd_buf *out, const char *name, const char *v,
    size_t n)
{
	pskd_buf_addc(out, out->len > d->start ? ',' : '{');
	pskd_json_quote(out, (const unsigned char *)name, strlen(name));
	pskd_buf_addc(out, ':');
	quote(d, out, v, n);
}

static void
member_num(struct doc *d, struct pskd_buf *out, const char *name,
    uint64_t v)
{
	char num[24];

	pskd_buf_addc(out, out->len > d->start ? ',' : '{');
	pskd_json_quote(out, (const unsigned char *)name, strlen(name));
	snprintf(num, sizeof(num), ":%llu", (unsigned long long)v);
	pskd_buf_add(out, num, strlen(num));
}

static void
field(struct doc *d, struct pskd_buf *out, const struct warc_rec *rec,
    const char *name, const char *key)
{
	size_t n;
	const char *v = warc_get(rec, key, &n);

	/* WARC/1.0 writers put the target URI in <>, as 1.0's grammar did. */
	if (v != NULL && strcmp(key, "WARC-Target-URI") == 0 && n >= 2 &&
	    v[0] == '<' && v[n - 1] == '>') {
		v++;
		n -= 2;
	}
	if (v != NULL)
		member(d, out, name, v, n);
}

/* The members every line starts with. */
static void
head(struct doc *d, struct pskd_buf *out, const struct warc_rec *rec)
{
	size_t n;
	const char *type = warc_get(rec, "WARC-Type", &n);

	d->start = out->len;
	field(d, out, rec, "id", "WARC-Record-ID");
	if (d->all && type != NULL)
		member(d, out, "type", type, n);
	field(d, out, rec, "url", "WARC-Target-URI");
	field(d, out, rec, "date", "WARC-Date");
	if (d->all) {
		member_num(d, out, "length", rec->length);
		field(d, out, rec, "block_digest", "WARC-Block-Digest");
		field(d, out, rec, "payload_digest", "WARC-Payload-Digest");
	}
}

/* Skipped: counted, and a line without text with --all. */
static int
skip(struct doc *d, struct pskd_buf *out, size_t at, int why)
{
	d->skipped[why]++;
	if (!d->all) {
		out->len = at;
		return 0;
	}
	member(d, out, "skip", doc_skip_names[why],
	    strlen(doc_skip_names[why]));
	pskd_buf_add(out, "}\n", 2);
	return 1;
}

static int
is_html(const char *media, const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (media[0] != '\0')
		return strcmp(media, "text/html") == 0 ||
		    strcmp(media, "application/xhtml+xml") == 0;
	/* No type given: a page that starts like one. */
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' ||
	    p[i] == '\n'))
		i++;
	return (n - i >= 14 && strncasecmp((const char *)p + i,
	    "<!doctype html", 14) == 0) || (n - i >= 5 &&
	    strncasecmp((const char *)p + i, "<html", 5) == 0);
}

/*
 * p[0..n) in charset cs as UTF-8 at d->text: p itself when it is valid
 * UTF-8 already (no copy), else converted into d->utf8.
 */
static void
utf8(struct doc *d, const struct charset *cs, const unsigned char *p,
    size_t n)
{
	if (cs->iconv == NULL && pskd_utf8_check(p, n) == n &&
	    !(n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)) {
		d->invalid = 0;
		d->text = p;
		d->textlen = n;
		return;
	}
	d->utf8.len = 0;
	d->invalid = convert_utf8(cs, p, n, &d->utf8);
	d->ninvalid += d->invalid;
	d->text = d->utf8.p;
	d->textlen = d->utf8.len;
}

/* Text in charset cs (or found) to UTF-8 at d->text; -1 unknown label. */
static int
to_utf8(struct doc *d, const unsigned char *p, size_t n, const char *label,
    const struct charset **csp, char *why, size_t whysize)
{
	const char *how;
	const struct charset *cs;

	cs = charset_find(p, n, label, &how, why, whysize);
	if (cs == NULL)
		return -1;
	utf8(d, cs, p, n);
	*csp = cs;
	return 0;
}

static void
finish(struct doc *d, struct pskd_buf *out, const unsigned char *text,
    size_t n)
{
	if (d->invalid > 0)
		member_num(d, out, "invalid_bytes", d->invalid);
	pskd_buf_add(out, out->len > d->start ? ",\"text\":" : "{\"text\":",
	    8);
	pskd_json_quote(out, text, n);
	pskd_buf_add(out, "}\n", 2);
	d->docs++;
}

/* An HTML page: the main text; or a text/plain one as it is. */
static int
page(struct doc *d, struct pskd_buf *out, size_t at, const char *media,
    const char *label, const unsigned char *p, size_t n, int status,
    char *why, size_t whysize)
{
	const struct charset *cs;
	int html = is_html(media, p, n);

	if (!html && strcmp(media, "text/plain") != 0)
		return skip(d, out, at, DOC_NOTHTML);
	if (to_utf8(d, p, n, label, &cs, why, whysize) == -1)
		return -1;
	if (status > 0)
		member_num(d, out, "status", (uint64_t)status);
	if (media[0] != '\0')
		member(d, out, "content_type", media, strlen(media));
	member(d, out, "charset", cs->name, strlen(cs->name));
	if (!html) {
		if (d->textlen == 0)
			return skip(d, out, at, DOC_EMPTY);
		finish(d, out, d->text, d->textlen);
		return 1;
	}
	extract_html(&d->x, d->text, d->textlen);
	if (d->x.cut)
		d->cut++;
	if (d->x.text.len == 0)
		return skip(d, out, at, DOC_EMPTY);
	if (d->x.title.len > 0)
		member(d, out, "title", (const char *)d->x.title.p,
		    d->x.title.len);
	finish(d, out, d->x.text.p, d->x.text.len);
	return 1;
}

/* A response record: the HTTP message in its block. */
static int
response(struct doc *d, struct pskd_buf *out, size_t at,
    const struct warc_rec *rec, const unsigned char *p, size_t n,
    char *why, size_t whysize)
{
	struct http_resp h;
	const char *ct = warc_get(rec, "Content-Type", NULL);
	int r;

	if (ct == NULL || strncasecmp(ct, "application/http", 16) != 0)
		return skip(d, out, at, DOC_NOTHTTP);
	if (http_parse(p, n, &h) == -1)
		return skip(d, out, at, DOC_BADHTTP);
	if (h.status < 200 || h.status > 299)
		return skip(d, out, at, DOC_STATUS);
	if (!is_html(h.media, h.body, h.bodylen) &&
	    strcmp(h.media, "text/plain") != 0)
		return skip(d, out, at, DOC_NOTHTML);
	r = http_decode(&h, d->max, &d->body, why, whysize);
	if (r == -1)
		return skip(d, out, at, DOC_CODING);
	return page(d, out, at, h.media, h.label, d->body.p, d->body.len,
	    h.status, why, whysize);
}

int
doc_record(struct doc *d, const struct warc_rec *rec,
    const unsigned char *p, size_t n, struct pskd_buf *out, char *why,
    size_t whysize)
{
	const char *type = warc_get(rec, "WARC-Type", NULL), *ct;
	size_t at = out->len;
	char media[80], label[64];
	size_t ctlen = 0;
	int wanted = type != NULL && doc_type_wanted(d, type);

	d->invalid = 0;
	head(d, out, rec);
	if (!wanted)
		return skip(d, out, at, type != NULL &&
		    strcasecmp(type, "revisit") == 0 ? DOC_REVISIT : DOC_TYPE);
	if (strcasecmp(type, "response") == 0)
		return response(d, out, at, rec, p, n, why, whysize);
	ct = warc_get(rec, "Content-Type", &ctlen);
	if (strcasecmp(type, "conversion") == 0) {
		/* WET: the text as it is, its bad UTF-8 replaced. */
		const struct charset *cs = charset_label("utf-8", 5);

		utf8(d, cs, p, n);
		if (d->textlen == 0)
			return skip(d, out, at, DOC_EMPTY);
		finish(d, out, d->text, d->textlen);
		return 1;
	}
	/* A resource (or another type asked for): its Content-Type. */
	http_content_type(ct ? ct : "", ctlen, media,
	    sizeof(media), label, sizeof(label));
	return page(d, out, at, media, label, p, n, 0, why, whysize);
}

int
doc_type_wanted(const struct doc *d, const char *type)
{
	size_t i;

	for (i = 0; i < d->ntypes; i++)
		if (strcasecmp(d->types[i], type) == 0)
			return 1;
	return 0;
}

void
doc_free(struct doc *d)
{
	extract_free(&d->x);
	pskd_buf_free(&d->body);
	pskd_buf_free(&d->utf8);
	pskd_buf_free(&d->tmp);
}
