/*
 * export.h - pskd-export's family (src/export): a token stream into the
 * data formats of Megatron-LM, nanoGPT and llm.c, and the check that reads
 * such an export back.
 *
 *	input.c		the token stream: header, chunks, the scan for EOT
 *			ids and ids out of bound
 *	split.c		which documents are the validation split: by the
 *			permutation (--val-docs) or by a keyed hash
 *	eot.c		the end-of-text id of an encoding or vocabulary
 *	hash.c		SHA-256 of what is written, on a second thread
 *	xfile.c		one output file: atomic, hashed, or compared
 *	drive.c		documents and runs from chunks, to a format
 *	megatron.c, nanogpt.c, llmc.c	the formats
 *
 * This is family code: it may exit (1 on a data or I/O error).
 */
#ifndef PSKD_EXPORT_H
#define PSKD_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/* ---- input.c ------------------------------------------------------------ */

struct xin {
	struct pskd_reader r;
	const char	*name;		/* for messages */
	struct pskd_header h;
	uint64_t	 bound;		/* V of idx[V] */
	unsigned	 w;		/* bytes per token in the stream */
	uint64_t	 count;		/* tokens declared, or PSKD_COUNT_STREAM */
	uint64_t	 seen;		/* tokens consumed */
	int		 regular;	/* a regular file: may be read twice */
	int64_t		 start;		/* its offset at the first token */
	/* A regular file is read through a window mapped on it. */
	int		 mapped;
	uint64_t	 size;		/* the file's, at the open */
	uint64_t	 pos;		/* offset of the next token */
	unsigned char	*map;		/* the window: file bytes mapoff.. */
	uint64_t	 mapoff;
	size_t		 maplen;
	unsigned char	*old;		/* the window before, still hashed */
	size_t		 oldlen;
	uint64_t	 oldticket;	/* hashed when this xhash_ticket is */
	/* Called as the window moves: nothing may still point into it. */
	void		(*moving)(void *);
	void		*moving_arg;
};

/*
 * The window on a regular file: the chunks xin_next returns there stay
 * valid until the window has moved twice.  As it moves, in->moving writes
 * out and queues for hashing whatever still points into it; the window
 * then stays mapped while its bytes are hashed on the second thread, so
 * that reading, writing and hashing go on side by side; the move after
 * that waits for them (xhash_wait).  A GiB took 1.8 s with one window (the
 * thread idle while a window's move waited), 1.15-1.25 s so; 32 or 64 MiB
 * windows gained nothing more.
 */
#ifndef XWINDOW
#define XWINDOW	(16u << 20)
#endif

/* Bytes of tokens a chunk: read, scanned and hashed while in the cache. */
#ifndef XCHUNK
#define XCHUNK	(256u << 10)
#endif

/*
 * Open path (NULL or "-": stdin) and read the header: a token stream,
 * idx[V] one token a sample, else one line and exit 1.  A regular file
 * whose count is still the streaming value is an unfinished stream.
 */
void	xin_open(struct xin *in, const char *path);
/*
 * The next whole tokens, at most XCHUNK bytes: their number,
 * 0 at the end (which checks the declared count and the trailing bytes).
 * Consume them with xin_skip.
 */
size_t	xin_next(struct xin *in, const unsigned char **p);
void	xin_skip(struct xin *in, size_t ntok);
/* Back to the first token (a regular file only). */
void	xin_rewind(struct xin *in);
void	xin_close(struct xin *in);
/* Token i of p, w bytes wide, little-endian. */
uint64_t xin_token(const unsigned char *p, size_t i, unsigned w);

/*
 * The end-of-text positions among n tokens of width w at p, into pos
 * (room for n): their number.  *bad is the first token >= limit, or n; the
 * positions are complete only up to it.
 */
size_t	xscan(const unsigned char *p, size_t n, unsigned w, uint64_t eot,
	    uint64_t limit, uint32_t *pos, size_t *bad);
/* PSKD_SIMD=0: the scan one token at a time (the tests compare). */
void	xscan_portable(int on);

/* ---- eot.c ------------------------------------------------------------- */

/*
 * The end-of-text id pskd-tok writes with -E encoding and -v vocab (either
 * NULL), by pskd-tok's own rules (tok/tokinfo.h).  Exit 1 or 2 with a
 * message when it cannot tell.
 */
uint64_t xeot_lookup(const char *encoding, const char *vocab);

/* ---- split.c ----------------------------------------------------------- */

struct xsplit {
	int		 on;		/* a validation split was asked for */
	int		 hash;		/* by document, --val-fraction */
	uint64_t	 docs;		/* D, the documents (--val-docs) */
	uint64_t	 nval;		/* documents in the validation split */
	double		 frac;		/* --val-fraction */
	uint64_t	 below;		/* its threshold, F x 2^64 */
	int		 all;		/* F = 1 */
	uint64_t	 seed;
	void		*perm;		/* struct pskd_perm */
};

/* --val-docs n: n of the D documents, by the permutation. */
void	xsplit_init(struct xsplit *s, uint64_t docs, uint64_t valdocs,
	    uint64_t seed);
/* --val-fraction f: each document by a keyed hash of its number. */
void	xsplit_hash(struct xsplit *s, double frac, uint64_t seed);
/* 1 if document d (0-based, in stream order) is in the validation split. */
int	xsplit_val(const struct xsplit *s, uint64_t d);
void	xsplit_free(struct xsplit *s);

/* ---- hash.c ------------------------------------------------------------ */

/* An opaque SHA-256 state; hashing may run on a second thread. */
struct xhash;

struct xhash *xhash_new(void);
/* Hash p[0..n) after what was given before; p stays valid until returned. */
void	xhash_add(struct xhash *h, unsigned char *p, size_t n);
/*
 * The same for bytes that are not a pool buffer (the input's window): hashed
 * where they are, which the caller keeps valid until xhash_drain.
 */
void	xhash_borrow(struct xhash *h, const unsigned char *p, size_t n);
/* Wait until everything given is hashed. */
void	xhash_drain(void);
/* What was given so far, as a ticket; wait until it is hashed. */
uint64_t xhash_ticket(void);
void	xhash_wait(uint64_t ticket);
/* Wait for the hashing of h, write its hex digest (65 bytes), free h. */
void	xhash_end(struct xhash *h, char hex[65]);
/* A buffer of XBUF bytes from the pool (blocks until one is free). */
unsigned char *xhash_buf(void);
/* Give back a buffer that was not passed to xhash_add. */
void	xhash_putbuf(unsigned char *p);
/* Hash n <= XHASH_SMALL bytes from a copy: p may change at once. */
void	xhash_copy(struct xhash *h, const unsigned char *p, size_t n);
#define XHASH_SMALL	64
#define XBUF	PSKD_BUFSIZE

/* ---- xfile.c ----------------------------------------------------------- */

/*
 * One output file.  Written: through lib's pskd_output (a temporary,
 * renamed by xfile_commit; a path named for two files is refused).  Checked (--check): every byte is compared with the file
 * that exists at path instead.  Either way its size and SHA-256 are known
 * after xfile_finish.
 */
struct xfile {
	char		*path;
	const char	*src;		/* the input's name, for messages */
	int		 check;
	struct pskd_output out;
	int		 fd;		/* the temporary, or the file checked */
	unsigned char	*buf;		/* from the hash pool */
	size_t		 len;		/* bytes in buf */
	uint64_t	 flushed;	/* bytes before buf */
	struct xhash	*hash;		/* NULL: hashed at the end, from the file */
	int		 stale;		/* patched after hashing */
	uint64_t	 defer_off;	/* --check: a range compared at the end */
	size_t		 defer_len;
	unsigned char	 defer[16];	/* what belongs there */
	char		 hex[65];
	uint64_t	 tokens;	/* for the report */
	const unsigned char *cp;	/* the input's bytes, not yet written */
	size_t		 cp_len;
	off_t		 behind;	/* disk writes started up to here */
};

/* late: the file will be patched; hash it once at the end. */
void	xfile_open(struct xfile *f, const char *path, int check, int late);
/* Room for at least n bytes (n <= XBUF) at the end; then xfile_wrote. */
unsigned char *xfile_room(struct xfile *f, size_t n);
static inline void
xfile_wrote(struct xfile *f, size_t n)
{
	f->len += n;
}
void	xfile_write(struct xfile *f, const void *p, size_t n);
/*
 * The n bytes at p.  When stable (the input's window: valid until
 * xfile_settle and, after it, until xhash_drain) written from where they
 * are, ranges that follow each other in one write(2), and hashed there;
 * else copied to the buffer, as xfile_write.
 */
void	xfile_copy(struct xfile *f, const unsigned char *p, size_t n,
	    int stable);
/* Write out and queue for hashing the stable bytes not yet written. */
void	xfile_settle(struct xfile *f);
/*
 * --check: bytes off..off+n (n <= 16) will be patched; compare them at the
 * end, not as they pass.  Nothing when writing.
 */
void	xfile_defer(struct xfile *f, uint64_t off, size_t n);
/* Overwrite bytes at off (already written) with p[0..n). */
void	xfile_patch(struct xfile *f, uint64_t off, const void *p, size_t n);
static inline uint64_t
xfile_size(const struct xfile *f)
{
	return f->flushed + f->len;
}
/*
 * A descriptor to read back what was written so far (flushed), to close
 * unless it is f->fd; and pread of all n bytes at off from it, or exit.
 */
int	xfile_readfd(struct xfile *f);
void	xfile_read(struct xfile *f, int fd, void *p, size_t n, uint64_t off);
/* Flush, check the size (--check), hash. */
void	xfile_finish(struct xfile *f);
/* Rename into place (nothing for --check). */
void	xfile_commit(struct xfile *f);

/* ---- drive.c and the formats ------------------------------------------- */

enum { XS_TRAIN, XS_VAL };

/* Output element types, by their names in --dtype. */
enum xdtype { XD_DEFAULT, XD_UINT16, XD_UINT32, XD_INT32 };

struct xport;

struct xformat_ops {
	const char	*name;
	/* Choose the dtype (and ow) from V and --dtype, or exit. */
	void	(*setup)(struct xport *x);
	/* Open the first files. */
	void	(*begin)(struct xport *x);
	/*
	 * Tokens p[from..to) of one split, in stream order.  ends[0..nends)
	 * are the positions of the end-of-text ids among them (each a
	 * document's last token); the run may start or stop inside a
	 * document.
	 */
	void	(*run)(struct xport *x, int split, const unsigned char *p,
		    size_t from, size_t to, const uint32_t *ends, size_t nends);
	/* The stream ended: finish every file. */
	void	(*end)(struct xport *x);
	/* Rename the files into place, in an order safe to interrupt. */
	void	(*commit)(struct xport *x);
	/*
	 * The split when none is asked for (0: none), and after end, the
	 * check that the trainer can read the files: exit 1 when it cannot,
	 * a warning where its default settings would not (NULL: none).
	 */
	double	 val_fraction;
	void	(*readable)(struct xport *x);
};

/* What the trainers need at least, at their default settings. */
#define XNANOGPT_BLOCK	1024	/* nanoGPT's block_size */
#define XLLMC_BT	(4 * 1024)	/* llm.c's B x T: -b 4 -t 1024 */
#define XVAL_FRACTION	0.005

struct xstats {
	uint64_t	 docs;
	uint64_t	 tokens;	/* tokens written to the split's files */
};

struct xport {
	const struct xformat_ops *ops;
	const char	*prefix;	/* -o, or the --check operand */
	int		 check;
	uint64_t	 eot;
	enum xdtype	 dtype;		/* asked for, then chosen */
	unsigned	 ow;		/* bytes per token written */
	uint64_t	 shard_tokens;	/* llmc */
	struct xin	*in;
	struct xsplit	 split;
	struct xstats	 st[2];
	/* The files, in the order of the report. */
	struct xfile	**files;
	size_t		 nfiles;
	void		*state;		/* the format's own */
};

extern const struct xformat_ops xf_megatron, xf_nanogpt, xf_llmc;

/* Read the whole stream into the format. */
void	xport_run(struct xport *x);
/* Write n tokens of width in->w at p to f, as ow-byte tokens. */
void	xport_emit(struct xport *x, struct xfile *f, const unsigned char *p,
	    size_t n);
/* One token value to f. */
void	xport_emit1(struct xport *x, struct xfile *f, uint64_t v);
/* A new file at path (recorded for the report). */
struct xfile *xport_file(struct xport *x, const char *path, int late);
/*
 * Before the renames: remove the file an earlier export left at path (a
 * regular file only; nothing under --check), so that an interrupted
 * commit never pairs new files with old ones.
 */
void	xport_unlink_old(const struct xport *x, const char *path);
/*
 * Make the folders of the prefix (last: the prefix too), as mkdir -p.  A
 * run that exits before xport_done removes them again (with its
 * temporaries): no trace of a failed export.
 */
void	xport_mkdirs(struct xport *x, int last);
void	xport_done(struct xport *x);
/* "PREFIX" + suffix, allocated. */
char	*xport_path(const struct xport *x, const char *suffix);
/* The dtype's name and the largest id it holds plus one. */
const char *xdtype_name(enum xdtype d);
uint64_t xdtype_limit(enum xdtype d);
/* The report: one JSON line to stdout. */
void	xport_report(struct xport *x);

#endif /* PSKD_EXPORT_H */
