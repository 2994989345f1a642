/*
 * sha256.c - SHA-256 as hex through OpenSSL's EVP interface, and of a
 * file's bytes where they are, in the page cache: mapped, not copied.  A
 * file cut short under a mapping (by another process: pskd-get never cuts
 * a file it hashes) raises SIGBUS in the thread that hashes; that hash
 * fails with EIO instead, as a short read would.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "pskd.h"
#include "sha256.h"

#define MAP_CHUNK	(4u << 20)	/* bytes mapped at a time */
#define READ_CHUNK	(1u << 20)	/* where nothing maps */

static void
die(void)
{
	pskd_errx(PSKD_EXIT_DATA, "libcrypto: SHA-256 failed");
}

void
pskd_sha256_init(struct pskd_sha256 *h)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	if (c == NULL || EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1)
		die();
	h->ctx = c;
}

void
pskd_sha256_update(struct pskd_sha256 *h, const void *p, size_t n)
{
	if (n > 0 && EVP_DigestUpdate(h->ctx, p, n) != 1)
		die();
}

static void
tohex(const unsigned char *md, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

void
pskd_sha256_peek(const struct pskd_sha256 *h, char hex[PSKD_SHA256_HEX])
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n;

	if (c == NULL || EVP_MD_CTX_copy_ex(c, h->ctx) != 1 ||
	    EVP_DigestFinal_ex(c, md, &n) != 1 || n != 32)
		die();
	EVP_MD_CTX_free(c);
	tohex(md, hex);
}

void
pskd_sha256_free(struct pskd_sha256 *h)
{
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
}

void
pskd_sha256_hex(const void *p, size_t n, char hex[PSKD_SHA256_HEX])
{
	struct pskd_sha256 h;

	pskd_sha256_init(&h);
	pskd_sha256_update(&h, p, n);
	pskd_sha256_peek(&h, hex);
	pskd_sha256_free(&h);
}

/* Where a thread hashing a mapping goes back to on SIGBUS; NULL else. */
static __thread sigjmp_buf *bus_jump;
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;

static void
on_bus(int sig)
{
	if (bus_jump != NULL)
		siglongjmp(*bus_jump, 1);
	/* Not ours: the default, which the fault meets again at once. */
	signal(sig, SIG_DFL);
}

static void
bus_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_bus;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	(void)sigaction(SIGBUS, &sa, NULL);
}

/* A file system that cannot map files: read through a buffer. */
static int
hash_read(struct pskd_sha256 *h, int fd, uint64_t at, size_t n)
{
	unsigned char *buf = pskd_xmalloc(READ_CHUNK);
	size_t k;
	ssize_t got;

	for (; n > 0; n -= (size_t)got, at += (uint64_t)got) {
		k = n < READ_CHUNK ? n : READ_CHUNK;
		while ((got = pread(fd, buf, k, (off_t)at)) < 0 &&
		    errno == EINTR)
			;
		if (got <= 0) {
			if (got == 0)
				errno = EIO;
			free(buf);
			return -1;
		}
		pskd_sha256_update(h, buf, (size_t)got);
	}
	free(buf);
	return 0;
}

int
pskd_sha256_file(struct pskd_sha256 *h, int fd, uint64_t at, size_t n)
{
	uint64_t base = at & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
	size_t len = (size_t)(at - base) + n;
	sigjmp_buf jb;
	void *volatile m;

	if (n == 0)
		return 0;
	pthread_once(&bus_once, bus_init);
	m = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd,
	    (off_t)base);
	if (m == MAP_FAILED)
		return errno == ENODEV || errno == EACCES || errno == EINVAL ?
		    hash_read(h, fd, at, n) : -1;
	(void)madvise(m, len, MADV_SEQUENTIAL);
	if (sigsetjmp(jb, 1) != 0) {
		bus_jump = NULL;
		munmap(m, len);
		errno = EIO;
		return -1;
	}
	bus_jump = &jb;
	pskd_sha256_update(h, (unsigned char *)m + (at - base), n);
	bus_jump = NULL;
	munmap(m, len);
	return 0;
}

int64_t
pskd_sha256_fd(struct pskd_sha256 *h, int fd, uint64_t n)
{
	struct stat st;
	uint64_t done = 0;
	size_t want;

	/* Never past the end: what is not there is not hashed. */
	if (fstat(fd, &st) == -1)
		return -1;
	if ((uint64_t)st.st_size < n)
		n = (uint64_t)st.st_size;
	while (done < n) {
		want = n - done < MAP_CHUNK ? (size_t)(n - done) : MAP_CHUNK;
		if (pskd_sha256_file(h, fd, done, want) == -1)
			return -1;
		done += want;
	}
	return (int64_t)done;
}

int
pskd_sha256_valid(const char *s, size_t len)
{
	size_t i;

	if (len != 64)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f') ||
		    (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}
