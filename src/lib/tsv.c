/*
 * tsv.c - the one escaping of a TSV field (verdicts, tombstones, rejects):
 * backslash, tab, newline and carriage return become \\ \t \n \r, so a field
 * never splits a line or a column and reads back exactly; and the file of
 * bad documents that pskd-shingle and pskd-tok --rejects write with it.
 */
#include <stdio.h>
#include <string.h>

#include "pskd.h"

static const char *
escape_of(unsigned char c)
{
	switch (c) {
	case '\\': return "\\\\";
	case '\t': return "\\t";
	case '\n': return "\\n";
	case '\r': return "\\r";
	default: return NULL;
	}
}

void
pskd_tsv_field(struct pskd_writer *w, const unsigned char *s, size_t n)
{
	const char *esc;
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		if ((esc = escape_of(s[i])) == NULL)
			continue;
		pskd_writer_write(w, s + run, i - run);
		pskd_writer_write(w, esc, 2);
		run = i + 1;
	}
	pskd_writer_write(w, s + run, n - run);
}

void
pskd_tsv_escape(struct pskd_buf *b, const unsigned char *s, size_t n)
{
	const char *esc;
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		if ((esc = escape_of(s[i])) == NULL)
			continue;
		pskd_buf_add(b, s + run, i - run);
		pskd_buf_add(b, esc, 2);
		run = i + 1;
	}
	pskd_buf_add(b, s + run, n - run);
}

void
pskd_tsv_unescape(struct pskd_buf *b, const unsigned char *s, size_t n)
{
	unsigned char c;
	size_t i, run = 0;

	for (i = 0; i + 1 < n; i++) {
		if (s[i] != '\\')
			continue;
		pskd_buf_add(b, s + run, i - run);
		c = s[++i];
		pskd_buf_addc(b, c == 't' ? '\t' : c == 'n' ? '\n' :
		    c == 'r' ? '\r' : c);
		run = i + 1;
	}
	pskd_buf_add(b, s + run, n - run);
}

void
pskd_rejects_open(struct pskd_rejects *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	if (path != NULL) {
		pskd_output_writer(&r->o, &r->w, path, 0);
		r->file = 1;
	}
}

void
pskd_rejects_add(struct pskd_rejects *r, const char *name, uint64_t line,
    const char *why)
{
	if (r->n++ == 0)
		snprintf(r->first, sizeof(r->first), "%s:%llu: %s", name,
		    (unsigned long long)line, why);
	if (!r->file)
		return;
	pskd_tsv_field(&r->w, (const unsigned char *)name, strlen(name));
	pskd_writer_printf(&r->w, "\t%llu\t", (unsigned long long)line);
	pskd_tsv_field(&r->w, (const unsigned char *)why, strlen(why));
	pskd_writer_putc(&r->w, '\n');
}

void
pskd_rejects_close(struct pskd_rejects *r)
{
	if (r->file)
		pskd_output_close(&r->o, &r->w);
	if (r->n > 0)
		pskd_warnx("%s %llu bad line%s (first: %s)", r->file ?
		    "rejected" : "skipped", (unsigned long long)r->n,
		    r->n == 1 ? "" : "s", r->first);
}
