/*
 * fuzz-parquet-footer.c - a Parquet footer (FileMetaData in the Thrift
 * compact protocol) on arbitrary bytes: decoded, its schema built, its
 * row groups checked, every column chosen by its path, printed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "parquet/file.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_writer w;
	struct pq_file f;
	const char *err;
	size_t i;

	if (pq_file_parse(&f, data, size) == 0) {
		for (i = 0; i < f.schema.nleaves; i++)
			(void)pq_schema_choose(&f.schema,
			    pq_node_path(f.schema.leaves[i]), &err);
		pq_schema_finish(&f.schema);
		for (i = 0; i < f.schema.nleaves; i++)
			if (f.schema.leaves[i]->leaf != (int)i ||
			    f.schema.leaves[i]->def_level > 64)
				abort();
		pskd_writer_init(&w, -1, "<null>");
		pq_schema_print(&f.schema, &w);
		free(w.buf);
	}
	pq_file_close(&f);
	return 0;
}
