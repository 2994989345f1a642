/*
 * check.c - a fastText model file read through before libfasttext is
 * given it.  The library trusts its input: a truncated dictionary makes
 * Dictionary::load loop forever, a bucket of 0 divides by zero, a matrix
 * smaller than the dictionary's rows is read past its end, and a count
 * of 10^15 builds a broken tree.  So every field of the format that
 * FastText::loadModel (fastText 0.9.2, the model format version 12, or
 * 11) reads is read here first, every length checked against what
 * follows, every row a token can reach checked to exist, every weight
 * checked to be a finite number, and the file must end where the model
 * does.  All fields are little-endian, as fastText writes them on the
 * machines Debian builds it for.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pskd.h"
#include "lid/lid.h"

#define FT_MAGIC	793712314	/* FASTTEXT_FILEFORMAT_MAGIC_INT32 */
#define FT_KSUB		256		/* centroids of a product quantizer */
#define MAX_COUNT	((int64_t)1 << 40)

struct rd {
	struct pskd_reader r;
	uint64_t	 off;		/* bytes read */
	const char	*part;		/* for messages: "the dictionary" */
	struct pskd_error *e;
};

static int
truncated(struct rd *c)
{
	pskd_error_set(c->e, 0, "truncated in %s (at byte %llu)", c->part,
	    (unsigned long long)c->off);
	return -1;
}

static int
take(struct rd *c, void *dst, size_t n)
{
	ssize_t got = pskd_reader_read(&c->r, dst, n);

	if (got < 0) {
		pskd_error_set(c->e, 0, "%s", strerror(errno));
		return -1;
	}
	c->off += (uint64_t)got;
	if ((size_t)got < n)
		return truncated(c);
	return 0;
}

static int
get32(struct rd *c, int32_t *v)
{
	unsigned char b[4];

	if (take(c, b, 4) == -1)
		return -1;
	*v = (int32_t)pskd_get_le32(b);
	return 0;
}

static int
get64(struct rd *c, int64_t *v)
{
	unsigned char b[8];

	if (take(c, b, 8) == -1)
		return -1;
	*v = (int64_t)pskd_get_le64(b);
	return 0;
}

/* A C++ bool as fastText writes it: one byte, 0 or 1. */
static int
getbool(struct rd *c, int *v)
{
	unsigned char b;

	if (take(c, &b, 1) == -1)
		return -1;
	if (b > 1) {
		pskd_error_set(c->e, 0, "%s: a flag of %u (at byte %llu)",
		    c->part, b, (unsigned long long)(c->off - 1));
		return -1;
	}
	*v = b;
	return 0;
}

/* n float32 weights, each finite. */
static int
floats(struct rd *c, uint64_t n)
{
	const unsigned char *p;
	ssize_t got;
	size_t k, i;
	float f;

	while (n > 0) {
		k = n > (1u << 18) ? (1u << 18) : (size_t)n;
		got = pskd_reader_peek(&c->r, k * 4, &p);
		if (got < 0) {
			pskd_error_set(c->e, 0, "%s", strerror(errno));
			return -1;
		}
		if ((size_t)got < k * 4) {
			c->off += (uint64_t)got;
			return truncated(c);
		}
		for (i = 0; i < k; i++) {
			uint32_t u = pskd_get_le32(p + 4 * i);

			memcpy(&f, &u, 4);
			if (!isfinite(f)) {
				pskd_error_set(c->e, 0, "%s: a weight that is "
				    "not a finite number (at byte %llu)",
				    c->part, (unsigned long long)(c->off + 4 * i));
				return -1;
			}
		}
		pskd_reader_skip(&c->r, k * 4);
		c->off += k * 4;
		n -= k;
	}
	return 0;
}

/* Skip a NUL-terminated word; its bytes to b when b is not NULL. */
static int
word(struct rd *c, struct pskd_buf *b)
{
	const unsigned char *p, *z;
	ssize_t got;
	size_t k;

	for (;;) {
		got = pskd_reader_peek(&c->r, 1, &p);
		if (got < 0) {
			pskd_error_set(c->e, 0, "%s", strerror(errno));
			return -1;
		}
		if (got == 0)
			return truncated(c);
		z = memchr(p, 0, (size_t)got);
		k = z ? (size_t)(z - p) + 1 : (size_t)got;
		if (b != NULL)
			pskd_buf_add(b, p, z ? k - 1 : k);
		pskd_reader_skip(&c->r, k);
		c->off += k;
		if (z != NULL)
			return 0;
	}
}

static int bad(struct rd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "the dictionary: 3 words and 0 labels" */
static int
bad(struct rd *c, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pskd_error_set(c->e, 0, "%s: %s", c->part, what);
	return -1;
}

/* The args block: 12 int32 and a double. */
static int
args(struct rd *c, struct lid_model_info *m)
{
	int32_t v[12];
	int64_t t;
	int i;

	c->part = "the arguments";
	for (i = 0; i < 12; i++)
		if (get32(c, &v[i]) == -1)
			return -1;
	if (get64(c, &t) == -1)
		return -1;
	m->dim = v[0];
	m->wordngrams = v[5];
	m->loss = v[6];
	m->bucket = v[8];
	m->minn = v[9];
	/* FastText::loadModel: supervised models of version 11 had none. */
	m->maxn = m->version == 11 && v[7] == 3 ? 0 : v[10];
	if (v[7] != 3) {
		pskd_error_set(c->e, 0, "not a supervised model (%s)",
		    v[7] == 1 ? "word vectors, cbow" :
		    v[7] == 2 ? "word vectors, skipgram" : "unknown kind");
		return -1;
	}
	if (m->loss < 1 || m->loss > 4)
		return bad(c, "unknown loss %d", (int)m->loss);
	if (m->dim < 1)
		return bad(c, "dimension %d", (int)m->dim);
	if (m->bucket < 0 || (m->bucket == 0 && (m->maxn > 0 ||
	    m->wordngrams > 1)))
		return bad(c, "%d buckets for subwords or word n-grams",
		    (int)m->bucket);
	return 0;
}

/* The dictionary: entries (words first, then labels), pruned buckets. */
static int
dictionary(struct rd *c, struct lid_model_info *m)
{
	int32_t size, first, second;
	int64_t ntokens, count, i;
	unsigned char type;

	c->part = "the dictionary";
	if (get32(c, &size) == -1 || get32(c, &m->nwords) == -1 ||
	    get32(c, &m->nlabels) == -1 || get64(c, &ntokens) == -1 ||
	    get64(c, &m->pruned) == -1)
		return -1;
	if (m->nwords < 0 || m->nlabels < 1 ||
	    (int64_t)size != (int64_t)m->nwords + m->nlabels)
		return bad(c, "%d entries: %d words and %d labels",
		    (int)size, (int)m->nwords, (int)m->nlabels);
	if (m->pruned < -1 || m->pruned > INT32_MAX)
		return bad(c, "%lld pruned buckets", (long long)m->pruned);
	for (i = 0; i < size; i++) {
		if (word(c, NULL) == -1 || get64(c, &count) == -1 ||
		    take(c, &type, 1) == -1)
			return -1;
		if (type != (i < m->nwords ? 0 : 1))
			return bad(c, "entry %lld is of kind %u", (long long)i, type);
		/* A label's count builds the tree of hierarchical softmax. */
		if (type == 1 && (count < 0 || count > MAX_COUNT))
			return bad(c, "label count %lld (entry %lld)", (long long)count,
			    (long long)i);
	}
	for (i = 0; i < m->pruned; i++) {
		if (get32(c, &first) == -1 || get32(c, &second) == -1)
			return -1;
		if (second < 0 || second >= m->pruned)
			return bad(c, "pruned bucket %lld goes to row %d",
			    (long long)i, (int)second);
	}
	return 0;
}

/* Skip n bytes that any value is good for (centroid indices). */
static int
skip(struct rd *c, int64_t n)
{
	const unsigned char *p;
	ssize_t got;
	size_t k;

	while (n > 0) {
		got = pskd_reader_peek(&c->r, 1, &p);
		if (got < 0) {
			pskd_error_set(c->e, 0, "%s", strerror(errno));
			return -1;
		}
		if (got == 0)
			return truncated(c);
		k = (uint64_t)got < (uint64_t)n ? (size_t)got : (size_t)n;
		pskd_reader_skip(&c->r, k);
		c->off += k;
		n -= (int64_t)k;
	}
	return 0;
}

/*
 * A product quantizer of dim values (ProductQuantizer::load): its layout,
 * which ProductQuantizer::addcode indexes by, and its centroids.
 */
static int
quantizer(struct rd *c, int32_t dim, int32_t *nsubq)
{
	int32_t d, dsub, last;

	if (get32(c, &d) == -1 || get32(c, nsubq) == -1 ||
	    get32(c, &dsub) == -1 || get32(c, &last) == -1)
		return -1;
	if (d != dim || dsub < 1 || dsub > dim ||
	    *nsubq != (dim - 1) / dsub + 1 ||
	    last != (dim % dsub ? dim % dsub : dsub))
		return bad(c, "a quantizer of %d values in pieces of %d",
		    (int)d, (int)dsub);
	return floats(c, (uint64_t)dim * FT_KSUB);
}

/* A matrix of rows x dim (DenseMatrix::load or QuantMatrix::load). */
static int
matrix(struct rd *c, int quant, int64_t rows, int32_t dim)
{
	int64_t m, n;
	int32_t codesize, nsubq;
	int qnorm = 0;

	if (quant && getbool(c, &qnorm) == -1)
		return -1;
	if (get64(c, &m) == -1 || get64(c, &n) == -1)
		return -1;
	if (m != rows || n != dim)
		return bad(c, "%lld x %lld, not %lld x %d", (long long)m,
		    (long long)n, (long long)rows, (int)dim);
	if (!quant)
		return floats(c, (uint64_t)m * (uint64_t)n);
	if (get32(c, &codesize) == -1)
		return -1;
	if (codesize < 0)
		return bad(c, "%d codes", (int)codesize);
	if (skip(c, codesize) == -1 || quantizer(c, dim, &nsubq) == -1)
		return -1;
	if (codesize != m * nsubq)
		return bad(c, "%d codes for %lld rows", (int)codesize,
		    (long long)m);
	if (!qnorm)
		return 0;
	/* A norm for each row, and their quantizer of one value. */
	if (skip(c, m) == -1)
		return -1;
	return quantizer(c, 1, &nsubq);
}

int
lid_model_check(int fd, const char *name, struct lid_model_info *m,
    struct pskd_error *e)
{
	struct rd c = { .e = e, .part = "the header" };
	const unsigned char *p;
	int32_t magic;
	int64_t rows;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	pskd_reader_fdopen(&c.r, fd, name);
	if (get32(&c, &magic) == -1 || magic != FT_MAGIC) {
		pskd_error_set(e, 0, "not a fastText model");
		goto out;
	}
	if (get32(&c, &m->version) == -1)
		goto out;
	if (m->version != 11 && m->version != 12) {
		pskd_error_set(e, 0, "fastText file format version %d (this "
		    "fastText reads 11 and 12)", (int)m->version);
		goto out;
	}
	if (args(&c, m) == -1 || dictionary(&c, m) == -1)
		goto out;
	c.part = "the input matrix";
	if (getbool(&c, &m->quant) == -1)
		goto out;
	if (!m->quant && m->pruned >= 0) {
		pskd_error_set(e, 0, "a pruned dictionary without a quantized "
		    "matrix");
		goto out;
	}
	rows = (int64_t)m->nwords + (m->pruned >= 0 ? m->pruned : m->bucket);
	if (matrix(&c, m->quant, rows, m->dim) == -1)
		goto out;
	c.part = "the output matrix";
	if (getbool(&c, &m->qout) == -1 ||
	    matrix(&c, m->quant && m->qout, m->nlabels, m->dim) == -1)
		goto out;
	if (pskd_reader_peek(&c.r, 1, &p) != 0) {
		pskd_error_set(e, 0, "bytes after the model's end (at byte "
		    "%llu)", (unsigned long long)c.off);
		goto out;
	}
	m->size = c.off;
	rc = 0;
out:
	pskd_reader_close(&c.r);
	return rc;
}
