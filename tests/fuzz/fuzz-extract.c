/*
 * fuzz-extract.c - the main-text extractor (src/warc: html.c, classify.c,
 * extract.c, text.c) on arbitrary bytes made UTF-8, in each of its three
 * modes: it ends, its text and title are valid UTF-8 and no longer than
 * the page allows, and the same page gives the same text again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "warc/warc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum extract_mode modes[] = {
		EXTRACT_BALANCED, EXTRACT_PRECISION, EXTRACT_RECALL
	};
	struct extract x = { 0 };
	struct pskd_buf page = { 0 }, first = { 0 };
	size_t i;

	convert_utf8(charset_label("utf-8", 5), data, size, &page);
	for (i = 0; i < 3; i++) {
		x.mode = modes[i];
		extract_html(&x, page.p, page.len);
		if (pskd_utf8_check(x.text.p, x.text.len) != x.text.len ||
		    pskd_utf8_check(x.title.p, x.title.len) != x.title.len)
			abort();
		if (i == 0) {
			first.len = 0;
			pskd_buf_add(&first, x.text.p, x.text.len);
		}
	}
	x.mode = EXTRACT_BALANCED;
	extract_html(&x, page.p, page.len);
	if (x.text.len != first.len || (first.len &&
	    memcmp(x.text.p, first.p, first.len) != 0))
		abort();
	extract_free(&x);
	pskd_buf_free(&page);
	pskd_buf_free(&first);
	return 0;
}
