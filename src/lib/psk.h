/*
 * psk.h - the .psk.d part of libpskd: the sample type (type.c), the
 * container (psk.c) and sample values (value.c), pskd(5).  Included by
 * pskd.h, after the declarations it uses; include pskd.h, not this.
 */
#ifndef PSKD_PSK_H
#define PSKD_PSK_H

#ifndef PSKD_H
#error "include pskd.h, which includes psk.h"
#endif

/* ---- type.c: the .psk.d sample type ------------------------------------- */

/* Error codes of the container (appear in messages as "E9001: ..."). */
#define PSKD_E_TYPE	9001	/* type not closed or not a data type */
#define PSKD_E_MAGIC	9002	/* not a .psk.d file */
#define PSKD_E_TRUNC	9003	/* truncated */
#define PSKD_E_VALUE	9004	/* value out of bound or unparsable */
#define PSKD_E_MISMATCH	9005	/* type mismatch */


/* Storage encodings of a leaf's elements. */
enum pskd_enc {
	PSKD_ENC_F64 = 0,	/* the v2 codes: 0 f64 (and every idx) */
	PSKD_ENC_F32 = 1,
	PSKD_ENC_BF16 = 2
};

#define PSKD_MAXDIM	8

struct pskd_leaf {
	int		 real;		/* 1: ℝ; 0: idx[bound] */
	uint64_t	 bound;		/* idx[N]: N */
	size_t		 ndim;
	uint64_t	 dim[PSKD_MAXDIM];
	char		*dimname[PSKD_MAXDIM];	/* NULL when unnamed */
	uint64_t	 nelem;		/* product of the dimensions */
	unsigned	 width;		/* bytes per element as stored */
	enum pskd_enc	 enc;		/* real leaves; PSKD_ENC_F64 for idx */
	uint64_t	 offset;	/* byte offset within a sample */
	uint64_t	 size;		/* nelem * width */
};

/* The shape of a sample as text: a walk over the type tree. */
enum pskd_shape_op { PSKD_SHAPE_LEAF, PSKD_SHAPE_OPEN, PSKD_SHAPE_CLOSE };

struct pskd_shape {
	enum pskd_shape_op op;
	size_t		 n;		/* LEAF: leaf index; OPEN: members */
};

struct pskd_type {
	char		*text;		/* as given (NUL-terminated copy) */
	size_t		 nleaves;
	struct pskd_leaf *leaves;
	size_t		 nshape;
	struct pskd_shape *shape;
	uint64_t	 sample_size;	/* bytes per sample */
	int		 params;	/* "params M": layout not in the text */
};

/*
 * Parse a type.  Open types (a named dimension or bound without a literal),
 * unknown syntax (with its column) and invalid UTF-8 are E9001.  "params M"
 * parses with t->params set and no leaves.
 */
int	pskd_type_parse(struct pskd_type *t, const char *text, size_t len,
	    struct pskd_error *e);
void	pskd_type_free(struct pskd_type *t);
/* The width of an idx[N] element: the smallest of 1, 2, 4, 8 holding N-1. */
unsigned pskd_idx_width(uint64_t bound);
/*
 * Set the encodings of the real leaves from a list "f64,f32,bf16" (one per
 * real leaf, in storage order).  E9005 if the count differs, E9001 for an
 * unknown name.  Recomputes widths, offsets and the sample size.
 */
int	pskd_type_set_encodings(struct pskd_type *t, const char *list,
	    struct pskd_error *e);
/* Set encodings from v2 header codes (one per leaf). */
int	pskd_type_set_codes(struct pskd_type *t, const unsigned char *codes,
	    size_t n, struct pskd_error *e);
/* 1 when a leaf is narrower than f64 (the file must be version 2). */
int	pskd_type_narrow(const struct pskd_type *t);
/* "f64,f32,bf16" for the real leaves (empty string when there are none). */
char	*pskd_type_encodings(const struct pskd_type *t);
/*
 * The canonical text of a type: "(A, B)", "idx[N][name: D]", with an extra
 * leading dimension before each leaf's dimensions when extra_name is not
 * NULL (used for batches: "[batch: B]").
 */
char	*pskd_type_format(const struct pskd_type *t, const char *extra_name,
	    uint64_t extra_dim);
const char *pskd_enc_name(enum pskd_enc enc);

/* ---- psk.c: the .psk.d container ---------------------------------------- */

#define PSKD_MAGIC		"PSKD"
#define PSKD_COUNT_STREAM	UINT64_MAX	/* "samples until end of stream" */
#define PSKD_HEADER_MAX_TYPE	(1u << 20)	/* longest type text accepted */

struct pskd_header {
	uint16_t	 version;
	uint64_t	 count;		/* PSKD_COUNT_STREAM when streaming */
	struct pskd_type type;		/* encodings already applied */
	uint64_t	 size;		/* bytes of the header */
};

/*
 * Parse a header from the first n bytes at p (all there is: a shorter buffer
 * than the header needs is E9003).  Validates magic, version, type, leaf
 * codes.  Returns 0 or -1 with e set.
 */
int	pskd_header_parse(struct pskd_header *h, const unsigned char *p,
	    size_t n, struct pskd_error *e);
/* The same from a stream; consumes exactly the header's bytes. */
int	pskd_header_read(struct pskd_header *h, struct pskd_reader *r,
	    struct pskd_error *e);
void	pskd_header_free(struct pskd_header *h);
/* Serialise a header (version chosen from the encodings) into b. */
void	pskd_header_encode(struct pskd_buf *b, const struct pskd_type *t,
	    uint64_t count);
/* Offset of the count field in a header whose type text is len bytes. */
uint64_t pskd_header_count_offset(size_t type_len);

/*
 * A .psk.d file opened for random access (mmap).  The file must hold exactly
 * count samples (fewer: E9003; more: E9002); a streaming count is refused
 * (E9003) since a finished file always carries its true count.
 */
struct pskd_file {
	const char	*name;
	unsigned char	*map;
	size_t		 mapsize;
	struct pskd_header h;
	const unsigned char *data;	/* first sample */
};

int	pskd_file_open(struct pskd_file *f, const char *path,
	    struct pskd_error *e);
void	pskd_file_close(struct pskd_file *f);

static inline const unsigned char *
pskd_file_sample(const struct pskd_file *f, uint64_t i)
{
	return f->data + i * f->h.type.sample_size;
}

/*
 * Sequential sample output with the streaming count: the header is written
 * with count 2^64-1; pskd_sink_finish() patches the true count when the fd is
 * seekable (a regular file) and leaves a pipe as a stream.
 */
struct pskd_sink {
	struct pskd_writer w;
	uint64_t	 count;		/* samples written */
	uint64_t	 header_off;	/* file offset of the header */
	int		 seekable;
	int		 known;		/* count given up front */
};

void	pskd_sink_init(struct pskd_sink *s, int fd, const char *name,
	    const struct pskd_type *t, uint64_t count);
static inline void
pskd_sink_sample(struct pskd_sink *s, const void *p, size_t n)
{
	pskd_writer_write(&s->w, p, n);
	s->count++;
}
/* nsamples whole samples, back to back, in n bytes. */
static inline void
pskd_sink_samples(struct pskd_sink *s, const void *p, size_t n,
    uint64_t nsamples)
{
	pskd_writer_write(&s->w, p, n);
	s->count += nsamples;
}
/* Flush, patch the count when possible; 0 or -1 (errno).  Does not close. */
int	pskd_sink_finish(struct pskd_sink *s);

/* ---- value.c: sample values, as numbers and as text --------------------- */

/* f64 -> f32/bf16 exactness and conversion. */
int	pskd_f64_to_f32(double v, uint32_t *bits);	/* 0 if exact, else -1 */
int	pskd_f64_to_bf16(double v, uint16_t *bits);	/* 0 if exact, else -1 */
double	pskd_bf16_to_f64(uint16_t bits);
double	pskd_f32_to_f64(uint32_t bits);
/* Element i of a leaf within a sample. */
uint64_t pskd_leaf_idx(const struct pskd_leaf *l, const unsigned char *sample,
	    uint64_t i);
double	pskd_leaf_real(const struct pskd_leaf *l, const unsigned char *sample,
	    uint64_t i);
/*
 * The first of n idx elements of width w (1, 2, 4, 8) at p, back to back,
 * that is >= bound; n when there is none.  Vector code where it can.
 */
uint64_t pskd_idx_over(const unsigned char *p, uint64_t n, unsigned w,
	    uint64_t bound);
/*
 * Check every idx element of a sample against its bound and every real
 * element is representable; returns 0 or -1 with e set (E9004, naming the
 * leaf and element).
 */
int	pskd_sample_check(const struct pskd_type *t, const unsigned char *sample,
	    struct pskd_error *e);
/*
 * The same for n samples back to back; on failure *bad is the index of the
 * first bad sample.
 */
int	pskd_samples_check(const struct pskd_type *t, const unsigned char *p,
	    uint64_t n, uint64_t *bad, struct pskd_error *e);
/* 1 if pskd_samples_check has anything to check in samples of t. */
int	pskd_type_bounded(const struct pskd_type *t);
/* Append a sample as text (JSON arrays nested like the type) to b. */
void	pskd_sample_format(struct pskd_buf *b, const struct pskd_type *t,
	    const unsigned char *sample);
/*
 * Parse one sample in that text form into out (sample_size bytes).  E9004 for
 * a value out of bound, not a number or not exact in its encoding (naming
 * the leaf); E9005 for a wrong shape.
 */
int	pskd_sample_parse(const struct pskd_type *t, const unsigned char *text,
	    size_t len, unsigned char *out, struct pskd_error *e);
/* Shortest decimal text that reads back as exactly v. */
void	pskd_format_double(char *out, size_t size, double v);

#endif /* PSKD_PSK_H */
