/*
 * test-minhash - pskd_minhash_sign() on frame bytes against the families'
 * reference calls, its AVX-512 loops against the portable ones (sizes
 * around the vector and block lengths, values out of order at every
 * position), and the frame relay against the plain frame writer.
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

static char dir[] = "/tmp/test-minhash.XXXXXX";


static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* n distinct sorted values, the extremes among them when n allows. */
static void
make_set(uint64_t *x, size_t n, uint64_t *st)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		x[i] = pskd_splitmix64(st);
	if (n > 2) {
		x[0] = 0;
		x[1] = UINT64_MAX;
	}
	qsort(x, n, sizeof(*x), cmp_u64);
	for (i = j = 0; i < n; i++)	/* drop the (unlikely) repeats */
		if (j == 0 || x[i] != x[j - 1])
			x[j++] = x[i];
	for (; j < n; j++)
		x[j] = x[j - 1] + 1;
}

/* The frame's bytes, one byte off alignment as frames usually are. */
static unsigned char *
encode(unsigned char *buf, const uint64_t *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pskd_put_le64(buf + 1 + 8 * i, x[i]);
	return buf + 1;
}

static void
test_sign(void)
{
	static uint64_t x[3000];
	static uint32_t x32[3000], want[300], got[2][300];
	static unsigned char buf[8 * 3000 + 1];
	const size_t ns[] = { 1, 2, 7, 8, 9, 15, 16, 17, 255, 256, 257, 263,
	    512, 1000, 3000 };
	const uint32_t ks[] = { 1, 7, 16, 37, 128, 300 };
	struct pskd_minhash mh;
	unsigned char *p;
	uint64_t st = 11;
	uint32_t family;
	size_t a, b, i, n;
	int same[2] = { 1, 1 }, level, rc;

	for (family = PSKD_FAMILY_CLASSIC; family <= PSKD_FAMILY_OPH; family++)
		for (a = 0; a < sizeof(ks) / sizeof(ks[0]); a++) {
			pskd_minhash_init(&mh, ks[a], family, a + 3);
			for (b = 0; b < sizeof(ns) / sizeof(ns[0]); b++) {
				n = ns[b];
				make_set(x, n, &st);
				p = encode(buf, x, n);
				mh.simd = 0;
				if (family == PSKD_FAMILY_OPH)
					pskd_minhash_oph(&mh, x, n, want);
				else {
					for (i = 0; i < n; i++)
						x32[i] = (uint32_t)x[i] ^
						    (uint32_t)(x[i] >> 32);
					pskd_minhash_classic(&mh, x32, n, want);
				}
				for (level = 0; level < 2; level++) {
					mh.simd = level * 2;
					rc = pskd_minhash_sign(&mh, p, n,
					    got[level]);
					same[level] &= rc == 0 && memcmp(want,
					    got[level], ks[a] * 4) == 0;
				}
			}
			pskd_minhash_free(&mh);
		}
	check(same[0], "sign on frame bytes (portable) = the family's own call");
	check(same[1], "sign on frame bytes (AVX-512 where present) = the "
	    "family's own call");
}

static void
test_disorder(void)
{
	static uint64_t x[600];
	static uint32_t sig[128];
	static unsigned char buf[8 * 600 + 1];
	struct pskd_minhash mh;
	unsigned char *p;
	uint64_t st = 5, keep;
	uint32_t family;
	size_t i, n = 600;
	int caught = 1, level;

	make_set(x, n, &st);
	for (family = PSKD_FAMILY_CLASSIC; family <= PSKD_FAMILY_OPH; family++) {
		pskd_minhash_init(&mh, 128, family, 1);
		for (level = 0; level < 2; level++) {
			mh.simd = level * 2;
			for (i = 1; i < n; i++) {
				/* Equal to the one before, then one below it. */
				keep = x[i];
				x[i] = x[i - 1];
				p = encode(buf, x, n);
				caught &= pskd_minhash_sign(&mh, p, n, sig) ==
				    -1;
				x[i] = x[i - 1] - 1;
				p = encode(buf, x, n);
				caught &= pskd_minhash_sign(&mh, p, n, sig) ==
				    -1;
				x[i] = keep;
			}
			p = encode(buf, x, n);
			caught &= pskd_minhash_sign(&mh, p, n, sig) == 0;
		}
		pskd_minhash_free(&mh);
	}
	check(caught, "values out of order refused at every position, both "
	    "paths, both families");
}

static int
tmpfd(const char *name)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd == -1) {
		perror(path);
		exit(1);
	}
	return fd;
}

static struct pskd_buf
slurp(const char *name)
{
	struct pskd_buf b = { 0 };
	char path[64];
	unsigned char chunk[65536];
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	while (fd != -1 && (got = read(fd, chunk, sizeof(chunk))) > 0)
		pskd_buf_add(&b, chunk, (size_t)got);
	if (fd != -1)
		close(fd);
	return b;
}

/*
 * A shingle stream of many frames (more than the relay's iovecs), one of
 * them larger than the reader's buffer, relayed as signatures and written
 * as signatures the plain way: the same bytes.
 */
static void
test_relay(void)
{
	struct pskd_frame_params fp = { 0 };
	struct pskd_frame_reader fr;
	struct pskd_frame_relay rl;
	struct pskd_writer w, wa, wb;
	struct pskd_frame f;
	struct pskd_buf a, b;
	static unsigned char line[3 << 20];
	uint64_t v[4] = { 1, 2, 3, 4 };
	uint32_t sig[4], i;
	char path[64];
	int fd;

	fp.kind = PSKD_FRAME_SHINGLES;
	fp.n = 5;
	fp.norm = PSKD_NORM_ALL;
	memset(line, 'x', sizeof(line));
	pskd_writer_init(&w, tmpfd("in"), "in");
	pskd_frame_write_header(&w, &fp);
	for (i = 0; i < 3000; i++)
		pskd_frame_write_u64(&w, (const unsigned char *)"id", i % 3,
		    line, i == 1500 ? sizeof(line) : i % 700, v, i % 5);
	if (pskd_writer_close(&w) == -1) {
		perror("in");
		exit(1);
	}
	fp.kind = PSKD_FRAME_SIGNATURES;
	fp.k = 4;
	fp.family = PSKD_FAMILY_CLASSIC;
	pskd_writer_init(&wa, tmpfd("a"), "a");
	pskd_writer_init(&wb, tmpfd("b"), "b");
	pskd_frame_write_header(&wa, &fp);
	pskd_frame_write_header(&wb, &fp);
	pskd_frame_relay_init(&rl, &wa);
	snprintf(path, sizeof(path), "%s/in", dir);
	fd = pskd_frame_reader_open(&fr, path, PSKD_FRAME_SHINGLES);
	pskd_frame_relay_attach(&rl, &fr);
	while (fd == 0 && pskd_frame_next(&fr, &f) == 1) {
		for (i = 0; i < 4; i++)
			sig[i] = f.count * 1000 + i;
		pskd_frame_relay_u32(&rl, &f, sig, f.count ? 4 : 0);
		pskd_frame_write_u32(&wb, f.id, f.idlen, f.line, f.linelen,
		    sig, f.count ? 4 : 0);
	}
	pskd_frame_reader_close(&fr);
	check(pskd_writer_close(&wa) == 0 && pskd_writer_close(&wb) == 0,
	    "relay and writer close cleanly");
	a = slurp("a");
	b = slurp("b");
	check(a.len > sizeof(line) && a.len == b.len &&
	    memcmp(a.p, b.p, a.len) == 0,
	    "relayed frames = frames written through the writer");
	pskd_buf_free(&a);
	pskd_buf_free(&b);
}

int
main(void)
{
	char cmd[64];

	if (mkdtemp(dir) == NULL) {
		perror(dir);
		return 1;
	}
	test_sign();
	test_disorder();
	test_relay();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return check_status();
}
