/*
 * nanogpt.c - -f nanogpt: DIR/train.bin and DIR/val.bin, the token ids
 * back to back, little-endian uint16 (or uint32 when asked), as nanoGPT's
 * data/NAME/prepare.py scripts write them and its train.py reads them with
 * np.memmap(..., dtype=np.uint16).  Those scripts append the end-of-text
 * id to each document (openwebtext: ids.append(enc.eot_token)), which is
 * where pskd-tok puts it: the documents are copied as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "export/export.h"

struct nano {
	struct xfile	*f[2];		/* XS_TRAIN, XS_VAL */
};

static char *
in_dir(const struct xport *x, const char *name)
{
	size_t n = strlen(x->prefix);
	char *p;

	while (n > 1 && x->prefix[n - 1] == '/')
		n--;
	p = pskd_xmalloc(n + strlen(name) + 2);
	memcpy(p, x->prefix, n);
	p[n] = '/';
	strcpy(p + n + 1, name);
	return p;
}

static const char *
s_path(const struct xport *x, int split)
{
	return ((const struct nano *)x->state)->f[split]->path;
}

static void
setup(struct xport *x)
{
	if (x->dtype == XD_DEFAULT) {
		if (x->in->bound > 65536)
			pskd_fail_at(x->in->name, 0, "idx[%llu]: nanoGPT's "
			    "train.py reads uint16, which holds ids below "
			    "65536; give --dtype uint32 (and read the files "
			    "with np.uint32)",
			    (unsigned long long)x->in->bound);
		x->dtype = XD_UINT16;
	}
	if (x->dtype == XD_INT32)
		pskd_errx(PSKD_EXIT_USAGE, "--dtype int32: -f nanogpt writes "
		    "uint16 or uint32");
	x->ow = x->dtype == XD_UINT16 ? 2 : 4;
}

static void
begin(struct xport *x)
{
	struct nano *s = pskd_xcalloc(1, sizeof(*s));
	char *path;

	path = in_dir(x, "train.bin");
	s->f[XS_TRAIN] = xport_file(x, path, 0);
	free(path);
	path = in_dir(x, "val.bin");
	s->f[XS_VAL] = xport_file(x, path, 0);
	free(path);
	x->state = s;
}

static void
run(struct xport *x, int split, const unsigned char *p, size_t from,
    size_t to, const uint32_t *ends, size_t nends)
{
	struct nano *s = x->state;

	(void)ends;
	(void)nends;
	xport_emit(x, s->f[split], p + from * x->in->w, to - from);
}

static void
end(struct xport *x)
{
	struct nano *s = x->state;
	int i;

	for (i = 0; i < 2; i++) {
		xfile_finish(s->f[i]);
		x->st[i].tokens = s->f[i]->tokens;
	}
}

static void
commit(struct xport *x)
{
	struct nano *s = x->state;

	/* Never a new train.bin beside an old val.bin. */
	xport_unlink_old(x, s->f[XS_VAL]->path);
	xfile_commit(s->f[XS_TRAIN]);
	xfile_commit(s->f[XS_VAL]);
}

/*
 * train.py memmaps train.bin and val.bin and draws blocks of block_size + 1
 * tokens from each (get_batch): an empty file cannot be read, and a file
 * of block_size tokens or fewer has no block.
 */
static void
readable(struct xport *x)
{
	static const char *const name[2] = { "training", "validation" };
	int i;

	for (i = 0; i < 2; i++) {
		if (x->st[i].tokens == 0)
			pskd_fail_at(x->in->name, 0, "the %s split is empty, and "
			    "nanoGPT's train.py cannot read an empty %s (%s)",
			    name[i], s_path(x, i), i == XS_VAL ? "give a larger "
			    "--val-fraction, or --val-docs N" : "give a "
			    "smaller --val-fraction or --val-docs");
		if (x->st[i].tokens <= XNANOGPT_BLOCK)
			pskd_warnx("%s: %llu tokens, and nanoGPT's train.py "
			    "reads blocks of block_size + 1 (%d at its default)",
			    s_path(x, i), (unsigned long long)x->st[i].tokens,
			    XNANOGPT_BLOCK + 1);
	}
}

const struct xformat_ops xf_nanogpt = {
	"nanogpt", setup, begin, run, end, commit, XVAL_FRACTION, readable
};
