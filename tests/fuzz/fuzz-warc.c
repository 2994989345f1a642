/*
 * fuzz-warc.c - the WARC record reader (src/warc: input.c, record.c) on
 * arbitrary bytes, plain or as the gzip or zstd they may start like: every
 * record it accepts has a block of its Content-Length, its offsets only
 * grow, and it ends (a record, the end, or an error) without reading past
 * what it was given.
 */
#define _GNU_SOURCE		/* memfd_create */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pskd.h"
#include "warc/warc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wi w;
	struct warc_rec rec = { 0 };
	const unsigned char *p;
	uint64_t last = 0;
	int fd, r, n = 0;

	fd = memfd_create("fuzz-warc", 0);
	if (fd == -1 || pskd_write_all(fd, data, size) == -1 ||
	    lseek(fd, 0, SEEK_SET) == -1)
		abort();
	if (wi_fdopen(&w, fd, "fuzz") == -1) {
		wi_close(&w);
		close(fd);
		return 0;
	}
	while ((r = warc_next(&w, &rec)) == 1 && n++ < 10000) {
		if (rec.d < last || warc_get(&rec, "Content-Length", NULL) ==
		    NULL)
			abort();
		last = rec.d;
		if (warc_block(&w, &rec, 1 << 20, &p) == 0 && rec.length > 0 &&
		    p == NULL)
			abort();
		if (warc_finish(&w, &rec) == -1)
			break;
		if (w.dpos < rec.d + rec.length)
			abort();
	}
	warc_rec_free(&rec);
	wi_close(&w);
	close(fd);
	return 0;
}
