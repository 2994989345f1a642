/*
 * test-hasher - src/get/hasher.c: the running SHA-256 of a file as it
 * grows, fed in pieces of every size, is the file's; a file shorter than
 * what was fed (cut under the hasher's mapping: SIGBUS) fails with EIO
 * instead of ending the program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "check.h"
#include "get/xfer.h"

int
main(void)
{
	char path[] = "/tmp/test-hasher.XXXXXX", hex[PSKD_SHA256_HEX];
	char want[PSKD_SHA256_HEX];
	static unsigned char data[(20u << 20) + 12345];
	struct pskd_hasher hs;
	struct pskd_sha256 h;
	uint64_t at = 0, step = 1;
	size_t i;
	int fd, r;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 2654435761u >> 13);
	pskd_sha256_hex(data, sizeof(data), want);
	if ((fd = mkstemp(path)) == -1 ||
	    pskd_write_all(fd, data, sizeof(data)) == -1) {
		check(0, "a temporary file");
		return check_status();
	}
	/* Fed as a transfer would: pieces from 1 byte to megabytes. */
	pskd_sha256_init(&h);
	pskd_hasher_start(&hs, fd, &h, 0);
	while (at < sizeof(data)) {
		at = at + step < sizeof(data) ? at + step : sizeof(data);
		pskd_hasher_feed(&hs, at);
		step = step * 3 + 1;
	}
	r = pskd_hasher_finish(&hs);
	pskd_sha256_peek(&h, hex);
	check(r == 0 && strcmp(hex, want) == 0, "a 20 MiB file hashed as it "
	    "was fed: its sha256");
	pskd_sha256_free(&h);

	/* From a prefix already hashed, as a resumed download. */
	pskd_sha256_init(&h);
	pskd_sha256_update(&h, data, 5000);
	pskd_hasher_start(&hs, fd, &h, 5000);
	pskd_hasher_feed(&hs, sizeof(data));
	r = pskd_hasher_finish(&hs);
	pskd_sha256_peek(&h, hex);
	check(r == 0 && strcmp(hex, want) == 0, "... and from byte 5000 on");
	pskd_sha256_free(&h);

	/* The file cut below what was fed, under the mapping. */
	check(ftruncate(fd, 3u << 20) == 0, "the file cut to 3 MiB");
	pskd_sha256_init(&h);
	pskd_hasher_start(&hs, fd, &h, 0);
	pskd_hasher_feed(&hs, 9u << 20);
	r = pskd_hasher_finish(&hs);
	check(r == -1 && errno == EIO, "fed 9 MiB of a 3 MiB file: EIO, not "
	    "SIGBUS");
	pskd_sha256_free(&h);
	close(fd);
	unlink(path);
	return check_status();
}
