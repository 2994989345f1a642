/*
 * fuzz-tokjson.c - the tokenizer.json loader on any bytes: it parses them
 * or says why with a line, never more.  What parses is used: its
 * normalizers and pre-tokenizers run on the bytes themselves (the UTF-8
 * part) when it has no regular expression (a pattern may take exponential
 * time, which is the pattern's, not the loader's); each piece's ids are
 * tokens of the file, and decode without a fault.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tok/bpe.h"
#include "tok/hf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
has_regex(const struct pskd_hf *hf)
{
	size_t i;

	for (i = 0; i < hf->nnorm; i++)
		if (hf->norm[i].re != NULL)
			return 1;
	for (i = 0; i < hf->npre; i++)
		if (hf->pre[i].re != NULL && hf->pre[i].fast < 0)
			return 1;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pskd_hf_pieces pieces;
	struct pskd_hf hf;
	struct pskd_buf norm = { 0 };
	struct pskd_ids ids = { 0 };
	struct pskd_hf_words *w;
	struct pskd_bpe e;
	char err[512];
	size_t n, i, k;

	if (pskd_hf_parse(&hf, data, size, err, sizeof(err)) == -1) {
		/* "LINE: message", the line a number from 1. */
		if (err[0] < '1' || err[0] > '9' || strstr(err, ": ") == NULL)
			abort();
		pskd_hf_free(&hf);
		return 0;
	}
	if (has_regex(&hf) || (hf.bytelevel && !pskd_bpe_complete(&hf.vocab))) {
		pskd_hf_free(&hf);
		return 0;
	}
	n = pskd_utf8_check(data, size);
	/* A step that fails says which: "LINE: the normalizer ...". */
	if (pskd_hf_normalize(&hf, data, n, &norm, err, sizeof(err)) == -1 ||
	    pskd_hf_pretokenize(&hf, norm.p, norm.len, 1, &pieces, err,
	    sizeof(err)) == -1) {
		if (err[0] < '1' || err[0] > '9' || strstr(err, ": the ") ==
		    NULL)
			abort();
		pskd_hf_free(&hf);
		pskd_buf_free(&norm);
		return 0;
	}
	if (hf.bytelevel) {
		pskd_bpe_init_hf(&e, &hf.vocab, -1, hf.mstart, hf.mleft,
		    hf.mrank, hf.ignore_merges, !hf.apart, NULL);
		for (i = 0; i < pieces.n; i++) {
			pskd_ids_reserve(&ids, pieces.v[i].len + 8);
			ids.n += pskd_bpe_piece(&e, pieces.buf.p +
			    pieces.v[i].off, pieces.v[i].len, ids.v + ids.n);
		}
		pskd_bpe_free(&e);
	} else {
		w = pskd_hf_words_new(&hf);
		for (i = 0; i < pieces.n; i++)
			pskd_hf_word(w, pieces.buf.p + pieces.v[i].off,
			    pieces.v[i].len, &ids);
		pskd_hf_words_free(w);
	}
	for (k = 0; k < ids.n; k++)
		if (ids.v[k] >= hf.vocab.n || hf.vocab.len[ids.v[k]] == 0)
			abort();
	free(ids.v);
	pskd_buf_free(&norm);
	pskd_hf_free(&hf);
	return 0;
}
