/*
 * fuzz-frame - the frame stream parser: a header, then frames until the
 * bytes run out; every length must be checked before it is used.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dedup/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_frame_params fp;
	struct pskd_frame f;
	char err[256];
	ssize_t used;
	size_t off, i;
	volatile unsigned sum = 0;

	if (pskd_frame_header_parse(data, size, 0, &fp, err,
	    sizeof(err)) == -1)
		return 0;
	off = PSKD_FRAME_HEADER_SIZE;
	while (off < size) {
		used = pskd_frame_parse(data + off, size - off, &fp, &f, err,
		    sizeof(err));
		if (used <= 0)
			break;
		for (i = 0; i < f.idlen; i++)
			sum += f.id[i];
		for (i = 0; i < f.linelen; i++)
			sum += f.line[i];
		for (i = 0; i < f.count * pskd_frame_value_size(fp.kind); i++)
			sum += f.values[i];
		off += (size_t)used;
	}
	return 0;
}
