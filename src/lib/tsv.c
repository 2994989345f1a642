/*
 * tsv.c - the one escaping of a TSV field (verdicts, tombstones, rejects):
 * backslash, tab, newline and carriage return become \\ \t \n \r, so a field
 * never splits a line or a column and reads back exactly.
 */
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
