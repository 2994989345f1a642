/*
 * curl.c - one request through the curl program, and the parser of the
 * headers it dumps.  The argument vector is fixed here: -q first (no
 * .curlrc), globbing off, protocols limited, redirects not followed (the
 * caller follows them, hop by hop, with the URL curl resolved); the URL and
 * the request headers come on curl's standard input as a config.  A
 * request holds two descriptors here while it runs (pskd_curl_fds).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "pskd.h"
#include "curl.h"
#include "manifest.h"

extern char **environ;

void
pskd_http_init(struct pskd_http *h)
{
	memset(h, 0, sizeof(*h));
	h->retry_after = -1;
}

/* Forget a block (a 1xx's) but keep the line buffer. */
static void
reset(struct pskd_http *h)
{
	struct pskd_buf line = h->line;

	free(h->etag);
	free(h->lastmod);
	free(h->linked_etag);
	pskd_http_init(h);
	h->line = line;
}

void
pskd_http_free(struct pskd_http *h)
{
	free(h->etag);
	free(h->lastmod);
	free(h->linked_etag);
	pskd_buf_free(&h->line);
	pskd_http_init(h);
}

/* A header's value that is a whole number, all of it. */
static int
number(const char *v, uint64_t *n)
{
	return pskd_get_u64(v, strlen(v), n);
}

static void
retry_after(struct pskd_http *h, const char *v)
{
	struct tm tm;
	const char *e;
	uint64_t s;
	time_t when;

	memset(&tm, 0, sizeof(tm));
	if (number(v, &s) == 0)
		h->retry_after = s > 600 ? 600 : (double)s;
	else if ((e = strptime(v, "%a, %d %b %Y %H:%M:%S GMT", &tm)) !=
	    NULL && *e == '\0') {
		/* An HTTP-date: wait until then (at most 600 s). */
		when = timegm(&tm) - time(NULL);
		h->retry_after = when < 0 ? 0 : when > 600 ? 600 :
		    (double)when;
	}
}

/* Content-Range: "bytes FIRST-LAST/TOTAL" (or a star for the range). */
static void
content_range(struct pskd_http *h, const char *v)
{
	const char *dash, *slash;
	uint64_t last;

	if (strncasecmp(v, "bytes ", 6) != 0)
		return;
	v += 6;
	if ((slash = strchr(v, '/')) == NULL)
		return;
	dash = memchr(v, '-', (size_t)(slash - v));
	if (slash - v == 1 && *v == '*')
		;
	else if (dash != NULL && pskd_get_u64(v, (size_t)(dash - v),
	    &h->range_start) == 0 && pskd_get_u64(dash + 1,
	    (size_t)(slash - dash - 1), &last) == 0 && last >= h->range_start)
		h->range_known = 1;
	else
		return;
	h->range_total_known = number(slash + 1, &h->range_total) == 0;
}

/* 32 bytes of base64 (with its one '=' of padding) as hex, or "". */
static void
base64_sha(const char *v, size_t n, char hex[PSKD_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[33];
	uint32_t acc = 0;
	size_t i, bits = 0, k = 0;
	const char *p;

	hex[0] = '\0';
	if (n != 44 || v[43] != '=' || v[42] == '=')
		return;
	for (i = 0; i < 43; i++) {
		static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789+/";

		if (v[i] == '\0' || (p = strchr(b64, v[i])) == NULL)
			return;
		acc = acc << 6 | (uint32_t)(p - b64);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			md[k++] = (unsigned char)(acc >> bits);
		}
	}
	if (k != 32)
		return;
	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

/*
 * The sha-256 member of a digest header: Repr-Digest (RFC 9530, a
 * dictionary: sha-256=:BASE64:) or Digest (RFC 3230: SHA-256=BASE64).
 */
static void
digest(const char *v, int structured, char hex[PSKD_SHA256_HEX])
{
	const char *key = "sha-256=";
	size_t n;

	while (*v) {
		v += strspn(v, " \t,");
		n = strcspn(v, ",");
		if (n > 8 && strncasecmp(v, key, 8) == 0) {
			if (!structured)
				base64_sha(v + 8, n - 8, hex);
			else if (n > 10 && v[8] == ':' && v[n - 1] == ':')
				base64_sha(v + 9, n - 10, hex);
			return;
		}
		v += n;
	}
}

/* X-Linked-Etag: the content's ETag at the hub; a sha256 for LFS files. */
static void
linked_etag(struct pskd_http *h, const char *v)
{
	const char *e = v;
	size_t n;

	free(h->linked_etag);
	h->linked_etag = pskd_xstrdup(v);
	h->linked_sha[0] = '\0';
	if (strncmp(e, "W/", 2) == 0)
		return;			/* a weak ETag names no bytes */
	n = strlen(e);
	if (n == 66 && e[0] == '"' && e[65] == '"') {
		e++;
		n = 64;
	}
	if (pskd_sha256_valid(e, n)) {
		for (n = 0; n < 64; n++)
			h->linked_sha[n] = (char)(e[n] | 0x20);
		h->linked_sha[64] = '\0';
	}
}

/* One header line, NUL-terminated, without its '\n'. */
static void
header_line(struct pskd_http *h, char *line)
{
	char *colon, *v;
	size_t n;

	n = strlen(line);
	while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
		line[--n] = '\0';
	if (strncmp(line, "HTTP/", 5) == 0) {
		reset(h);
		v = strchr(line, ' ');
		h->status = v ? atoi(v + 1) : 0;
		if (h->status < 100 || h->status > 999)
			h->status = 999;
		return;
	}
	if ((colon = strchr(line, ':')) == NULL)
		return;
	*colon = '\0';
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	if (strcasecmp(line, "content-length") == 0) {
		h->length_known = number(v, &h->length) == 0;
	} else if (strcasecmp(line, "content-range") == 0) {
		content_range(h, v);
	} else if (strcasecmp(line, "etag") == 0) {
		free(h->etag);
		h->etag = pskd_xstrdup(v);
	} else if (strcasecmp(line, "last-modified") == 0) {
		free(h->lastmod);
		h->lastmod = pskd_xstrdup(v);
	} else if (strcasecmp(line, "location") == 0) {
		h->has_location = 1;
	} else if (strcasecmp(line, "retry-after") == 0) {
		retry_after(h, v);
	} else if (strcasecmp(line, "x-linked-etag") == 0) {
		linked_etag(h, v);
	} else if (strcasecmp(line, "x-linked-size") == 0) {
		h->linked_size_known = number(v, &h->linked_size) == 0;
	} else if (strcasecmp(line, "repr-digest") == 0) {
		digest(v, 1, h->repr_sha);
	} else if (strcasecmp(line, "digest") == 0)
		digest(v, 0, h->digest_sha);
}

size_t
pskd_http_feed(struct pskd_http *h, const char *p, size_t n)
{
	size_t i;

	/* Byte by byte: headers are small, the body never comes here. */
	for (i = 0; i < n && !h->final; i++) {
		if (p[i] != '\n') {
			if (p[i] != '\0')
				pskd_buf_addc(&h->line, (unsigned char)p[i]);
			continue;
		}
		pskd_buf_addc(&h->line, '\0');
		if (h->line.p[0] == '\0' || (h->line.p[0] == '\r' &&
		    h->line.p[1] == '\0')) {
			/* The end of a block: the response's, or a 1xx's? */
			if (!(h->status >= 100 && h->status < 200))
				h->final = 1;
		} else
			header_line(h, (char *)h->line.p);
		h->line.len = 0;
	}
	return i;
}

void
pskd_curl_config(struct pskd_buf *b, const char *name, const char *v)
{
	pskd_buf_add(b, name, strlen(name));
	pskd_buf_add(b, " = \"", 4);
	for (; *v; v++) {
		switch (*v) {
		case '"': pskd_buf_add(b, "\\\"", 2); break;
		case '\\': pskd_buf_add(b, "\\\\", 2); break;
		case '\t': pskd_buf_add(b, "\\t", 2); break;
		case '\n': pskd_buf_add(b, "\\n", 2); break;
		case '\r': pskd_buf_add(b, "\\r", 2); break;
		case '\v': pskd_buf_add(b, "\\v", 2); break;
		default: pskd_buf_addc(b, (unsigned char)*v);
		}
	}
	pskd_buf_add(b, "\"\n", 2);
}

/*
 * curl's environment: pskd-get's without HF_TOKEN, which curl does not
 * need and which then cannot reach a process that does not need it.
 */
static char **curl_env;
static pthread_once_t curl_env_once = PTHREAD_ONCE_INIT;

static void
make_curl_env(void)
{
	size_t n = 0, k = 0;

	while (environ[n] != NULL)
		n++;
	curl_env = pskd_xcalloc(n + 1, sizeof(*curl_env));
	for (n = 0; environ[n] != NULL; n++)
		if (strncmp(environ[n], "HF_TOKEN=", 9) != 0)
			curl_env[k++] = environ[n];
}

/*
 * Starts of curl take turns: the descriptors a start needs besides the
 * two it keeps (the config and the child's ends of the pipes) are then
 * open for one job at a time, which is what pskd_curl_fds counts on.
 */
static pthread_mutex_t start_mu = PTHREAD_MUTEX_INITIALIZER;

/* The config as a file in memory, read from its start; -1 with errno. */
static int
config_file(const struct pskd_buf *cfg)
{
	int fd = memfd_create("pskd-get-curl-config", MFD_CLOEXEC), e;

	if (fd == -1)
		return -1;
	if (pskd_write_all(fd, cfg->p, cfg->len) == -1 ||
	    lseek(fd, 0, SEEK_SET) == -1) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int
pskd_curl_start(struct pskd_curl *c, const char *url, uint64_t from,
    const char *if_range, const struct pskd_buf *extra)
{
	/*
	 * Fixed settings only: the URL and headers go on curl's standard
	 * input as a config (--config -), never in an argument vector, where
	 * any user could read them and where a long URL would not fit.  The
	 * header dump (fd 3) and curl's stderr are one pipe: --silent keeps
	 * stderr for the write-out, the redirect's URL, which comes after
	 * the headers, at the end of the transfer.
	 */
	static char *const argv[] = {
		"curl", "-q",		/* first: never read a .curlrc */
		"--config", "-", "--silent", "--no-buffer", "--globoff",
		"--proto", "=http,https,file", "--connect-timeout", "30",
		"--dump-header", "/dev/fd/3",
		"--write-out", "%{stderr}%{redirect_url}", NULL
	};
	posix_spawn_file_actions_t fa;
	struct pskd_buf cfg = { NULL, 0, 0 };
	char range[32], *ifr;
	int bp[2] = { -1, -1 }, hp[2] = { -1, -1 }, cf = -1, e, i;

	pthread_once(&curl_env_once, make_curl_env);
	if (from > 0) {
		snprintf(range, sizeof(range), "%llu-",
		    (unsigned long long)from);
		pskd_curl_config(&cfg, "range", range);
		if (if_range != NULL) {
			ifr = pskd_xmalloc(strlen(if_range) + 16);
			sprintf(ifr, "If-Range: %s", if_range);
			pskd_curl_config(&cfg, "header", ifr);
			free(ifr);
		}
	}
	if (extra != NULL && extra->len > 0)
		pskd_buf_add(&cfg, extra->p, extra->len);
	pskd_curl_config(&cfg, "url", url);

	pthread_mutex_lock(&start_mu);
	/* Close-on-exec, so a curl started by another thread gets none. */
	if ((cf = config_file(&cfg)) == -1 || pipe2(bp, O_CLOEXEC) == -1 ||
	    pipe2(hp, O_CLOEXEC) == -1) {
		e = errno;
		goto fail;
	}
	pskd_pipe_grow(bp[0]);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, cf, 0);
	posix_spawn_file_actions_adddup2(&fa, bp[1], 1);
	posix_spawn_file_actions_adddup2(&fa, hp[1], 2);
	posix_spawn_file_actions_adddup2(&fa, hp[1], 3);
	e = posix_spawnp(&c->pid, "curl", &fa, NULL, argv, curl_env);
	posix_spawn_file_actions_destroy(&fa);
	if (e != 0)
		goto fail;
	close(cf);
	close(bp[1]);
	close(hp[1]);
	pthread_mutex_unlock(&start_mu);
	c->body = bp[0];
	c->hdrs = hp[0];
	memset(&c->rest, 0, sizeof(c->rest));
	pskd_buf_free(&cfg);
	return 0;
fail:
	if (cf != -1)
		close(cf);
	for (i = 0; i < 2; i++) {
		if (bp[i] != -1)
			close(bp[i]);
		if (hp[i] != -1)
			close(hp[i]);
	}
	pthread_mutex_unlock(&start_mu);
	pskd_buf_free(&cfg);
	errno = e;
	return -1;
}

int
pskd_curl_headers(struct pskd_curl *c, struct pskd_http *h, double stall,
    int *stalled)
{
	struct pollfd pfd = { c->hdrs, POLLIN, 0 };
	char buf[4096];
	ssize_t got;
	int r;

	size_t used;

	*stalled = 0;
	pskd_http_init(h);
	while (!h->final) {
		r = poll(&pfd, 1, (int)(stall * 1000));
		if (r == -1 && errno == EINTR)
			continue;
		if (r == 0)
			*stalled = 1;
		if (r <= 0)
			break;
		got = read(c->hdrs, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		used = pskd_http_feed(h, buf, (size_t)got);
		/* After the headers: the start of the write-out. */
		pskd_buf_add(&c->rest, buf + used, (size_t)got - used);
	}
	return h->final ? 0 : -1;
}

/* Read fd to its end (at most max bytes) into b; -1 on a stall or more. */
static int
read_to_end(int fd, struct pskd_buf *b, size_t max, double stall)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	char buf[16384];
	ssize_t got;
	int r;

	for (;;) {
		r = poll(&pfd, 1, (int)(stall * 1000));
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got == 0 ? 0 : -1;
		if (b != NULL) {
			if (b->len + (size_t)got > max)
				return -1;
			pskd_buf_add(b, buf, (size_t)got);
		} else if (max < (size_t)got) {
			return -1;
		} else
			max -= (size_t)got;
	}
}

char *
pskd_curl_redirect(struct pskd_curl *c, double stall)
{
	struct pskd_buf b = { NULL, 0, 0 };
	char *url = NULL;

	/* A redirect's body is small; one that does not end is a fault. */
	pskd_buf_add(&b, c->rest.p, c->rest.len);
	if (read_to_end(c->body, NULL, 1u << 20, stall) == 0 &&
	    read_to_end(c->hdrs, &b, 65536, stall) == 0 && b.len > 0 &&
	    memchr(b.p, '\0', b.len) == NULL)
		url = pskd_xstrndup((const char *)b.p, b.len);
	pskd_buf_free(&b);
	return url;
}

int
pskd_curl_end(struct pskd_curl *c, int kill_it)
{
	int st;

	if (c->hdrs != -1)
		close(c->hdrs);
	if (c->body != -1)
		close(c->body);
	c->hdrs = c->body = -1;
	pskd_buf_free(&c->rest);
	if (kill_it)
		kill(c->pid, SIGTERM);
	while (waitpid(c->pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return kill_it ? 0 : -1;
}

const char *
pskd_curl_strerror(int code)
{
	switch (code) {
	case 1: return "unsupported protocol (after a redirect?)";
	case 3: return "malformed URL";
	case 5: case 6: return "cannot resolve the host";
	case 7: return "cannot connect";
	case 18: return "connection closed before the end";
	case 28: return "timed out";
	case 35: return "TLS handshake failed";
	case 36: return "cannot resume (offset past the end)";
	case 37: return "cannot read the file";
	case 47: return "too many redirects";
	case 52: return "empty reply from the server";
	case 55: return "send failed";
	case 56: return "connection reset";
	case 60: return "TLS certificate not trusted";
	default: return NULL;
	}
}

int
pskd_curl_permanent(int code)
{
	return code == 1 || code == 3 || code == 5 || code == 6 ||
	    code == 35 || code == 37 || code == 47 || code == 60;
}
