/*
 * doc.c - the text and the id of a JSON Lines document, as the options
 * -f FIELD[,FIELD...] and --id FIELD of every program that reads documents
 * select them: several text members are joined with a blank line between
 * them; a path "a.b" reaches into nested objects.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

/* A member name, or names joined by single dots. */
static int
path_ok(const char *p, size_t n)
{
	size_t i;

	if (n == 0 || p[0] == '.' || p[n - 1] == '.')
		return 0;
	for (i = 1; i < n; i++)
		if (p[i] == '.' && p[i - 1] == '.')
			return 0;
	return 1;
}

int
pskd_doc_init(struct pskd_doc *d, const char *fields, const char *id,
    struct pskd_error *e)
{
	const char *p, *comma;
	size_t n;

	memset(d, 0, sizeof(*d));
	d->spec = pskd_xstrdup(fields);
	for (p = d->spec; ; p = comma + 1) {
		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) : strlen(p);
		if (!path_ok(p, n)) {
			pskd_error_set(e, 0, "'%s': a field is a member name, "
			    "or names joined by dots, and fields are separated "
			    "by commas", fields);
			pskd_doc_free(d);
			return -1;
		}
		if (d->nf == PSKD_DOC_MAXFIELDS) {
			pskd_error_set(e, 0, "'%s': more than %d fields",
			    fields, PSKD_DOC_MAXFIELDS);
			pskd_doc_free(d);
			return -1;
		}
		d->f[d->nf++].name = p;
		if (comma == NULL)
			break;
		*(char *)comma = '\0';
	}
	if (id != NULL) {
		if (*id == '\0') {
			pskd_error_set(e, 0, "the id field has no name");
			pskd_doc_free(d);
			return -1;
		}
		d->f[d->nf].name = id;
		d->hasid = 1;
	}
	return 0;
}

int
pskd_doc_extra(struct pskd_doc *d, const char *path)
{
	size_t k = d->nf + (size_t)d->hasid + d->nextra;

	if (d->nextra == PSKD_DOC_MAXEXTRA || !path_ok(path, strlen(path)))
		return -1;
	d->f[k].name = path;
	d->nextra++;
	return (int)k;
}

void
pskd_doc_free(struct pskd_doc *d)
{
	size_t k;

	for (k = 0; k < sizeof(d->f) / sizeof(d->f[0]); k++)
		pskd_buf_free(&d->f[k].value);
	pskd_buf_free(&d->joined);
	free(d->spec);
	d->spec = NULL;
}

static int
isnull(const struct pskd_json_field *f)
{
	return f->kind == PSKD_JSON_OTHER && f->rawlen == 4 &&
	    memcmp(f->raw, "null", 4) == 0;
}

/* "no "text" member", "no "title" or "text" member", ... */
static void
missing(struct pskd_doc *d)
{
	size_t k, len = 0;

	len += (size_t)snprintf(d->err, sizeof(d->err), "no ");
	for (k = 0; k < d->nf && len < sizeof(d->err); k++)
		len += (size_t)snprintf(d->err + len, sizeof(d->err) - len,
		    "%s\"%s\"", k == 0 ? "" : k + 1 == d->nf ? " or " : ", ",
		    d->f[k].name);
	if (len < sizeof(d->err))
		snprintf(d->err + len, sizeof(d->err) - len, " member");
}

int
pskd_doc_parse(struct pskd_doc *d, const unsigned char *line, size_t len)
{
	struct pskd_json_field *f = d->f, *idf = &d->f[d->nf];
	size_t k, present = 0, off;
	char msg[200];

	d->text = NULL;
	d->textlen = 0;
	d->id = NULL;
	d->idlen = 0;
	d->err[0] = '\0';
	if (pskd_json_fields(line, len, f, d->nf + (size_t)d->hasid + d->nextra,
	    msg, sizeof(msg), &off) == -1) {
		d->why = PSKD_DOC_JSON;
		snprintf(d->err, sizeof(d->err), "%s at byte %zu", msg, off);
		return -1;
	}
	for (k = 0; k < d->nf; k++) {
		if (f[k].kind == PSKD_JSON_MISSING || isnull(&f[k]))
			continue;
		if (f[k].kind != PSKD_JSON_STRING) {
			d->why = PSKD_DOC_NOTSTRING;
			snprintf(d->err, sizeof(d->err),
			    "\"%s\" is not a string", f[k].name);
			return -1;
		}
		present++;
	}
	if (present == 0) {
		d->why = PSKD_DOC_NOTEXT;
		if (d->nf == 1 && isnull(&f[0]))
			snprintf(d->err, sizeof(d->err), "\"%s\" is null",
			    f[0].name);
		else
			missing(d);
		return -1;
	}
	if (d->nf == 1) {
		d->text = f[0].value.p;
		d->textlen = f[0].value.len;
	} else {
		d->joined.len = 0;
		for (present = 0, k = 0; k < d->nf; k++) {
			if (f[k].kind != PSKD_JSON_STRING)
				continue;
			if (present++ > 0)
				pskd_buf_add(&d->joined, "\n\n", 2);
			pskd_buf_add(&d->joined, f[k].value.p, f[k].value.len);
		}
		d->text = d->joined.p;
		d->textlen = d->joined.len;
	}
	if (d->hasid && idf->kind == PSKD_JSON_STRING) {
		d->id = idf->value.p;
		d->idlen = idf->value.len;
	} else if (d->hasid && idf->kind == PSKD_JSON_NUMBER) {
		d->id = idf->raw;
		d->idlen = idf->rawlen;
	}
	d->why = PSKD_DOC_OK;
	return 0;
}
