/*
 * fuzz-parquet-file.c - a whole Parquet file on arbitrary bytes: footer,
 * schema, the pages of every column, rows assembled (nested ones too)
 * and printed; at most 100000 rows.
 */
#define _GNU_SOURCE		/* memfd_create */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pskd.h"
#include "parquet/file.h"
#include "parquet/jsonout.h"
#include "parquet/rows.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pq_file f;
	struct pq_rows r;
	struct pq_out out;
	uint64_t g, first = 0, done, left = 100000;
	int fd;

	if ((fd = memfd_create("file", 0)) == -1)
		return 0;
	if (pskd_write_all(fd, data, size) == -1) {
		close(fd);
		return 0;
	}
	if (pq_file_open(&f, fd, size, "fuzz") == 0) {
		pq_schema_finish(&f.schema);
		pq_out_init(&out, -1, NULL);
		pq_rows_init(&r, &f, &out, size & 1);
		for (g = 0; g < f.meta.ngroups && left > 0; g++) {
			if (pq_rows_group(&r, g, first, left, &done) != 0)
				break;
			left -= done;
			first += (uint64_t)f.meta.groups[g].num_rows;
		}
		pq_rows_free(&r);
		pq_out_free(&out);
	}
	pq_file_close(&f);
	close(fd);
	return 0;
}
