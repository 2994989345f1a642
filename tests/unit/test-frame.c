/*
 * test-frame - the frame stream: round trips through the writer and the
 * reader (small frames and one larger than the reader's buffer), every
 * truncation of a stream is an error, wrong kinds and bad lengths are
 * refused; and the AVX2 MinHash path against the portable one.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "check.h"
#include "dedup/frame.h"
#include "dedup/minhash.h"

static char dir[] = "/tmp/test-frame.XXXXXX";


static char *
tmpfile_with(const unsigned char *p, size_t n)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd == -1 || pskd_write_all(fd, p, n) == -1 || close(fd) == -1) {
		perror(path);
		exit(1);
	}
	return path;
}

/* Write a shingle stream of the given frames into memory via a file. */
static struct pskd_buf
make_stream(unsigned kind, uint32_t k, size_t biglen)
{
	struct pskd_frame_params fp = { 0 };
	struct pskd_writer w;
	struct pskd_buf b = { 0 };
	uint64_t v64[3] = { 1, 5, UINT64_MAX };
	uint32_t v32[4] = { 9, 8, 7, 0xffffffff };
	unsigned char *big;
	char path[64];
	int fd;
	ssize_t got;
	unsigned char chunk[65536];

	fp.kind = (uint16_t)kind;
	fp.n = 5;
	fp.norm = PSKD_NORM_ALL;
	if (kind == PSKD_FRAME_SIGNATURES) {
		fp.k = k;
		fp.family = PSKD_FAMILY_CLASSIC;
		fp.minhash_seed = 1;
	}
	snprintf(path, sizeof(path), "%s/w", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	pskd_writer_init(&w, fd, path);
	pskd_frame_write_header(&w, &fp);
	if (kind == PSKD_FRAME_SHINGLES) {
		pskd_frame_write_u64(&w, (const unsigned char *)"a", 1,
		    (const unsigned char *)"{\"text\":\"x\"}", 12, v64, 3);
		pskd_frame_write_u64(&w, (const unsigned char *)"", 0,
		    (const unsigned char *)"", 0, v64, 0);
	} else {
		pskd_frame_write_u32(&w, (const unsigned char *)"id-1", 4,
		    (const unsigned char *)"L", 1, v32, k);
		pskd_frame_write_u32(&w, (const unsigned char *)"e", 1,
		    (const unsigned char *)"", 0, v32, 0);
	}
	if (biglen > 0) {
		big = malloc(biglen);
		memset(big, 'z', biglen);
		pskd_frame_write_u64(&w, (const unsigned char *)"big", 3, big,
		    biglen, v64, kind == PSKD_FRAME_SHINGLES ? 2 : 0);
		free(big);
	}
	pskd_writer_flush(&w);
	lseek(fd, 0, SEEK_SET);
	while ((got = read(fd, chunk, sizeof(chunk))) > 0)
		pskd_buf_add(&b, chunk, (size_t)got);
	close(fd);
	free(w.buf);
	return b;
}

/* Read all frames of the stream at path; returns frames read or -1. */
static int
read_all(const char *path, unsigned want, struct pskd_frame_reader *fr)
{
	struct pskd_frame f;
	int n = 0, rc;

	if (pskd_frame_reader_open(fr, path, want) == -1)
		return -1;
	while ((rc = pskd_frame_next(fr, &f)) == 1)
		n++;
	return rc == -1 ? -1 : n;
}

static void
test_round_trip(void)
{
	struct pskd_buf s = make_stream(PSKD_FRAME_SHINGLES, 0, 0);
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	uint64_t v[3];

	check(pskd_frame_reader_open(&fr, tmpfile_with(s.p, s.len),
	    PSKD_FRAME_SHINGLES) == 0, "shingle stream: header read");
	check(fr.fp.kind == PSKD_FRAME_SHINGLES && fr.fp.n == 5 &&
	    fr.fp.norm == PSKD_NORM_ALL, "shingle stream: parameters");
	check(pskd_frame_next(&fr, &f) == 1 && f.idlen == 1 && f.id[0] == 'a' &&
	    f.linelen == 12 && memcmp(f.line, "{\"text\":\"x\"}", 12) == 0 &&
	    f.count == 3, "frame 1: id, line, count");
	pskd_frame_values_u64(&f, v);
	check(v[0] == 1 && v[1] == 5 && v[2] == UINT64_MAX, "frame 1: values");
	check(pskd_frame_next(&fr, &f) == 1 && f.idlen == 0 && f.linelen == 0 &&
	    f.count == 0, "frame 2: empty");
	check(pskd_frame_next(&fr, &f) == 0, "end of stream");
	pskd_frame_reader_close(&fr);
	free(s.p);
}

static void
test_big(void)
{
	size_t biglen = 3 * PSKD_BUFSIZE + 17;
	struct pskd_buf s = make_stream(PSKD_FRAME_SHINGLES, 0, biglen);
	struct pskd_frame_reader fr;
	struct pskd_frame f;
	size_t i;
	int good;

	pskd_frame_reader_open(&fr, tmpfile_with(s.p, s.len),
	    PSKD_FRAME_SHINGLES);
	pskd_frame_next(&fr, &f);
	pskd_frame_next(&fr, &f);
	good = pskd_frame_next(&fr, &f) == 1 && f.linelen == biglen &&
	    f.count == 2;
	for (i = 0; good && i < biglen; i++)
		good = f.line[i] == 'z';
	check(good, "a frame larger than the reader's buffer");
	check(pskd_frame_next(&fr, &f) == 0, "end after the large frame");
	pskd_frame_reader_close(&fr);
	/* Cut inside the large frame. */
	check(read_all(tmpfile_with(s.p, s.len - 1), PSKD_FRAME_SHINGLES,
	    &fr) == -1 && strcmp(fr.err, "frame 3: truncated") == 0,
	    "large frame cut short: frame 3: truncated");
	pskd_frame_reader_close(&fr);
	free(s.p);
}

/* Every prefix that is not a frame boundary is an error, never a crash. */
static void
test_truncation(unsigned kind)
{
	struct pskd_buf s = make_stream(kind, 4, 0);
	struct pskd_frame_reader fr;
	size_t cut, bounds[3], nb = 0;
	int bad = 0, n;

	/* The frame boundaries: after the header and after each frame. */
	bounds[nb++] = PSKD_FRAME_HEADER_SIZE;
	bounds[nb++] = kind == PSKD_FRAME_SHINGLES ?
	    PSKD_FRAME_HEADER_SIZE + 12 + 1 + 12 + 24 :
	    PSKD_FRAME_HEADER_SIZE + 12 + 4 + 1 + 16;
	bounds[nb++] = s.len;
	for (cut = 0; cut <= s.len; cut++) {
		int boundary = cut == bounds[0] || cut == bounds[1] ||
		    cut == bounds[2];

		n = read_all(tmpfile_with(s.p, cut), kind, &fr);
		if (boundary ? n < 0 : n >= 0) {
			printf("  cut at %zu: %d frames (%s)\n", cut, n, fr.err);
			bad = 1;
		}
		pskd_frame_reader_close(&fr);
	}
	check(!bad, kind == PSKD_FRAME_SHINGLES ?
	    "shingle stream cut at every offset: error unless at a boundary" :
	    "signature stream cut at every offset: error unless at a "
	    "boundary");
	free(s.p);
}

static void
test_refusals(void)
{
	struct pskd_buf s = make_stream(PSKD_FRAME_SIGNATURES, 4, 0);
	struct pskd_frame_reader fr;
	char *path;

	path = tmpfile_with(s.p, s.len);
	check(read_all(path, PSKD_FRAME_SHINGLES, &fr) == -1 &&
	    strcmp(fr.err, "not a shingle stream (pipe pskd-shingle into "
	    "it)") == 0, "signatures where shingles are wanted");
	pskd_frame_reader_close(&fr);
	check(read_all(path, PSKD_FRAME_SIGNATURES, &fr) == 2,
	    "signature stream read");
	pskd_frame_reader_close(&fr);
	path = tmpfile_with((const unsigned char *)"{\"text\":\"a\"}\n", 13);
	check(read_all(path, PSKD_FRAME_SIGNATURES, &fr) == -1 &&
	    strcmp(fr.err, "not a signature stream (pipe pskd-minhash into "
	    "it)") == 0, "JSON where signatures are wanted");
	pskd_frame_reader_close(&fr);
	/* A signature frame with 3 components in a k = 4 stream. */
	pskd_put_le32(s.p + PSKD_FRAME_HEADER_SIZE + 8, 3);
	check(read_all(tmpfile_with(s.p, s.len), PSKD_FRAME_SIGNATURES,
	    &fr) == -1 && strcmp(fr.err, "frame 1: 3 signature components, "
	    "not 4") == 0, "wrong component count refused");
	pskd_frame_reader_close(&fr);
	/* A 4 GiB line claimed in a short stream: no 4 GiB allocation. */
	pskd_put_le32(s.p + PSKD_FRAME_HEADER_SIZE + 8, 4);
	pskd_put_le32(s.p + PSKD_FRAME_HEADER_SIZE + 4, 0xffffffffu);
	check(read_all(tmpfile_with(s.p, s.len), PSKD_FRAME_SIGNATURES,
	    &fr) == -1 && strcmp(fr.err, "frame 1: truncated") == 0,
	    "a huge length in a short stream is truncation");
	pskd_frame_reader_close(&fr);
	/* Version 3 is not ours. */
	pskd_put_le16(s.p + 4, 3);
	check(read_all(tmpfile_with(s.p, s.len), 0, &fr) == -1 &&
	    strcmp(fr.err, "frame stream version 3 not supported") == 0,
	    "unknown version refused");
	pskd_frame_reader_close(&fr);
	free(s.p);
}

static void
test_simd(void)
{
	struct pskd_minhash a, b;
	uint32_t x[3000], s1[300], s2[300], ks[] = { 1, 7, 8, 15, 16, 17, 31,
	    32, 33, 48, 128, 300 };
	uint64_t st = 42;
	size_t i, n, t;
	int same[3] = { 1, 1, 1 }, level;

	if (pskd_minhash_have_avx2() == 0) {
		printf("skip - AVX2 against portable: no AVX2 on this CPU\n");
		return;
	}
	for (i = 0; i < 3000; i++)
		x[i] = (uint32_t)pskd_splitmix64(&st);
	for (level = 1; level <= pskd_minhash_have_avx2(); level++) {
		for (t = 0; t < sizeof(ks) / sizeof(ks[0]); t++) {
			pskd_minhash_init(&a, ks[t], PSKD_FAMILY_CLASSIC, t);
			pskd_minhash_init(&b, ks[t], PSKD_FAMILY_CLASSIC, t);
			a.simd = level;
			b.simd = 0;
			for (n = 1; n <= 3000; n = n * 3 + 1) {
				pskd_minhash_classic(&a, x, n, s1);
				pskd_minhash_classic(&b, x, n, s2);
				same[level] &= memcmp(s1, s2, ks[t] *
				    sizeof(*s1)) == 0;
			}
			pskd_minhash_free(&a);
			pskd_minhash_free(&b);
		}
	}
	check(same[1], "AVX2 and portable classic MinHash give the same bits");
	if (pskd_minhash_have_avx2() == 2)
		check(same[2], "AVX-512 and portable classic MinHash give the "
		    "same bits");
	else
		printf("skip - AVX-512 against portable: no AVX-512F here\n");
}

/*
 * Version 2: a rejected document through the relay, as pskd-shingle writes
 * it and pskd-minhash passes it on, read back; the flag in version 1 is a
 * length, and a rejected document with values is refused.
 */
static void
test_rejects(void)
{
	struct pskd_frame_params fp = { .kind = PSKD_FRAME_SHINGLES, .n = 5,
	    .norm = PSKD_NORM_ALL, .rejects = 1 };
	struct pskd_frame_reader fr, fr2;
	struct pskd_frame_relay rl;
	struct pskd_writer w;
	struct pskd_frame f;
	struct pskd_buf s = { 0 };
	char path[64], path2[64];
	unsigned char *d, chunk[4096];
	uint32_t sig[4] = { 1, 2, 3, 4 };
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/r", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	pskd_writer_init(&w, fd, path);
	pskd_frame_write_header(&w, &fp);
	pskd_frame_relay_init(&rl, &w);
	pskd_frame_relay_rejected(&rl, (const unsigned char *)"f:2", 3,
	    (const unsigned char *)"bad", 3);
	d = pskd_frame_relay_begin(&rl, (const unsigned char *)"g", 1,
	    (const unsigned char *)"{}", 2, 1);
	pskd_put_le64(d, 42);
	pskd_frame_relay_end(&rl, 1);
	pskd_frame_relay_flush(&rl);
	pskd_writer_flush(&w);
	lseek(fd, 0, SEEK_SET);
	while ((got = read(fd, chunk, sizeof(chunk))) > 0)
		pskd_buf_add(&s, chunk, (size_t)got);
	close(fd);
	free(w.buf);
	check(s.len > 6 && pskd_get_le16(s.p + 4) == 2, "--rejects: version 2");
	check(pskd_get_le32(s.p + PSKD_FRAME_HEADER_SIZE) == (3 |
	    PSKD_FRAME_REJECTED), "the flag is the top bit of id_len");
	check(pskd_frame_reader_open(&fr, path, PSKD_FRAME_SHINGLES) == 0 &&
	    fr.fp.rejects, "a version 2 stream is read");
	check(pskd_frame_next(&fr, &f) == 1 && f.rejected && f.idlen == 3 &&
	    memcmp(f.id, "f:2", 3) == 0 && f.linelen == 3 && f.count == 0,
	    "a rejected document read back");
	/* Passed on as a signature frame, it stays rejected. */
	snprintf(path2, sizeof(path2), "%s/r2", dir);
	fd = open(path2, O_RDWR | O_CREAT | O_TRUNC, 0600);
	pskd_writer_init(&w, fd, path2);
	fp.kind = PSKD_FRAME_SIGNATURES;
	fp.k = 4;
	fp.family = PSKD_FAMILY_CLASSIC;
	fp.minhash_seed = 1;
	pskd_frame_write_header(&w, &fp);
	pskd_frame_relay_init(&rl, &w);
	pskd_frame_relay_attach(&rl, &fr);
	pskd_frame_relay_u32(&rl, &f, sig, 4);
	check(pskd_frame_next(&fr, &f) == 1 && !f.rejected && f.count == 1,
	    "the next document is not");
	pskd_frame_relay_u32(&rl, &f, sig, 4);
	pskd_frame_reader_close(&fr);
	pskd_writer_flush(&w);
	close(fd);
	free(w.buf);
	check(pskd_frame_reader_open(&fr2, path2, PSKD_FRAME_SIGNATURES) == 0 &&
	    pskd_frame_next(&fr2, &f) == 1 && f.rejected && f.count == 0 &&
	    pskd_frame_next(&fr2, &f) == 1 && !f.rejected && f.count == 4 &&
	    pskd_frame_next(&fr2, &f) == 0, "relayed: rejected, then four "
	    "components");
	pskd_frame_reader_close(&fr2);
	/* The flag with a value. */
	pskd_put_le32(s.p + PSKD_FRAME_HEADER_SIZE + 8, 1);
	check(read_all(tmpfile_with(s.p, s.len), PSKD_FRAME_SHINGLES, &fr) ==
	    -1 && strcmp(fr.err, "frame 1: a rejected document with values")
	    == 0, "a rejected document with values refused");
	pskd_frame_reader_close(&fr);
	/* In version 1 the top bit is part of the length. */
	pskd_put_le32(s.p + PSKD_FRAME_HEADER_SIZE + 8, 0);
	pskd_put_le16(s.p + 4, 1);
	check(read_all(tmpfile_with(s.p, s.len), PSKD_FRAME_SHINGLES, &fr) ==
	    -1 && strcmp(fr.err, "frame 1: id of 2147483651 bytes is too long")
	    == 0, "version 1: no flag, a length");
	pskd_frame_reader_close(&fr);
	free(s.p);
}

int
main(void)
{
	char cmd[64];

	if (mkdtemp(dir) == NULL) {
		perror(dir);
		return 1;
	}
	test_round_trip();
	test_big();
	test_truncation(PSKD_FRAME_SHINGLES);
	test_truncation(PSKD_FRAME_SIGNATURES);
	test_refusals();
	test_rejects();
	test_simd();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return check_status();
}
