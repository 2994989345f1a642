/*
 * rows.h - the rows of a row group as JSON objects, one a line, from the
 * chosen columns: a flat column straight from its batches, a nested one
 * (LIST, MAP, a struct, a repeated field) assembled from the levels of
 * its leaves one row at a time.
 */
#ifndef PARQUET_ROWS_H
#define PARQUET_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "parquet/column.h"
#include "parquet/file.h"
#include "parquet/jsonout.h"

/* A leaf's entries of the row being assembled (nested columns only). */
struct pq_entry {
	uint8_t		 rep, def;
	uint32_t	 v;		/* its value's index, when def is max */
};

struct pq_rows {
	struct pq_file	*f;
	struct pq_out	*out;
	int		 lax;		/* -b */
	struct pq_column *cols;		/* by leaf; open ones are chosen */
	struct pq_node	**top;		/* the top-level fields chosen */
	size_t		 ntop;
	struct pskd_buf	*keys;		/* "name": of each node, by id */
	/* Nested assembly, by leaf. */
	struct pq_entry	**ent;
	size_t		*nent, *entcap;
	struct pq_vals	*rowv;		/* the row's values */
	struct pskd_buf	*rowbytes;	/* their bytes */
	size_t		*beg, *end;	/* the slice being printed */
	size_t		**save;		/* per depth: beg, end, cursor */
	uint64_t	 row;		/* 1-based, in the file */
	char		 err[512];
};

void	pq_rows_init(struct pq_rows *r, struct pq_file *f, struct pq_out *o,
	    int lax);
void	pq_rows_free(struct pq_rows *r);
/*
 * Rows of row group g (whose first row is the file's row first + 1), at
 * most max; the number written in *done.  0, or -1 with r->err, or -2 when
 * the output could not be written (errno).
 */
int	pq_rows_group(struct pq_rows *r, size_t g, uint64_t first,
	    uint64_t max, uint64_t *done);

#endif
