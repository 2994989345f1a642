/*
 * lshmanifest.c - the manifest of an LSH index directory: the stream
 * parameters and banding (params.h), the counts that vouch for the other
 * files, and the segments; pskd-lsh(1), "INDEX DIRECTORY".
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lshint.h"
#include "params.h"

#define MANIFEST_V1	"pskd-lsh index 1\n"
#define MANIFEST_V2	"pskd-lsh index 2\n"	/* format 3 without inputs */
#define MANIFEST_V3	"pskd-lsh index 3\n"

void
lsh_seg_add(struct pskd_lsh_index *ix, uint64_t id, uint32_t first, uint32_t n)
{
	struct pskd_lsh_seg *s;

	ix->seg = pskd_xreallocarray(ix->seg, ix->nseg + 1, sizeof(*ix->seg));
	s = &ix->seg[ix->nseg++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->first = first;
	s->n = n;
	code_init(&s->code, doc_bits(n));
}

/* The whole of fd, NUL-terminated, into b; 0 or -1 (errno). */
static int
slurp(int fd, struct pskd_buf *b)
{
	ssize_t got;

	do {
		pskd_buf_reserve(b, 4096);
		got = pskd_read_full(fd, b->p + b->len, b->cap - b->len - 1);
		if (got == -1)
			return -1;
		b->len += (size_t)got;
	} while (got > 0);
	b->p[b->len] = '\0';
	return 0;
}

/*
 * The line "KEY N ..." at *s with n decimals, each at most max; moves *s
 * past it.  0 or -1.
 */
static int
line(char **s, const char *key, int n, uint64_t max, uint64_t *v)
{
	size_t kl = strlen(key);
	char *nl, *p, *sp;
	int i;

	if (strncmp(*s, key, kl) != 0 || (*s)[kl] != ' ' ||
	    (nl = strchr(*s + kl, '\n')) == NULL)
		return -1;
	*nl = '\0';
	for (i = 0, p = *s + kl + 1; i < n; i++, p = sp + 1) {
		sp = i + 1 < n ? strchr(p, ' ') : nl;
		if (sp == NULL)
			return -1;
		*sp = '\0';
		if (pskd_strtonum(p, 0, max, 0, &v[i]) == -1)
			return -1;
	}
	*s = nl + 1;
	return 0;
}

/* The segments: "segment ID FIRST COUNT" lines. */
static int
segments(struct pskd_lsh_index *ix, char **s)
{
	uint64_t v[3];

	ix->ndocs = 0;
	while (strncmp(*s, "segment ", 8) == 0) {
		if (line(s, "segment", 3, UINT64_MAX, v) == -1)
			return -1;
		if (v[1] != ix->ndocs || v[2] == 0 || v[2] > UINT32_MAX - v[1] ||
		    v[0] >= ix->nextseg)
			return -1;
		lsh_seg_add(ix, v[0], (uint32_t)v[1], (uint32_t)v[2]);
		ix->ndocs += (uint32_t)v[2];
	}
	return 0;
}

/* Undo pskd_tsv_field() on the NUL-terminated s, in place. */
static void
unescape(char *s)
{
	char *o = s;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' :
			    *s == 'r' ? '\r' : *s;
		} else
			*o++ = *s;
	}
	*o = '\0';
}

static int
hexdigit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

/*
 * The inputs: "input KEY FIRST KEPT FRAMES NAME" lines to the end, KEY 16
 * hex digits, NAME escaped as a TSV field (it is only shown).
 */
static int
inputs(struct pskd_lsh_index *ix, char *s)
{
	struct pskd_lsh_input in;
	uint64_t v[3];
	char *sp, *nl;
	int i, h;

	while (*s != '\0') {
		if (strncmp(s, "input ", 6) != 0 ||
		    (nl = strchr(s, '\n')) == NULL || nl - s < 6 + 17)
			return -1;
		memset(&in, 0, sizeof(in));
		for (i = 0; i < 16; i++) {
			if ((h = hexdigit(s[6 + i])) == -1)
				return -1;
			in.key = in.key << 4 | (uint64_t)h;
		}
		if (s[22] != ' ')
			return -1;
		/* The three numbers, then the name after the next space. */
		s += 23;
		for (i = 0; i < 3; i++) {
			sp = memchr(s, ' ', (size_t)(nl - s));
			if (sp == NULL)
				return -1;
			*sp = '\0';
			if (pskd_strtonum(s, 0, UINT64_MAX, 0, &v[i]) == -1)
				return -1;
			s = sp + 1;
		}
		if (v[0] > ix->ndocs || v[1] > ix->ndocs - v[0] || s == nl)
			return -1;
		in.first = (uint32_t)v[0];
		in.kept = (uint32_t)v[1];
		in.frames = v[2];
		*nl = '\0';
		unescape(s);
		in.name = s;
		pskd_lsh_input_add(ix, &in);
		s = nl + 1;
	}
	return 0;
}

/* The manifest after its first line; -1 if it is not one. */
static int
parse(struct pskd_lsh_index *ix, char *s, size_t len)
{
	struct pskd_lsh_params p;
	uint64_t docs;
	size_t n;

	n = pskd_lsh_params_parse((unsigned char *)s, len, '\n', &p);
	if (n == 0 || s[n] != '\n')
		return -1;
	s += n + 1;
	ix->fp = p.fp;
	ix->b = p.b;
	ix->r = p.r;
	if (line(&s, "docs", 1, UINT32_MAX, &docs) == -1 ||
	    line(&s, "id_bytes", 1, UINT64_MAX, &ix->idbytes) == -1 ||
	    line(&s, "next_segment", 1, UINT64_MAX, &ix->nextseg) == -1)
		return -1;
	ix->nbase = (uint32_t)docs;
	if (segments(ix, &s) == -1 || inputs(ix, s) == -1)
		return -1;
	if (ix->fp.k == 0 || ix->b == 0 || ix->b * ix->r != ix->fp.k ||
	    ix->ndocs != ix->nbase)
		return -1;
	return 0;
}

int
lsh_manifest_read(struct pskd_lsh_index *ix, uint32_t b, uint32_t r,
    char *err, size_t errsize)
{
	char *path = lsh_path(ix, MANIFEST), *s;
	struct pskd_buf text = { 0 };
	int fd, rc = -1;
	size_t hl = strlen(MANIFEST_V3);

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		free(path);
		if (errno == ENOENT)
			return 0;
		snprintf(err, errsize, "%s/%s: %s", ix->dir, MANIFEST,
		    strerror(errno));
		return -1;
	}
	if (slurp(fd, &text) == -1) {
		snprintf(err, errsize, "%s/%s: %s", ix->dir, MANIFEST,
		    strerror(errno));
		goto out;
	}
	s = (char *)text.p;
	if (strncmp(s, MANIFEST_V1, hl) == 0) {
		snprintf(err, errsize, "%s: an index of an older pskd-lsh "
		    "(format 1): make it again", ix->dir);
		goto out;
	}
	if (strlen(s) != text.len || (strncmp(s, MANIFEST_V2, hl) != 0 &&
	    strncmp(s, MANIFEST_V3, hl) != 0) ||
	    parse(ix, s + hl, text.len - hl) == -1) {
		snprintf(err, errsize, "%s/%s: not a pskd-lsh index manifest",
		    ix->dir, MANIFEST);
		goto out;
	}
	if (ix->b != b || ix->r != r) {
		snprintf(err, errsize, "%s: the index was made with -b %" PRIu32
		    " -r %" PRIu32 ", not -b %" PRIu32 " -r %" PRIu32, ix->dir,
		    ix->b, ix->r, b, r);
		goto out;
	}
	ix->have_params = 1;
	ix->have_manifest = 1;
	ix->uncommitted = 0;	/* the inputs read are committed */
	rc = 1;
out:
	close(fd);
	pskd_buf_free(&text);
	free(path);
	return rc;
}

int
lsh_manifest_write(struct pskd_lsh_index *ix, char *err, size_t errsize)
{
	char *path = lsh_path(ix, MANIFEST);
	struct pskd_lsh_params p = { .fp = ix->fp, .b = ix->b, .r = ix->r };
	const struct pskd_lsh_input *in;
	struct pskd_outfile of;
	struct pskd_writer w;
	size_t i;

	if (pskd_outfile_open(&of, path) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	pskd_writer_init(&w, of.fd, path);
	pskd_writer_puts(&w, MANIFEST_V3);
	pskd_lsh_params_write(&w, &p, '\n');
	pskd_writer_printf(&w, "\ndocs %" PRIu32 "\nid_bytes %" PRIu64
	    "\nnext_segment %" PRIu64 "\n", ix->ndocs, ix->idbytes,
	    ix->nextseg);
	for (i = 0; i < ix->nseg; i++)
		pskd_writer_printf(&w, "segment %" PRIu64 " %" PRIu32 " %"
		    PRIu32 "\n", ix->seg[i].id, ix->seg[i].first,
		    ix->seg[i].n);
	for (i = 0; i < ix->ninput; i++) {
		in = &ix->input[i];
		pskd_writer_printf(&w, "input %016" PRIx64 " %" PRIu32 " %"
		    PRIu32 " %" PRIu64 " ", in->key, in->first, in->kept,
		    in->frames);
		pskd_tsv_field(&w, (const unsigned char *)in->name,
		    strlen(in->name));
		pskd_writer_putc(&w, '\n');
	}
	if (pskd_writer_flush(&w) == -1 || pskd_outfile_commit(&of) == -1) {
		snprintf(err, errsize, "%s: %s", path, strerror(w.error ?
		    w.error : errno));
		if (of.fd != -1)
			pskd_outfile_abort(&of);
		free(w.buf);
		free(path);
		return -1;
	}
	free(w.buf);
	free(path);
	return 0;
}
