/* psk.c - the .psk.d container: header, random access file, streaming sink. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"

#define FIXED	10	/* magic, version, type_len */

uint64_t
pskd_header_count_offset(size_t type_len)
{
	return FIXED + (uint64_t)type_len;
}

static int
magic_ok(const unsigned char *p, size_t n, struct pskd_error *e)
{
	size_t k = n < 4 ? n : 4;

	if (n == 0) {
		pskd_error_set(e, PSKD_E_MAGIC,
		    "not a .psk.d file (empty input)");
		return 0;
	}
	if (memcmp(p, PSKD_MAGIC, k) != 0) {
		/* Name the kinds of stream a pipe most often gets wrong. */
		const char *what = "no PSKD magic";

		if (p[0] == '{')
			what = "JSON Lines documents: pskd-tok makes token "
			    "streams of them";
		else if (n >= 4 && memcmp(p, "PSKF", 4) == 0)
			what = "a dedup frame stream: pskd-lsh turns it back "
			    "into documents";
		else if (n >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
			what = "zstd-compressed: pipe it through pskd-unzst";
		else if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
			what = "gzip-compressed: pipe it through pskd-unzst";
		pskd_error_set(e, PSKD_E_MAGIC, "not a .psk.d file (%s)", what);
		return 0;
	}
	return 1;
}

int
pskd_header_parse(struct pskd_header *h, const unsigned char *p, size_t n,
    struct pskd_error *e)
{
	uint32_t tlen, nleaves;
	size_t off;

	memset(h, 0, sizeof(*h));
	if (!magic_ok(p, n, e))
		return -1;
	if (n < FIXED) {
		pskd_error_set(e, PSKD_E_TRUNC, "truncated header (%zu bytes)",
		    n);
		return -1;
	}
	h->version = pskd_get_le16(p + 4);
	if (h->version != 1 && h->version != 2) {
		pskd_error_set(e, PSKD_E_MAGIC,
		    "unsupported .psk.d version %u", h->version);
		return -1;
	}
	tlen = pskd_get_le32(p + 6);
	if ((uint64_t)n - FIXED < (uint64_t)tlen + 8) {
		pskd_error_set(e, PSKD_E_TRUNC,
		    "truncated header (type of %u bytes, %zu bytes in all)",
		    tlen, n);
		return -1;
	}
	if (tlen > PSKD_HEADER_MAX_TYPE) {
		pskd_error_set(e, PSKD_E_TYPE, "type text of %u bytes is too long",
		    tlen);
		return -1;
	}
	if (pskd_type_parse(&h->type, (const char *)p + FIXED, tlen, e) == -1)
		return -1;
	off = FIXED + tlen;
	h->count = pskd_get_le64(p + off);
	off += 8;
	if (h->version == 2) {
		if (n - off < 4) {
			pskd_error_set(e, PSKD_E_TRUNC,
			    "truncated header (leaf encodings)");
			return -1;
		}
		nleaves = pskd_get_le32(p + off);
		off += 4;
		if (n - off < nleaves) {
			pskd_error_set(e, PSKD_E_TRUNC,
			    "truncated header (%u leaf encodings)", nleaves);
			return -1;
		}
		if (pskd_type_set_codes(&h->type, p + off, nleaves, e) == -1)
			return -1;
		off += nleaves;
		if (!pskd_type_narrow(&h->type)) {
			pskd_error_set(e, PSKD_E_MAGIC,
			    "version 2 header with no narrow leaf");
			return -1;
		}
	}
	h->size = off;
	return 0;
}

static void
unfinished(struct pskd_error *e)
{
	pskd_error_set(e, PSKD_E_TRUNC, "unfinished stream: the count was "
	    "never written (a writer did not finish)");
}

int
pskd_header_read(struct pskd_header *h, struct pskd_reader *r,
    struct pskd_error *e)
{
	const unsigned char *p;
	struct stat st;
	ssize_t got;
	uint64_t need;
	int rc;

	got = pskd_reader_peek(r, FIXED, &p);
	if (got < 0)
		goto ioerr;
	if ((size_t)got < FIXED)
		return pskd_header_parse(h, p, (size_t)got, e);
	need = FIXED + (uint64_t)pskd_get_le32(p + 6) + 8 + 4;
	if (need > FIXED + PSKD_HEADER_MAX_TYPE + 12)
		need = FIXED + PSKD_HEADER_MAX_TYPE + 12;
	got = pskd_reader_peek(r, (size_t)need, &p);
	if (got < 0)
		goto ioerr;
	if (pskd_get_le32(p + 6) > PSKD_HEADER_MAX_TYPE && (size_t)got >= need &&
	    magic_ok(p, (size_t)got, e)) {
		pskd_error_set(e, PSKD_E_TYPE, "type text of %u bytes is too long",
		    pskd_get_le32(p + 6));
		return -1;
	}
	if (got >= FIXED && pskd_get_le16(p + 4) == 2 &&
	    (size_t)got >= need) {
		/* Version 2: the leaf codes follow the count. */
		uint64_t nl = pskd_get_le32(p + need - 4);

		if (nl <= 1u << 20)
			got = pskd_reader_peek(r, (size_t)(need + nl), &p);
		if (got < 0)
			goto ioerr;
	}
	rc = pskd_header_parse(h, p, (size_t)got, e);
	if (rc == 0 && h->count == PSKD_COUNT_STREAM && !h->type.params &&
	    fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		/* Only a pipe may carry the streaming count; a file that still
		 * has it was left by a writer that did not finish. */
		pskd_header_free(h);
		unfinished(e);
		return -1;
	}
	if (rc == 0)
		pskd_reader_skip(r, (size_t)h->size);
	return rc;
ioerr:
	pskd_error_set(e, 0, "%s", strerror(errno));
	return -1;
}

void
pskd_header_free(struct pskd_header *h)
{
	pskd_type_free(&h->type);
}

void
pskd_header_encode(struct pskd_buf *b, const struct pskd_type *t,
    uint64_t count)
{
	unsigned char tmp[8];
	size_t tlen = strlen(t->text), i;
	int v2 = pskd_type_narrow(t);

	pskd_buf_add(b, PSKD_MAGIC, 4);
	pskd_put_le16(tmp, v2 ? 2 : 1);
	pskd_buf_add(b, tmp, 2);
	pskd_put_le32(tmp, (uint32_t)tlen);
	pskd_buf_add(b, tmp, 4);
	pskd_buf_add(b, t->text, tlen);
	pskd_put_le64(tmp, count);
	pskd_buf_add(b, tmp, 8);
	if (v2) {
		pskd_put_le32(tmp, (uint32_t)t->nleaves);
		pskd_buf_add(b, tmp, 4);
		for (i = 0; i < t->nleaves; i++)
			pskd_buf_addc(b, (unsigned char)t->leaves[i].enc);
	}
}

int
pskd_file_open(struct pskd_file *f, const char *path, struct pskd_error *e)
{
	struct stat st;
	uint64_t data, want;
	void *m;
	int fd;

	memset(f, 0, sizeof(*f));
	f->name = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1) {
		pskd_error_set(e, 0, "%s", strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		pskd_error_set(e, 0, "not a regular file (random access "
		    "needs a file, not a pipe)");
		return -1;
	}
	if (st.st_size == 0) {
		close(fd);
		return pskd_header_parse(&f->h, NULL, 0, e);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		pskd_error_set(e, 0, "mmap: %s", strerror(errno));
		return -1;
	}
	f->map = m;
	f->mapsize = (size_t)st.st_size;
	if (pskd_header_parse(&f->h, f->map, f->mapsize, e) == -1)
		goto fail;
	f->data = f->map + f->h.size;
	if (f->h.type.params)
		return 0;
	data = f->mapsize - f->h.size;
	if (f->h.count == PSKD_COUNT_STREAM) {
		unfinished(e);
		goto fail;
	}
	if (f->h.count > UINT64_MAX / f->h.type.sample_size) {
		pskd_error_set(e, PSKD_E_TRUNC, "count %llu x sample size %llu "
		    "overflows 64 bits", (unsigned long long)f->h.count,
		    (unsigned long long)f->h.type.sample_size);
		goto fail;
	}
	want = f->h.count * f->h.type.sample_size;
	if (data < want) {
		pskd_error_set(e, PSKD_E_TRUNC, "truncated at sample %llu "
		    "(%llu samples declared)",
		    (unsigned long long)(data / f->h.type.sample_size),
		    (unsigned long long)f->h.count);
		goto fail;
	}
	if (data > want) {
		pskd_error_set(e, PSKD_E_MAGIC, "%llu bytes after the last "
		    "sample", (unsigned long long)(data - want));
		goto fail;
	}
	if (want > 0)
		(void)madvise(f->map, f->mapsize, MADV_RANDOM);
	return 0;
fail:
	pskd_file_close(f);
	return -1;
}

void
pskd_file_close(struct pskd_file *f)
{
	if (f->map != NULL)
		munmap(f->map, f->mapsize);
	f->map = NULL;
	pskd_header_free(&f->h);
}

void
pskd_sink_init(struct pskd_sink *s, int fd, const char *name,
    const struct pskd_type *t, uint64_t count)
{
	struct pskd_buf b = { 0 };
	struct stat st;
	off_t off;

	memset(s, 0, sizeof(*s));
	pskd_writer_init(&s->w, fd, name);
	s->known = count != PSKD_COUNT_STREAM;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (off = lseek(fd, 0, SEEK_CUR)) != -1) {
		s->seekable = 1;
		s->header_off = (uint64_t)off;
	}
	pskd_header_encode(&b, t, count);
	s->header_off += pskd_header_count_offset(strlen(t->text));
	pskd_writer_write(&s->w, b.p, b.len);
	pskd_buf_free(&b);
}

int
pskd_sink_finish(struct pskd_sink *s)
{
	unsigned char tmp[8];
	int flags;
	ssize_t n;

	if (pskd_writer_flush(&s->w) == -1) {
		errno = s->w.error;
		return -1;
	}
	if (!s->seekable)
		return 0;
	/* pwrite(2) ignores the offset under O_APPEND on Linux. */
	flags = fcntl(s->w.fd, F_GETFL);
	if (flags != -1 && (flags & O_APPEND))
		(void)fcntl(s->w.fd, F_SETFL, flags & ~O_APPEND);
	pskd_put_le64(tmp, s->count);
	do
		n = pwrite(s->w.fd, tmp, 8, (off_t)s->header_off);
	while (n == -1 && errno == EINTR);
	if (flags != -1 && (flags & O_APPEND))
		(void)fcntl(s->w.fd, F_SETFL, flags);
	if (n != 8) {
		if (n >= 0)
			errno = EIO;
		s->w.error = errno;
		return -1;
	}
	return 0;
}
