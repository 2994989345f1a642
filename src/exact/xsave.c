/*
 * xsave.c - the index directory of pskd-exact (pskd-exact(1), INDEX
 * DIRECTORY): its lines of the manifest (ixrun.h has the first two and
 * the inputs), the files it vouches for, the pending run and its commit.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exact/exact.h"

void
x_manifest_body(struct pskd_writer *w, void *arg)
{
	const struct x_index *ix = arg;
	char g[32];
	size_t i;

	x_grain_name(&ix->p, g, sizeof(g));
	pskd_writer_printf(w, "grain %s\n", g);
	if (ix->p.raw)
		pskd_writer_puts(w, "norm raw\n");
	else
		pskd_writer_printf(w, "norm %u\n", ix->p.norm);
	if (ix->bloom)
		pskd_writer_printf(w, "mode bloom %" PRIu64 " %" PRIu32 "\n",
		    ix->nbits, ix->k);
	else
		pskd_writer_puts(w, "mode exact\n");
	pskd_writer_printf(w, "docs %" PRIu64 "\nunits %" PRIu64
	    "\nnext_file %" PRIu64 "\n", ix->docs, ix->units, ix->nextfile);
	for (i = 0; i < ix->nseg; i++)
		pskd_writer_printf(w, "segment %" PRIu64 " %" PRIu64 "\n",
		    ix->seg[i].id, ix->seg[i].n);
	if (ix->bloomid != 0)
		pskd_writer_printf(w, "bloom %" PRIu64 "\n", ix->bloomid);
}

/* The line at *s that starts with key and a space: its rest, or NULL. */
static char *
line(char **s, const char *key)
{
	size_t kl = strlen(key);
	char *nl, *v;

	if (strncmp(*s, key, kl) != 0 || (*s)[kl] != ' ' ||
	    (nl = strchr(*s, '\n')) == NULL)
		return NULL;
	*nl = '\0';
	v = *s + kl + 1;
	*s = nl + 1;
	return v;
}

static int
num(const char *s, uint64_t *v)
{
	return s == NULL ? -1 : pskd_strtonum(s, 0, UINT64_MAX - 1, 0, v);
}

/* Two numbers "A B" of s. */
static int
two(char *s, uint64_t *a, uint64_t *b)
{
	char *sp = s ? strchr(s, ' ') : NULL;

	if (sp == NULL)
		return -1;
	*sp = '\0';
	return num(s, a) == -1 || num(sp + 1, b) == -1 ? -1 : 0;
}

int
x_manifest_parse(struct x_index *ix, char *s)
{
	uint64_t v, id, n, units = 0;
	char *t;

	if ((t = line(&s, "grain")) == NULL || x_grain_parse(t, &ix->p) == -1)
		return -1;
	if ((t = line(&s, "norm")) == NULL)
		return -1;
	ix->p.raw = strcmp(t, "raw") == 0;
	if (!ix->p.raw) {
		if (num(t, &v) == -1 || v > 0x1f)
			return -1;
		ix->p.norm = (unsigned)v;
	}
	if ((t = line(&s, "mode")) == NULL)
		return -1;
	ix->bloom = strncmp(t, "bloom ", 6) == 0;
	if (ix->bloom) {
		if (two(t + 6, &ix->nbits, &v) == -1 || v == 0 ||
		    v > X_BLOOM_MAXK || ix->nbits == 0 ||
		    ix->nbits % X_BLOOM_BLOCK != 0 ||
		    ix->nbits / X_BLOOM_BLOCK > ((uint64_t)1 << 32))
			return -1;
		ix->k = (uint32_t)v;
	} else if (strcmp(t, "exact") != 0)
		return -1;
	if (num(line(&s, "docs"), &ix->docs) == -1 ||
	    num(line(&s, "units"), &ix->units) == -1 ||
	    num(line(&s, "next_file"), &ix->nextfile) == -1)
		return -1;
	while (!ix->bloom && strncmp(s, "segment ", 8) == 0) {
		if (two(line(&s, "segment"), &id, &n) == -1 || id >=
		    ix->nextfile || n == 0 || n > UINT64_MAX - units)
			return -1;
		ix->seg = pskd_xreallocarray(ix->seg, ix->nseg + 1,
		    sizeof(*ix->seg));
		memset(&ix->seg[ix->nseg], 0, sizeof(ix->seg[0]));
		ix->seg[ix->nseg].id = id;
		ix->seg[ix->nseg++].n = n;
		units += n;
	}
	if (ix->bloom && strncmp(s, "bloom ", 6) == 0 &&
	    (num(line(&s, "bloom"), &ix->bloomid) == -1 || ix->bloomid == 0 ||
	    ix->bloomid >= ix->nextfile))
		return -1;
	if (*s != '\0' || (!ix->bloom && units != ix->units))
		return -1;
	return 0;
}

/* Whether the file name is one the manifest vouches for. */
static int
listed(const struct x_index *ix, const char *name)
{
	unsigned long long id;
	char c;
	size_t i;

	if (sscanf(name, "seg-%llu%c", &id, &c) == 1) {
		for (i = 0; i < ix->nseg; i++)
			if (ix->seg[i].id == id)
				return 1;
		return 0;
	}
	if (sscanf(name, "bloom-%llu%c", &id, &c) == 1)
		return ix->bloomid != 0 && id == ix->bloomid;
	if (sscanf(name, "rec-%llu%c", &id, &c) == 1) {
		for (i = 0; ix->bloom && i < ix->d.committed; i++)
			if (ix->d.inputs.v[i].num == id)
				return 1;
		return 0;
	}
	return 1;	/* manifest, pending, lock, and what is not ours */
}

/*
 * Remove what the manifest does not vouch for, under the lock: the files
 * of segments and filters it does not name (merged ones, what a killed or
 * dropped run left), their temporaries, and records of inputs it lacks.
 */
void
x_remove_unlisted(struct x_index *ix)
{
	DIR *d = opendir(ix->dir);
	struct dirent *de;
	const char *n;
	char *path;
	int tmp;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		n = de->d_name;
		tmp = strncmp(n, ".seg-", 5) == 0 ||
		    strncmp(n, ".bloom-", 7) == 0 || strncmp(n, ".rec-", 5) == 0;
		if (!tmp && listed(ix, n))
			continue;
		path = pskd_ixdir_path(&ix->d, n);
		(void)unlink(path);
		free(path);
	}
	closedir(d);
}

/* The filter, when this run set bits, to a new file bloom-ID. */
static int
bloom_write(struct x_index *ix, char *err, size_t errsize)
{
	struct pskd_outfile of;
	char *path;
	int rc = 0;

	if (!ix->bloomdirty)
		return 0;
	path = x_path(ix, "bloom-%" PRIu64, ix->nextfile);
	if (pskd_outfile_open(&of, path) == -1 ||
	    pskd_write_all(of.fd, ix->bf.bits, ix->bf.size) == -1 ||
	    pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		if (of.fd != -1)
			pskd_outfile_abort(&of);
		rc = -1;
	} else {
		ix->bloomid = ix->nextfile++;
		ix->bloomdirty = 0;
		ix->changed = 1;
	}
	free(path);
	return rc;
}

int
x_index_pend(struct x_index *ix, char *err, size_t errsize)
{
	if (ix->dir == NULL)
		return 0;
	if (x_index_spill(ix, err, errsize) == -1 ||
	    (ix->bloom && bloom_write(ix, err, errsize) == -1))
		return -1;
	if (ix->have_manifest && !ix->changed &&
	    ix->d.inputs.n == ix->d.committed)
		return 0;
	return pskd_ixdir_pend(&ix->d, x_manifest_body, ix, err, errsize);
}

/*
 * Under the lock of dir: a pending run dropped (*swept: there was one),
 * and what the manifest does not vouch for removed.  0 or -1 with err.
 */
static int
tidy(const char *dir, int *swept, char *err, size_t errsize)
{
	struct x_index ix;
	struct pskd_buf body = { 0 };
	int rc;

	memset(&ix, 0, sizeof(ix));
	ix.dir = pskd_xstrdup(dir);
	rc = pskd_ixdir_open(&ix.d, dir, X_KIND, X_VERSION,
	    PSKD_IXDIR_EXISTING, &body, err, errsize);
	if (rc == 1 && x_manifest_parse(&ix, (char *)body.p) == -1) {
		snprintf(err, errsize, "%s/manifest: not a %s manifest", dir,
		    X_KIND);
		rc = -1;
	}
	if (rc != -1 && !ix.d.readonly)
		x_remove_unlisted(&ix);
	*swept = ix.d.swept;
	pskd_buf_free(&body);
	x_index_close(&ix);
	return rc == -1 ? -1 : 0;
}

int
x_index_commit_dir(const char *dir, char *err, size_t errsize)
{
	struct pskd_ixdir d;
	struct pskd_buf body = { 0 };
	int rc, swept;

	rc = pskd_ixdir_open(&d, dir, X_KIND, X_VERSION, PSKD_IXDIR_KEEP |
	    PSKD_IXDIR_EXISTING, &body, err, errsize);
	if (rc != -1)
		rc = pskd_ixdir_commit(&d, err, errsize);
	pskd_ixdir_close(&d);
	pskd_buf_free(&body);
	if (rc == 1 && tidy(dir, &swept, err, errsize) == -1)
		return -1;
	return rc;
}

int
x_index_abort_dir(const char *dir, char *err, size_t errsize)
{
	int swept = 0;

	if (tidy(dir, &swept, err, errsize) == -1)
		return errno == ENOENT && access(dir, F_OK) == -1 ? 0 : -1;
	return swept;
}
