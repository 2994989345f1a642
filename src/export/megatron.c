/*
 * megatron.c - -f megatron: Megatron-LM's indexed dataset, PREFIX.bin and
 * PREFIX.idx (PREFIX_train.* and PREFIX_val.* with a validation split), as
 * megatron/core/datasets/indexed_dataset.py writes and reads it:
 *
 *	.bin	the tokens of every sequence back to back, little-endian
 *	.idx	"MMIDIDX\0\0", u64 version 1, u8 dtype code (8 uint16,
 *		4 int32), u64 sequence count S, u64 document count D + 1,
 *		int32 sequence lengths[S], int64 byte offsets into .bin[S],
 *		int64 document indices[D + 1] (0, then the number of
 *		sequences up to the end of each document)
 *
 * One sequence per document, its end-of-text id last, as
 * tools/preprocess_data.py --append-eod makes it; a document without
 * tokens gets no sequence and no id there, so neither does it here.  The
 * dtype is DType.optimal_dtype(V): uint16 below 65500 ids, else int32.
 *
 * Memory stays constant: the lengths go to the .idx as documents end; the
 * offsets are computed from them read back at the end, and the document
 * indices from the (rare) empty documents, the one thing kept.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "export/export.h"

#define HEADER		34	/* magic 9, version 8, code 1, counts 16 */
#define OFF_COUNTS	18

struct stream {
	struct xfile	*bin;
	struct xfile	*idx;
	uint64_t	 cur;		/* tokens of the document in progress */
	uint64_t	 seqs;
	uint64_t	 docs;
	uint64_t	*empty;		/* documents without a sequence */
	size_t		 nempty;
};

struct mega {
	struct stream	 s[2];
	int		 nsplit;
};

static void
open_stream(struct xport *x, struct stream *s, const char *suffix)
{
	unsigned char h[HEADER] = "MMIDIDX\0\0";
	char *path;
	size_t n = strlen(suffix) + 5;
	char *name = pskd_xmalloc(n);

	memcpy(name, suffix, n - 5);
	memcpy(name + n - 5, ".bin", 5);
	path = xport_path(x, name);
	s->bin = xport_file(x, path, 0);
	free(path);
	memcpy(name + n - 5, ".idx", 5);
	path = xport_path(x, name);
	s->idx = xport_file(x, path, 1);
	free(path);
	free(name);
	pskd_put_le64(h + 9, 1);
	h[17] = x->dtype == XD_UINT16 ? 8 : 4;
	xfile_write(s->idx, h, HEADER);
	xfile_defer(s->idx, OFF_COUNTS, 16);
}

static void
setup(struct xport *x)
{
	if (x->dtype == XD_DEFAULT)
		x->dtype = x->in->bound < 65500 ? XD_UINT16 : XD_INT32;
	if (x->dtype == XD_UINT32)
		pskd_errx(PSKD_EXIT_USAGE, "--dtype uint32: Megatron's index "
		    "has no uint32 (uint16 or int32)");
	x->ow = x->dtype == XD_UINT16 ? 2 : 4;
}

static void
begin(struct xport *x)
{
	struct mega *m = pskd_xcalloc(1, sizeof(*m));

	m->nsplit = x->split.on ? 2 : 1;
	if (x->split.on) {
		open_stream(x, &m->s[XS_TRAIN], "_train");
		open_stream(x, &m->s[XS_VAL], "_val");
	} else
		open_stream(x, &m->s[XS_TRAIN], "");
	x->state = m;
}

/* A document of n tokens (its end-of-text id included) ends. */
static void
sequence(struct xport *x, struct stream *s, uint64_t n)
{
	unsigned char b[4];

	if (n > INT32_MAX)
		pskd_fail_at(x->in->name, 0, "document %llu has %llu tokens, "
		    "more than Megatron's int32 sequence length holds",
		    (unsigned long long)s->docs,
		    (unsigned long long)n);
	pskd_put_le32(b, (uint32_t)n);
	xfile_write(s->idx, b, 4);
	s->seqs++;
	s->docs++;
}

static void
run(struct xport *x, int split, const unsigned char *p, size_t from,
    size_t to, const uint32_t *ends, size_t nends)
{
	struct mega *m = x->state;
	struct stream *s = &m->s[split];
	const unsigned w = x->in->w;
	size_t i = from, span = from, k;

	for (k = 0; k < nends; k++) {
		uint64_t len = s->cur + (ends[k] - i);

		if (len == 0) {
			/* No tokens: --append-eod adds no id, no sequence. */
			xport_emit(x, s->bin, p + span * w, ends[k] - span);
			span = ends[k] + 1;
			s->empty = pskd_xreallocarray(s->empty, s->nempty + 1,
			    sizeof(*s->empty));
			s->empty[s->nempty++] = s->docs++;
		} else
			sequence(x, s, len + 1);
		s->cur = 0;
		i = ends[k] + 1;
	}
	s->cur += to - i;
	xport_emit(x, s->bin, p + span * w, to - span);
}

/* Offsets from the lengths (read back), then the document indices. */
static void
finish_index(struct xport *x, struct stream *s)
{
	unsigned char b[16], *chunk = pskd_xmalloc(XBUF);
	uint64_t ptr = 0, at, seq = 0, d;
	size_t k, n, e = 0;
	int fd;

	if (s->cur > 0)		/* the stream's last document, no id after */
		sequence(x, s, s->cur);
	fd = xfile_readfd(s->idx);
	for (at = 0; at < s->seqs; at += n) {
		n = s->seqs - at < XBUF / 4 ? (size_t)(s->seqs - at) : XBUF / 4;
		xfile_read(s->idx, fd, chunk, n * 4, HEADER + at * 4);
		for (k = 0; k < n; k++) {
			pskd_put_le64(b, ptr);
			xfile_write(s->idx, b, 8);
			ptr += (uint64_t)pskd_get_le32(chunk + 4 * k) * x->ow;
		}
	}
	if (fd != s->idx->fd)
		close(fd);
	free(chunk);
	pskd_put_le64(b, 0);
	xfile_write(s->idx, b, 8);
	for (d = 0; d < s->docs; d++) {
		if (e < s->nempty && s->empty[e] == d)
			e++;
		else
			seq++;
		pskd_put_le64(b, seq);
		xfile_write(s->idx, b, 8);
	}
	pskd_put_le64(b, s->seqs);
	pskd_put_le64(b + 8, s->docs + 1);
	xfile_patch(s->idx, OFF_COUNTS, b, 16);
	xfile_finish(s->bin);
	xfile_finish(s->idx);
	free(s->empty);
}

static void
end(struct xport *x)
{
	struct mega *m = x->state;
	int i;

	for (i = 0; i < m->nsplit; i++) {
		finish_index(x, &m->s[i]);
		x->st[i].tokens = m->s[i].bin->tokens;
	}
}

static void
commit(struct xport *x)
{
	struct mega *m = x->state;
	int i;

	/* The .idx last, and never a new .bin beside an old .idx. */
	for (i = 0; i < m->nsplit; i++)
		xport_unlink_old(x, m->s[i].idx->path);
	for (i = 0; i < m->nsplit; i++)
		xfile_commit(m->s[i].bin);
	for (i = 0; i < m->nsplit; i++)
		xfile_commit(m->s[i].idx);
}

const struct xformat_ops xf_megatron = {
	"megatron", setup, begin, run, end, commit, 0, NULL
};
