/*
 * fuzz-tokc.c - the reader of compiled tokenizers (pskd-tok --compile,
 * src/tok/hf-compiled.c) on any bytes, its checksum not asked for (so
 * that what follows it is reached): it loads them or says why, never
 * more.  What loads is used as pskd-tok uses it: a few texts (and the
 * input's first bytes as text) through the model, every id a token of the
 * vocabulary.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tok/bpe.h"
#include "tok/hf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
model(struct pskd_hf *hf, struct pskd_bpe *e, struct pskd_hf_words *w,
    const unsigned char *s, size_t n, struct pskd_ids *ids)
{
	if (hf->bytelevel) {
		pskd_ids_reserve(ids, n + 8);
		ids->n += pskd_bpe_piece(e, s, n, ids->v + ids->n);
	} else
		pskd_hf_word(w, s, n, ids);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const text[] = { "hello", " help", "\xe2\x96\x81"
	    "hello\xe2\x96\x81world", "a", "\xc3\xbc\xe4\xb8\xad", "12345",
	    "<0x41>" };
	struct pskd_hf hf;
	struct pskd_ids ids = { 0 };
	struct pskd_hf_words *w = NULL;
	struct pskd_bpe e;
	char err[512];
	size_t i, k, n;

	pskd_hf_compiled_nosum = 1;
	if (pskd_hf_parse_compiled(&hf, data, size, err, sizeof(err)) == -1) {
		/* " why", or "LINE: why" of the JSON it holds. */
		if (err[0] != ' ' && (err[0] < '1' || err[0] > '9' ||
		    strstr(err, ": ") == NULL))
			abort();
		pskd_hf_free(&hf);
		return 0;
	}
	if (hf.bytelevel && !pskd_bpe_complete(&hf.vocab)) {
		pskd_hf_free(&hf);
		return 0;
	}
	if (hf.bytelevel)
		pskd_bpe_init_hf(&e, &hf.vocab, -1, hf.mstart, hf.mleft,
		    hf.mrank, hf.ignore_merges, !hf.apart, &hf.splits);
	else
		w = pskd_hf_words_new(&hf);
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		model(&hf, &e, w, (const unsigned char *)text[i],
		    strlen(text[i]), &ids);
	n = pskd_utf8_check(data, size < 256 ? size : 256);
	if (n > 0)
		model(&hf, &e, w, data, n, &ids);
	if (hf.bytelevel)
		pskd_bpe_free(&e);
	else
		pskd_hf_words_free(w);
	for (k = 0; k < ids.n; k++)
		if (ids.v[k] >= hf.vocab.n || hf.vocab.len[ids.v[k]] == 0)
			abort();
	free(ids.v);
	pskd_hf_free(&hf);
	return 0;
}
