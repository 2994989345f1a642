/*
 * sha256.h - SHA-256 through OpenSSL's libcrypto (SHA-NI where the CPU has
 * it), as lowercase hex: the digests of shards, manifests and checkpoints.
 */
#ifndef PSKD_SHA256_H
#define PSKD_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define PSKD_SHA256_HEX	65	/* 64 hex digits and a NUL */

struct pskd_sha256 {
	void	*ctx;		/* EVP_MD_CTX */
};

void	pskd_sha256_init(struct pskd_sha256 *h);
void	pskd_sha256_update(struct pskd_sha256 *h, const void *p, size_t n);
/* The digest so far, without ending the context (it can go on). */
void	pskd_sha256_peek(const struct pskd_sha256 *h, char hex[PSKD_SHA256_HEX]);
void	pskd_sha256_free(struct pskd_sha256 *h);
/* The digest of p[0..n). */
void	pskd_sha256_hex(const void *p, size_t n, char hex[PSKD_SHA256_HEX]);
/*
 * Hash the first n bytes of the file fd (from offset 0) into h, which the
 * caller initialised.  Returns the bytes hashed (< n if the file is
 * shorter), or -1 with errno set.
 */
int64_t	pskd_sha256_fd(struct pskd_sha256 *h, int fd, uint64_t n);
/*
 * Hash the n bytes of the file fd at offset at into h, mapped (read where
 * the file system cannot map).  0, or -1 with errno (EIO: the file is
 * shorter).
 */
int	pskd_sha256_file(struct pskd_sha256 *h, int fd, uint64_t at,
	    size_t n);
/* 1 when s is 64 hex digits (either case). */
int	pskd_sha256_valid(const char *s, size_t len);

#endif
