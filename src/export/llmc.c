/*
 * llmc.c - -f llmc: llm.c's token shards, as dev/data/data_common.py
 * (write_datafile) and dev/data/fineweb.py write them:
 *
 *	PREFIX_val_000000.bin, PREFIX_train_000001.bin, ...
 *	a header of 256 little-endian int32: magic 20240520, version 1 for
 *	uint16 tokens ("gpt-2"), or magic 20240801, version 7 for uint32
 *	tokens ("llama-3"); the number of tokens; zeros.  Then the tokens.
 *
 * fineweb.py puts the end-of-text id before each document ([eot] +
 * tokens), so each document here is its id, then its tokens; the id
 * pskd-tok wrote after it is the next document's.  Training shards hold
 * --shard-tokens tokens each (the last fewer), a document running on into
 * the next shard as in fineweb.py.  The validation split is one shard,
 * number 0, as fineweb.py's first shard is its "val" one.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "export/export.h"

#define HEADER_INTS	256
#define HEADER		(HEADER_INTS * 4)

struct stream {
	struct xfile	*f;		/* the shard being written, or NULL */
	uint64_t	 in_shard;	/* its tokens */
	uint64_t	 declared;	/* the count in its header */
	unsigned	 shard;		/* its number */
	int		 open;		/* a document's id is written */
};

struct llmc {
	struct stream	 s[2];
	unsigned	 last;		/* number of the last train shard */
	int		 swept;		/* old shards removed */
};

static void
open_shard(struct xport *x, struct stream *s, int split)
{
	unsigned char h[HEADER] = { 0 };
	char suffix[48];
	char *path;

	snprintf(suffix, sizeof(suffix), split == XS_VAL ? "_val_%06u.bin" :
	    "_train_%06u.bin", s->shard);
	path = xport_path(x, suffix);
	/* The validation shard's count is known at the end only. */
	s->f = xport_file(x, path, split == XS_VAL);
	free(path);
	s->declared = split == XS_VAL ? 0 : x->shard_tokens;
	pskd_put_le32(h, x->ow == 2 ? 20240520 : 20240801);
	pskd_put_le32(h + 4, x->ow == 2 ? 1 : 7);
	pskd_put_le32(h + 8, (uint32_t)s->declared);
	xfile_write(s->f, h, HEADER);
	xfile_defer(s->f, 8, 4);
	s->in_shard = 0;
}

static void
setup(struct xport *x)
{
	if (x->dtype == XD_DEFAULT) {
		if (x->in->bound > 65536)
			pskd_fail_at(x->in->name, 0, "idx[%llu]: llm.c's C and "
			    "CUDA trainers (llmc/dataloader.h) read uint16 "
			    "shards only, ids below 65536; --dtype uint32 writes "
			    "the 20240801 (\"llama-3\") layout, which its "
			    "train_llama3.py reads",
			    (unsigned long long)x->in->bound);
		x->dtype = XD_UINT16;
	}
	if (x->dtype == XD_INT32)
		pskd_errx(PSKD_EXIT_USAGE, "--dtype int32: -f llmc writes "
		    "uint16 or uint32");
	x->ow = x->dtype == XD_UINT16 ? 2 : 4;
}

static void
begin(struct xport *x)
{
	struct llmc *m = pskd_xcalloc(1, sizeof(*m));

	x->state = m;
	if (x->split.on)
		open_shard(x, &m->s[XS_VAL], XS_VAL);
}

/* Is name PREFIX_{train,val}_NNNNNN.bin in the prefix's folder? -1 if not. */
static int64_t
shard_number(const char *base, const char *name, int *val)
{
	size_t n = strlen(base), d;
	const char *p;
	int64_t v = 0;

	if (strncmp(name, base, n) != 0)
		return -1;
	p = name + n;
	if (strncmp(p, "_train_", 7) == 0) {
		*val = 0;
		p += 7;
	} else if (strncmp(p, "_val_", 5) == 0) {
		*val = 1;
		p += 5;
	} else
		return -1;
	d = strspn(p, "0123456789");
	if (d < 6 || d > 12 || strcmp(p + d, ".bin") != 0)
		return -1;
	for (; d > 0; d--, p++)
		v = v * 10 + (*p - '0');
	return v;
}

/*
 * Written: remove the shards of an earlier export at this prefix, before
 * the first of ours is renamed in (a shorter export must not leave the
 * tail of a longer one to be globbed with it).  --check: any shard at the
 * prefix that is not ours is an error.
 */
static void
sweep(struct xport *x, struct llmc *m)
{
	const char *slash = strrchr(x->prefix, '/');
	const char *base = slash ? slash + 1 : x->prefix;
	char *dir, *path;
	struct dirent *e;
	int64_t k;
	int val, pass;
	DIR *d;

	m->swept = 1;
	dir = slash ? pskd_xstrndup(x->prefix, (size_t)(slash - x->prefix +
	    1)) : pskd_xstrdup("./");
	/* The validation shards first: an interrupted sweep leaves none. */
	for (pass = 1; pass >= 0; pass--) {
		if ((d = opendir(dir)) == NULL)
			pskd_err(PSKD_EXIT_DATA, "%s", dir);
		while ((e = readdir(d)) != NULL) {
			if ((k = shard_number(base, e->d_name, &val)) < 0 ||
			    val != pass)
				continue;
			path = pskd_xmalloc(strlen(dir) + strlen(e->d_name) +
			    1);
			sprintf(path, "%s%s", slash ? dir : "", e->d_name);
			if (!x->check)
				xport_unlink_old(x, path);
			else if (val ? k != 0 || !x->split.on :
			    k < 1 || k > m->last)
				pskd_fail_at(path, 0, "not part of this "
				    "export");
			free(path);
		}
		closedir(d);
	}
	free(dir);
}

/* A shard is complete: its true count, its hash, and (train) its name. */
static void
close_shard(struct xport *x, struct llmc *m, struct stream *s, int now)
{
	unsigned char b[4];

	if (s->in_shard != s->declared) {
		pskd_put_le32(b, (uint32_t)s->in_shard);
		xfile_patch(s->f, 8, b, 4);
	}
	xfile_finish(s->f);
	if (now) {
		if (!m->swept && !x->check)
			sweep(x, m);
		xfile_commit(s->f);
		s->f = NULL;
	}
}

/* Room for more tokens in the split's shard: a new one when it is full. */
static uint64_t
room(struct xport *x, int split)
{
	struct llmc *m = x->state;
	struct stream *s = &m->s[split];

	if (split == XS_VAL) {
		if (s->in_shard == INT32_MAX)
			pskd_fail_at(x->in->name, 0, "more than 2^31-1 tokens "
			    "in the validation split, llm.c's limit for one "
			    "shard");
		return INT32_MAX - s->in_shard;
	}
	if (s->f != NULL && s->in_shard == x->shard_tokens)
		close_shard(x, m, s, 1);
	if (s->f == NULL) {
		s->shard = ++m->last;
		open_shard(x, s, XS_TRAIN);
	}
	return x->shard_tokens - s->in_shard;
}

static void
put(struct xport *x, int split, const unsigned char *p, size_t n)
{
	struct stream *s = &((struct llmc *)x->state)->s[split];
	uint64_t k;

	while (n > 0) {
		k = room(x, split);
		if (k > n)
			k = n;
		xport_emit(x, s->f, p, (size_t)k);
		s->in_shard += k;
		p += k * x->in->w;
		n -= (size_t)k;
	}
}

/* The id that starts a document. */
static void
put_eot(struct xport *x, int split)
{
	struct stream *s = &((struct llmc *)x->state)->s[split];

	(void)room(x, split);
	xport_emit1(x, s->f, x->eot);
	s->in_shard++;
	s->open = 1;
}

/*
 * Each document is its id, then its tokens: within a run the stream's
 * bytes serve as they are, every id in it starting the document after it;
 * only the run's first document may need its id written, and an id that
 * ends the run is left for the next document of the split.
 */
static void
run(struct xport *x, int split, const unsigned char *p, size_t from,
    size_t to, const uint32_t *ends, size_t nends)
{
	struct stream *s = &((struct llmc *)x->state)->s[split];
	const unsigned w = x->in->w;
	size_t last = to;

	if (from == to)
		return;
	if (!s->open)
		put_eot(x, split);
	if (nends > 0 && ends[nends - 1] == to - 1)
		last = to - 1;
	put(x, split, p + from * w, last - from);
	s->open = last == to;
}

static void
end(struct xport *x)
{
	struct llmc *m = x->state;
	int i;

	for (i = 0; i < 2; i++)
		if (m->s[i].f != NULL)
			close_shard(x, m, &m->s[i], 0);
	for (i = 0; i < (int)x->nfiles; i++)
		x->st[i == 0 && x->split.on ? XS_VAL : XS_TRAIN].tokens +=
		    x->files[i]->tokens;
	if (x->check)
		sweep(x, m);
}

static void
commit(struct xport *x)
{
	struct llmc *m = x->state;

	if (!m->swept && !x->check)
		sweep(x, m);
	/* The validation shard last: its presence says the export is whole. */
	if (m->s[XS_TRAIN].f != NULL)
		xfile_commit(m->s[XS_TRAIN].f);
	if (m->s[XS_VAL].f != NULL)
		xfile_commit(m->s[XS_VAL].f);
}

/*
 * The trainers glob a validation pattern (-j) and a training one (-i), and
 * their loader asserts that every shard holds B x T + 1 tokens or more.
 */
static void
readable(struct xport *x)
{
	size_t i;

	if (x->st[XS_TRAIN].tokens == 0 || x->st[XS_VAL].tokens == 0)
		pskd_fail_at(x->in->name, 0, "the %s split is empty, and llm.c's "
		    "trainers always read one (%s)", x->st[XS_TRAIN].tokens == 0 ?
		    "training" : "validation", x->st[XS_TRAIN].tokens == 0 ?
		    "-i; give a smaller --val-fraction or --val-docs" :
		    "-j; give a larger --val-fraction, or --val-docs N");
	for (i = 0; i < x->nfiles; i++)
		if (x->files[i]->tokens <= XLLMC_BT)
			pskd_warnx("%s: %llu tokens, and llm.c's dataloader "
			    "needs B x T + 1 in every shard (%d at its default "
			    "-b 4 -t 1024)", x->files[i]->path,
			    (unsigned long long)x->files[i]->tokens,
			    XLLMC_BT + 1);
}

const struct xformat_ops xf_llmc = {
	"llmc", setup, begin, run, end, commit, XVAL_FRACTION, readable
};
