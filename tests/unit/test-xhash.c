/*
 * test-xhash.c - pskd-export's hashing on its second thread
 * (src/export/hash.c): two files' bytes given in random order as pool
 * buffers (xhash_add), bytes hashed where they lie (xhash_borrow) and a
 * few bytes copied into the queue (xhash_copy, their source overwritten at
 * once, while the thread is still behind on a large borrowed range) give
 * each file the SHA-256 of its bytes in order, as one pskd_sha256 over
 * them says.  On a machine with one CPU to run on, everything is hashed
 * inline, and the same must hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "export/export.h"

#define BIG	(8u << 20)

int
main(void)
{
	static unsigned char big[BIG];
	struct xhash *h[2];
	struct pskd_sha256 ref[2];
	unsigned char small[XHASH_SMALL];
	char got[65], want[65];
	size_t i, k, n, used = 0;
	int f, round;

	for (i = 0; i < BIG; i++)
		big[i] = (unsigned char)check_rnd(256);
	for (round = 0; round < 3; round++) {
		for (f = 0; f < 2; f++) {
			h[f] = xhash_new();
			pskd_sha256_init(&ref[f]);
		}
		used = 0;
		for (i = 0; i < 400; i++) {
			f = (int)check_rnd(2);
			switch (check_rnd(3)) {
			case 0: {	/* a pool buffer, of any length */
				unsigned char *b = xhash_buf();

				n = 1 + (size_t)check_rnd(XBUF);
				for (k = 0; k < n; k++)
					b[k] = (unsigned char)check_rnd(256);
				pskd_sha256_update(&ref[f], b, n);
				xhash_add(h[f], b, n);
				break;
			}
			case 1:		/* bytes that stay where they are */
				n = 1 + (size_t)check_rnd(BIG / 64);
				if (used + n > BIG)
					used = 0;
				pskd_sha256_update(&ref[f], big + used, n);
				xhash_borrow(h[f], big + used, n);
				used += n;
				break;
			default:	/* a few, copied; the source changes */
				n = 1 + (size_t)check_rnd(XHASH_SMALL);
				for (k = 0; k < n; k++)
					small[k] = (unsigned char)check_rnd(256);
				pskd_sha256_update(&ref[f], small, n);
				xhash_copy(h[f], small, n);
				memset(small, 0xa5, sizeof(small));
				break;
			}
		}
		for (f = 0; f < 2; f++) {
			xhash_end(h[f], got);
			pskd_sha256_peek(&ref[f], want);
			pskd_sha256_free(&ref[f]);
			check(strcmp(got, want) == 0, "round %d, file %d: the "
			    "digest of its bytes in order (%.12s, %.12s)",
			    round, f, got, want);
		}
	}
	xhash_drain();
	return check_status();
}
