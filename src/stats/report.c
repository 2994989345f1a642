/*
 * report.c - pskd-report's model: the manifest's shards, the statistics
 * objects of a folder assigned to them by label, the merged objects of
 * each kind, and the numbers of each shard.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "get/manifest.h"
#include "stats/report.h"

/* A member of the manifest's extra ones that is a whole number. */
static uint64_t
extra_u64(const struct pskd_json_field *f)
{
	uint64_t v;
	char *t;
	int rc;

	if (f->kind != PSKD_JSON_NUMBER)
		return REPORT_NONE;
	t = pskd_xstrndup((const char *)f->raw, f->rawlen);
	rc = pskd_strtonum(t, 0, UINT64_MAX, 0, &v);
	free(t);
	return rc == 0 ? v : REPORT_NONE;
}

static void
load_shard(struct report_shard *sh, const struct pskd_shard *ms,
    const char *path)
{
	struct pskd_json_field f[2] = {
		{ .name = "documents" }, { .name = "unique_documents" }
	};
	struct pskd_buf t = { NULL, 0, 0 };
	char err[200];
	size_t off;

	memset(sh, 0, sizeof(*sh));
	sh->file = pskd_xstrdup(ms->file);
	sh->name = pskd_xstrndup(ms->file, strcspn(ms->file, "."));
	sh->status = pskd_shard_status_name(ms->status);
	sh->bytes = ms->bytes;
	/* The extra members are ', "k": v, ...': an object once braced. */
	pskd_buf_addc(&t, '{');
	if (ms->extra.len > 2)
		pskd_buf_add(&t, ms->extra.p + 2, ms->extra.len - 2);
	pskd_buf_addc(&t, '}');
	if (pskd_json_fields(t.p, t.len, f, 2, err, sizeof(err), &off) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: shard %s: %s", path, ms->file,
		    err);
	sh->mdocs = extra_u64(&f[0]);
	sh->muniq = extra_u64(&f[1]);
	pskd_buf_free(&f[0].value);
	pskd_buf_free(&f[1].value);
	pskd_buf_free(&t);
}

void
report_load_manifest(struct report *rp, const char *path)
{
	struct pskd_manifest m;
	struct pskd_buf b = { NULL, 0, 0 };
	char err[256];
	uint64_t line;
	size_t i;

	if (pskd_slurp(path, 0, &b) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_manifest_init(&m);
	if (pskd_manifest_parse(&m, b.p, b.len, err, sizeof(err), &line) == -1)
		pskd_fail_at(path, line, "%s", err);
	/* After the shards of the manifests read before. */
	rp->shards = pskd_xreallocarray(rp->shards, rp->nshards + m.n + 1,
	    sizeof(*rp->shards));
	for (i = 0; i < m.n; i++)
		load_shard(&rp->shards[rp->nshards + i], &m.shards[i], path);
	rp->nshards += m.n;
	pskd_manifest_free(&m);
	pskd_buf_free(&b);
}

static struct report_shard *
find_shard(struct report *rp, const char *label)
{
	size_t i;

	if (label == NULL)
		return NULL;
	for (i = 0; i < rp->nshards; i++)
		if (strcmp(rp->shards[i].name, label) == 0 ||
		    strcmp(rp->shards[i].file, label) == 0)
			return &rp->shards[i];
	return NULL;
}

/* The shard of a label "SHARD.STAGE", SHARD a shard's name, or NULL. */
static struct report_shard *
find_stage(struct report *rp, const char *label)
{
	const char *dot = label ? strchr(label, '.') : NULL;
	size_t i, n;

	if (dot == NULL || !stats_verdict_word(dot + 1, strlen(dot + 1)))
		return NULL;
	n = (size_t)(dot - label);
	for (i = 0; i < rp->nshards; i++)
		if (strlen(rp->shards[i].name) == n &&
		    memcmp(rp->shards[i].name, label, n) == 0)
			return &rp->shards[i];
	return NULL;
}

/* Merge s into *into (taking it over when *has is 0). */
static void
gather(struct stats *into, int *has, struct stats *s, const char *where)
{
	char err[300];

	if (!*has) {
		*into = *s;
		*has = 1;
		return;
	}
	if (stats_merge(into, s, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", where, err);
	stats_free(s);
}

static void
place(struct report *rp, struct stats *s, const char *fallback,
    const char *where)
{
	struct report_shard *sh = find_shard(rp, s->label);
	const char *label = s->label ? s->label : fallback;
	struct report_other *o;
	size_t i;
	int has = 1;

	if (sh == NULL && s->kind == STATS_VERDICTS &&
	    (sh = find_stage(rp, s->label)) != NULL) {
		gather(&sh->stages, &sh->has_stages, s, where);
		return;
	}
	if (sh != NULL) {
		gather(&sh->obj[s->kind], &sh->has[s->kind], s, where);
		return;
	}
	for (i = 0; i < rp->nothers; i++) {
		o = &rp->others[i];
		if (o->s.kind == s->kind && strcmp(o->label, label) == 0) {
			gather(&o->s, &has, s, where);
			return;
		}
	}
	rp->others = pskd_xreallocarray(rp->others, rp->nothers + 1,
	    sizeof(*rp->others));
	o = &rp->others[rp->nothers++];
	o->label = pskd_xstrdup(label);
	o->s = *s;
}

static void
load_file(struct report *rp, const char *path, const char *stem)
{
	struct pskd_reader r;
	const unsigned char *line;
	struct stats s;
	char err[300], where[600];
	size_t len;
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		snprintf(where, sizeof(where), "%s:%llu", path,
		    (unsigned long long)r.lineno);
		if (stats_read(&s, line, len, err, sizeof(err)) == -1)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s", where, err);
		place(rp, &s, stem, where);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_reader_close(&r);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
report_load_dir(struct report *rp, const char *dir)
{
	struct dirent *e;
	char **names = NULL, *path;
	size_t n = 0, i, len;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		pskd_err(PSKD_EXIT_DATA, "%s", dir);
	while ((errno = 0, e = readdir(d)) != NULL) {
		len = strlen(e->d_name);
		if (len <= 5 || e->d_name[0] == '.' ||
		    strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		names = pskd_xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = pskd_xstrdup(e->d_name);
	}
	if (errno != 0)
		pskd_err(PSKD_EXIT_DATA, "%s", dir);
	closedir(d);
	/* In the order of their names, whatever the directory's order. */
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		len = strlen(dir) + strlen(names[i]) + 2;
		path = pskd_xmalloc(len);
		snprintf(path, len, "%s/%s", dir, names[i]);
		names[i][strlen(names[i]) - 5] = '\0';
		load_file(rp, path, names[i]);
		free(path);
		free(names[i]);
	}
	free(names);
}

void
report_load_window(struct report *rp, const char *path)
{
	if (pskd_slurp(path, 0, &rp->window) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	rp->has_window = 1;
}

void
report_merge_all(struct report *rp)
{
	struct stats copy;
	char where[300];
	size_t i, k;
	int any;

	for (k = 0; k < STATS_NKINDS; k++) {
		for (i = 0, any = 0; i < rp->nshards; i++)
			any |= rp->shards[i].has[k];
		for (i = 0; i < (any ? rp->nshards : rp->nothers); i++) {
			if (any && !rp->shards[i].has[k])
				continue;
			if (!any && rp->others[i].s.kind != k)
				continue;
			/* A deep copy: the shard keeps its own. */
			stats_copy(&copy, any ? &rp->shards[i].obj[k] :
			    &rp->others[i].s);
			snprintf(where, sizeof(where), "%s",
			    any ? rp->shards[i].name : rp->others[i].label);
			gather(&rp->all[k], &rp->has_all[k], &copy, where);
		}
	}
}

void
report_row(const struct report_shard *sh, struct report_row *r)
{
	const struct stats *v = &sh->obj[STATS_VERDICTS];

	r->documents = r->kept = r->neardup = r->empty = REPORT_NONE;
	r->rejected = REPORT_NONE;
	r->tokens = r->windows = REPORT_NONE;
	r->dropped = r->trimmed = r->trim_bytes = REPORT_NONE;
	if (sh->has_stages) {
		r->dropped = sh->stages.n - sh->stages.keep -
		    sh->stages.empty - sh->stages.trimmed;
		r->trimmed = sh->stages.trimmed;
		r->trim_bytes = sh->stages.trim_bytes;
	}
	if (sh->has[STATS_VERDICTS]) {
		/* Those the stages dropped never reached deduplication. */
		r->documents = v->n + (sh->has_stages ? r->dropped : 0);
		r->kept = v->keep + v->empty;
		r->neardup = v->neardup;
		r->empty = v->empty;
		r->rejected = v->rejected;
	} else {
		r->documents = sh->mdocs;
		r->kept = sh->muniq;
		if (sh->has[STATS_DOCUMENTS] && r->documents == REPORT_NONE)
			r->documents = sh->obj[STATS_DOCUMENTS].n;
	}
	if (sh->has[STATS_TOKENS])
		r->tokens = sh->obj[STATS_TOKENS].n;
	if (sh->has[STATS_WINDOWS])
		r->windows = sh->obj[STATS_WINDOWS].n;
}

static void
add(uint64_t *sum, uint64_t v)
{
	if (v == REPORT_NONE)
		return;
	*sum = *sum == REPORT_NONE ? v : *sum + v;
}

void
report_totals(const struct report *rp, struct report_row *t)
{
	struct report_row r;
	size_t i;

	t->documents = t->kept = t->neardup = t->empty = REPORT_NONE;
	t->rejected = REPORT_NONE;
	t->tokens = t->windows = REPORT_NONE;
	t->dropped = t->trimmed = t->trim_bytes = REPORT_NONE;
	for (i = 0; i < rp->nshards; i++) {
		report_row(&rp->shards[i], &r);
		add(&t->documents, r.documents);
		add(&t->kept, r.kept);
		add(&t->neardup, r.neardup);
		add(&t->empty, r.empty);
		add(&t->rejected, r.rejected);
		add(&t->tokens, r.tokens);
		add(&t->windows, r.windows);
		add(&t->dropped, r.dropped);
		add(&t->trimmed, r.trimmed);
		add(&t->trim_bytes, r.trim_bytes);
	}
}

static void
tally_n(struct stats_tally *t, const char *name, uint64_t n)
{
	if (n > 0)
		(void)stats_tally_add(t, (const unsigned char *)name,
		    strlen(name), n);
}

void
report_drops(const struct report_shard *sh, struct stats_tally *t)
{
	const struct stats *v = &sh->obj[STATS_VERDICTS];

	memset(t, 0, sizeof(*t));
	if (sh->has_stages) {
		(void)stats_tally_merge(t, &sh->stages.drops);
		tally_n(t, "near_duplicate", sh->stages.neardup);
		tally_n(t, "rejected", sh->stages.rejected);
	}
	if (sh->has[STATS_VERDICTS]) {
		(void)stats_tally_merge(t, &v->drops);
		tally_n(t, "near_duplicate", v->neardup);
		tally_n(t, "rejected", v->rejected);
	}
}

int
report_has_drops(const struct report *rp)
{
	size_t i;

	for (i = 0; i < rp->nshards; i++)
		if (rp->shards[i].has_stages ||
		    rp->shards[i].obj[STATS_VERDICTS].drops.n > 0)
			return 1;
	return 0;
}

int
report_has_trimmed(const struct report *rp)
{
	size_t i;

	for (i = 0; i < rp->nshards; i++)
		if (rp->shards[i].has_stages && rp->shards[i].stages.trimmed > 0)
			return 1;
	return 0;
}
