/*
 * gather.h - output gathered from memory that stays put (an mmapped file,
 * a reader's buffer until the next peek) and written with writev(2), so
 * that large pieces go from there to the kernel without a copy.  Small
 * pieces are copied into a staging buffer.  Errors go to the writer's
 * sticky error, so pskd_writer_finish() reports them.
 */
#ifndef PSKD_GATHER_H
#define PSKD_GATHER_H

#include <sys/uio.h>

#include "pskd.h"

#define PSKD_GATHER_IOV	1024

struct pskd_gather {
	struct pskd_writer *w;		/* fd, name, error, total */
	struct iovec	 v[PSKD_GATHER_IOV];
	int		 nv;
	size_t		 bytes;		/* in v */
	unsigned char	*stage;		/* copies of small pieces */
	size_t		 staged;
};

/* Flushes what w holds (a header), then writes through g. */
void	pskd_gather_init(struct pskd_gather *g, struct pskd_writer *w);
/* Queue n bytes at p; p must stay valid until the next flush. */
void	pskd_gather_add(struct pskd_gather *g, const void *p, size_t n);
/* Queue a copy of n bytes at p (p may change as soon as it returns). */
void	pskd_gather_copy(struct pskd_gather *g, const void *p, size_t n);
/* Write everything queued; 0, or -1 with g->w->error set. */
int	pskd_gather_flush(struct pskd_gather *g);
void	pskd_gather_free(struct pskd_gather *g);

#endif /* PSKD_GATHER_H */
