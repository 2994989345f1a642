/*
 * sha256.h - SHA-256 of files, mapped: the digests of shards, manifests
 * and checkpoints (lib's pskd_sha256_* underneath).
 */
#ifndef PSKD_SHA256_H
#define PSKD_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

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

#endif
