/*
 * fuzz-export.c - pskd-export's scan on arbitrary bytes: the vector scan
 * (AVX2, or the compiler's vectors) must find the same end-of-text
 * positions and the same first id out of bound as the scan that reads
 * one token at a time.  Byte 0 picks the width, byte 1 the limit; the
 * end-of-text id is the first token, so that it occurs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "export/export.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned widths[] = { 1, 2, 4, 8 };
	uint32_t *pos1, *pos2;
	size_t n, k1, k2, bad1, bad2;
	uint64_t eot, limit;
	unsigned w;

	if (size < 2)
		return 0;
	w = widths[data[0] & 3];
	n = (size - 2) / w;
	if (n == 0)
		return 0;
	eot = xin_token(data + 2, 0, w);
	/* No limit, or one that some ids pass: 2^(byte % 64). */
	limit = data[1] & 0x80 ? UINT64_MAX : UINT64_C(1) << (data[1] & 63);
	pos1 = calloc(n + 1, sizeof(*pos1));
	pos2 = calloc(n + 1, sizeof(*pos2));
	if (pos1 == NULL || pos2 == NULL)
		abort();
	xscan_portable(0);
	k1 = xscan(data + 2, n, w, eot, limit, pos1, &bad1);
	xscan_portable(1);
	k2 = xscan(data + 2, n, w, eot, limit, pos2, &bad2);
	xscan_portable(0);
	if (k1 != k2 || bad1 != bad2 || memcmp(pos1, pos2, k1 * 4) != 0)
		abort();
	free(pos1);
	free(pos2);
	return 0;
}
