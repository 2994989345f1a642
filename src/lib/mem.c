/* mem.c - allocation that ends the program cleanly when memory runs out. */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"

static _Noreturn void
nomem(size_t n)
{
	pskd_errx(PSKD_EXIT_DATA, "out of memory (%zu bytes)", n);
}

void *
pskd_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		nomem(n);
	return p;
}

/*
 * Fault in the pages of p[0..n) ahead of their first use, in one call
 * rather than a trap a page.  On the virtual machines these programs
 * were measured on, a fresh page costs about 20 us at its first write;
 * faulted in beforehand, about 1 us for the call and 14 at the first
 * write (the host still steps in once).  Only for memory about to be
 * written anyway, and all of it mapped (the pages at either end are taken
 * whole: an allocation's first and last pages are its own or its heap's);
 * best effort, a no-op where the kernel lacks MADV_POPULATE_WRITE (before
 * Linux 5.14).
 */
void
pskd_prefault(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
	static int off;
	static uintptr_t page;
	uintptr_t a, z;

	if (off || n == 0)
		return;
	if (page == 0)
		page = (uintptr_t)sysconf(_SC_PAGESIZE);
	a = (uintptr_t)p & ~(page - 1);
	z = ((uintptr_t)p + n + page - 1) & ~(page - 1);
	if (madvise((void *)a, z - a, MADV_POPULATE_WRITE) == -1 &&
	    (errno == EINVAL || errno == ENOSYS))
		off = 1;
#else
	(void)p;
	(void)n;
#endif
}

void *
pskd_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		nomem(n * size);
	return p;
}

void *
pskd_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		nomem(n);
	return q;
}

void *
pskd_xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		nomem(SIZE_MAX);
	return pskd_xrealloc(p, n * size);
}

char *
pskd_xstrdup(const char *s)
{
	return pskd_xstrndup(s, strlen(s));
}

char *
pskd_xstrndup(const char *s, size_t n)
{
	char *p = pskd_xmalloc(n + 1);

	if (n > 0)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
pskd_xconcat(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *p;

	if (na > SIZE_MAX - nb - 1)
		nomem(SIZE_MAX);
	p = pskd_xmalloc(na + nb + 1);
	memcpy(p, a, na);
	memcpy(p + na, b, nb + 1);
	return p;
}

void
pskd_buf_reserve(struct pskd_buf *b, size_t extra)
{
	size_t need, cap;

	if (extra > SIZE_MAX - b->len)
		nomem(SIZE_MAX);
	need = b->len + extra;
	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	b->p = pskd_xrealloc(b->p, cap);
	b->cap = cap;
}

void
pskd_buf_add(struct pskd_buf *b, const void *p, size_t n)
{
	pskd_buf_reserve(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
pskd_buf_addc(struct pskd_buf *b, unsigned char c)
{
	if (b->len == b->cap)
		pskd_buf_reserve(b, 1);
	b->p[b->len++] = c;
}

void
pskd_buf_free(struct pskd_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
