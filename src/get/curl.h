/*
 * curl.h - one request through the curl program: spawned with a fixed
 * argument vector (never a shell), the URL and headers on its standard
 * input as a config, the body on a pipe from its stdout, the response
 * headers on a second pipe (--dump-header /dev/fd/3), parsed here, and
 * after them on the same pipe (curl's stderr) the write-out.  curl
 * does not follow redirects: pskd-get does, one request a hop, so that it
 * decides what each host is sent.
 */
#ifndef PSKD_CURL_H
#define PSKD_CURL_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "sha256.h"

/* The response's status and the headers pskd-get acts on. */
struct pskd_http {
	int		 status;	/* 0: file:// (curl gives no status) */
	int		 final;		/* the response's block is complete */
	uint64_t	 length;	/* Content-Length */
	int		 length_known;
	uint64_t	 range_start;	/* Content-Range: bytes a-b/total */
	int		 range_known;
	uint64_t	 range_total;
	int		 range_total_known;
	char		*etag, *lastmod;
	int		 has_location;
	double		 retry_after;	/* seconds, or -1 */
	/* What a hub says of the content behind its redirect. */
	char		*linked_etag;	/* X-Linked-Etag, as sent */
	uint64_t	 linked_size;	/* X-Linked-Size */
	int		 linked_size_known;
	/* A sha256 of the whole content the server announces, as hex. */
	char		 linked_sha[PSKD_SHA256_HEX];	/* X-Linked-Etag */
	char		 repr_sha[PSKD_SHA256_HEX];	/* Repr-Digest */
	char		 digest_sha[PSKD_SHA256_HEX];	/* Digest (RFC 3230) */
	struct pskd_buf	 line;		/* a line not finished yet */
};

void	pskd_http_init(struct pskd_http *h);
void	pskd_http_free(struct pskd_http *h);
/*
 * Feed n bytes of curl's header dump: blocks for 1xx responses are passed
 * over.  Returns the bytes used, up to the end of the response's block
 * (h->final is then set).
 */
size_t	pskd_http_feed(struct pskd_http *h, const char *p, size_t n);

struct pskd_curl {
	pid_t		 pid;
	int		 body;		/* read the body here */
	int		 hdrs;		/* the headers, then the redirect's URL */
	struct pskd_buf	 rest;		/* read from hdrs after the headers */
};

/*
 * Descriptors: a running request holds 2 (body, hdrs); one start at a time
 * holds PSKD_CURL_START_FDS more while it spawns curl.
 */
#define PSKD_CURL_FDS		2
#define PSKD_CURL_START_FDS	3

/* Append `name = "value"` to a curl config, quoted as curl reads it. */
void	pskd_curl_config(struct pskd_buf *b, const char *name, const char *v);
/*
 * Start curl for url, from byte `from` (Range) with If-Range: if_range
 * when not NULL, the config lines of extra after pskd-get's own.
 * Protocols are http, https and file.  0, or -1 with errno set (ENOENT:
 * no curl).
 */
int	pskd_curl_start(struct pskd_curl *c, const char *url, uint64_t from,
	    const char *if_range, const struct pskd_buf *extra);
/*
 * Read the headers up to the response's block.  0, or -1 when none came
 * for `stall` seconds (*stalled set) or curl ended first.
 */
int	pskd_curl_headers(struct pskd_curl *c, struct pskd_http *h,
	    double stall, int *stalled);
/*
 * After a 3xx: read its body to the end and return the absolute URL of
 * the redirect as curl resolved it (malloc'd), or NULL.
 */
char	*pskd_curl_redirect(struct pskd_curl *c, double stall);
/* Close the pipes, end curl (SIGTERM) if kill_it, and reap it: its exit
 * status (0 after a kill), or -1 when it died of a signal. */
int	pskd_curl_end(struct pskd_curl *c, int kill_it);
/* A curl exit status in words (NULL when not a known one). */
const char *pskd_curl_strerror(int code);
/* Faults that retrying will not mend (bad URL, host, TLS, protocol). */
int	pskd_curl_permanent(int code);

#endif
