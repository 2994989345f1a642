/*
 * curlcfg.c - --curl-config FILE: curl settings pskd-get does not model
 * (proxies, client certificates, --aws-sigv4 for S3-compatible stores),
 * given to every request after pskd-get's own.  Options that would change
 * what is requested, where the body goes, how it is decoded, followed or
 * retried - what pskd-get's resume and verification stand on - are
 * refused; credentials among them go to the hosts -H headers go to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "get.h"

/* Long options pskd-get sets itself or that would undo what it checks. */
static const char *const refused[] = {
	"append", "compressed", "config", "continue-at", "create-dirs",
	"create-file-mode", "data", "data-ascii", "data-binary",
	"data-raw", "data-urlencode", "disable", "dump-header",
	"etag-compare", "etag-save", "fail", "fail-early", "fail-with-body",
	"form", "form-escape", "form-string", "get", "globoff", "head",
	"header", "help", "ignore-content-length", "include", "json",
	"libcurl", "list-only", "location", "location-trusted", "manual",
	"max-redirs", "next", "no-buffer", "output", "output-dir",
	"parallel", "parallel-immediate", "parallel-max", "proto",
	"proto-default", "proto-redir", "range", "raw", "remote-header-name",
	"remote-name", "remote-name-all", "request", "request-target",
	"retry", "retry-all-errors", "retry-connrefused", "retry-delay",
	"retry-max-time", "show-error", "silent", "stderr", "time-cond",
	"tr-encoding", "trace", "trace-ascii", "trace-time", "upload-file",
	"url", "url-query", "use-ascii", "verbose", "version", "write-out",
	"quote",
};

/* Their short forms. */
static const char refused_short[] = "aBCdDFfGgHhiIJKLMNoOQrsSTvVwXz:Z#";

/* Options that carry credentials: only for the hosts -H goes to. */
static const char *const credential[] = {
	"aws-sigv4", "basic", "cert", "cookie", "delegation", "digest",
	"key", "krb", "login-options", "negotiate", "ntlm", "oauth2-bearer",
	"pass", "sasl-authzid", "sasl-ir", "user",
};
static const char credential_short[] = "Ebu";

static int
listed(const char *const *names, size_t n, const char *word, int prefix)
{
	size_t i, w = strlen(word);

	for (i = 0; i < n; i++)
		if (strcmp(names[i], word) == 0 ||
		    (prefix && strncmp(names[i], word, w) == 0))
			return 1;
	return 0;
}

#define NREFUSED	(sizeof(refused) / sizeof(refused[0]))
#define NCREDENTIAL	(sizeof(credential) / sizeof(credential[0]))

/*
 * The option of a config line: 1 refused, 2 a credential, 0 neither.
 * curl takes unambiguous abbreviations of long names, so a word that
 * starts a refused name is refused too, and "no-X" is X turned off.
 */
static int
classify(const char *line, char *word, size_t size)
{
	size_t i, n = strcspn(line, " \t=:");
	const char *w = line;
	int cred = 0;

	if (n >= size)
		n = size - 1;
	memcpy(word, line, n);
	word[n] = '\0';
	if (w[0] == '-' && w[1] != '-') {	/* short options, grouped */
		for (i = 1; i < n; i++) {
			if (strchr(refused_short, w[i]) != NULL)
				return 1;
			if (strchr(credential_short, w[i]) != NULL)
				cred = 1;
		}
		return cred ? 2 : 0;
	}
	w = word + (strncmp(word, "--", 2) == 0 ? 2 : 0);
	if (strncmp(w, "no-", 3) == 0 && !listed(refused, NREFUSED, w, 0))
		w += 3;
	if (*w == '\0' || listed(refused, NREFUSED, w, 1))
		return 1;
	return listed(credential, NCREDENTIAL, w, 1) ? 2 : 0;
}

void
pskd_get_auth_curl_config(struct pskd_get_auth *a, const char *path)
{
	struct pskd_reader r;
	const unsigned char *line;
	char word[64];
	const char *t;
	size_t len;
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_USAGE, "%s", path);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (memchr(line, '\0', len) != NULL)
			pskd_errx(PSKD_EXIT_USAGE, "%s:%llu: a NUL byte",
			    r.name, (unsigned long long)r.lineno);
		t = (const char *)line;
		while (len > 0 && (*t == ' ' || *t == '\t')) {
			t++;
			len--;
		}
		while (len > 0 && (t[len - 1] == '\r' || t[len - 1] == ' ' ||
		    t[len - 1] == '\t'))
			len--;
		if (len == 0 || *t == '#')
			continue;
		{
			char *copy = pskd_xstrndup(t, len);

			switch (classify(copy, word, sizeof(word))) {
			case 1:
				pskd_errx(PSKD_EXIT_USAGE, "%s:%llu: %s: "
				    "pskd-get sets this itself, or it would "
				    "change what pskd-get verifies", r.name,
				    (unsigned long long)r.lineno, word);
			case 2:
				pskd_buf_add(&a->config_cred, copy, len);
				pskd_buf_addc(&a->config_cred, '\n');
				break;
			default:
				pskd_buf_add(&a->config_all, copy, len);
				pskd_buf_addc(&a->config_all, '\n');
			}
			free(copy);
		}
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_USAGE, "%s", r.name);
	pskd_reader_close(&r);
}
