/*
 * frame.h - the frame stream between pskd-shingle, pskd-minhash and
 * pskd-lsh (see pskd-frames(5)): a 48-byte header naming the stream kind
 * and the parameters that made it, then one frame per document carrying
 * its id, its original line and its values.
 */
#ifndef PSKD_FRAME_H
#define PSKD_FRAME_H

#include <sys/uio.h>

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

#define PSKD_FRAME_MAGIC	"PSKF"
#define PSKD_FRAME_VERSION	1
#define PSKD_FRAME_VERSION_REJECTS 2	/* frames may be rejected documents */
#define PSKD_FRAME_REJECTED	0x80000000u	/* in a version 2 id_len */
#define PSKD_FRAME_HEADER_SIZE	48
#define PSKD_FRAME_HEAD_SIZE	12	/* id_len, line_len, count */
#define PSKD_FRAME_MAX_ID	(1u << 16)

enum pskd_frame_kind {
	PSKD_FRAME_SHINGLES = 1,	/* values: u64 shingle hashes, sorted */
	PSKD_FRAME_SIGNATURES = 2	/* values: k u32 components, or none */
};

enum pskd_shingle_unit {
	PSKD_UNIT_WORDS = 0,
	PSKD_UNIT_CHARS = 1
};

/* Normalisation steps of pskd-shingle (bits of the header's norm field). */
#define PSKD_NORM_CASE		0x01	/* Unicode case folding */
#define PSKD_NORM_PUNCT		0x02	/* punctuation and symbols to space */
#define PSKD_NORM_DIGITS	0x04	/* decimal digits to '0' */
#define PSKD_NORM_SPACE		0x08	/* whitespace runs to one space */
#define PSKD_NORM_MARKS		0x10	/* compatibility forms, marks removed */
#define PSKD_NORM_ALL		0x1f

enum pskd_minhash_family {
	PSKD_FAMILY_NONE = 0,		/* a shingle stream */
	PSKD_FAMILY_CLASSIC = 1,	/* k seeded permutations */
	PSKD_FAMILY_OPH = 2		/* one permutation, densified */
};

struct pskd_frame_params {
	uint16_t	kind;		/* enum pskd_frame_kind */
	uint32_t	unit;		/* enum pskd_shingle_unit */
	uint32_t	n;		/* words (-w) or characters (-c) */
	uint32_t	norm;		/* PSKD_NORM_* */
	uint64_t	shingle_seed;	/* XXH3-64 seed */
	uint32_t	k;		/* signature components; 0 for shingles */
	uint32_t	family;		/* enum pskd_minhash_family */
	uint64_t	minhash_seed;
	/*
	 * Version 2 of the stream: a frame may be a document pskd-shingle
	 * rejected (--rejects), with no values.  Not a parameter of the
	 * values: pskd_frame_params_differ() ignores it.
	 */
	int		rejects;
};

/* One frame; the pointers stay valid until the next pskd_frame_next(). */
struct pskd_frame {
	const unsigned char *id;
	size_t		 idlen;
	const unsigned char *line;
	size_t		 linelen;
	uint32_t	 count;		/* number of values */
	const unsigned char *values;	/* count * 8 (shingles) or * 4 bytes */
	int		 rejected;	/* a rejected document: count is 0 */
	/* pskd_frame_next(): the whole frame, as it is in the stream */
	const unsigned char *raw;
	size_t		 rawlen;
};

/* Bytes of one value of a stream kind: 8 for shingles, 4 for signatures. */
size_t	pskd_frame_value_size(unsigned kind);
void	pskd_frame_header_encode(unsigned char *out,
	    const struct pskd_frame_params *fp);
/*
 * Parse a header from p[0..n).  want is the kind the caller reads (0: any).
 * Returns 0, or -1 with a message in err: "not a shingle stream (pipe
 * pskd-shingle into it)" for another kind or another format.
 */
int	pskd_frame_header_parse(const unsigned char *p, size_t n,
	    unsigned want, struct pskd_frame_params *fp, char *err,
	    size_t errsize);
/*
 * Parse one frame from p[0..n) of a stream with parameters fp.  Returns the
 * frame's size in bytes, 0 when p holds only part of a frame (truncated),
 * or -1 with a message in err for a frame that cannot be valid.
 */
ssize_t	pskd_frame_parse(const unsigned char *p, size_t n,
	    const struct pskd_frame_params *fp, struct pskd_frame *f, char *err,
	    size_t errsize);
/* Where one stream's parameters differ from another's; NULL if nowhere. */
const char *pskd_frame_params_differ(const struct pskd_frame_params *a,
	    const struct pskd_frame_params *b);

struct pskd_frame_relay;

/* Reading a frame stream: bounded memory, lengths checked before use. */
struct pskd_frame_reader {
	struct pskd_reader r;
	struct pskd_frame_params fp;
	struct pskd_buf	 body;
	uint64_t	 nframes;	/* frames returned so far */
	struct pskd_frame_relay *relay;	/* flushed before the buffer moves */
	char		 err[256];
};

/*
 * Open path (NULL or "-": stdin) and read its header, requiring kind want.
 * Returns 0, or -1 with fr->err set (errno set and err empty for an open
 * or read error).
 */
int	pskd_frame_reader_open(struct pskd_frame_reader *fr, const char *path,
	    unsigned want);
/* 1 a frame, 0 end of stream, -1 error (fr->err, or errno if err empty). */
int	pskd_frame_next(struct pskd_frame_reader *fr, struct pskd_frame *f);
/*
 * pskd_frame_next() without its pass over a shingle frame's values to check
 * their order, for a caller that reads every value anyway and checks it
 * there: one pass over them instead of two.  The caller must refuse a frame
 * whose values are not strictly increasing, with pskd_frame_disorder().
 */
int	pskd_frame_next_unordered(struct pskd_frame_reader *fr,
	    struct pskd_frame *f);
/* Set fr->err for the last frame's values out of order; returns -1. */
int	pskd_frame_disorder(struct pskd_frame_reader *fr);
void	pskd_frame_reader_close(struct pskd_frame_reader *fr);
/*
 * Exit 1 with what made pskd_frame_reader_open() or _next() fail: fr->err
 * after the input's name, or errno's message; path names the input if the
 * reader did not get as far as opening it (NULL: standard input).
 */
_Noreturn void pskd_frame_fail(const struct pskd_frame_reader *fr,
	    const char *path);

/* Writing: the header, then frames whose values are given as host ints. */
void	pskd_frame_write_header(struct pskd_writer *w,
	    const struct pskd_frame_params *fp);
void	pskd_frame_write_u64(struct pskd_writer *w, const unsigned char *id,
	    size_t idlen, const unsigned char *line, size_t linelen,
	    const uint64_t *v, uint32_t count);
void	pskd_frame_write_u32(struct pskd_writer *w, const unsigned char *id,
	    size_t idlen, const unsigned char *line, size_t linelen,
	    const uint32_t *v, uint32_t count);

/*
 * Relaying: frames written with the id and line of a frame just read,
 * straight from the reader's buffer with writev(2) instead of copied into
 * the writer's.  What the relay adds itself (frame heads, ids, values)
 * goes into the writer's buffer, between the lines it points to.  The
 * reader flushes the relay before its buffer moves, and when it is closed;
 * call pskd_frame_relay_flush() before writing through w directly again.
 * Errors are w's: sticky in w->error.
 */
#define PSKD_RELAY_IOV	512
struct pskd_frame_relay {
	struct pskd_writer *w;
	size_t		 seg;		/* w->buf[seg..len) not yet in iov */
	int		 niov;
	size_t		 cap;		/* w->cap at init; a flush restores it */
	unsigned char	*head;		/* of the frame begun, in w->buf */
	uint32_t	 max;		/* its values' room */
	struct iovec	 iov[PSKD_RELAY_IOV];
};

void	pskd_frame_relay_init(struct pskd_frame_relay *rl,
	    struct pskd_writer *w);
/* Frames relayed through rl come from fr until it is closed. */
void	pskd_frame_relay_attach(struct pskd_frame_relay *rl,
	    struct pskd_frame_reader *fr);
/*
 * Write f's id and line with count values v (host ints, 4 bytes each); a
 * rejected f stays rejected (count 0).
 */
void	pskd_frame_relay_u32(struct pskd_frame_relay *rl,
	    const struct pskd_frame *f, const uint32_t *v, uint32_t count);
/*
 * Frames relayed through rl whose lines come from the line reader r:
 * rl is flushed before r's buffer moves.  Flush it before closing r.
 */
void	pskd_frame_relay_watch(struct pskd_frame_relay *rl,
	    struct pskd_reader *r);
/*
 * Begin a frame of id and line with at most max 8-byte values; returns
 * where they go, unaligned, little-endian, for pskd_frame_relay_end() to
 * close the frame with the count actually written there.  Nothing goes
 * out in between.
 */
unsigned char *pskd_frame_relay_begin(struct pskd_frame_relay *rl,
	    const unsigned char *id, size_t idlen, const unsigned char *line,
	    size_t linelen, uint32_t max);
void	pskd_frame_relay_end(struct pskd_frame_relay *rl, uint32_t count);
/* A rejected document's frame: its name and line, no values. */
void	pskd_frame_relay_rejected(struct pskd_frame_relay *rl,
	    const unsigned char *id, size_t idlen, const unsigned char *line,
	    size_t linelen);
/* A line and its newline, not a frame (the kept documents of pskd-lsh). */
void	pskd_frame_relay_line(struct pskd_frame_relay *rl,
	    const unsigned char *line, size_t len);
/* Write out everything relayed so far; 0, or -1 with w->error set. */
int	pskd_frame_relay_flush(struct pskd_frame_relay *rl);

/* Values of a frame as host integers. */
void	pskd_frame_values_u64(const struct pskd_frame *f, uint64_t *out);
void	pskd_frame_values_u32(const struct pskd_frame *f, uint32_t *out);

#endif /* PSKD_FRAME_H */
