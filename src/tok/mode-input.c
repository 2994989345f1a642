/*
 * out.c - what pskd-tok's modes share: the output (-o FILE through a
 * temporary, or the standard output), the inputs, where in a text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tok.h"

void
pskd_tok_out_open(struct pskd_tok_out *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->file = path != NULL;
	o->name = path ? path : "<stdout>";
	o->fd = 1;
	if (o->file) {
		if (pskd_outfile_open(&o->of, path) == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", path);
		o->fd = o->of.fd;
	}
}

void
pskd_tok_out_flush(struct pskd_tok_out *o, struct pskd_writer *w)
{
	if (pskd_writer_flush(w) == -1) {
		errno = w->error;
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
	}
}

void
pskd_tok_out_commit(struct pskd_tok_out *o, struct pskd_writer *w)
{
	if (!o->file) {
		pskd_writer_finish(w);
		return;
	}
	pskd_tok_out_flush(o, w);
	free(w->buf);
	w->buf = NULL;
	if (pskd_outfile_commit(&o->of) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
}

void
pskd_tok_each_input(int argc, char **argv, void (*fn)(struct pskd_reader *))
{
	struct pskd_reader r;
	const char *path;
	int i;

	for (i = 0; i < (argc ? argc : 1); i++) {
		path = argc ? argv[i] : NULL;
		if (pskd_reader_open(&r, path) == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", path ? path : "<stdin>");
		fn(&r);
		pskd_reader_close(&r);
	}
}

void
pskd_tok_locate(const unsigned char *s, size_t off, uint64_t *line,
    size_t *col)
{
	const unsigned char *p = s, *nl;

	*col = off;
	while ((nl = memchr(p, '\n', (size_t)(s + off - p))) != NULL) {
		(*line)++;
		p = nl + 1;
		*col = (size_t)(s + off - p);
	}
}
