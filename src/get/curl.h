/*
 * curl.h - one transfer through the curl program: spawned with an argument
 * vector (never a shell), the body on a pipe from its stdout, the response
 * headers on a second pipe (--dump-header /dev/fd/3), parsed here.
 */
#ifndef PSKD_CURL_H
#define PSKD_CURL_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/* The final response's status and the headers pskd-get acts on. */
struct pskd_http {
	int		 status;	/* 0: file:// (curl gives no status) */
	int		 final;		/* the final block is complete */
	uint64_t	 length;	/* Content-Length */
	int		 length_known;
	uint64_t	 range_start;	/* Content-Range: bytes a-b/total */
	int		 range_known;
	uint64_t	 range_total;
	int		 range_total_known;
	char		*etag, *lastmod;
	int		 has_location;
	double		 retry_after;	/* seconds, or -1 */
	struct pskd_buf	 line;		/* a line not finished yet */
};

void	pskd_http_init(struct pskd_http *h);
void	pskd_http_free(struct pskd_http *h);
/*
 * Feed n bytes of curl's header dump: blocks for 1xx responses and for
 * redirects curl follows are passed over.  Returns the bytes used, up to
 * the end of the final block (h->final is then set).
 */
size_t	pskd_http_feed(struct pskd_http *h, const char *p, size_t n);

struct pskd_curl {
	pid_t		 pid;
	int		 body;		/* read the body here */
	int		 hdrs;		/* and the headers here */
};

/*
 * Start curl for url, from byte `from` (Range) with If-Range: if_range
 * when not NULL.  Protocols are http, https and file (redirects: http and
 * https, at most 10).  0, or -1 with errno set (ENOENT: no curl).
 */
int	pskd_curl_start(struct pskd_curl *c, const char *url, uint64_t from,
	    const char *if_range, const char *agent);
/*
 * Read the headers up to the final block.  0, or -1 when none came for
 * `stall` seconds (*stalled set) or curl ended first.
 */
int	pskd_curl_headers(struct pskd_curl *c, struct pskd_http *h,
	    double stall, int *stalled);
/* Close the pipes, end curl (SIGTERM) if kill_it, and reap it: its exit
 * status (0 after a kill), or -1 when it died of a signal. */
int	pskd_curl_end(struct pskd_curl *c, int kill_it);
/* A curl exit status in words (NULL when not a known one). */
const char *pskd_curl_strerror(int code);
/* Faults that retrying will not mend (bad URL, host, TLS, protocol). */
int	pskd_curl_permanent(int code);

#endif
