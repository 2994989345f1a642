/*
 * ixrun.h - what a persistent index of the dedup family needs whatever it
 * holds (pskd-lsh's LSH index now, an exact-match index later): the inputs
 * it was given, known by a digest of what they hold, and a two-phase commit
 * of each run (pskd-lsh(1), "INDEX DIRECTORY" and "RUNNING A SHARD AGAIN").
 *
 * An index directory holds a lock, a committed manifest and at most one
 * pending one.  A manifest is a text file:
 *
 *	KIND VERSION		"pskd-lsh index 4"
 *	generation G		1 for the first run, one more each commit
 *	...			the index's own lines (ixdir.c passes them on)
 *	input NUM DIGEST RECORDS FIRST ADDED NAME	one an input, in order
 *
 * A run reads the committed manifest, and at its end writes its new state
 * as "pending" (generation G + 1); only a separate commit renames pending
 * over manifest.  Every other run drops ("sweeps") a pending run it finds:
 * a run whose pipe failed is never seen.  The index's own files follow one
 * rule for this to hold: nothing the committed manifest vouches for is
 * ever changed, only appended to past it or written as new files.
 */
#ifndef PSKD_IXRUN_H
#define PSKD_IXRUN_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/* ---- ixinput.c: the inputs of an index, known by what they hold -------- */

#define PSKD_IX_DIGEST	16	/* XXH3-128, big-endian as XXH128_canonical */
#define PSKD_IX_NEXT	UINT64_MAX	/* no -s: the number after the last */

/*
 * An input that went into the index: its number (-s N, or the next), the
 * XXH3-128 digest of its records (frames) as they were in the stream and
 * how many there were, the index entries it added (first .. first +
 * added - 1: documents, for pskd-lsh), and its name, only shown.
 */
struct pskd_ix_input {
	uint64_t	 num;
	unsigned char	 digest[PSKD_IX_DIGEST];
	uint64_t	 records;
	uint64_t	 first, added;
	char		*name;
};

/* In ascending order of num; numbers may skip, never repeat. */
struct pskd_ix_inputs {
	struct pskd_ix_input *v;
	size_t		 n;
};

/*
 * One input being read: the number it claims and, when that is the number
 * of an input the index holds, that one's place in the list (it is that
 * input run again); its digest so far.
 */
struct pskd_ix_run {
	uint64_t	 num;
	size_t		 again;		/* index in the list; SIZE_MAX: new */
	uint64_t	 records;
	void		*state;		/* XXH3_state_t */
};

/*
 * Begin an input that claims number num (PSKD_IX_NEXT: the next).  A
 * number the index holds is that input again; a larger one than all it
 * holds is a new input; one between them that it does not hold cannot be
 * (it would go before inputs deduplicated without it): -1 with err.
 */
int	pskd_ix_run_begin(struct pskd_ix_run *run,
	    const struct pskd_ix_inputs *in, uint64_t num, char *err,
	    size_t errsize);
/* One record of the input, its bytes as they were in the stream. */
void	pskd_ix_run_record(struct pskd_ix_run *run, const void *p, size_t n);
/* More bytes of the last record (a line's end, for pskd-exact). */
void	pskd_ix_run_more(struct pskd_ix_run *run, const void *p, size_t n);
/*
 * The end of the input.  Run again: 0 when it held what the recorded one
 * held (digest and count), else -1 with err giving both.  New: it is added
 * to the list with the entries it added and its name; 0.
 */
int	pskd_ix_run_end(struct pskd_ix_run *run, struct pskd_ix_inputs *in,
	    uint64_t first, uint64_t added, const char *name, char *err,
	    size_t errsize);
/* Drop a run that did not reach its end. */
void	pskd_ix_run_abort(struct pskd_ix_run *run);

/* The digest as 32 hex digits and a NUL into out. */
void	pskd_ix_digest_hex(const unsigned char *d, char out[33]);
void	pskd_ix_inputs_free(struct pskd_ix_inputs *in);

/* ---- ixdir.c: the directory, its lock, and the two-phase commit -------- */

#define PSKD_IXDIR_KEEP	1	/* open to commit: do not sweep pending */
#define PSKD_IXDIR_EXISTING 2	/* do not create the directory */

struct pskd_ixdir {
	char		*dir;
	const char	*kind;		/* "pskd-lsh index" */
	unsigned	 version;
	int		 lockfd;	/* -1: read without the lock (read-only) */
	int		 readonly;	/* the directory cannot be written */
	uint64_t	 generation;	/* of the committed manifest; 0: none */
	int		 swept;		/* open dropped a pending run */
	struct pskd_ix_inputs inputs;	/* the committed ones, then this run's */
	size_t		 committed;	/* inputs.v[0..committed) */
};

/*
 * Open dir (created when missing, unless PSKD_IXDIR_EXISTING) and lock it
 * against a second run (flock; a directory that cannot be written is read
 * without creating the lock); unless flags has PSKD_IXDIR_KEEP, sweep a
 * pending run (d->swept: there was one).  body gets the index's own lines
 * of the committed manifest, NUL-terminated (empty when there is none
 * yet); d->inputs its inputs.  Returns 1 (a manifest), 0 (none yet) or -1
 * with err (errno ENOENT: no directory).
 */
int	pskd_ixdir_open(struct pskd_ixdir *d, const char *dir, const char *kind,
	    unsigned version, int flags, struct pskd_buf *body, char *err,
	    size_t errsize);
/*
 * The manifest p[0..n) (of d->kind and d->version, named path in
 * messages): its generation to d, its inputs to d->inputs, the index's own
 * lines to body, NUL-terminated.  0, or -1 with err.
 */
int	pskd_ixdir_parse(struct pskd_ixdir *d, const unsigned char *p,
	    size_t n, struct pskd_buf *body, const char *path, char *err,
	    size_t errsize);
/* dir/name, allocated. */
char	*pskd_ixdir_path(const struct pskd_ixdir *d, const char *name);
/*
 * Write the new state as the pending run: the first two lines, what
 * body(w, arg) writes (the index's own lines, each ending in a newline)
 * and the inputs; a temporary file synced and renamed.  The index's files
 * must be durable already.  0 or -1 with err.
 */
int	pskd_ixdir_pend(struct pskd_ixdir *d, void (*body)(struct pskd_writer *,
	    void *), void *arg, char *err, size_t errsize);
/*
 * Make the pending run the index (renamed over the manifest, the
 * directory synced), if it was made from the committed one.  1 committed,
 * 0 nothing pending, -1 with err.
 */
int	pskd_ixdir_commit(struct pskd_ixdir *d, char *err, size_t errsize);
void	pskd_ixdir_close(struct pskd_ixdir *d);

#endif /* PSKD_IXRUN_H */
