/*
 * record.c - WARC records (ISO 28500, WARC/1.0 and 1.1; WET files are WARC
 * files of conversion records): a version line, header fields up to an
 * empty line, a block of Content-Length bytes, then CR LF CR LF.  Between
 * records any run of CR and LF is let pass, as warcio does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc/warc.h"

static int
bad(struct warc_rec *rec, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
bad(struct warc_rec *rec, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rec->why, sizeof(rec->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* The input's error, as the record's. */
static int
input_failed(struct wi *w, struct warc_rec *rec)
{
	snprintf(rec->why, sizeof(rec->why), "%s", w->why);
	return -1;
}

/* Skip CR and LF bytes; 1 when a record follows, 0 at the end, -1. */
static int
skip_newlines(struct wi *w, struct warc_rec *rec)
{
	const unsigned char *p;
	ssize_t got;
	size_t i;

	for (;;) {
		got = wi_peek(w, 1, &p);
		if (got < 0)
			return input_failed(w, rec);
		if (got == 0)
			return 0;
		for (i = 0; i < (size_t)got && (p[i] == '\r' || p[i] == '\n');
		    i++)
			;
		wi_skip(w, i);
		if (i < (size_t)got)
			return 1;
	}
}

/* Where the header ends (after its empty line) in p[0..n), or 0. */
static size_t
header_end(const unsigned char *p, size_t n, size_t from)
{
	const unsigned char *q;
	size_t i = from;

	while ((q = memchr(p + i, '\n', n - i)) != NULL) {
		i = (size_t)(q - p) + 1;
		if (i < n && p[i] == '\n')
			return i + 1;
		if (i + 1 < n && p[i] == '\r' && p[i + 1] == '\n')
			return i + 2;
	}
	return 0;
}

static void
add_field(struct warc_rec *rec, size_t name, size_t value)
{
	if (rec->nf == rec->fcap) {
		rec->fcap = rec->fcap ? 2 * rec->fcap : 32;
		rec->f = pskd_xreallocarray(rec->f, rec->fcap,
		    sizeof(*rec->f));
	}
	/* Offsets for now; pointers once hdr stops moving. */
	rec->f[rec->nf].name = (const char *)(uintptr_t)name;
	rec->f[rec->nf].value = (const char *)(uintptr_t)value;
	rec->nf++;
}

const unsigned char *
warc_trim(const unsigned char *p, size_t *n)
{
	while (*n > 0 && (p[*n - 1] == ' ' || p[*n - 1] == '\t' ||
	    p[*n - 1] == '\r'))
		(*n)--;
	while (*n > 0 && (*p == ' ' || *p == '\t')) {
		p++;
		(*n)--;
	}
	return p;
}

int
warc_next(struct wi *w, struct warc_rec *rec)
{
	const unsigned char *p, *end, *line, *nl, *colon, *v;
	size_t want = 4096, hlen, len, vlen, i;
	ssize_t got;
	int first, r;

	rec->nf = 0;
	rec->hdr.len = 0;
	rec->length = 0;
	rec->loaded = 0;
	rec->too_short = 0;
	rec->why[0] = '\0';
	if ((r = skip_newlines(w, rec)) <= 0)
		return r;
	rec->no++;
	rec->d = w->dpos;
	got = wi_peek(w, 5, &p);
	if (got < 0)
		return input_failed(w, rec);
	rec->off = wi_file_offset(w, rec->d, &first);
	rec->first = first;
	if (got < 5 || memcmp(p, "WARC/", 5) != 0)
		return bad(rec, "not a WARC record (no WARC/ version line)");
	for (;;) {
		got = wi_peek(w, want, &p);
		if (got < 0)
			return input_failed(w, rec);
		if ((hlen = header_end(p, (size_t)got, 0)) > 0)
			break;
		if ((size_t)got < want)
			return bad(rec, "truncated WARC header");
		if (want >= WARC_HEADER_MAX)
			return bad(rec, "WARC header longer than 1 MiB");
		want *= 4;
	}
	end = p + hlen;
	/* The version line. */
	nl = memchr(p, '\n', hlen);
	len = (size_t)(nl - p);
	line = warc_trim(p, &len);
	if (len < 6 || len - 5 >= sizeof(rec->version))
		return bad(rec, "not a WARC record (no WARC/ version line)");
	memcpy(rec->version, line + 5, len - 5);
	rec->version[len - 5] = '\0';
	/* The fields: NAME: VALUE, a line starting with a blank continues. */
	for (line = nl + 1; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		len = (size_t)(nl - line);
		if (len == 0 || (len == 1 && line[0] == '\r'))
			break;
		if ((line[0] == ' ' || line[0] == '\t') && rec->nf > 0) {
			v = warc_trim(line, &len);
			rec->hdr.len--;		/* the previous value's NUL */
			pskd_buf_addc(&rec->hdr, ' ');
			pskd_buf_add(&rec->hdr, v, len);
			pskd_buf_addc(&rec->hdr, '\0');
			continue;
		}
		colon = memchr(line, ':', len);
		if (colon == NULL || colon == line)
			return bad(rec, "WARC header line without a field name");
		vlen = len - (size_t)(colon + 1 - line);
		v = warc_trim(colon + 1, &vlen);
		len = (size_t)(colon - line);
		for (i = 0; i < len; i++)
			if (line[i] <= ' ' || line[i] == 0x7f)
				return bad(rec, "WARC field name with a blank "
				    "or control byte");
		add_field(rec, rec->hdr.len, rec->hdr.len + len + 1);
		pskd_buf_add(&rec->hdr, line, len);
		pskd_buf_addc(&rec->hdr, '\0');
		pskd_buf_add(&rec->hdr, v, vlen);
		pskd_buf_addc(&rec->hdr, '\0');
	}
	for (i = 0; i < rec->nf; i++) {
		size_t a = (size_t)(uintptr_t)rec->f[i].name;
		size_t b = (size_t)(uintptr_t)rec->f[i].value;

		rec->f[i].name = (const char *)rec->hdr.p + a;
		rec->f[i].value = (const char *)rec->hdr.p + b;
		rec->f[i].vlen = strlen(rec->f[i].value);
	}
	wi_skip(w, hlen);
	v = (const unsigned char *)warc_get(rec, "Content-Length", &vlen);
	if (v == NULL)
		return bad(rec, "no Content-Length");
	if (pskd_strtonum((const char *)v, 0, UINT64_MAX, 0,
	    &rec->length) == -1)
		return bad(rec, "Content-Length '%.40s' is not a whole number",
		    (const char *)v);
	return 1;
}

const char *
warc_get(const struct warc_rec *rec, const char *name, size_t *len)
{
	size_t i;

	for (i = 0; i < rec->nf; i++)
		if (strcasecmp(rec->f[i].name, name) == 0) {
			if (len != NULL)
				*len = rec->f[i].vlen;
			return rec->f[i].value;
		}
	return NULL;
}

/* Whether the next decoded byte is the first of a gzip member or frame. */
static int
at_piece_start(const struct wi *w)
{
	size_t k;

	for (k = 0; k < w->npieces; k++)
		if (w->pieces[k].d == w->dpos)
			return w->fmt != WI_PLAIN;
	return 0;
}

/* A block cut short by the end of the file (or by a bad piece). */
static int
short_block(struct wi *w, struct warc_rec *rec, uint64_t have)
{
	if (w->why[0] != '\0' && strcmp(w->why, "short") != 0)
		return input_failed(w, rec);
	return bad(rec, "Content-Length %llu goes past the end of the file "
	    "(%llu bytes left)", (unsigned long long)rec->length,
	    (unsigned long long)have);
}

int
warc_block(struct wi *w, struct warc_rec *rec, size_t max,
    const unsigned char **p)
{
	ssize_t got;

	if (rec->length > max)
		return bad(rec, "a block of %llu bytes, more than %zu (-m)",
		    (unsigned long long)rec->length, max);
	w->why[0] = '\0';
	got = wi_peek(w, (size_t)rec->length, p);
	if (got < 0)
		return input_failed(w, rec);
	if ((uint64_t)got < rec->length)
		return short_block(w, rec, (uint64_t)got);
	rec->loaded = 1;
	return 0;
}

int
warc_finish(struct wi *w, struct warc_rec *rec)
{
	const unsigned char *p;
	uint64_t before = w->dpos;
	ssize_t got;

	if (rec->loaded)
		wi_skip(w, (size_t)rec->length);
	else {
		w->why[0] = '\0';
		if (wi_discard(w, rec->length) == -1)
			return short_block(w, rec, w->dpos - before);
	}
	/*
	 * CR LF CR LF, or any run of them, or the end of the file.  A block
	 * that goes on (a Content-Length too small, as some writers make) is
	 * let pass to the end of its gzip member or zstd frame when it
	 * started one, else of its line, as warcio does.
	 */
	got = wi_peek(w, 5, &p);
	if (got < 0)
		return input_failed(w, rec);
	if (got == 0 || p[0] == '\r' || p[0] == '\n' || at_piece_start(w) ||
	    (got >= 5 && memcmp(p, "WARC/", 5) == 0))
		return 0;
	if (rec->first &&
	    w->fmt != WI_PLAIN) {
		if (wi_piece_rest(w) == -1)
			return input_failed(w, rec);
		rec->too_short = 1;
	} else {
		const unsigned char *nl;

		got = wi_peek(w, 65536, &p);
		if (got < 0)
			return input_failed(w, rec);
		nl = memchr(p, '\n', (size_t)got);
		if (nl == NULL)
			return bad(rec, "no CR LF after its block (is "
			    "Content-Length %llu right?)",
			    (unsigned long long)rec->length);
		wi_skip(w, (size_t)(nl + 1 - p));
		rec->too_short = 1;
	}
	return 0;
}

void
warc_rec_free(struct warc_rec *rec)
{
	pskd_buf_free(&rec->hdr);
	free(rec->f);
	rec->f = NULL;
}
