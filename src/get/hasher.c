/*
 * hasher.c - the running SHA-256 of a shard on a thread of its own: the
 * transfer moves the body from curl's pipe into the file (splice) and says
 * how far it got; this thread maps the new bytes of the file (they are in
 * the page cache) and hashes them there, without a copy, so that hashing
 * and moving bytes overlap.  What it hashed is what is in the file.
 *
 * The hash is the dearest part of a download (a GiB of SHA-256 costs
 * about what curl spends to receive it), and one stream of it runs on one
 * core: this thread does nothing else (pskd_sha256_file maps the file).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pskd.h"
#include "xfer.h"

#define HASH_CHUNK	(1u << 20)	/* wake for at least this much */
#define HASH_MAP	(4u << 20)	/* bytes hashed at a time */
#define HASH_WAIT_NS	20000000L	/* 20 ms */

/* Hash n bytes from offset at; the digest and its length change together. */
static int
hash_more(struct pskd_hasher *hs, uint64_t at, size_t n)
{
	int r;

	pthread_mutex_lock(&hs->hmu);
	r = pskd_sha256_file(hs->h, hs->fd, at, n);
	if (r == 0)
		hs->hashed_h = at + n;
	pthread_mutex_unlock(&hs->hmu);
	return r;
}

static void *
run(void *arg)
{
	struct pskd_hasher *hs = arg;
	uint64_t at, want;

	for (;;) {
		pthread_mutex_lock(&hs->mu);
		while (hs->hashed == hs->target && !hs->stop)
			pthread_cond_wait(&hs->more, &hs->mu);
		/*
		 * Hash in large pieces: a few wake-ups a MiB, not one a write
		 * of curl's; but never let bytes wait long.
		 */
		if (hs->target - hs->hashed < HASH_CHUNK && !hs->stop) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += HASH_WAIT_NS;
			ts.tv_sec += ts.tv_nsec / 1000000000L;
			ts.tv_nsec %= 1000000000L;
			while (hs->target - hs->hashed < HASH_CHUNK &&
			    !hs->stop && pthread_cond_timedwait(&hs->more,
			    &hs->mu, &ts) == 0)
				;
		}
		if (hs->hashed == hs->target || hs->err) {
			pthread_mutex_unlock(&hs->mu);
			break;
		}
		at = hs->hashed;
		want = hs->target - at;
		pthread_mutex_unlock(&hs->mu);
		if (want > HASH_MAP)
			want = HASH_MAP;
		if (hash_more(hs, at, (size_t)want) == -1) {
			pthread_mutex_lock(&hs->mu);
			hs->err = errno;
			pthread_mutex_unlock(&hs->mu);
			break;
		}
		pthread_mutex_lock(&hs->mu);
		hs->hashed = at + want;
		pthread_mutex_unlock(&hs->mu);
	}
	return NULL;
}

void
pskd_hasher_start(struct pskd_hasher *hs, int fd, struct pskd_sha256 *h,
    uint64_t from)
{
	memset(hs, 0, sizeof(*hs));
	hs->fd = fd;
	hs->h = h;
	hs->hashed = hs->hashed_h = hs->target = from;
	pthread_mutex_init(&hs->mu, NULL);
	pthread_mutex_init(&hs->hmu, NULL);
	pthread_cond_init(&hs->more, NULL);
	if ((errno = pthread_create(&hs->th, NULL, run, hs)) != 0)
		pskd_err(PSKD_EXIT_DATA, "pthread_create");
}

void
pskd_hasher_feed(struct pskd_hasher *hs, uint64_t upto)
{
	int wake;

	pthread_mutex_lock(&hs->mu);
	/* Wake it when it is idle, or when a whole chunk is waiting. */
	wake = hs->hashed == hs->target || (hs->target - hs->hashed <
	    HASH_CHUNK && upto - hs->hashed >= HASH_CHUNK);
	hs->target = upto;
	if (wake)
		pthread_cond_signal(&hs->more);
	pthread_mutex_unlock(&hs->mu);
}

uint64_t
pskd_hasher_peek(struct pskd_hasher *hs, char hex[PSKD_SHA256_HEX])
{
	uint64_t n;

	pthread_mutex_lock(&hs->hmu);
	pskd_sha256_peek(hs->h, hex);
	n = hs->hashed_h;
	pthread_mutex_unlock(&hs->hmu);
	return n;
}

int
pskd_hasher_finish(struct pskd_hasher *hs)
{
	int e;

	pthread_mutex_lock(&hs->mu);
	hs->stop = 1;
	pthread_cond_signal(&hs->more);
	pthread_mutex_unlock(&hs->mu);
	pthread_join(hs->th, NULL);
	e = hs->err;
	pthread_mutex_destroy(&hs->mu);
	pthread_mutex_destroy(&hs->hmu);
	pthread_cond_destroy(&hs->more);
	if (e != 0) {
		errno = e;
		return -1;
	}
	return 0;
}
