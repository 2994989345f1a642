/*
 * hash.c - SHA-256 (lib's) of every byte pskd-export writes, on a second
 * thread: the main thread fills a buffer, writes it and hands it over, and
 * fills the next while this one is hashed.  SHA-256 runs at about the speed
 * of the copy to the page cache, so on two cores it costs no time; on one
 * it costs what it would have inline.  Buffers come from a small pool and
 * go back to it once hashed; a file's digest waits for its last buffer.
 * Bytes that stay where they are (the input's window) are hashed there,
 * not copied to a buffer first; a few bytes (an id that llm.c's documents
 * start with) travel in the queue itself, so that they do not hold a
 * buffer of the pool each.  With one CPU to run on (taskset, a
 * cgroup's cpuset), the thread would only add switches: all is hashed
 * inline then.
 */
#define _GNU_SOURCE		/* sched_getaffinity */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "export/export.h"

#define NPOOL	8
#define NQUEUE	(NPOOL + 128)	/* the pool's buffers, and borrowed bytes */

struct xhash {
	struct pskd_sha256 sha;
	unsigned	 pending;	/* buffers queued, not yet hashed */
};

struct job {
	struct xhash	*h;
	const unsigned char *p;
	size_t		 n;
	unsigned char	*buf;		/* the pool's, given back: or NULL */
	int		 copied;	/* the bytes are small[0..n) */
	unsigned char	 small[XHASH_SMALL];
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static unsigned char *freebuf[NPOOL];
static size_t nfree, nmade;
static struct job queue[NQUEUE];
static size_t qhead, qlen;
static uint64_t nqueued, ndone;	/* jobs ever queued, ever hashed */
static int started, threaded;

static void
update(struct xhash *h, const unsigned char *p, size_t n)
{
	pskd_sha256_update(&h->sha, p, n);
}

static void *
worker(void *arg)
{
	struct job j;

	(void)arg;
	pthread_mutex_lock(&mu);
	for (;;) {
		while (qlen == 0)
			pthread_cond_wait(&cv, &mu);
		j = queue[qhead];
		pthread_mutex_unlock(&mu);
		update(j.h, j.copied ? j.small : j.p, j.n);
		pthread_mutex_lock(&mu);
		qhead = (qhead + 1) % NQUEUE;
		qlen--;
		ndone++;
		j.h->pending--;
		if (j.buf != NULL)
			freebuf[nfree++] = j.buf;
		pthread_cond_broadcast(&cv);
	}
	return NULL;
}

static void
start(void)
{
	sigset_t all, old;
	pthread_t t;
	cpu_set_t cpus;

	started = 1;
	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
	    CPU_COUNT(&cpus) == 1)
		return;
	/*
	 * The thread takes no signal: SIGINT and the others reach the main
	 * thread, whose handler removes the temporaries while nothing else
	 * makes new ones.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* Without a thread, everything is hashed inline. */
	threaded = pthread_create(&t, NULL, worker, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (threaded)
		pthread_detach(t);
}

struct xhash *
xhash_new(void)
{
	struct xhash *h = pskd_xcalloc(1, sizeof(*h));

	if (!started)
		start();
	pskd_sha256_init(&h->sha);
	return h;
}

unsigned char *
xhash_buf(void)
{
	unsigned char *p;

	pthread_mutex_lock(&mu);
	while (nfree == 0 && nmade == NPOOL)
		pthread_cond_wait(&cv, &mu);
	if (nfree > 0) {
		p = freebuf[--nfree];
		pthread_mutex_unlock(&mu);
		return p;
	}
	nmade++;
	pthread_mutex_unlock(&mu);
	p = pskd_xmalloc(XBUF);
	pskd_prefault(p, XBUF);
	return p;
}

void
xhash_putbuf(unsigned char *p)
{
	pthread_mutex_lock(&mu);
	freebuf[nfree++] = p;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void
queue_job(struct xhash *h, const unsigned char *p, size_t n,
    unsigned char *buf, int copy)
{
	struct job *j;

	pthread_mutex_lock(&mu);
	while (qlen == NQUEUE)
		pthread_cond_wait(&cv, &mu);
	j = &queue[(qhead + qlen) % NQUEUE];
	*j = (struct job){ h, p, n, buf, copy, { 0 } };
	if (copy)
		memcpy(j->small, p, n);
	qlen++;
	nqueued++;
	h->pending++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

void
xhash_add(struct xhash *h, unsigned char *p, size_t n)
{
	if (!threaded) {
		update(h, p, n);
		xhash_putbuf(p);
		return;
	}
	queue_job(h, p, n, p, 0);
}

/* Bytes that are not the pool's: hashed where they are, or copied. */
static void
give(struct xhash *h, const unsigned char *p, size_t n, int copy)
{
	if (!threaded)
		update(h, p, n);
	else
		queue_job(h, p, n, NULL, copy);
}

void
xhash_borrow(struct xhash *h, const unsigned char *p, size_t n)
{
	give(h, p, n, 0);
}

void
xhash_copy(struct xhash *h, const unsigned char *p, size_t n)
{
	give(h, p, n, 1);
}

void
xhash_drain(void)
{
	pthread_mutex_lock(&mu);
	while (qlen > 0)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

uint64_t
xhash_ticket(void)
{
	uint64_t t;

	pthread_mutex_lock(&mu);
	t = nqueued;
	pthread_mutex_unlock(&mu);
	return t;
}

void
xhash_wait(uint64_t ticket)
{
	pthread_mutex_lock(&mu);
	while (ndone < ticket)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

void
xhash_end(struct xhash *h, char hex[65])
{
	pthread_mutex_lock(&mu);
	while (h->pending > 0)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	pskd_sha256_peek(&h->sha, hex);
	pskd_sha256_free(&h->sha);
	free(h);
}
