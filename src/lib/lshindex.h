/*
 * lshindex.h - the LSH index of pskd-lsh: the kept documents' sketches and
 * ids, and per band a table from band key to document number.  Documents
 * added in this run live in memory; an index directory (pskd-lsh(1),
 * "INDEX DIRECTORY") holds earlier ones, mapped from disk, one sorted
 * partition file per band.
 */
#ifndef PSKD_LSHINDEX_H
#define PSKD_LSHINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "frame.h"

/*
 * A band's in-memory table: open addressing on the band key, slots holding
 * doc + 1 (0: empty); a slot's key is computed again from its sketch.
 */
struct pskd_band_table {
	uint32_t	*slot;
	size_t		 mask;
	size_t		 used;
};

/* A mapped file. */
struct pskd_map {
	unsigned char	*p;
	size_t		 size;
};

struct pskd_lsh_index {
	struct pskd_frame_params fp;	/* kind SIGNATURES */
	uint32_t	 b, r;
	int		 have_params;	/* fp known (from a stream or the dir) */
	char		*dir;		/* NULL: memory only */
	int		 lockfd;
	/* Documents 0 .. nbase-1 are on disk, nbase .. ndocs-1 in memory. */
	uint32_t	 nbase, ndocs;
	uint64_t	 idbytes;	/* bytes of base ids */
	uint64_t	 gen;		/* generation of the band partitions */
	struct pskd_map	 sketches, ids, idoff;
	struct pskd_map	*band;		/* b sorted partitions */
	struct pskd_band_table *table;	/* b tables of this run's documents */
	struct pskd_buf	 newsk;		/* k bytes per new document */
	struct pskd_buf	 newids;
	uint64_t	*newoff;	/* ndocs - nbase + 1 offsets */
	size_t		 newoffcap;
};

/*
 * The sketch byte of a component, and a band's 32-bit key: the high half of
 * XXH3-64, seeded with the band's number, of its r sketch bytes, so the
 * partitions on disk need hold only document numbers.
 */
static inline unsigned char
pskd_sketch_byte(uint32_t c)
{
	return (unsigned char)c;
}
uint32_t pskd_band_key(const unsigned char *sketch, uint32_t band,
	    uint32_t r);

/*
 * Open the index: in memory only (dir NULL), or in dir (created when
 * missing, locked against a second writer).  Returns 0 or -1 with a message
 * in err.
 */
int	pskd_lsh_open(struct pskd_lsh_index *ix, const char *dir, uint32_t b,
	    uint32_t r, char *err, size_t errsize);
/* Check a stream's parameters against the index's (and adopt them). */
int	pskd_lsh_params(struct pskd_lsh_index *ix,
	    const struct pskd_frame_params *fp, char *err, size_t errsize);
/* Documents whose band j key is key; calls fn(arg, doc) for each. */
void	pskd_lsh_lookup(const struct pskd_lsh_index *ix, uint32_t band,
	    uint32_t key, void (*fn)(void *, uint32_t), void *arg);
const unsigned char *pskd_lsh_sketch(const struct pskd_lsh_index *ix,
	    uint32_t doc);
const unsigned char *pskd_lsh_id(const struct pskd_lsh_index *ix,
	    uint32_t doc, size_t *len);
/* Add a kept document; returns its number. */
uint32_t pskd_lsh_add(struct pskd_lsh_index *ix, const unsigned char *sketch,
	    const uint32_t *keys, const unsigned char *id, size_t idlen);
/* Bytes of memory the in-memory part uses. */
size_t	pskd_lsh_memory(const struct pskd_lsh_index *ix);
/* Bytes the documents added since the last save need (for -m). */
size_t	pskd_lsh_pending(const struct pskd_lsh_index *ix);
/*
 * Write the in-memory documents to the directory, crash-safe: the manifest
 * is renamed into place last and names how many documents are valid.
 * Returns 0 or -1 with errno set and err naming the file.
 */
int	pskd_lsh_save(struct pskd_lsh_index *ix, char *err, size_t errsize);
void	pskd_lsh_close(struct pskd_lsh_index *ix);

#endif /* PSKD_LSHINDEX_H */
