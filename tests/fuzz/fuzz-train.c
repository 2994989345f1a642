/*
 * fuzz-train.c - the parts of pskd-tok --train that read untrusted bytes.
 * The first byte b picks what the rest is:
 *   b % 3 == 0: a VOCAB.special file; the section it has for the ranks
 *         of hash 0x0123456789abcdef (or all of an older file), written
 *         back, must parse the same;
 *   b % 3 == 1: a document, pre-tokenized by pattern (b / 3) % 3, from
 *         which up to 64 merges are learned; every learned token must be
 *         new, two bytes or more, and made of two earlier tokens;
 *   b % 3 == 2: a document read the way -r reads it, in chunks of a few
 *         bytes (b / 9 % 16 + 1) cut by pskd_train_cut(): it must count the
 *         same pre-tokens as the whole text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "tok/train-special.h"
#include "tok/bpe-pretok.h"
#include "tok/train.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
special(const uint8_t *p, size_t n)
{
	struct pskd_companion c, c2;
	struct pskd_writer w;
	char err[256], path[] = "/tmp/fuzz-train.XXXXXX";
	struct pskd_buf b = { NULL, 0, 0 };
	const uint64_t h = 0x0123456789abcdefULL;
	size_t i;
	int fd, rc;

	if ((rc = pskd_special_parse(p, n, h, &c, err, sizeof(err))) != 1) {
		if (c.sp != NULL || c.n != 0 || (rc == -1 && (err[0] < '1' ||
		    err[0] > '9')) || (rc != -1 && rc != 0))
			abort();
		return;
	}
	if (c.hasranks && c.ranks != h)
		abort();
	for (i = 0; i < c.n; i++)
		if (!pskd_special_valid((const unsigned char *)c.sp[i].text,
		    c.sp[i].len))
			abort();
	/* Written back, it parses to the same. */
	if ((fd = mkstemp(path)) == -1)
		abort();
	pskd_writer_init(&w, fd, path);
	pskd_special_write(&w, &c);
	if (pskd_writer_flush(&w) == -1)
		abort();
	if (pskd_slurp(path, 0, &b) == -1)
		abort();
	unlink(path);
	if (pskd_writer_close(&w) == -1)
		abort();
	if (pskd_special_parse(b.p, b.len, h, &c2, err, sizeof(err)) != 1 ||
	    c2.n != c.n || c2.pattern != c.pattern ||
	    c2.hasranks != c.hasranks)
		abort();
	for (i = 0; i < c.n; i++)
		if (c2.sp[i].rank != c.sp[i].rank || strcmp(c2.sp[i].text,
		    c.sp[i].text) != 0)
			abort();
	pskd_special_free(&c);
	pskd_special_free(&c2);
	pskd_buf_free(&b);
}

static void
train(int pattern, const uint8_t *p, size_t n)
{
	struct pskd_wordcount *wc;
	struct pskd_bpe_vocab v;
	size_t pos = 0, end, r, q, len;

	if (pskd_utf8_check(p, n) != n)
		return;
	wc = pskd_wordcount_new();
	while (pos < n) {
		end = pskd_pretok_next(pattern, p, n, pos);
		if (end <= pos || end > n)
			abort();
		pskd_wordcount_add(wc, p + pos, end - pos);
		pos = end;
	}
	pskd_bpe_learn(wc, 256 + 64, 1, &v, NULL);
	for (r = 256; r < v.ntokens; r++) {
		len = v.off[r + 1] - v.off[r];
		if (len < 2 || pskd_bpe_vocab_find(&v, v.bytes + v.off[r],
		    len) != (long long)r)
			abort();
		/* Some split of it is two earlier tokens. */
		for (q = 1; q < len; q++) {
			long long a = pskd_bpe_vocab_find(&v, v.bytes + v.off[r],
			    q);
			long long b = pskd_bpe_vocab_find(&v,
			    v.bytes + v.off[r] + q, len - q);

			if (a >= 0 && a < (long long)r && b >= 0 &&
			    b < (long long)r)
				break;
		}
		if (q == len)
			abort();
	}
	pskd_bpe_vocab_free(&v);
	pskd_wordcount_free(wc);
}

static void
chunks(int pattern, size_t step, const uint8_t *p, size_t n)
{
	struct pskd_wordcount *whole, *part;
	size_t base = 0, want = step, avail, cut, look, pos, end;
	int eof;

	if (pskd_utf8_check(p, n) != n)
		return;
	whole = pskd_wordcount_new();
	part = pskd_wordcount_new();
	pskd_wordcount_text(whole, pattern, p, n, n);
	for (;;) {
		avail = n - base < want ? n - base : want;
		eof = avail < want;
		look = 0;
		cut = eof ? avail : pskd_train_cut(p + base, avail, &look);
		if (!eof && cut > 0 && (p[base + cut - 1] != '\n' ||
		    cut + look > avail))
			abort();
		pos = cut ? pskd_wordcount_text(part, pattern, p + base,
		    cut + look, cut) : 0;
		if (pos == 0 && !eof) {
			want = avail + step;
			continue;
		}
		base += pos;
		if (eof)
			break;
		want = step;
	}
	if (base != n ||
	    pskd_wordcount_size(whole) != pskd_wordcount_size(part))
		abort();
	for (pos = 0; pos < n; pos = end) {
		end = pskd_pretok_next(pattern, p, n, pos);
		if (pskd_wordcount_get(whole, p + pos, end - pos) !=
		    pskd_wordcount_get(part, p + pos, end - pos))
			abort();
	}
	pskd_wordcount_free(whole);
	pskd_wordcount_free(part);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int pattern[3] = {
		PSKD_PAT_R50K, PSKD_PAT_CL100K, PSKD_PAT_O200K
	};

	if (size == 0)
		return 0;
	if (data[0] % 3 == 0)
		special(data + 1, size - 1);
	else if (data[0] % 3 == 1)
		train(pattern[data[0] / 3 % 3], data + 1, size - 1);
	else
		chunks(pattern[data[0] / 3 % 3], (size_t)(data[0] / 9 % 16 + 1),
		    data + 1, size - 1);
	return 0;
}
