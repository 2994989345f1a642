/*
 * xfer.c - one attempt at a shard: requests through curl, one a hop,
 * following redirects here (so that credentials go to the hosts allowed
 * and a hub's announcements are seen), then the final response judged and
 * its body taken (body.c).
 *
 * Each hop is sent Range from the bytes held.  If-Range carries the
 * validator of those bytes: the content's (the hub's X-Linked-Etag, else
 * the ETag) on the list's URL and on plain redirects; on a URL reused
 * after a fault, the one its own server gave; none after a hub announced
 * its linked ETag, which is compared instead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pskd.h"
#include "curl.h"
#include "xfer.h"

#define MAX_HOPS	10

/* What the hops before the final response said. */
struct chain {
	char		*linked_etag;	/* a hub's X-Linked-Etag */
	char		 linked_sha[PSKD_SHA256_HEX];
	uint64_t	 linked_size;
	int		 linked_size_known;
	int		 reused;	/* started at x->again_url */
	int		 hops;		/* redirects followed */
};

static const char changed[] = "the remote file changed during the transfer";

/* A header value pskd-get may keep and record, or NULL. */
static char *
keepable(char *v)
{
	return v != NULL && pskd_record_text_ok(v) ? v : NULL;
}

static void
replace(char **to, const char *from)
{
	free(*to);
	*to = from ? pskd_xstrdup(from) : NULL;
}

/* A 200 to a request from byte `from` > 0. */
static enum pskd_xfer_outcome
whole_again(struct pskd_xfer *x, const char *validator, uint64_t from)
{
	if (x->fd != -1) {
		if (x->g->opt->resume_only)
			return XFER_RESTART;
		return pskd_xfer_rewind(x) == -1 ? XFER_FAIL : XFER_DONE;
	}
	/* stdout cannot rewind: drop what we have. */
	if (x->etag && validator && strcmp(x->etag, validator) != 0) {
		x->why = changed;
		return XFER_FAIL;
	}
	x->skip = from;
	pskd_sha256_peek(&x->h, x->prefix_sha);
	pskd_sha256_free(&x->h);
	pskd_sha256_init(&x->h);
	x->have = 0;
	return XFER_DONE;
}

/* A file:// response as the 200 or 206 it stands for; -1 changed. */
static int
file_response(struct pskd_xfer *x, struct pskd_http *hd)
{
	uint64_t from = x->have;

	if ((from > 0 && x->lastmod && hd->lastmod &&
	    strcmp(x->lastmod, hd->lastmod) != 0) || from > hd->length)
		return -1;
	hd->range_total = hd->length;
	hd->range_total_known = 1;
	hd->range_start = from;
	hd->range_known = 1;
	return from > 0 ? 206 : 200;
}

/* Is the size announced the one `who` says?  0, or -1 (j->error set). */
static int
same_size(struct pskd_xfer *x, int known, uint64_t size, const char *who)
{
	if (!known || !x->expected_known || x->expected == size)
		return 0;
	pskd_get_set_error(x->j, pskd_get_asprintf("the server announces "
	    "%llu bytes, %s says %llu", (unsigned long long)x->expected, who,
	    (unsigned long long)size));
	return -1;
}

/* Sizes announced against the list's and the hub's. */
static enum pskd_xfer_outcome
check_sizes(struct pskd_xfer *x, const struct chain *ch)
{
	if (same_size(x, x->j->want_size_known, x->j->want_size,
	    "the list") == -1 || same_size(x, ch->linked_size_known,
	    ch->linked_size, "X-Linked-Size") == -1)
		return XFER_FAIL;
	return XFER_DONE;
}

/*
 * The sha256 the servers announced, when the list gives none: a hub's
 * X-Linked-Etag, else the response's Repr-Digest, else its Digest.  One
 * that differs from what an earlier response announced means the content
 * changed.
 */
static int
announced(struct pskd_xfer *x, const struct pskd_http *hd,
    const struct chain *ch)
{
	const char *sha = NULL, *by = NULL;

	if (x->j->want_sha[0])
		return 0;
	if (ch->linked_sha[0]) {
		sha = ch->linked_sha;
		by = "X-Linked-Etag";
	} else if (hd->repr_sha[0]) {
		sha = hd->repr_sha;
		by = "Repr-Digest";
	} else if (hd->digest_sha[0]) {
		sha = hd->digest_sha;
		by = "Digest";
	}
	if (sha == NULL)
		return 0;
	if (x->announced[0] && x->have > 0 && strcmp(x->announced, sha) != 0)
		return -1;
	memcpy(x->announced, sha, PSKD_SHA256_HEX);
	x->announced_by = by;
	return 0;
}

/* 200 or 206: the bytes go on from `from`?  XFER_DONE if they do. */
static enum pskd_xfer_outcome
judge_bytes(struct pskd_xfer *x, struct pskd_http *hd, int st,
    const char *validator)
{
	enum pskd_xfer_outcome o;
	uint64_t from = x->have;

	if (st == 200) {
		if (from > 0 && (o = whole_again(x, validator, from)) !=
		    XFER_DONE)
			return o;
		x->expected_known = hd->length_known;
		x->expected = hd->length;
		return XFER_DONE;
	}
	if (!hd->range_known || hd->range_start != from) {
		x->why = "a range that starts elsewhere";
		return x->fd == -1 ? XFER_RETRY : XFER_RESTART;
	}
	if (hd->range_total_known) {
		if (x->expected_known && x->expected != hd->range_total) {
			x->why = changed;
			return x->fd == -1 ? XFER_FAIL : XFER_RESTART;
		}
		x->expected_known = 1;
		x->expected = hd->range_total;
	}
	return XFER_DONE;
}

/* What to make of the final response's status and headers. */
static enum pskd_xfer_outcome
judge(struct pskd_xfer *x, struct pskd_http *hd, const struct chain *ch)
{
	enum pskd_xfer_outcome o;
	const char *validator;
	int st = hd->status;

	if (st == 0) {				/* file:// */
		if (!hd->length_known)
			return XFER_FAIL;
		if ((st = file_response(x, hd)) == -1) {
			x->why = changed;
			return XFER_RESTART;
		}
	}
	if (ch->reused && (st == 401 || st == 403 || st == 410))
		return XFER_EXPIRED;	/* go back to the list's URL */
	if (st == 416) {
		/* Every byte held: they must still match what a hub says. */
		if (announced(x, hd, ch) == -1) {
			x->why = changed;
			return x->fd == -1 ? XFER_FAIL : XFER_RESTART;
		}
		return XFER_RANGE_END;
	}
	if (st != 200 && st != 206) {
		x->retry_after = hd->retry_after;
		x->why = st == 401 ? "HTTP 401: the server wants credentials "
		    "(see -H, --netrc, HF_TOKEN)" : st == 403 ? "HTTP 403: "
		    "the server wants credentials (see -H, --netrc, HF_TOKEN)" :
		    NULL;
		return st == 429 || st == 408 || st >= 500 ? XFER_RETRY :
		    XFER_FAIL;
	}
	/* The content's validator: the hub's linked ETag, else the ETag. */
	validator = ch->linked_etag ? ch->linked_etag : keepable(hd->etag);
	if (st == 206 && ch->linked_etag && x->etag &&
	    strcmp(x->etag, ch->linked_etag) != 0) {
		x->why = changed;
		return x->fd == -1 ? XFER_FAIL : XFER_RESTART;
	}
	if ((o = judge_bytes(x, hd, st, validator)) != XFER_DONE)
		return o;
	if (announced(x, hd, ch) == -1) {
		x->why = changed;
		return x->fd == -1 ? XFER_FAIL : XFER_RESTART;
	}
	if ((o = check_sizes(x, ch)) != XFER_DONE)
		return o;
	/* The validators of the bytes we now hold. */
	if (validator || keepable(hd->lastmod) || st == 200) {
		replace(&x->etag, validator);
		replace(&x->lastmod, keepable(hd->lastmod));
	}
	replace(&x->again_etag, keepable(hd->etag));
	replace(&x->again_lastmod, keepable(hd->lastmod));
	return XFER_DONE;
}

/* Why curl failed says what to do. */
static enum pskd_xfer_outcome
curl_failed(struct pskd_xfer *x, int code)
{
	x->why = pskd_curl_strerror(code);
	if (x->why == NULL)
		x->why = "curl failed";
	return pskd_curl_permanent(code) ? XFER_FAIL : XFER_RETRY;
}

/* The If-Range of a hop. */
static const char *
if_range(const struct pskd_xfer *x, const struct chain *ch)
{
	if (ch->reused && ch->hops == 0)
		return x->again_etag ? x->again_etag : x->again_lastmod;
	if (ch->linked_etag)
		return NULL;	/* compared when the response comes */
	return x->etag ? x->etag : x->lastmod;
}

/* Start the request of one hop. */
static enum pskd_xfer_outcome
request(struct pskd_xfer *x, struct pskd_curl *c, const char *url,
    const struct chain *ch)
{
	struct pskd_buf cfg = { NULL, 0, 0 };
	char ua[64];
	int r;

	snprintf(ua, sizeof(ua), "pskd-get/%s", pskd_version_text);
	pskd_curl_config(&cfg, "user-agent", ua);
	pskd_get_auth_config(&x->g->opt->auth, x->j->url, url, &cfg);
	r = pskd_curl_start(c, url, x->have, if_range(x, ch), &cfg);
	pskd_buf_free(&cfg);
	if (r == 0)
		return XFER_DONE;
	if (errno == ENOENT)
		pskd_err(PSKD_EXIT_DATA, "curl (the curl package)");
	/* This shard's curl could not start; the others go on. */
	pskd_get_set_error(x->j, pskd_get_asprintf("curl: %s",
	    strerror(errno)));
	return XFER_FAIL;
}

/* A 3xx: the next hop's URL (malloc'd), or NULL with the outcome. */
static char *
next_hop(struct pskd_xfer *x, struct pskd_curl *c, struct pskd_http *hd,
    struct chain *ch, enum pskd_xfer_outcome *o)
{
	char *url;
	int code;

	if (hd->linked_etag && keepable(hd->linked_etag)) {
		replace(&ch->linked_etag, hd->linked_etag);
		memcpy(ch->linked_sha, hd->linked_sha, PSKD_SHA256_HEX);
	}
	if (hd->linked_size_known) {
		ch->linked_size = hd->linked_size;
		ch->linked_size_known = 1;
	}
	url = pskd_curl_redirect(c, x->g->opt->stall);
	code = pskd_curl_end(c, url == NULL);
	*o = XFER_FAIL;
	if (url == NULL) {
		x->why = code == 0 ? "a redirect without a URL" : "stalled";
		*o = code == 0 ? XFER_FAIL : XFER_RETRY;
	} else if (strncasecmp(url, "http://", 7) != 0 &&
	    strncasecmp(url, "https://", 8) != 0) {
		x->why = "unsupported protocol (after a redirect?)";
	} else if (++ch->hops > MAX_HOPS) {
		x->why = "too many redirects";
	} else
		return url;
	free(url);
	return NULL;
}

/*
 * The requests of one attempt, hop by hop, up to the final response's
 * headers: XFER_DONE with curl running in *c, else the outcome.
 */
static enum pskd_xfer_outcome
hops(struct pskd_xfer *x, struct pskd_curl *c, struct pskd_http *hd,
    struct chain *ch, char **final_url, int *status)
{
	enum pskd_xfer_outcome o;
	char *url, *next;
	int code, stalled;

	ch->reused = x->again_url != NULL;
	url = pskd_xstrdup(ch->reused ? x->again_url : x->j->url);
	for (;;) {
		if ((o = request(x, c, url, ch)) != XFER_DONE)
			break;
		if (pskd_curl_headers(c, hd, x->g->opt->stall,
		    &stalled) == -1) {
			code = pskd_curl_end(c, stalled);
			pskd_http_free(hd);
			x->why = "stalled";
			o = stalled ? XFER_RETRY : curl_failed(x, code);
			break;
		}
		*status = hd->status;
		if (hd->status < 300 || hd->status >= 400 ||
		    !hd->has_location) {
			*final_url = url;
			return XFER_DONE;
		}
		next = next_hop(x, c, hd, ch, &o);
		pskd_http_free(hd);
		if (next == NULL)
			break;
		free(url);
		url = next;
	}
	free(url);
	return o;
}

enum pskd_xfer_outcome
pskd_xfer_attempt(struct pskd_xfer *x, uint64_t *total, int *status)
{
	struct chain ch;
	struct pskd_curl c;
	struct pskd_http hd;
	enum pskd_xfer_outcome o;
	char *url = NULL;
	int code;

	memset(&ch, 0, sizeof(ch));
	x->why = NULL;
	x->retry_after = -1;
	*status = 0;
	o = hops(x, &c, &hd, &ch, &url, status);
	if (o == XFER_DONE) {
		o = judge(x, &hd, &ch);
		if (o == XFER_RANGE_END)
			*total = hd.range_total_known ? hd.range_total :
			    UINT64_MAX;
		pskd_http_free(&hd);
		if (o == XFER_DONE)
			o = pskd_xfer_body(x, c.body);
		code = pskd_curl_end(&c, o != XFER_DONE);
		if (o == XFER_DONE && code != 0)
			o = curl_failed(x, code);
		else if (o == XFER_DONE && x->expected_known &&
		    x->have < x->expected) {
			x->why = "connection closed before the end";
			o = XFER_RETRY;
		}
	}
	/*
	 * After a fault, try the URL a redirect led to again (a CDN's);
	 * after anything else, or when it has expired, the list's URL.
	 */
	free(x->again_url);
	x->again_url = NULL;
	if (o == XFER_RETRY && ch.hops > 0 && url != NULL) {
		x->again_url = url;
		url = NULL;
	}
	free(url);
	free(ch.linked_etag);
	return o;
}
