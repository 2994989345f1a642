/*
 * unzst.h - pskd-unzst's decoders and the output they share.
 *
 * A decoder reads one file's compressed bytes and writes the decoded bytes
 * into a struct unz_out.  By default they go out as they decode (a bad
 * check or a cut is an error after them, as zstd -dc and xz -dc do).  In
 * the held mode (-H) the output holds each unit until the decoder says it
 * ended whole and checked (unz_commit: a frame's or member's checksum
 * matched), so whatever the input, the output is a prefix of whole checked
 * units; the held bytes stay in memory up to a limit, then spill to an
 * unlinked temporary file.
 *
 * A piece is a part of the input that decodes on its own: a zstd frame, a
 * gzip member, an xz or bzip2 stream.  Decoders report where each piece
 * ends (unz_piece_end), which is how --range and --split work.
 */
#ifndef UNZST_H
#define UNZST_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/* Bytes a streamed write carries (zstd's own output size). */
#define UNZ_CHUNK	((size_t)128 << 10)

enum unz_format {
	UNZ_EMPTY, UNZ_ZSTD, UNZ_GZIP, UNZ_XZ, UNZ_BZIP2, UNZ_OTHER
};

/* Where the output of a --range stands (see pskd-unzst(1), SPLITTING). */
enum unz_phase {
	UNZ_ALL,	/* no --range: everything */
	UNZ_SKIP,	/* dropping the line that started before the range */
	UNZ_BODY,	/* inside the range */
	UNZ_TAIL,	/* past its end: finishing the last line */
	UNZ_DONE	/* the range is complete; stop decoding */
};

struct unz_out {
	int		 fd;		/* -1: decoded bytes are dropped */
	const char	*name;		/* of the output, for messages */
	unsigned char	*buf;		/* held bytes, after the spilled ones */
	size_t		 len;
	size_t		 cap;
	size_t		 max;		/* held in memory before spilling */
	int		 held;		/* -H (without -o): units are held */
	int		 hold;		/* the unit under way is held */
	int		 spill;		/* temporary file, or -1 */
	uint64_t	 spilled;	/* bytes held in it */
	enum unz_phase	 phase;
	uint64_t	 end;		/* --range: input offset it ends at */
	const char	*inname;	/* the input, for messages */
	/* --split: the piece ends seen, when pieces is not NULL. */
	uint64_t	*pieces;
	size_t		 npieces;
	size_t		 piecescap;
};

/* One input file as the decoders see it. */
struct unz_in {
	struct pskd_reader r;
	uint64_t	 base;		/* file offset of the reader's byte 0 */
};

void	unz_out_init(struct unz_out *o, int fd, const char *name,
	    size_t max);
/* Room for at least one decoded byte at *p; returns its size. */
size_t	unz_room(struct unz_out *o, unsigned char **p);
void	unz_added(struct unz_out *o, size_t n);
/*
 * The held bytes are checked, by a check that ends at file offset off:
 * write them.
 */
void	unz_commit(struct unz_out *o, uint64_t off);
/*
 * Whether the bytes now being decoded are a unit to hold until it ended
 * (a plain copy has none): they are only in the held mode.
 */
void	unz_hold(struct unz_out *o, int hold);
/* A piece ended at file offset off (after unz_commit). */
void	unz_piece_end(struct unz_out *o, uint64_t off);
/*
 * At least n bytes of input at *p (returns how many are there), else exit
 * through unz_fail: "truncated WHAT".
 */
size_t	unz_need(struct unz_in *in, struct unz_out *o, size_t n,
	    const unsigned char **p, const char *what);
/* Write what was checked, drop what was not, print the cause, exit 1. */
_Noreturn void unz_fail(struct unz_out *o, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	unz_out_free(struct unz_out *o);

/* The file offset of the next unread byte of in. */
static inline uint64_t
unz_offset(const struct unz_in *in)
{
	return in->base + in->r.offset;
}

enum unz_format unz_sniff(const unsigned char *p, size_t n, int force);
const char *unz_format_name(enum unz_format f);

/* Each decodes the rest of in; exits through unz_fail on an error. */
void	unz_zstd(struct unz_in *in, struct unz_out *o);
void	unz_gzip(struct unz_in *in, struct unz_out *o);
void	unz_xz(struct unz_in *in, struct unz_out *o);
void	unz_bzip2(struct unz_in *in, struct unz_out *o);
void	unz_copy(struct unz_in *in, struct unz_out *o);

void	unz_zstd_free(void);
void	unz_gzip_free(void);
void	unz_xz_free(void);
void	unz_bzip2_free(void);

/*
 * The ends of the pieces of a zstd file, from its frame headers alone
 * (nothing is decoded), appended to o's list.  Exits through unz_fail.
 */
void	unz_zstd_pieces(int fd, const char *name, struct unz_out *o);
/* The same for an .xz file of size bytes, from its stream indexes. */
void	unz_xz_pieces(int fd, const char *name, uint64_t size,
	    struct unz_out *o);

#endif
