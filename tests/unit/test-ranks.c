/*
 * test-ranks.c - the tiktoken ranks format: lines written by
 * pskd_ranks_line() parse back to the same tokens and ranks (every length
 * of base64 padding, bytes 0-255, ranks out of order and with gaps); known
 * lines decode to known bytes; malformed files fail with their line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "check.h"
#include "tok/bpe.h"
#include "tok/bpe-ranks.h"



static void
bad(const char *text, const char *want, const char *what)
{
	struct pskd_ranks r;
	char err[256];
	int rc;

	rc = pskd_ranks_parse(&r, (const unsigned char *)text, strlen(text),
	    err, sizeof(err));
	check(rc == -1 && strcmp(err, want) == 0, what);
	if (rc == -1 && strcmp(err, want) != 0)
		printf("  got \"%s\", want \"%s\"\n", err, want);
	if (rc == 0)
		pskd_ranks_free(&r);
}

int
main(void)
{
	struct pskd_buf b = { 0 };
	struct pskd_ranks r;
	unsigned char tok[300][40];
	size_t len[300], i, j;
	uint32_t rank[300];
	char err[256];
	int ok;

	/* 256 single bytes, then 44 tokens of 2..40 bytes, ranks shuffled. */
	srand(3);
	for (i = 0; i < 300; i++) {
		if (i < 256) {
			tok[i][0] = (unsigned char)i;
			len[i] = 1;
		} else {
			len[i] = 2 + i % 39;
			for (j = 0; j < len[i]; j++)
				tok[i][j] = (unsigned char)(rand() & 255);
		}
		rank[i] = (uint32_t)(i < 256 ? 299 - i : (i - 256) * 3 + 1000);
	}
	for (i = 0; i < 300; i++)
		pskd_ranks_line(&b, tok[i], len[i], rank[i]);
	ok = pskd_ranks_parse(&r, b.p, b.len, err, sizeof(err)) == 0;
	check(ok, "written lines parse");
	if (!ok)
		printf("  %s\n", err);
	else {
		for (ok = 1, i = 0; i < 300; i++)
			ok &= pskd_ranks_find(&r, tok[i], len[i]) == rank[i] &&
			    r.len[rank[i]] == len[i] &&
			    memcmp(r.bytes + r.off[rank[i]], tok[i], len[i]) == 0;
		check(ok, "every token found at its rank, bytes intact");
		check(r.ntokens == 300 && r.n == 44 * 3 + 1000 - 3 + 1,
		    "ntokens and one past the highest rank");
		check(pskd_ranks_find(&r, "\x01\x02\x03", 3) == PSKD_RANK_NONE,
		    "an absent token is not found");
		check(pskd_bpe_complete(&r), "all 256 bytes are tokens");
		pskd_ranks_free(&r);
	}
	b.len = 0;
	pskd_ranks_line(&b, " hello", 6, 24748);
	pskd_ranks_line(&b, "ab", 2, 7);
	pskd_ranks_line(&b, "a", 1, 0);
	check(b.len == strlen("IGhlbGxv 24748\nYWI= 7\nYQ== 0\n") &&
	    memcmp(b.p, "IGhlbGxv 24748\nYWI= 7\nYQ== 0\n", b.len) == 0,
	    "base64 with 0, 1 and 2 padding characters");
	pskd_buf_free(&b);

	bad("YQ== 0\nYWI= x\n", "2: invalid rank", "a rank that is no number");
	bad("YQ== 0\nYWI=\n", "2: expected \"BASE64 RANK\"", "no rank");
	bad("YQ== 0\n\nY!== 1\n", "3: invalid base64 token",
	    "invalid base64 (empty lines are skipped but counted)");
	bad("YQ== 0\nYg== 0\n", "rank 0 given twice", "a rank twice");
	bad("YQ== 0\nYQ== 1\n", "rank 1: the same token as an earlier line",
	    "a token twice");
	bad("YQ== 99999999\n", "1: invalid rank", "a rank above 2^24");
	bad("", "0: no tokens", "an empty file");
	return check_status();
}
