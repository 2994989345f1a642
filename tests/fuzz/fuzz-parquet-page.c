/*
 * fuzz-parquet-page.c - the pages of one column chunk on arbitrary bytes:
 * page headers, the codecs, levels, every encoding, the dictionary, and
 * each value printed.  The first 8 bytes say what the chunk is: physical
 * type, codec, maximum definition and repetition levels, the width of a
 * FIXED_LEN_BYTE_ARRAY, how its values print, and (2 bytes) its number of
 * values; the rest is the chunk, as a file's bytes after "PAR1".
 */
#define _GNU_SOURCE		/* memfd_create */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pskd.h"
#include "parquet/column.h"
#include "parquet/jsonout.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pq_column c;
	struct pq_chunk ch;
	struct pq_node leaf;
	struct pq_out out;
	const char *err;
	size_t bad, k;
	int fd, ret;

	if (size < 8)
		return 0;
	memset(&leaf, 0, sizeof(leaf));
	leaf.type = (enum pq_type)(data[0] % 8);
	leaf.width = 1 + data[4] % 16;
	leaf.kind = (enum pq_kind)(data[5] % (PQ_K_INTERVAL + 1));
	leaf.unit = (enum pq_unit)(1 + data[5] / 32 % 3);
	leaf.scale = data[5] / 96;
	/* A kind must fit its type, as schema.c makes sure. */
	if ((leaf.type == PQ_BYTE_ARRAY || leaf.type == PQ_FLBA) !=
	    (leaf.kind == PQ_K_STRING || leaf.kind == PQ_K_BINARY ||
	    leaf.kind == PQ_K_UUID || leaf.kind == PQ_K_INTERVAL ||
	    leaf.kind == PQ_K_FLOAT16 || (leaf.kind == PQ_K_DECIMAL &&
	    leaf.type != PQ_INT32 && leaf.type != PQ_INT64)))
		leaf.kind = leaf.type == PQ_BYTE_ARRAY || leaf.type == PQ_FLBA ?
		    PQ_K_BINARY : leaf.type == PQ_BOOLEAN ? PQ_K_BOOL :
		    leaf.type == PQ_INT32 ? PQ_K_INT32 : leaf.type == PQ_INT96 ?
		    PQ_K_INT96 : leaf.type == PQ_FLOAT ? PQ_K_FLOAT :
		    leaf.type == PQ_DOUBLE ? PQ_K_DOUBLE : PQ_K_INT64;
	if ((leaf.kind == PQ_K_UUID && leaf.width != 16) ||
	    (leaf.kind == PQ_K_INTERVAL && leaf.width != 12) ||
	    (leaf.kind == PQ_K_FLOAT16 && leaf.width != 2) ||
	    ((leaf.kind == PQ_K_UUID || leaf.kind == PQ_K_INTERVAL ||
	    leaf.kind == PQ_K_FLOAT16) && leaf.type != PQ_FLBA) ||
	    (leaf.kind == PQ_K_TIME && leaf.type == PQ_INT32 &&
	    leaf.unit != PQ_MILLIS))
		leaf.kind = leaf.type == PQ_FLBA ? PQ_K_BINARY : PQ_K_INT64;
	if ((leaf.kind == PQ_K_INT64 || leaf.kind == PQ_K_TIMESTAMP ||
	    leaf.kind == PQ_K_UINT64) && leaf.type != PQ_INT64)
		leaf.kind = leaf.type == PQ_INT32 ? PQ_K_INT32 : PQ_K_BINARY;
	if ((leaf.kind == PQ_K_INT32 || leaf.kind == PQ_K_DATE ||
	    leaf.kind == PQ_K_UINT32) && leaf.type != PQ_INT32)
		leaf.kind = PQ_K_BINARY;
	/* BOOLEAN, INT96, FLOAT and DOUBLE have one kind each, theirs only. */
	if (leaf.type == PQ_BOOLEAN || leaf.kind == PQ_K_BOOL ||
	    leaf.type == PQ_INT96 || leaf.kind == PQ_K_INT96 ||
	    leaf.type == PQ_FLOAT || leaf.kind == PQ_K_FLOAT ||
	    leaf.type == PQ_DOUBLE || leaf.kind == PQ_K_DOUBLE)
		leaf.kind = leaf.type == PQ_BOOLEAN ? PQ_K_BOOL :
		    leaf.type == PQ_INT96 ? PQ_K_INT96 : leaf.type == PQ_FLOAT ?
		    PQ_K_FLOAT : leaf.type == PQ_DOUBLE ? PQ_K_DOUBLE :
		    leaf.type == PQ_INT32 ? PQ_K_INT32 : leaf.type == PQ_INT64 ?
		    PQ_K_INT64 : PQ_K_BINARY;
	if (leaf.kind == PQ_K_BINARY && leaf.type != PQ_BYTE_ARRAY &&
	    leaf.type != PQ_FLBA)
		return 0;

	memset(&ch, 0, sizeof(ch));
	ch.has_meta = 1;
	ch.type = leaf.type;
	ch.codec = data[1] % 8;
	ch.num_values = data[6] | data[7] << 8;
	ch.total_compressed_size = (int64_t)(size - 8);
	ch.data_page_offset = 4;
	if ((fd = memfd_create("chunk", 0)) == -1)
		return 0;
	if (pskd_write_all(fd, "PAR1", 4) == -1 ||
	    pskd_write_all(fd, data + 8, size - 8) == -1) {
		close(fd);
		return 0;
	}
	pq_out_init(&out, -1, NULL);
	/* pq_column_open reuses the buffers of a column: none yet. */
	memset(&c, 0, sizeof(c));
	if (pq_column_open(&c, fd, size - 4, &ch, leaf.type, (size_t)leaf.width,
	    data[2] % 4, data[3] % 3) == 0) {
		while ((ret = pq_column_ready(&c)) > 0) {
			if (c.repb[c.ib] > c.max_rep || c.defb[c.ib] > c.max_def)
				abort();
			if (c.defb[c.ib++] == c.max_def) {
				if (c.iv >= c.vals.n)
					abort();
				(void)pq_out_value(&out, &leaf, &c.vals, c.iv++,
				    data[2] & 4, &bad, &err);
			}
			if (out.b.len > 1 << 20)
				out.b.len = 0;
		}
		k = c.iv;
		(void)k;
	}
	pq_column_close(&c);
	pq_out_free(&out);
	close(fd);
	return 0;
}
