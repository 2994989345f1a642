/*
 * file.h - a Parquet file opened: its footer read and decoded, its schema
 * built, its row groups checked against the schema.
 */
#ifndef PARQUET_FILE_H
#define PARQUET_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "parquet/meta.h"
#include "parquet/schema.h"

struct pq_file {
	const char	*name;		/* for messages */
	int		 fd;
	uint64_t	 size;
	unsigned char	*footer;
	struct pq_meta	 meta;
	struct pq_schema schema;
	char		 err[256];
};

/*
 * The file at fd, size bytes, seekable.  0, or -1 with f->err (the reason,
 * without the file's name).
 */
int	pq_file_open(struct pq_file *f, int fd, uint64_t size,
	    const char *name);
/* The same from bytes in memory (the fuzz targets). */
int	pq_file_parse(struct pq_file *f, const unsigned char *p, size_t n);
void	pq_file_close(struct pq_file *f);

#endif
