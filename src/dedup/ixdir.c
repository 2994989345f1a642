/*
 * ixdir.c - an index directory's lock, its committed and pending
 * manifests, and the two-phase commit between them (ixrun.h).
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ixrun.h"

#define MANIFEST	"manifest"
#define PENDING		"pending"

char *
pskd_ixdir_path(const struct pskd_ixdir *d, const char *name)
{
	size_t n = strlen(d->dir) + strlen(name) + 2;
	char *p = pskd_xmalloc(n);

	snprintf(p, n, "%s/%s", d->dir, name);
	return p;
}

/* The lock: read-write, created; else, read-only, the one that exists. */
static int
lock(struct pskd_ixdir *d, char *err, size_t errsize)
{
	char *path = pskd_ixdir_path(d, "lock");
	int e;

	d->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (d->lockfd == -1 && (errno == EACCES || errno == EROFS ||
	    errno == EPERM)) {
		e = errno;
		d->readonly = 1;
		d->lockfd = open(path, O_RDONLY | O_CLOEXEC);
		if (d->lockfd == -1 && errno == ENOENT) {
			free(path);
			return 0;	/* nothing can write it: no lock */
		}
		if (d->lockfd == -1)
			errno = e;
	}
	free(path);
	if (d->lockfd == -1) {
		snprintf(err, errsize, "%s: %s", d->dir, strerror(errno));
		return -1;
	}
	if (flock(d->lockfd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK)
			snprintf(err, errsize, "%s: the index is in use by "
			    "another %s", d->dir, pskd_progname);
		else
			snprintf(err, errsize, "%s: %s", d->dir,
			    strerror(errno));
		return -1;
	}
	return 0;
}

/* "NAME N" at *s, N decimal up to max; moves *s past its line.  0 or -1. */
static int
numline(char **s, const char *name, uint64_t max, uint64_t *v)
{
	size_t kl = strlen(name);
	char *nl;

	if (strncmp(*s, name, kl) != 0 || (*s)[kl] != ' ' ||
	    (nl = strchr(*s + kl, '\n')) == NULL)
		return -1;
	*nl = '\0';
	if (pskd_strtonum(*s + kl + 1, 0, max, 0, v) == -1)
		return -1;
	*s = nl + 1;
	return 0;
}

static int
hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

/* "input NUM DIGEST RECORDS FIRST ADDED NAME" lines to the end of s. */
static int
inputs(struct pskd_ix_inputs *in, char *s)
{
	struct pskd_ix_input rec;
	struct pskd_buf name = { 0 };
	uint64_t v[3];
	char *nl, *sp;
	int i, hi, lo, rc = -1;

	while (*s != '\0') {
		if ((nl = strchr(s, '\n')) == NULL)
			goto out;
		*nl = '\0';
		memset(&rec, 0, sizeof(rec));
		if (strncmp(s, "input ", 6) != 0 ||
		    (sp = strchr(s + 6, ' ')) == NULL)
			goto out;
		*sp = '\0';
		if (pskd_strtonum(s + 6, 0, UINT64_MAX - 1, 0, &rec.num) == -1 ||
		    (in->n > 0 && rec.num <= in->v[in->n - 1].num))
			goto out;
		s = sp + 1;
		if (strlen(s) < 2 * PSKD_IX_DIGEST + 1 ||
		    s[2 * PSKD_IX_DIGEST] != ' ')
			goto out;
		for (i = 0; i < PSKD_IX_DIGEST; i++) {
			if ((hi = hexval(s[2 * i])) < 0 ||
			    (lo = hexval(s[2 * i + 1])) < 0)
				goto out;
			rec.digest[i] = (unsigned char)(hi << 4 | lo);
		}
		s += 2 * PSKD_IX_DIGEST + 1;
		for (i = 0; i < 3; i++) {
			if ((sp = strchr(s, ' ')) == NULL)
				goto out;
			*sp = '\0';
			if (pskd_strtonum(s, 0, UINT64_MAX, 0, &v[i]) == -1)
				goto out;
			s = sp + 1;
		}
		rec.records = v[0];
		rec.first = v[1];
		rec.added = v[2];
		if (*s == '\0' || v[2] > UINT64_MAX - v[1])
			goto out;
		name.len = 0;
		pskd_tsv_unescape(&name, (const unsigned char *)s, strlen(s));
		pskd_buf_addc(&name, '\0');
		rec.name = pskd_xstrdup((const char *)name.p);
		in->v = pskd_xreallocarray(in->v, in->n + 1, sizeof(*in->v));
		in->v[in->n++] = rec;
		s = nl + 1;
	}
	rc = 0;
out:
	pskd_buf_free(&name);
	return rc;
}

/*
 * The first line of a manifest: "KIND VERSION".  0, or -1 with err: not
 * one, or one of another format.
 */
static int
head(const struct pskd_ixdir *d, char **s, const char *path, char *err,
    size_t errsize)
{
	size_t kl = strlen(d->kind);
	uint64_t v;

	if (strncmp(*s, d->kind, kl) != 0 || (*s)[kl] != ' ' ||
	    numline(s, d->kind, UINT32_MAX, &v) == -1) {
		snprintf(err, errsize, "%s: not a %s manifest", path, d->kind);
		return -1;
	}
	if (v != d->version) {
		snprintf(err, errsize, "%s: an index of %s %s (format %"
		    PRIu64 ", this one reads %u): make it again", d->dir,
		    v < d->version ? "an older" : "a newer", pskd_progname, v,
		    d->version);
		return -1;
	}
	return 0;
}

int
pskd_ixdir_parse(struct pskd_ixdir *d, const unsigned char *p, size_t n,
    struct pskd_buf *body, const char *path, char *err, size_t errsize)
{
	struct pskd_buf text = { 0 };
	char *s, *in;
	int rc = -1;

	pskd_buf_add(&text, p, n);
	pskd_buf_addc(&text, '\0');
	s = (char *)text.p;
	if (strlen(s) != n) {
		snprintf(err, errsize, "%s: not a %s manifest", path, d->kind);
		goto out;
	}
	if (head(d, &s, path, err, errsize) == -1)
		goto out;
	if (numline(&s, "generation", UINT64_MAX - 1, &d->generation) == -1 ||
	    d->generation == 0) {
		snprintf(err, errsize, "%s: not a %s manifest", path, d->kind);
		goto out;
	}
	/* The index's lines, up to the first input line. */
	for (in = s; *in != '\0' && strncmp(in, "input ", 6) != 0;
	    in = strchr(in, '\n') + 1)
		if (strchr(in, '\n') == NULL)
			break;
	pskd_buf_add(body, s, (size_t)(in - s));
	if (inputs(&d->inputs, in) == -1) {
		snprintf(err, errsize, "%s: not a %s manifest", path, d->kind);
		goto out;
	}
	d->committed = d->inputs.n;
	rc = 0;
out:
	pskd_buf_addc(body, '\0');
	body->len--;
	pskd_buf_free(&text);
	return rc;
}

/* Read the committed manifest: its generation, body and inputs. */
static int
read_manifest(struct pskd_ixdir *d, struct pskd_buf *body, char *err,
    size_t errsize)
{
	char *path = pskd_ixdir_path(d, MANIFEST);
	struct pskd_buf text = { 0 };
	int rc = -1;

	if (pskd_slurp(path, 0, &text) == -1) {
		if (errno == ENOENT)
			rc = 0;
		else
			snprintf(err, errsize, "%s: %s", path, strerror(errno));
		pskd_buf_addc(body, '\0');
		body->len--;
	} else if (pskd_ixdir_parse(d, text.p, text.len, body, path, err,
	    errsize) == 0)
		rc = 1;
	pskd_buf_free(&text);
	free(path);
	return rc;
}

/* Remove the pending run; 1 if there was one. */
static int
sweep(struct pskd_ixdir *d)
{
	char *path = pskd_ixdir_path(d, PENDING), *mpath;
	int had;

	pskd_tmp_sweep(path);
	mpath = pskd_ixdir_path(d, MANIFEST);
	pskd_tmp_sweep(mpath);
	free(mpath);
	had = unlink(path) == 0;
	if (had)
		(void)pskd_fsync_dir(path);
	free(path);
	return had;
}

int
pskd_ixdir_open(struct pskd_ixdir *d, const char *dir, const char *kind,
    unsigned version, int flags, struct pskd_buf *body, char *err,
    size_t errsize)
{
	int rc;

	memset(d, 0, sizeof(*d));
	d->dir = pskd_xstrdup(dir);
	d->kind = kind;
	d->version = version;
	d->lockfd = -1;
	body->len = 0;
	if (!(flags & PSKD_IXDIR_EXISTING) && mkdir(dir, 0777) == -1 &&
	    errno != EEXIST) {
		snprintf(err, errsize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (access(dir, F_OK) == -1) {
		snprintf(err, errsize, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (access(dir, W_OK) == -1)
		d->readonly = 1;
	if (lock(d, err, errsize) == -1)
		return -1;
	if ((rc = read_manifest(d, body, err, errsize)) == -1)
		return -1;
	if (!(flags & PSKD_IXDIR_KEEP) && !d->readonly)
		d->swept = sweep(d);
	return rc;
}

int
pskd_ixdir_pend(struct pskd_ixdir *d, void (*body)(struct pskd_writer *,
    void *), void *arg, char *err, size_t errsize)
{
	char *path = pskd_ixdir_path(d, PENDING), hex[33];
	const struct pskd_ix_input *in;
	struct pskd_outfile of;
	struct pskd_writer w;
	size_t i;
	int rc = 0;

	if (pskd_outfile_open(&of, path) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	pskd_writer_init(&w, of.fd, path);
	pskd_writer_printf(&w, "%s %u\ngeneration %" PRIu64 "\n", d->kind,
	    d->version, d->generation + 1);
	body(&w, arg);
	for (i = 0; i < d->inputs.n; i++) {
		in = &d->inputs.v[i];
		pskd_ix_digest_hex(in->digest, hex);
		pskd_writer_printf(&w, "input %" PRIu64 " %s %" PRIu64 " %"
		    PRIu64 " %" PRIu64 " ", in->num, hex, in->records,
		    in->first, in->added);
		pskd_tsv_field(&w, (const unsigned char *)in->name,
		    strlen(in->name));
		pskd_writer_putc(&w, '\n');
	}
	if (pskd_writer_flush(&w) == -1 || pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(w.error ?
		    w.error : errno));
		if (of.fd != -1)
			pskd_outfile_abort(&of);
		rc = -1;
	}
	free(w.buf);
	free(path);
	return rc;
}

int
pskd_ixdir_commit(struct pskd_ixdir *d, char *err, size_t errsize)
{
	char *path = pskd_ixdir_path(d, PENDING), *mpath, *s;
	struct pskd_buf text = { 0 };
	uint64_t gen;
	int rc = -1;

	if (pskd_slurp(path, 1 << 30, &text) == -1) {
		if (errno == ENOENT)
			rc = 0;
		else
			snprintf(err, errsize, "%s: %s", path, strerror(errno));
		goto out;
	}
	pskd_buf_addc(&text, '\0');
	s = (char *)text.p;
	if (head(d, &s, path, err, errsize) == -1)
		goto out;
	if (numline(&s, "generation", UINT64_MAX, &gen) == -1 ||
	    gen != d->generation + 1) {
		snprintf(err, errsize, "%s: not a run made from the committed "
		    "index (generation %" PRIu64 ")", path, d->generation);
		goto out;
	}
	mpath = pskd_ixdir_path(d, MANIFEST);
	if (rename(path, mpath) == -1 || pskd_fsync_dir(mpath) == -1) {
		snprintf(err, errsize, "%s: %s", mpath, strerror(errno));
		free(mpath);
		goto out;
	}
	free(mpath);
	d->generation = gen;
	rc = 1;
out:
	pskd_buf_free(&text);
	free(path);
	return rc;
}

void
pskd_ixdir_close(struct pskd_ixdir *d)
{
	pskd_ix_inputs_free(&d->inputs);
	if (d->lockfd != -1)
		close(d->lockfd);
	d->lockfd = -1;
	free(d->dir);
	d->dir = NULL;
}
