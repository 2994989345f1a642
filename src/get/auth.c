/*
 * auth.c - what each host is sent: request headers (-H, --header-file),
 * HF_TOKEN as a bearer token for the --token-hosts, netrc, and the lines
 * of --curl-config.  Credentials go to the host of the list's URL and to
 * the token hosts only, hop by hop, so a redirect to another host does not
 * carry them; they reach curl on its standard input and nowhere else.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pskd.h"
#include "curl.h"
#include "get.h"

void
pskd_get_auth_init(struct pskd_get_auth *a)
{
	memset(a, 0, sizeof(*a));
}

/* The host of a URL, lowercased, and its port (the scheme's by default). */
int
pskd_get_url_host(const char *url, char *host, size_t size, unsigned *port)
{
	const char *p = strstr(url, "://"), *end, *colon;
	uint64_t v;
	size_t i, n;

	if (p == NULL)
		return -1;
	*port = strncasecmp(url, "https", 5) == 0 ? 443 : 80;
	p += 3;
	end = p + strcspn(p, "/?#");
	if (memchr(p, '@', (size_t)(end - p)) != NULL)
		p = (const char *)memrchr(p, '@', (size_t)(end - p)) + 1;
	if (*p == '[') {			/* [v6]:port */
		colon = memchr(p, ']', (size_t)(end - p));
		if (colon == NULL)
			return -1;
		colon++;
	} else
		colon = memchr(p, ':', (size_t)(end - p));
	if (colon == NULL || colon == end)
		colon = end;
	else if (*colon == ':') {
		char num[8];

		n = (size_t)(end - colon - 1);
		if (n == 0 || n >= sizeof(num))
			return -1;
		memcpy(num, colon + 1, n);
		num[n] = '\0';
		if (pskd_strtonum(num, 1, 65535, 0, &v) == -1)
			return -1;
		*port = (unsigned)v;
	}
	n = (size_t)(colon - p);
	if (n == 0 || n >= size)
		return -1;
	for (i = 0; i < n; i++)
		host[i] = (char)tolower((unsigned char)p[i]);
	host[n] = '\0';
	return 0;
}

int
pskd_get_url_has_userinfo(const char *url)
{
	const char *p = strstr(url, "://");

	if (p == NULL)
		return 0;
	p += 3;
	return memchr(p, '@', strcspn(p, "/?#")) != NULL;
}

/*
 * "Name: value": a token, a colon, text without control characters; not
 * one of the headers pskd-get sends itself or that would change the bytes
 * (Accept-Encoding: a compressed body).
 */
static int
header_ok(const char *h)
{
	static const char *const ours[] = {
		"range", "if-range", "if-match", "if-none-match",
		"if-modified-since", "if-unmodified-since", "accept-encoding",
		"te", "content-length", "transfer-encoding"
	};
	size_t i, n = strcspn(h, ":");

	if (n == 0 || h[n] != ':' || !pskd_record_text_ok(h))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)h[i]) &&
		    strchr("!#$%&'*+-.^_`|~", h[i]) == NULL)
			return 0;
	for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		if (strlen(ours[i]) == n && strncasecmp(h, ours[i], n) == 0)
			return 0;
	return 1;
}

int
pskd_get_auth_header(struct pskd_get_auth *a, const char *h)
{
	if (!header_ok(h))
		return -1;
	a->headers = pskd_xreallocarray(a->headers, a->nheaders + 1,
	    sizeof(*a->headers));
	a->headers[a->nheaders++] = pskd_xstrdup(h);
	return 0;
}

void
pskd_get_auth_header_file(struct pskd_get_auth *a, const char *path)
{
	struct pskd_reader r;
	const unsigned char *line;
	size_t len;
	char *h;
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_USAGE, "%s", path);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		while (len > 0 && (line[len - 1] == '\r' ||
		    line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		if (len == 0 || line[0] == '#')
			continue;
		h = pskd_xstrndup((const char *)line, len);
		/* The line itself may be a secret: not in the message. */
		if (memchr(line, '\0', len) != NULL ||
		    pskd_get_auth_header(a, h) == -1)
			pskd_errx(PSKD_EXIT_USAGE, "%s:%llu: not a header "
			    "(Name: value)", r.name,
			    (unsigned long long)r.lineno);
		free(h);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_USAGE, "%s", r.name);
	pskd_reader_close(&r);
}

int
pskd_get_auth_token(struct pskd_get_auth *a, const char *token)
{
	size_t i, n = strlen(token);

	/* RFC 6750's b64token: no blanks, nothing that ends a header. */
	if (n == 0)
		return -1;
	for (i = 0; i < n; i++)
		if (token[i] <= ' ' || token[i] >= 0x7f)
			return -1;
	free(a->bearer);
	a->bearer = pskd_get_asprintf("Authorization: Bearer %s", token);
	return 0;
}

int
pskd_get_auth_token_hosts(struct pskd_get_auth *a, const char *list)
{
	char *copy = pskd_xstrdup(list), *save, *tok, *c;
	size_t i;

	for (i = 0; i < a->nhosts; i++)
		free(a->hosts[i]);
	a->nhosts = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		tok += strspn(tok, " ");
		tok[strcspn(tok, " ")] = '\0';
		if (*tok == '\0' || strspn(tok, ".-:[]0123456789"
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") !=
		    strlen(tok)) {
			free(copy);
			return -1;
		}
		a->hosts = pskd_xreallocarray(a->hosts, a->nhosts + 1,
		    sizeof(*a->hosts));
		for (c = tok; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		a->hosts[a->nhosts++] = pskd_xstrdup(tok);
	}
	free(copy);
	return 0;
}

/*
 * Is host:port one of the token hosts?  "name" is that host on any port,
 * "name:port" that port only, ".name" any host under name.
 */
static int
token_host(const struct pskd_get_auth *a, const char *host, unsigned port)
{
	char with_port[300];
	size_t i, hn = strlen(host), en;

	snprintf(with_port, sizeof(with_port), "%s:%u", host, port);
	for (i = 0; i < a->nhosts; i++) {
		const char *e = a->hosts[i];

		en = strlen(e);
		if (strcmp(e, host) == 0 || strcmp(e, with_port) == 0)
			return 1;
		if (e[0] == '.' && hn > en && strcmp(host + hn - en, e) == 0)
			return 1;
	}
	return 0;
}

void
pskd_get_auth_config(const struct pskd_get_auth *a, const char *list_url,
    const char *url, struct pskd_buf *cfg)
{
	char host[256], lhost[256];
	unsigned port, lport;
	int known, home, token;
	size_t i;

	known = pskd_get_url_host(url, host, sizeof(host), &port) == 0;
	home = known && pskd_get_url_host(list_url, lhost, sizeof(lhost),
	    &lport) == 0 && strcmp(host, lhost) == 0 && port == lport;
	token = known && token_host(a, host, port);
	if (a->netrc_file)
		pskd_curl_config(cfg, "netrc-file", a->netrc_file);
	else if (a->netrc)
		pskd_buf_add(cfg, "netrc\n", 6);
	if (a->config_all.len > 0)
		pskd_buf_add(cfg, a->config_all.p, a->config_all.len);
	if (!home && !token)
		return;
	for (i = 0; i < a->nheaders; i++)
		pskd_curl_config(cfg, "header", a->headers[i]);
	if (a->config_cred.len > 0)
		pskd_buf_add(cfg, a->config_cred.p, a->config_cred.len);
	if (token && a->bearer != NULL)
		pskd_curl_config(cfg, "header", a->bearer);
}
