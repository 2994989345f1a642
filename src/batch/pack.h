/*
 * pack.h - rows of T+1 tokens made of whole documents, the document-aware
 * windows of pskd-window (--align bos, --pack best-fit), and their
 * accounting (tokens kept, cropped, padded), which pskd-stats reports
 * from document lengths alone.  The rules are stated in pskd-window(1).
 *
 * The caller splits the stream into documents (the tokens up to and
 * including each end-of-text id): pack_data for the tokens of the
 * document in progress, pack_doc_end when it ends.  Each full row goes to
 * the emit callback as it is made.  This is family code: it may exit
 * (1 when memory runs out).
 */
#ifndef PSKD_PACK_H
#define PSKD_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "batch/docbuf.h"

/* Documents of up to this many tokens are in the best-fit buffer's queues,
 * longer ones in its treap. */
#define PACK_QUEUED	((uint64_t)1 << 17)

enum pack_mode {
	PACK_ALIGN = 1,		/* --align bos: in order, padded, carried */
	PACK_BESTFIT		/* --pack best-fit: a buffer, cropped */
};

/*
 * A row as it goes out.  Its tokens stay where they are until nring - 1
 * more rows have gone out (the rows are a ring), so that they can be
 * written from there, uncopied; the rest only until the callback returns.
 */
struct pack_row {
	const unsigned char *tok;	/* R tokens of width w (NULL: w = 0) */
	const uint64_t	*len;		/* the lengths of its pieces */
	size_t		 npieces;
	uint64_t	 fill;		/* their sum; R - fill of padding */
};

/* The count of tokens, documents and rows so far. */
struct pack_count {
	uint64_t	 tokens;	/* of the input */
	uint64_t	 docs;		/* documents of the input */
	uint64_t	 rows;		/* rows written (windows) */
	uint64_t	 kept;		/* input tokens in some row */
	uint64_t	 cropped;	/* input tokens in none */
	uint64_t	 padded;	/* padding tokens in the rows */
};

struct pack {
	enum pack_mode	 mode;
	uint64_t	 R;		/* T + 1 */
	unsigned	 w;		/* bytes a token; 0: lengths only */
	size_t		 nbuf;		/* best-fit: documents in the buffer */
	void		(*emit)(void *, const struct pack_row *);
	void		*arg;
	struct pack_count c;
	/* the row being filled, in a ring of nring */
	unsigned char	*ring;
	size_t		 nring, at;
	unsigned char	*row;
	uint64_t	*len;
	size_t		 npieces;
	uint64_t	 p;		/* its tokens so far */
	int		 ov;		/* align: its first token kept before */
	unsigned char	 pad[8];	/* the padding token */
	/* align: the document in progress, up to a row of it */
	unsigned char	*stage;
	uint64_t	 sn;		/* its tokens in stage */
	int		 sov;		/* the stage's first kept before */
	uint64_t	 dlen;		/* tokens of the document in progress */
	/* best-fit: the buffer of slots */
	struct pack_slot *slot;		/* nbuf + 1; 0 is the null slot */
	struct docbuf	 buf;
	uint32_t	*free;		/* the unused slots */
	size_t		 nfree;
	uint32_t	 cur;		/* the document in progress's slot */
	size_t		 inbuf;		/* documents in the buffer */
	uint64_t	 seq;		/* arrivals so far */
};

/*
 * R = T+1 tokens a row, w bytes a token (0: only lengths are given, and
 * rows carry no tokens), nbuf documents in the best-fit buffer, pad the
 * token of padding (align).
 */
void	pack_init(struct pack *k, enum pack_mode mode, uint64_t R, unsigned w,
	    size_t nbuf, uint64_t pad,
	    void (*emit)(void *, const struct pack_row *), void *arg);
/*
 * The argument of --align (bos) or --pack (best-fit), flag naming which:
 * its mode, or "FLAG ARG: unknown ..." and the usage text (exit 2).
 */
enum pack_mode pack_option(const char *flag, const char *arg);
/* n more tokens of the document in progress (tok NULL when w is 0). */
void	pack_data(struct pack *k, const unsigned char *tok, uint64_t n);
/* The document in progress ends (a document of no tokens is none). */
void	pack_doc_end(struct pack *k);
/* The input ends: the last rows go out. */
void	pack_finish(struct pack *k);
void	pack_free(struct pack *k);

/* v as a little-endian integer of w bytes (1, 2, 4 or 8) at p, and back. */
void	pack_put(unsigned char *p, unsigned w, uint64_t v);
uint64_t pack_get(const unsigned char *p, unsigned w);
/* n of them, all v, from p on. */
void	pack_fill(unsigned char *p, unsigned w, uint64_t n, uint64_t v);
/* Write the segment ids of a row (pskd-window(1)) as R ids of width sw. */
void	pack_segments(unsigned char *out, unsigned sw, uint64_t R,
	    const uint64_t *len, size_t npieces);

/*
 * Read a row of R segment ids of width sw: 1, then each the one before or
 * one more, then 0 to the end (padding).  Its segments and padding, 0; -1
 * when the ids are not such a row.
 */
int	pack_segments_read(const unsigned char *p, unsigned sw, uint64_t R,
	    uint64_t *nseg, uint64_t *npad);

#endif /* PSKD_PACK_H */
