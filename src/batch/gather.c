/* gather.c - writev(2) output of pieces that stay in place; see gather.h. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gather.h"

#define SMALL	512		/* pieces below this are copied */
#define STAGE	(1u << 20)
#define FLUSH_BYTES	(4u << 20)

void
pskd_gather_init(struct pskd_gather *g, struct pskd_writer *w)
{
	memset(g, 0, sizeof(*g));
	g->w = w;
	g->stage = pskd_xmalloc(STAGE);
	(void)pskd_writer_flush(w);
}

/* Copy n bytes (at most STAGE) into the stage, after what is queued. */
static void
stage_copy(struct pskd_gather *g, const void *p, size_t n)
{
	struct iovec *last;

	if (g->staged + n > STAGE && pskd_gather_flush(g) == -1)
		return;
	last = g->nv ? &g->v[g->nv - 1] : NULL;
	memcpy(g->stage + g->staged, p, n);
	if (last != NULL && (unsigned char *)last->iov_base + last->iov_len ==
	    g->stage + g->staged)
		last->iov_len += n;
	else {
		g->v[g->nv].iov_base = g->stage + g->staged;
		g->v[g->nv++].iov_len = n;
	}
	g->staged += n;
}

static void
queued(struct pskd_gather *g, size_t n)
{
	g->bytes += n;
	if (g->nv == PSKD_GATHER_IOV || g->bytes >= FLUSH_BYTES)
		(void)pskd_gather_flush(g);
}

void
pskd_gather_add(struct pskd_gather *g, const void *p, size_t n)
{
	struct iovec *last = g->nv ? &g->v[g->nv - 1] : NULL;

	g->w->total += n;
	if (g->w->error || n == 0)
		return;
	if (n < SMALL)
		stage_copy(g, p, n);
	else if (last != NULL && (const unsigned char *)last->iov_base +
	    last->iov_len == (const unsigned char *)p)
		last->iov_len += n;	/* contiguous with the last piece */
	else {
		g->v[g->nv].iov_base = (void *)(uintptr_t)p;
		g->v[g->nv++].iov_len = n;
	}
	queued(g, n);
}

void
pskd_gather_copy(struct pskd_gather *g, const void *p, size_t n)
{
	g->w->total += n;
	if (g->w->error || n == 0)
		return;
	if (n > STAGE) {	/* too big to stage: what is queued, then it */
		if (pskd_gather_flush(g) == 0 &&
		    pskd_write_all(g->w->fd, p, n) == -1)
			g->w->error = errno;
		return;
	}
	stage_copy(g, p, n);
	queued(g, n);
}

int
pskd_gather_flush(struct pskd_gather *g)
{
	struct iovec *v = g->v;
	int nv = g->nv;
	ssize_t k;

	g->nv = 0;
	g->bytes = 0;
	g->staged = 0;
	if (g->w->error)
		return -1;
	while (nv > 0) {
		k = writev(g->w->fd, v, nv);	/* nv <= 1024, Linux's IOV_MAX */
		if (k == -1) {
			if (errno == EINTR)
				continue;
			g->w->error = errno;
			return -1;
		}
		while (nv > 0 && (size_t)k >= v->iov_len) {
			k -= (ssize_t)v->iov_len;
			v++;
			nv--;
		}
		if (nv > 0) {
			v->iov_base = (unsigned char *)v->iov_base + k;
			v->iov_len -= (size_t)k;
		}
	}
	return 0;
}

void
pskd_gather_free(struct pskd_gather *g)
{
	free(g->stage);
	g->stage = NULL;
}
