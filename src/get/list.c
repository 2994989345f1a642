/*
 * list.c - what a run fetches: the lines of URL lists (URL [SHA256
 * [SIZE]]), or the one URL of -u, each given a safe file name inside the
 * folder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pskd.h"
#include "get.h"

int
pskd_get_scheme_ok(const char *url)
{
	return strncasecmp(url, "http://", 7) == 0 ||
	    strncasecmp(url, "https://", 8) == 0 ||
	    strncasecmp(url, "file://", 7) == 0;
}

/*
 * A safe file name from the last segment of the URL's path: characters
 * outside [A-Za-z0-9._+-] become '_', leading dots too; names the folder
 * keeps for itself get a '_'; the nth shard of a name gets "-n" before its
 * first dot (the names of the shards before it are in g->names).
 */
char *
pskd_get_shard_name(const struct pskd_get *g, const char *url)
{
	const char *p = strstr(url, "://"), *end, *seg;
	char base[PSKD_NAME_MAX + 1], *name, *dot;
	size_t n = 0, k;

	p = p ? p + 3 : url;
	end = p + strcspn(p, "?#");
	seg = end;
	while (seg > p && seg[-1] != '/')
		seg--;
	if (seg == p)			/* "http://host": no path at all */
		seg = end;
	for (; seg < end && n < PSKD_NAME_MAX - 16; seg++) {
		char c = *seg;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		    c == '-' || c == '+'))
			c = '_';
		if (c == '.' && n == 0)
			c = '_';
		base[n++] = c;
	}
	base[n] = '\0';
	if (n == 0)
		snprintf(base, sizeof(base), "index");
	else if (!pskd_shard_name_ok(base))
		strcat(base, "_");
	name = pskd_xstrdup(base);
	for (k = 2; pskd_names_find(&g->names, name) != PSKD_NAMES_NONE ||
	    !pskd_shard_name_ok(name); k++) {
		free(name);
		dot = strchr(base, '.');
		if (dot == NULL)
			name = pskd_get_asprintf("%s-%zu", base, k);
		else
			name = pskd_get_asprintf("%.*s-%zu%s",
			    (int)(dot - base), base, k, dot);
	}
	return name;
}

static struct pskd_get_job *
add_job(struct pskd_get *g)
{
	if (g->njobs == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 64;
		g->jobs = pskd_xreallocarray(g->jobs, g->cap,
		    sizeof(*g->jobs));
	}
	memset(&g->jobs[g->njobs], 0, sizeof(g->jobs[0]));
	return &g->jobs[g->njobs++];
}

static void
set_sha(struct pskd_get_job *j, const char *hex)
{
	int i;

	for (i = 0; i < 64; i++)
		j->want_sha[i] = (char)(hex[i] | 0x20);
	j->want_sha[64] = '\0';
}

/* One line's fields after the URL: [SHA256 [SIZE]]. */
static void
line_fields(struct pskd_get_job *j, char **f, size_t nf,
    const struct pskd_reader *r)
{
	if (nf > 1 && strcmp(f[1], "-") != 0) {
		if (!pskd_sha256_valid(f[1], strlen(f[1])))
			pskd_fail_at(r->name, r->lineno, "'%s' is not a sha256 "
			    "(64 hex digits)", f[1]);
		set_sha(j, f[1]);
	}
	if (nf > 2) {
		if (pskd_strtonum(f[2], 0, UINT64_MAX, 0, &j->want_size) == -1)
			pskd_fail_at(r->name, r->lineno, "'%s' is not a size "
			    "in bytes", f[2]);
		j->want_size_known = 1;
	}
}

/* A list's URL: one pskd-get may fetch and record. */
static void
check_url(const char *url, const struct pskd_reader *r)
{
	if (!pskd_get_scheme_ok(url))
		pskd_fail_at(r->name, r->lineno, "not an http, https or file "
		    "URL");
	if (!pskd_record_text_ok(url))
		pskd_fail_at(r->name, r->lineno, "a URL must be valid UTF-8 "
		    "without control characters");
	/* The manifest records the URL: no password in it. */
	if (pskd_get_url_has_userinfo(url))
		pskd_fail_at(r->name, r->lineno, "a URL with credentials in "
		    "it would be recorded; use -H or --netrc");
}

void
pskd_get_read_list(struct pskd_get *g, const char *path)
{
	struct pskd_reader r;
	const unsigned char *line;
	char *copy, *f[4], *save, *tok;
	size_t len, nf;
	struct pskd_get_job *j;
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (memchr(line, '\0', len) != NULL)
			pskd_fail_at(r.name, r.lineno, "a NUL byte");
		copy = pskd_xstrndup((const char *)line, len);
		nf = 0;
		for (tok = strtok_r(copy, " \t\r", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t\r", &save))
			if (nf < 4)
				f[nf++] = tok;
		if (nf == 0 || f[0][0] == '#') {
			free(copy);
			continue;
		}
		if (nf > 3)
			pskd_fail_at(r.name, r.lineno, "expected URL [SHA256 "
			    "[SIZE]]");
		check_url(f[0], &r);
		j = add_job(g);
		j->url = pskd_xstrdup(f[0]);
		line_fields(j, f, nf, &r);
		free(copy);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r.name);
	pskd_reader_close(&r);
}

void
pskd_get_plan_one(struct pskd_get *g, const char *url, const char *sha)
{
	struct pskd_get_job *j;
	char *name;
	size_t i, at = SIZE_MAX;

	name = pskd_get_shard_name(g, url);
	for (i = 0; i < g->old.n; i++) {
		j = add_job(g);
		j->kept = 1;
		pskd_shard_copy(&j->out, &g->old.shards[i]);
		j->url = pskd_xstrdup(g->old.shards[i].url);
		j->name = pskd_xstrdup(g->old.shards[i].file);
		if (strcmp(j->name, name) == 0)
			at = i;
	}
	if (at == SIZE_MAX) {
		j = add_job(g);
	} else {
		j = &g->jobs[at];
		pskd_shard_clear(&j->out);
		free(j->url);
		free(j->name);
		j->kept = 0;
	}
	j->url = pskd_xstrdup(url);
	j->name = name;
	if (sha)
		set_sha(j, sha);
}

void
pskd_get_plan_stream(struct pskd_get *g, const char *url, const char *sha)
{
	struct pskd_get_job *j = add_job(g);

	j->url = pskd_xstrdup(url);
	j->name = pskd_xstrdup("<stdout>");
	if (sha)
		set_sha(j, sha);
}
