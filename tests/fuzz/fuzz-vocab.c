/*
 * fuzz-vocab.c - the vocabulary parsers on any bytes.  Ranks files
 * (bpe-ranks.c): when they parse and hold every single byte, the BPE encoder
 * over the same bytes as text must give tokens whose bytes concatenate back
 * to the text.  Character vocabularies (char-vocab.c): what parses writes
 * back to lines that parse to the same characters.  The pre-tokenizers
 * must tile any bytes (valid UTF-8 or not) into pieces.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tok/bpe.h"
#include "tok/char.h"
#include "tok/bpe-pretok.h"
#include "tok/bpe-ranks.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_pieces(const unsigned char *p, size_t n)
{
	size_t pos, end;
	int pat;

	for (pat = PSKD_PAT_R50K; pat <= PSKD_PAT_O200K; pat++)
		for (pos = 0; pos < n; pos = end) {
			end = pskd_pretok_next(pat, p, n, pos);
			if (end <= pos || end > n)
				abort();
		}
}

static void
check_chars(const unsigned char *p, size_t n)
{
	struct pskd_charvocab v, w;
	struct pskd_buf b = { 0 };
	char err[256];
	uint32_t i;

	if (pskd_charvocab_parse(&v, p, n, err, sizeof(err)) == -1)
		return;
	for (i = 0; i < v.n; i++)
		pskd_charvocab_line(&b, v.chars[i]);
	if (pskd_charvocab_parse(&w, b.p, b.len, err, sizeof(err)) == -1 ||
	    w.n != v.n || memcmp(w.chars, v.chars, v.n * 4) != 0)
		abort();
	pskd_charvocab_free(&w);
	pskd_charvocab_free(&v);
	pskd_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_ranks r;
	struct pskd_bpe e;
	struct pskd_ids ids = { 0 };
	struct pskd_buf back = { 0 };
	char err[256];
	size_t i;
	int pat;

	check_pieces(data, size);
	check_chars(data, size);
	if (pskd_ranks_parse(&r, data, size, err, sizeof(err)) == -1)
		return 0;
	/* Every token can be found again by its bytes. */
	for (i = 0; i < r.n; i++)
		if (r.len[i] != 0 && pskd_ranks_find(&r, r.bytes + r.off[i],
		    r.len[i]) != i)
			abort();
	if (pskd_bpe_complete(&r)) {
		for (pat = PSKD_PAT_R50K; pat <= PSKD_PAT_O200K; pat++) {
			pskd_bpe_init(&e, &r, pat);
			ids.n = 0;
			pskd_bpe_encode(&e, data, size, &ids);
			back.len = 0;
			for (i = 0; i < ids.n; i++)
				pskd_buf_add(&back, r.bytes + r.off[ids.v[i]],
				    r.len[ids.v[i]]);
			if (back.len != size || memcmp(back.p, data, size) != 0)
				abort();
			pskd_bpe_free(&e);
		}
	}
	free(ids.v);
	pskd_buf_free(&back);
	pskd_ranks_free(&r);
	return 0;
}
