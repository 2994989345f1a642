/*
 * decode.h - Parquet's encodings, decoded a batch at a time so that no
 * count in a page (a run of a billion repeats takes a few bytes) can make
 * memory grow: levels and dictionary indices (the RLE / bit-packed
 * hybrid, and the old BIT_PACKED), PLAIN, dictionary lookups,
 * DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
 * BYTE_STREAM_SPLIT, and booleans as RLE.  Errors are a static string.
 */
#ifndef PARQUET_DECODE_H
#define PARQUET_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/* Values and levels are decoded this many at a time (at most). */
#define PQ_BATCH	1024

/* A byte string value: points into a page, a dictionary or an arena. */
struct pq_bytes {
	const unsigned char *p;
	size_t		 len;
};

/*
 * Decoded values: fixed-size ones (BOOLEAN as one byte 0/1, INT32, FLOAT
 * as 4 bytes, INT64, DOUBLE as 8, INT96 as 12, little-endian) in fixed,
 * BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY in ba.
 */
struct pq_vals {
	unsigned char	*fixed;
	struct pq_bytes	*ba;
	size_t		 n;
	size_t		 cap;
	size_t		 size;		/* bytes per fixed value; 0: ba */
};

void	pq_vals_init(struct pq_vals *v, int type);
void	pq_vals_reserve(struct pq_vals *v, size_t n);
void	pq_vals_free(struct pq_vals *v);
/* Bytes of a fixed value of a physical type; 0 for the byte arrays. */
size_t	pq_type_size(int type);

/* The RLE / bit-packed hybrid (and BIT_PACKED, most significant first). */
struct pq_rle {
	const unsigned char *p, *end;
	int		 width;
	int		 msb;		/* BIT_PACKED */
	uint64_t	 bitpos;	/* msb: bits read */
	uint64_t	 run;		/* values left in this run */
	int		 packed;	/* the run is bit-packed */
	uint32_t	 value;		/* an RLE run's value */
	uint32_t	 group[8];	/* a bit-packed group, decoded */
	int		 ingroup;	/* values of group[] still to give */
};

void	pq_rle_init(struct pq_rle *r, const unsigned char *p, size_t n,
	    int width);
void	pq_bitpacked_init(struct pq_rle *r, const unsigned char *p,
	    size_t n, int width);
/* Up to n values into out: how many (fewer only where the data ends). */
size_t	pq_rle_get(struct pq_rle *r, uint32_t *out, size_t n,
	    const char **err);

/* DELTA_BINARY_PACKED. */
struct pq_dbp {
	const unsigned char *p, *end;
	uint64_t	 per_block;	/* values in a block */
	uint64_t	 minis;		/* miniblocks in a block */
	uint64_t	 per_mini;	/* values in a miniblock */
	uint64_t	 left;		/* values still to give */
	uint64_t	 last;		/* the previous value */
	int		 first;		/* the first value not given yet */
	uint64_t	 min_delta;
	const unsigned char *widths;	/* the block's miniblock bit widths */
	uint64_t	 mini;		/* the miniblock under way */
	uint64_t	 inmini;	/* its values still to give */
	const unsigned char *data;	/* its bytes */
	uint64_t	 bit;		/* bits of it read */
};

/* Parse the header; -1 on an error (*err). */
int	pq_dbp_init(struct pq_dbp *d, const unsigned char *p, size_t n,
	    const char **err);
/* Up to n values; how many (fewer only at the end of the values). */
size_t	pq_dbp_get(struct pq_dbp *d, int64_t *out, size_t n,
	    const char **err);
/* Where the encoded values starting at p end (walking the blocks). */
const unsigned char *pq_dbp_end(const unsigned char *p, size_t n,
	    uint64_t *count, const char **err);

/* A data page's values, one encoding over one physical type. */
struct pq_dec {
	int		 enc;
	int		 type;
	size_t		 width;		/* FIXED_LEN_BYTE_ARRAY */
	const unsigned char *p, *end;	/* PLAIN; DLBA/DBA: the bytes */
	uint64_t	 bit;		/* PLAIN BOOLEAN */
	struct pq_rle	 rle;		/* dictionary indices, RLE booleans */
	const struct pq_vals *dict;
	struct pq_dbp	 dbp;		/* DBP; DLBA, DBA: the lengths */
	struct pq_dbp	 prefix;	/* DBA: the prefix lengths */
	struct pskd_buf	 prev;		/* DBA: the previous value */
	struct pskd_buf	*arena;		/* DBA: where values are made */
	size_t		 count, index;	/* BYTE_STREAM_SPLIT */
	const unsigned char *base;
	uint32_t	*ibuf;		/* scratch: indices */
	int64_t		*lbuf;		/* scratch: lengths */
	int64_t		*pbuf;		/* scratch: DBA prefix lengths */
};

/*
 * Set up the values of a page: n_values of them (nulls not counted) in
 * p[0..n), with the dictionary for the dictionary encodings and an arena
 * for DELTA_BYTE_ARRAY.  0, or -1 with *err.
 */
int	pq_dec_init(struct pq_dec *d, int enc, int type, size_t width,
	    const unsigned char *p, size_t n, size_t n_values,
	    const struct pq_vals *dict, struct pskd_buf *arena,
	    const char **err);
/* Exactly n more values into out (replacing what it held); 0 or -1. */
int	pq_dec_get(struct pq_dec *d, struct pq_vals *out, size_t n,
	    const char **err);
void	pq_dec_free(struct pq_dec *d);

/* A dictionary page (PLAIN) of n values into out; 0 or -1. */
int	pq_plain_all(int type, size_t width, const unsigned char *p,
	    size_t len, size_t n, struct pq_vals *out, const char **err);

#endif
