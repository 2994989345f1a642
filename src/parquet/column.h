/*
 * column.h - one column chunk read a page at a time, with pread(2): its
 * levels and values come out in batches of up to PQ_BATCH entries.  An
 * entry is a (repetition level, definition level) pair, and a value when
 * the definition level is the column's maximum.  Memory: a read window,
 * one decompressed page, the dictionary, one batch - never the chunk.
 */
#ifndef PARQUET_COLUMN_H
#define PARQUET_COLUMN_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "parquet/decode.h"
#include "parquet/meta.h"

struct pq_column {
	int		 fd;
	int		 type;		/* physical */
	size_t		 width;		/* FIXED_LEN_BYTE_ARRAY */
	int		 codec;
	int		 max_def, max_rep;
	uint64_t	 pos;		/* the next page header */
	uint64_t	 end;		/* the end of the chunk */
	int64_t		 values_left;	/* entries the chunk's pages owe */
	/* Reading. */
	unsigned char	*win;
	size_t		 wcap, wlen;
	uint64_t	 woff;
	unsigned char	*page;		/* a decompressed page */
	size_t		 pagecap;
	unsigned char	*dictpage;	/* the dictionary's bytes */
	struct pq_vals	 dict;
	int		 has_dict;
	int		 seen_data;
	struct pskd_buf	 arena;
	/* The data page under way. */
	int64_t		 page_left;	/* its entries not yet in a batch */
	struct pq_rle	 rep, def;
	struct pq_dec	 dec;
	uint64_t	 page_at;	/* its offset, for messages */
	/* The batch. */
	uint8_t		 repb[PQ_BATCH], defb[PQ_BATCH];
	uint32_t	 lev[PQ_BATCH];
	struct pq_vals	 vals;
	size_t		 nb, ib, iv;
	char		 err[256];
};

/*
 * Set up c for chunk ch of a file of size bytes (a leaf of the given
 * physical type and levels); c is zeroed or was released.  0, or -1 with
 * c->err set.
 */
int	pq_column_open(struct pq_column *c, int fd, uint64_t size,
	    const struct pq_chunk *ch, int type, size_t width, int max_def,
	    int max_rep);
/*
 * Make sure the batch has an entry at c->ib: 1, or 0 at the end of the
 * chunk, or -1 with c->err set.
 */
int	pq_column_fill(struct pq_column *c);
/* Done with the chunk; its read and page buffers kept for the next. */
void	pq_column_release(struct pq_column *c);
void	pq_column_close(struct pq_column *c);

static inline int
pq_column_ready(struct pq_column *c)
{
	return c->ib < c->nb ? 1 : pq_column_fill(c);
}

#endif
