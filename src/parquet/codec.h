/* codec.h - page decompression (codec.c). */
#ifndef PARQUET_CODEC_H
#define PARQUET_CODEC_H

#include <stddef.h>

/*
 * src[0..n), compressed with codec (enum pq_codec), into exactly want
 * bytes at *buf, a buffer of *cap bytes that is replaced or grown as
 * needed.  0, or -1 with a reason in *err.
 */
int	pq_decompress(int codec, const unsigned char *src, size_t n,
	    unsigned char **buf, size_t *cap, size_t want, const char **err);
void	pq_codec_free(void);

#endif
