/*
 * fuzz-psk.c - the .psk.d header and type parsers, and the sample text
 * parser, on arbitrary bytes.  A parsed header must describe a layout
 * whose sizes are consistent; a parsed text sample must format back to
 * text that parses to the same bytes, and so must any bytes taken as a
 * sample (the text form loses no bit, NaN payloads included).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_header h;
	struct pskd_error e;
	struct pskd_type t;
	const uint8_t *nl;

	if (pskd_header_parse(&h, data, size, &e) == 0) {
		if (h.size > size)
			abort();
		if (!h.type.params) {
			uint64_t sum = 0;
			size_t i;

			for (i = 0; i < h.type.nleaves; i++) {
				if (h.type.leaves[i].offset != sum)
					abort();
				sum += h.type.leaves[i].size;
			}
			if (sum != h.type.sample_size)
				abort();
		}
	}
	pskd_header_free(&h);

	/* "TYPE\nSAMPLE": a type and one text sample. */
	nl = memchr(data, '\n', size);
	if (nl == NULL)
		return 0;
	if (pskd_type_parse(&t, (const char *)data, (size_t)(nl - data),
	    &e) == 0 && !t.params && t.sample_size <= 4096) {
		unsigned char *s = calloc(1, (size_t)t.sample_size + 1);
		unsigned char *s2 = calloc(1, (size_t)t.sample_size + 1);
		struct pskd_buf b = { 0 };
		const unsigned char *text = nl + 1;
		size_t len = size - (size_t)(nl - data) - 1;

		if (pskd_sample_parse(&t, text, len, s, &e) == 0) {
			pskd_sample_format(&b, &t, s);
			if (pskd_sample_parse(&t, b.p, b.len, s2, &e) != 0 ||
			    memcmp(s, s2, (size_t)t.sample_size) != 0)
				abort();
		}
		/*
		 * The bytes after the line as a sample: any bits whose
		 * indices are in bound (every real, NaNs with their payloads)
		 * come back from their text.
		 */
		b.len = 0;
		if (len >= t.sample_size && pskd_sample_check(&t, text, &e) ==
		    0) {
			pskd_sample_format(&b, &t, text);
			if (pskd_sample_parse(&t, b.p, b.len, s2, &e) != 0 ||
			    memcmp(text, s2, (size_t)t.sample_size) != 0)
				abort();
		}
		pskd_buf_free(&b);
		free(s);
		free(s2);
	}
	pskd_type_free(&t);
	return 0;
}
