/*
 * scan.h - the first end-of-text id among tokens, for pskd-window's
 * documents: the blocks-of-64 loop of lib's pskd_idx_over (an equality
 * folded over a block, which the compiler turns into vector code), with
 * an AVX2 build of it on x86-64 and the portable one under PSKD_SIMD=0.
 */
#ifndef PSKD_SCAN_H
#define PSKD_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* The index of the first of n tokens of width w at p equal to v, or n. */
size_t	scan_find(const unsigned char *p, size_t n, unsigned w, uint64_t v);

#endif /* PSKD_SCAN_H */
