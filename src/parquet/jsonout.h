/*
 * jsonout.h - JSON text of Parquet values, into a growing buffer that is
 * written out between rows only, so a row is never half on the output.
 * Strings are escaped as JavaScript's JSON.stringify escapes them and
 * numbers written as its Number to String conversion writes them, so the
 * same value is the same bytes whichever program prints it.
 */
#ifndef PARQUET_JSONOUT_H
#define PARQUET_JSONOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pskd.h"
#include "parquet/decode.h"
#include "parquet/schema.h"

struct pq_out {
	struct pskd_buf	 b;
	int		 fd;		/* -1: keep it (tests, fuzzing) */
	const char	*name;
};

void	pq_out_init(struct pq_out *o, int fd, const char *name);
/* Write the buffer (complete rows); 0, or -1 with errno. */
int	pq_out_flush(struct pq_out *o);
void	pq_out_free(struct pq_out *o);

static inline void
pq_out_add(struct pq_out *o, const void *p, size_t n)
{
	if (o->b.cap - o->b.len < n)
		pskd_buf_reserve(&o->b, n);
	memcpy(o->b.p + o->b.len, p, n);
	o->b.len += n;
}

static inline void
pq_out_c(struct pq_out *o, unsigned char c)
{
	if (o->b.len == o->b.cap)
		pskd_buf_reserve(&o->b, 1);
	o->b.p[o->b.len++] = c;
}

/*
 * s[0..n) as a JSON string.  A byte that is not part of valid UTF-8 is an
 * error (-1, its offset in *bad) unless lax, which writes it as \udcXX.
 */
int	pq_out_string(struct pq_out *o, const unsigned char *s, size_t n,
	    int lax, size_t *bad);
void	pq_out_i64(struct pq_out *o, int64_t v);
void	pq_out_u64(struct pq_out *o, uint64_t v);
/* The shortest decimal that reads back as v; null for NaN, infinities. */
void	pq_out_double(struct pq_out *o, double v);
void	pq_out_float(struct pq_out *o, float v);

/*
 * Value i of v, printed as leaf's kind says.  0, or -1 with a reason in
 * *err (and for a string, the offset of a bad byte in *bad).
 */
int	pq_out_value(struct pq_out *o, const struct pq_node *leaf,
	    const struct pq_vals *v, size_t i, int lax, size_t *bad,
	    const char **err);

#endif
