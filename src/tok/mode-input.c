/*
 * mode-input.c - what pskd-tok's modes share: the inputs, one after
 * another, and where in a text an offset is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tok.h"

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
