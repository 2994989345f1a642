/*
 * minhash.h - MinHash signatures of shingle sets, specified bit for bit in
 * pskd-minhash(1): the classic family of k seeded permutations and
 * one-permutation hashing with optimal densification, each with AVX-512
 * (classic: or AVX2) paths and a portable one giving the same bits.
 */
#ifndef PSKD_MINHASH_H
#define PSKD_MINHASH_H

#include <stddef.h>
#include <stdint.h>

struct pskd_minhash {
	uint32_t	 k;
	uint32_t	 family;	/* PSKD_FAMILY_CLASSIC or _OPH */
	uint64_t	 seed;
	uint32_t	*seeds;		/* classic: k 32-bit seeds */
	uint32_t	*seedmix;	/* classic: seed ^ seed >> 16, for SIMD */
	uint64_t	 key, key2;	/* oph: the hash and densification keys */
	uint64_t	*bins;		/* oph: scratch, k minima; 2^32 = empty */
	uint32_t	*x32;		/* pskd_minhash_sign: folded, or pre-mixed */
	size_t		 x32cap;
	/*
	 * 0 portable, 1 up to AVX2, 2 AVX-512: as PSKD_SIMD allows, set by
	 * pskd_minhash_init; a path the processor lacks is never taken.
	 */
	int		 simd;
};

uint64_t pskd_splitmix64(uint64_t *state);
uint32_t pskd_fmix32(uint32_t h);
uint64_t pskd_fmix64(uint64_t h);
void	pskd_minhash_init(struct pskd_minhash *mh, uint32_t k, uint32_t family,
	    uint64_t seed);
void	pskd_minhash_free(struct pskd_minhash *mh);
/* 1 if the AVX2 path can run on this machine (AVX-512: 2), whatever
 * PSKD_SIMD says. */
int	pskd_minhash_have_avx2(void);
/*
 * The signature (k components) of a non-empty set given as its shingle
 * hashes folded to 32 bits (x32[i] = lo ^ hi) for the classic family, or
 * as the 64-bit hashes for OPH.
 */
void	pskd_minhash_classic(const struct pskd_minhash *mh, const uint32_t *x32,
	    size_t n, uint32_t *sig);
void	pskd_minhash_oph(const struct pskd_minhash *mh, const uint64_t *x,
	    size_t n, uint32_t *sig);
/*
 * The signature of a set given as a frame carries it: n 64-bit little-endian
 * shingle hashes at p (pskd_frame.values), in mh's family; all ones for an
 * empty set.  Returns 0, or -1 if the values are not strictly increasing
 * (the frame is invalid; sig is then undefined).  Its scratch grows with
 * the largest set seen, never per document.
 */
int	pskd_minhash_sign(struct pskd_minhash *mh, const unsigned char *p,
	    size_t n, uint32_t *sig);

#endif /* PSKD_MINHASH_H */
