/*
 * lshindex.h - the LSH index of pskd-lsh: the kept documents' sketches and
 * ids, and per band the documents ordered by band key.  Documents added in
 * this run live in memory; an index directory (pskd-lsh(1), "INDEX
 * DIRECTORY") holds earlier ones in segments mapped from disk.
 */
#ifndef PSKD_LSHINDEX_H
#define PSKD_LSHINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "frame.h"
#include "ixrun.h"

#define PSKD_LSH_KIND		"pskd-lsh index"	/* its manifest's */
#define PSKD_LSH_VERSION	4

/*
 * How a band partition of n documents packs an entry into 32 bits.  The
 * top bits of the band key pick one of 2^c chunks, the next f bits are the
 * entry's fingerprint, stored above the document's number (d bits, relative
 * to the partition's first document): entry = fp << d | doc.  A chunk's
 * entries are ordered by fingerprint, so a lookup reads one chunk and
 * checks the full key from a sketch only when a fingerprint matches.
 * d is the fewest bits that number n documents and f = 32 - d; c grows
 * with d so that a chunk holds 64 to 128 entries.  Every partition keeps
 * at least the top 25 bits of each key (c + f), so partitions are merged
 * and regrown without the sketches.
 */
struct pskd_lsh_code {
	uint32_t	d, f, c;
	uint32_t	known;		/* c + f */
};

/*
 * This run's entries of one band: the chunks back to back in e, each with
 * room to grow up to where the next starts (chunk[2^c].start is cap).
 */
struct pskd_lsh_chunk {
	uint32_t	 start, len;
};
struct pskd_lsh_band {
	uint32_t	*e;
	size_t		 cap;		/* entries */
	size_t		 res;		/* bytes mapped */
	size_t		 in;		/* bytes faulted in (pskd_prefault()) */
	struct pskd_lsh_chunk *chunk;	/* 2^c + 1 */
};

/*
 * A lookup of one band's key: its chunk, and where in it the key's
 * fingerprint ends, which is where pskd_lsh_add() inserts it.
 */
struct pskd_lsh_probe {
	uint32_t	 key, ch;
	size_t		 a, z, at;
};

/* A mapped file. */
struct pskd_map {
	unsigned char	*p;
	size_t		 size;
};

/*
 * A segment of the index directory: documents first .. first + n - 1, one
 * file holding per band n entries, then 2^c + 1 chunk offsets (32-bit
 * little-endian).
 */
struct pskd_lsh_seg {
	uint64_t	 id;
	uint32_t	 first, n;
	struct pskd_lsh_code code;
	struct pskd_map	 m;
};

struct pskd_lsh_index {
	struct pskd_frame_params fp;	/* kind SIGNATURES */
	uint32_t	 b, r;
	int		 have_params;	/* fp known (from a stream or the dir) */
	int		 have_manifest;	/* dir has one */
	char		*dir;		/* NULL: memory only */
	struct pskd_ixdir d;		/* its lock, manifest and inputs */
	/* Documents 0 .. nbase-1 are on disk, nbase .. ndocs-1 in memory. */
	uint32_t	 nbase, ndocs;
	uint64_t	 idbytes;	/* bytes of base ids */
	uint64_t	 nextseg;	/* the id the next segment file gets */
	struct pskd_map	 sketches, ids, idoff;
	struct pskd_lsh_seg *seg;	/* in document order */
	size_t		 nseg;
	int		 changed;	/* spilled, or inputs added, since */
	/* This run's documents: b bands of 2^mc.c chunks. */
	struct pskd_lsh_code mc;
	struct pskd_lsh_band *band;
	unsigned char	*newsk;		/* k bytes per new document */
	size_t		 newskres;	/* bytes mapped, as newids.cap */
	struct pskd_buf	 newids;
	/*
	 * The ndocs - nbase + 1 offsets of their ids: 32 bits from the
	 * 64-bit offset of their block of 2^IDBLOCK documents.
	 */
	uint32_t	*newoff;
	size_t		 newoffres;
	/* Bytes of newsk, newids and newoff faulted in (pskd_prefault()). */
	size_t		 newskin, newidsin, newoffin;
	uint64_t	*newbase;
	uint32_t	*cand;		/* pskd_lsh_candidates() */
	size_t		 ncand, candcap;
	struct pskd_lsh_probe *probe;	/* b of them, for pskd_lsh_add() */
	uint32_t	 probed;	/* ndocs + 1 when they are valid */
};

/*
 * The sketch byte of a component, and a band's 32-bit key: the high half of
 * XXH3-64, seeded with the band's number, of its r sketch bytes, so the
 * index can compute a key again from the sketch it keeps.
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
 * missing, locked against a second writer, a pending run swept).  Returns
 * 0 or -1 with a message in err.
 */
int	pskd_lsh_open(struct pskd_lsh_index *ix, const char *dir, uint32_t b,
	    uint32_t r, char *err, size_t errsize);
/* Check a stream's parameters against the index's (and adopt them). */
int	pskd_lsh_params(struct pskd_lsh_index *ix,
	    const struct pskd_frame_params *fp, char *err, size_t errsize);
/*
 * The b band keys of a sketch (into keys), and the kept documents that
 * share one of them: *cand gets their numbers, ascending, each once.
 * Returns how many.  The array is valid until the next call.
 */
size_t	pskd_lsh_candidates(struct pskd_lsh_index *ix,
	    const unsigned char *sketch, uint32_t *keys,
	    const uint32_t **cand);
const unsigned char *pskd_lsh_sketch(const struct pskd_lsh_index *ix,
	    uint32_t doc);
const unsigned char *pskd_lsh_id(const struct pskd_lsh_index *ix,
	    uint32_t doc, size_t *len);
/* Add a kept document with its band keys; returns its number. */
uint32_t pskd_lsh_add(struct pskd_lsh_index *ix, const unsigned char *sketch,
	    const uint32_t *keys, const unsigned char *id, size_t idlen);
/* Bytes of memory the documents added since the last spill take (for -m). */
size_t	pskd_lsh_memory(const struct pskd_lsh_index *ix);
/*
 * Move the documents in memory to the directory: appended to its files
 * past what the manifest vouches for, and a new segment, merged with the
 * last ones.  Nothing a reader of the index sees changes until
 * pskd_lsh_commit_dir(): a run that fails or is killed leaves the index as it
 * was.  Returns 0 or -1 with err naming the file.
 */
int	pskd_lsh_spill(struct pskd_lsh_index *ix, char *err, size_t errsize);
/*
 * The end of a run: spill, then write the index's new state, this run's
 * inputs added, as its pending run (ixrun.h), which pskd_lsh_commit_dir()
 * makes the index.  Nothing to write when the run added no input (it ran
 * inputs again).  Returns 0 or -1 with err.
 */
int	pskd_lsh_pend(struct pskd_lsh_index *ix, char *err, size_t errsize);
/*
 * pskd-lsh --commit: make the pending run of the index in dir the index,
 * and remove the files it no longer names.  1 committed, 0 nothing was
 * pending, -1 with err.
 */
int	pskd_lsh_commit_dir(const char *dir, char *err, size_t errsize);
/*
 * pskd-lsh --abort: drop the pending run of the index in dir and what it
 * wrote, so that the directory is again what the last commit left.  1
 * dropped one, 0 nothing was pending (or no directory), -1 with err.
 */
int	pskd_lsh_abort_dir(const char *dir, char *err, size_t errsize);
void	pskd_lsh_close(struct pskd_lsh_index *ix);

#endif /* PSKD_LSHINDEX_H */
