/*
 * file.c - "PAR1", the column chunks, the footer (FileMetaData in the
 * Thrift compact protocol), its length (4 bytes, little-endian), "PAR1".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "parquet/file.h"

static int
fail(struct pq_file *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct pq_file *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
	return -1;
}

static int
read_at(int fd, void *p, size_t n, uint64_t off)
{
	size_t done = 0;
	ssize_t got;

	while (done < n) {
		got = pread(fd, (char *)p + done, n - done, (off_t)(off + done));
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO;
			return -1;
		}
		done += (size_t)got;
	}
	return 0;
}

/* The footer in f->footer: decode it, build the schema, check the rest. */
static int
decode(struct pq_file *f, size_t len)
{
	const char *err = NULL;
	size_t g, c, nleaves;
	const struct pq_node *leaf;

	if (pq_meta_parse(&f->meta, f->footer, len, &err) == -1)
		return fail(f, "corrupt footer (%s)", err);
	if (pq_schema_build(&f->schema, &f->meta, &err) == -1)
		return fail(f, "bad schema (%s)", err);
	nleaves = f->schema.nleaves;
	if (f->meta.num_rows < 0)
		return fail(f, "corrupt footer (negative number of rows)");
	for (g = 0; g < f->meta.ngroups; g++) {
		if (f->meta.groups[g].nchunks != nleaves)
			return fail(f, "row group %zu: %zu column chunks for %zu "
			    "columns", g, f->meta.groups[g].nchunks, nleaves);
		if (f->meta.groups[g].num_rows < 0)
			return fail(f, "row group %zu: negative number of rows",
			    g);
		for (c = 0; c < nleaves; c++) {
			leaf = f->schema.leaves[c];
			if (f->meta.groups[g].chunks[c].has_meta &&
			    (int)f->meta.groups[g].chunks[c].type !=
			    (int)leaf->type)
				return fail(f, "row group %zu, column %s: not the "
				    "schema's type", g, pq_node_path(leaf));
		}
	}
	return 0;
}

int
pq_file_open(struct pq_file *f, int fd, uint64_t size, const char *name)
{
	unsigned char tail[8], head[4];
	uint32_t len;

	memset(f, 0, sizeof(*f));
	f->name = name;
	f->fd = fd;
	f->size = size;
	if (size < 12)
		return fail(f, "not a Parquet file (too short)");
	if (read_at(fd, head, 4, 0) == -1 || read_at(fd, tail, 8, size - 8) == -1)
		return fail(f, "%s", strerror(errno));
	if (memcmp(tail + 4, "PARE", 4) == 0)
		return fail(f, "encrypted Parquet files are not supported");
	if (memcmp(head, "PAR1", 4) != 0 || memcmp(tail + 4, "PAR1", 4) != 0)
		return fail(f, "not a Parquet file (no PAR1 at its start and "
		    "end)");
	len = pskd_get_le32(tail);
	if (len == 0 || len > size - 12)
		return fail(f, "corrupt footer (its length, %u bytes, is past "
		    "the file)", len);
	f->footer = pskd_xmalloc(len);
	if (read_at(fd, f->footer, len, size - 8 - len) == -1)
		return fail(f, "%s", strerror(errno));
	return decode(f, len);
}

int
pq_file_parse(struct pq_file *f, const unsigned char *p, size_t n)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->footer = pskd_xmalloc(n ? n : 1);
	memcpy(f->footer, p, n);
	return decode(f, n);
}

void
pq_file_close(struct pq_file *f)
{
	pq_schema_free(&f->schema);
	pq_meta_free(&f->meta);
	free(f->footer);
	f->footer = NULL;
}
