/* outfile.c - the dedup programs' output files; see outfile.h. */
#include <errno.h>
#include <stdlib.h>

#include "outfile.h"

void
pskd_dedup_out_open(struct pskd_outfile *of, struct pskd_writer *w,
    const char *path)
{
	if (pskd_outfile_open(of, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_writer_init(w, of->fd, path);
}

void
pskd_dedup_out_commit(struct pskd_outfile *of, struct pskd_writer *w)
{
	if (pskd_writer_flush(w) == -1) {
		errno = w->error;
		pskd_err(PSKD_EXIT_DATA, "%s", w->name);
	}
	free(w->buf);
	w->buf = NULL;
	if (pskd_outfile_commit(of) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", w->name);
}
