/*
 * manifest.c - pskd-get's records: manifest.json (one shard a line, so a
 * reader needs no more than the JSON Lines scanner), its lock, and
 * NAME.partial.json checkpoints, parsed and encoded; store.c writes the
 * manifest.  Formats in pskd-manifest(5).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "manifest.h"

static const char head[] = "{\"version\": 1, \"shards\": [";
static const char tail[] = "]}";

static const char *const known[] = {
	"url", "file", "bytes", "sha256", "etag", "status", "sha256_from"
};
#define NKNOWN (sizeof(known) / sizeof(known[0]))
#define NREQUIRED 6	/* sha256_from is there only when known */

/* Where an expected sha256 came from (pskd-manifest(5)). */
static const char *const sources[] = {
	"list", "X-Linked-Etag", "Repr-Digest", "Digest"
};

const char *
pskd_sha256_source(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
		if (name != NULL && strcmp(name, sources[i]) == 0)
			return sources[i];
	return NULL;
}

void
pskd_manifest_init(struct pskd_manifest *m)
{
	memset(m, 0, sizeof(*m));
}

void
pskd_shard_clear(struct pskd_shard *s)
{
	free(s->url);
	free(s->file);
	free(s->etag);
	pskd_buf_free(&s->extra);
	memset(s, 0, sizeof(*s));
}

void
pskd_shard_copy(struct pskd_shard *to, const struct pskd_shard *from)
{
	to->url = pskd_xstrdup(from->url);
	to->file = pskd_xstrdup(from->file);
	to->bytes = from->bytes;
	memcpy(to->sha256, from->sha256, sizeof(to->sha256));
	to->etag = from->etag ? pskd_xstrdup(from->etag) : NULL;
	to->status = from->status;
	to->sha256_from = from->sha256_from;
	if (from->extra.len > 0)
		pskd_buf_add(&to->extra, from->extra.p, from->extra.len);
}

static int
same_text(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

int
pskd_shard_equal(const struct pskd_shard *a, const struct pskd_shard *b)
{
	return same_text(a->url, b->url) && same_text(a->file, b->file) &&
	    a->bytes == b->bytes && strcmp(a->sha256, b->sha256) == 0 &&
	    same_text(a->etag, b->etag) && a->status == b->status &&
	    a->sha256_from == b->sha256_from &&
	    a->extra.len == b->extra.len && (a->extra.len == 0 ||
	    memcmp(a->extra.p, b->extra.p, a->extra.len) == 0);
}

void
pskd_manifest_free(struct pskd_manifest *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		pskd_shard_clear(&m->shards[i]);
	free(m->shards);
	pskd_names_free(&m->files);
	memset(m, 0, sizeof(*m));
}

struct pskd_shard *
pskd_manifest_add(struct pskd_manifest *m)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->shards = pskd_xreallocarray(m->shards, m->cap,
		    sizeof(*m->shards));
	}
	memset(&m->shards[m->n], 0, sizeof(m->shards[0]));
	return &m->shards[m->n++];
}

struct pskd_shard *
pskd_manifest_find(const struct pskd_manifest *m, const char *file)
{
	size_t i;

	if (m->files.n == m->n) {	/* parsed: every file in the index */
		i = pskd_names_find(&m->files, file);
		return i == PSKD_NAMES_NONE ? NULL : &m->shards[i];
	}
	for (i = 0; i < m->n; i++)
		if (m->shards[i].file && strcmp(m->shards[i].file, file) == 0)
			return &m->shards[i];
	return NULL;
}

const char *
pskd_shard_status_name(enum pskd_shard_status st)
{
	switch (st) {
	case PSKD_SHARD_COMPLETE: return "complete";
	case PSKD_SHARD_FAILED: return "failed";
	default: return "pending";
	}
}

int
pskd_shard_name_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n > PSKD_NAME_MAX || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= '0' && name[i] <= '9') ||
		    name[i] == '.' || name[i] == '_' || name[i] == '-' ||
		    name[i] == '+'))
			return 0;
	if (strcmp(name, PSKD_MANIFEST) == 0 ||
	    strcmp(name, PSKD_MANIFEST_LOCK) == 0)
		return 0;
	if (n >= strlen(PSKD_PARTIAL) &&
	    strcmp(name + n - strlen(PSKD_PARTIAL), PSKD_PARTIAL) == 0)
		return 0;
	if (n >= strlen(PSKD_CHECKPOINT) &&
	    strcmp(name + n - strlen(PSKD_CHECKPOINT), PSKD_CHECKPOINT) == 0)
		return 0;
	return 1;
}

int
pskd_get_u64(const void *p, size_t n, uint64_t *v)
{
	char num[24];

	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, p, n);
	num[n] = '\0';
	return pskd_strtonum(num, 0, UINT64_MAX, 0, v);
}

/* A string member as a C string (no NUL inside), or NULL for null. */
static int
get_string(const struct pskd_json_field *f, int nullable, char **out)
{
	*out = NULL;
	if (f->kind == PSKD_JSON_OTHER && nullable && f->rawlen == 4 &&
	    memcmp(f->raw, "null", 4) == 0)
		return 0;
	if (f->kind != PSKD_JSON_STRING || (f->value.len > 0 &&
	    memchr(f->value.p, '\0', f->value.len) != NULL))
		return -1;
	/* An empty string has no buffer: never pass NULL to the C library. */
	*out = f->value.len > 0 ? pskd_xstrndup((const char *)f->value.p,
	    f->value.len) : pskd_xstrdup("");
	return 0;
}

static int
get_sha(const struct pskd_json_field *f, int nullable, char *hex)
{
	size_t i;

	hex[0] = '\0';
	if (f->kind == PSKD_JSON_OTHER && nullable && f->rawlen == 4 &&
	    memcmp(f->raw, "null", 4) == 0)
		return 0;
	if (f->kind != PSKD_JSON_STRING ||
	    !pskd_sha256_valid((const char *)f->value.p, f->value.len))
		return -1;
	for (i = 0; i < 64; i++) {
		char c = (char)f->value.p[i];

		hex[i] = c >= 'A' && c <= 'F' ? (char)(c - 'A' + 'a') : c;
	}
	hex[64] = '\0';
	return 0;
}

static void
free_fields(struct pskd_json_field *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pskd_buf_free(&f[i].value);
}

static void
add_str(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

static void
add_quoted(struct pskd_buf *b, const char *s)
{
	if (s == NULL)
		add_str(b, "null");
	else
		pskd_json_quote(b, (const unsigned char *)s, strlen(s));
}

static void
add_u64(struct pskd_buf *b, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	add_str(b, num);
}

/* The known members of a shard, as the writer writes them, without '}'. */
static void
shard_head(const struct pskd_shard *s, struct pskd_buf *b)
{
	add_str(b, "{\"url\": ");
	add_quoted(b, s->url);
	add_str(b, ", \"file\": ");
	add_quoted(b, s->file);
	add_str(b, ", \"bytes\": ");
	add_u64(b, s->bytes);
	add_str(b, ", \"sha256\": ");
	add_quoted(b, s->sha256[0] ? s->sha256 : NULL);
	add_str(b, ", \"etag\": ");
	add_quoted(b, s->etag);
	add_str(b, ", \"status\": \"");
	add_str(b, pskd_shard_status_name(s->status));
	pskd_buf_addc(b, '"');
	if (s->sha256_from != NULL) {
		add_str(b, ", \"sha256_from\": ");
		add_quoted(b, s->sha256_from);
	}
}

/* The members after the known ones, as an object of their own. */
static void
extra_object(const struct pskd_buf *extra, struct pskd_buf *obj)
{
	pskd_buf_addc(obj, '{');
	if (extra->len > 2)		/* ', "k": v, ...' */
		pskd_buf_add(obj, extra->p + 2, extra->len - 2);
	pskd_buf_addc(obj, '}');
}

static int
extra_has_known(const struct pskd_buf *extra)
{
	struct pskd_json_field f[NKNOWN];
	struct pskd_buf obj = { NULL, 0, 0 };
	char err[128];
	size_t i, off;
	int r = 0;

	if (extra->len == 0)
		return 0;
	memset(f, 0, sizeof(f));
	for (i = 0; i < NKNOWN; i++)
		f[i].name = known[i];
	extra_object(extra, &obj);
	if (pskd_json_fields(obj.p, obj.len, f, NKNOWN, err, sizeof(err),
	    &off) == -1)
		r = 1;
	for (i = 0; i < NKNOWN; i++)
		if (f[i].kind != PSKD_JSON_MISSING)
			r = 1;
	free_fields(f, NKNOWN);
	pskd_buf_free(&obj);
	return r;
}

static int
parse_shard(struct pskd_shard *s, const unsigned char *p, size_t n,
    char *err, size_t errsize)
{
	struct pskd_json_field f[NKNOWN];
	struct pskd_buf again = { NULL, 0, 0 };
	char *status = NULL;
	size_t i, off;
	int r = -1;

	memset(f, 0, sizeof(f));
	for (i = 0; i < NKNOWN; i++)
		f[i].name = known[i];
	if (pskd_json_fields(p, n, f, NKNOWN, err, errsize, &off) == -1)
		goto out;
	for (i = 0; i < NREQUIRED; i++)
		if (f[i].kind == PSKD_JSON_MISSING) {
			snprintf(err, errsize, "shard without \"%s\"",
			    known[i]);
			goto out;
		}
	if (get_string(&f[0], 0, &s->url) == -1 ||
	    get_string(&f[1], 0, &s->file) == -1) {
		snprintf(err, errsize, "\"url\" and \"file\" must be strings");
		goto out;
	}
	if (!pskd_shard_name_ok(s->file)) {
		snprintf(err, errsize, "unsafe file name");
		goto out;
	}
	if (f[2].kind != PSKD_JSON_NUMBER ||
	    pskd_get_u64(f[2].raw, f[2].rawlen, &s->bytes) == -1) {
		snprintf(err, errsize, "\"bytes\" must be a whole number");
		goto out;
	}
	if (get_sha(&f[3], 1, s->sha256) == -1) {
		snprintf(err, errsize, "\"sha256\" must be 64 hex digits");
		goto out;
	}
	if (get_string(&f[4], 1, &s->etag) == -1 ||
	    get_string(&f[5], 0, &status) == -1) {
		snprintf(err, errsize, "\"etag\" and \"status\" must be "
		    "strings");
		goto out;
	}
	if (strcmp(status, "complete") == 0)
		s->status = PSKD_SHARD_COMPLETE;
	else if (strcmp(status, "failed") == 0)
		s->status = PSKD_SHARD_FAILED;
	else if (strcmp(status, "pending") == 0)
		s->status = PSKD_SHARD_PENDING;
	else {
		snprintf(err, errsize, "unknown status");
		goto out;
	}
	if (f[6].kind != PSKD_JSON_MISSING) {
		char *from = NULL;

		if (get_string(&f[6], 0, &from) == 0)
			s->sha256_from = pskd_sha256_source(from);
		free(from);
		if (s->sha256_from == NULL) {
			snprintf(err, errsize, "unknown \"sha256_from\"");
			goto out;
		}
	}
	/*
	 * Members after the known ones are kept as text when the known ones
	 * come first, as this file writes them.
	 */
	shard_head(s, &again);
	if (again.len + 3 < n && memcmp(again.p, p, again.len) == 0 &&
	    p[again.len] == ',' && p[again.len + 1] == ' ' && p[n - 1] == '}')
		pskd_buf_add(&s->extra, p + again.len, n - 1 - again.len);
	else if (again.len + 1 != n || memcmp(again.p, p, again.len) != 0) {
		snprintf(err, errsize, "shard not in the canonical form");
		goto out;
	}
	/* The last of a duplicated key wins: none of ours may come again. */
	if (extra_has_known(&s->extra)) {
		snprintf(err, errsize, "a member pskd-get keeps, twice");
		goto out;
	}
	r = 0;
out:
	free(status);
	pskd_buf_free(&again);
	free_fields(f, NKNOWN);
	return r;
}

int
pskd_manifest_parse(struct pskd_manifest *m, const unsigned char *p,
    size_t len, char *err, size_t errsize, uint64_t *line)
{
	const unsigned char *nl, *end = p + len;
	struct pskd_json_field f[2];
	uint64_t ln = 1, version;
	size_t n, off;
	int last = 0;

	memset(f, 0, sizeof(f));
	f[0].name = "version";
	f[1].name = "shards";
	*line = 1;
	if (pskd_json_fields(p, len, f, 2, err, errsize, &off) == -1) {
		for (n = 0; n < off && n < len; n++)
			if (p[n] == '\n')
				(*line)++;
		free_fields(f, 2);
		return -1;
	}
	free_fields(f, 2);
	if (f[0].kind != PSKD_JSON_NUMBER ||
	    pskd_get_u64(f[0].raw, f[0].rawlen, &version) == -1 || version != 1) {
		snprintf(err, errsize, "not a version 1 manifest");
		return -1;
	}
	/* Valid JSON; now the layout: a head line, shard lines, a tail. */
	nl = memchr(p, '\n', len);
	if (nl == NULL || (size_t)(nl - p) != strlen(head) ||
	    memcmp(p, head, strlen(head)) != 0) {
		snprintf(err, errsize, "expected '%s'", head);
		return -1;
	}
	for (p = nl + 1, ln = 2; p < end; p = nl + 1, ln++) {
		*line = ln;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL) {
			snprintf(err, errsize, "no newline at the end");
			return -1;
		}
		n = (size_t)(nl - p);
		if (n == strlen(tail) && memcmp(p, tail, n) == 0) {
			if (nl + 1 != end) {
				snprintf(err, errsize, "text after the end");
				return -1;
			}
			if (m->n > 0 && !last) {
				snprintf(err, errsize, "',' after the last "
				    "shard");
				return -1;
			}
			return 0;
		}
		if (m->n > 0 && last) {
			snprintf(err, errsize, "expected ',' after the shard "
			    "before");
			return -1;
		}
		last = !(n > 0 && p[n - 1] == ',');
		if (!last)
			n--;
		if (parse_shard(pskd_manifest_add(m), p, n, err,
		    errsize) == -1)
			return -1;
		if (pskd_names_add(&m->files, m->shards[m->n - 1].file,
		    m->n - 1) != PSKD_NAMES_NONE) {
			snprintf(err, errsize, "file '%s' listed twice",
			    m->shards[m->n - 1].file);
			return -1;
		}
	}
	*line = ln;
	snprintf(err, errsize, "expected '%s'", tail);
	return -1;
}

void
pskd_manifest_encode(const struct pskd_manifest *m, struct pskd_buf *b)
{
	size_t i;

	add_str(b, head);
	pskd_buf_addc(b, '\n');
	for (i = 0; i < m->n; i++) {
		shard_head(&m->shards[i], b);
		pskd_buf_add(b, m->shards[i].extra.p, m->shards[i].extra.len);
		pskd_buf_addc(b, '}');
		if (i + 1 < m->n)
			pskd_buf_addc(b, ',');
		pskd_buf_addc(b, '\n');
	}
	add_str(b, tail);
	pskd_buf_addc(b, '\n');
}

void
pskd_manifest_lock_encode(const unsigned char *manifest, size_t len,
    struct pskd_buf *b)
{
	char hex[PSKD_SHA256_HEX];

	pskd_sha256_hex(manifest, len, hex);
	add_str(b, "{\"manifest_sha256\": \"");
	add_str(b, hex);
	add_str(b, "\"}\n");
}

int
pskd_manifest_lock_parse(const unsigned char *p, size_t len,
    char hex[PSKD_SHA256_HEX], char *err, size_t errsize)
{
	struct pskd_json_field f = { "manifest_sha256", 0, { 0, 0, 0 }, 0, 0 };
	size_t off;
	int r = -1;

	if (pskd_json_fields(p, len, &f, 1, err, errsize, &off) == -1)
		goto out;
	if (get_sha(&f, 0, hex) == -1) {
		snprintf(err, errsize, "no \"manifest_sha256\" of 64 hex "
		    "digits");
		goto out;
	}
	r = 0;
out:
	pskd_buf_free(&f.value);
	return r;
}

int
pskd_record_text_ok(const char *t)
{
	size_t i, n = strlen(t);

	for (i = 0; i < n; i++)
		if ((unsigned char)t[i] < 0x20 || t[i] == 0x7f)
			return 0;
	return pskd_utf8_check((const unsigned char *)t, n) == n;
}

int
pskd_shard_set(struct pskd_shard *s, const char *key, const char *json)
{
	struct pskd_buf obj = { NULL, 0, 0 }, val = { NULL, 0, 0 };
	struct pskd_json_field f = { key, 0, { 0, 0, 0 }, 0, 0 };
	char err[128];
	size_t i, off, at;
	int r = -3;

	for (i = 0; i < NKNOWN; i++)
		if (strcmp(key, known[i]) == 0)
			return -1;
	if (!pskd_record_text_ok(key) || *key == '\0')
		return -2;
	if (!pskd_record_text_ok(json))
		goto out;
	/*
	 * The value must be one JSON value, all of json: "1, \"status\": 2"
	 * parses inside {"v": ...} too, as two members.
	 */
	add_str(&val, "{\"v\": ");
	add_str(&val, json);
	pskd_buf_addc(&val, '}');
	f.name = "v";
	if (pskd_json_fields(val.p, val.len, &f, 1, err, sizeof(err),
	    &off) == -1 || f.kind == PSKD_JSON_MISSING ||
	    f.raw != val.p + 6 || f.rawlen != strlen(json))
		goto out;
	/* Where is key now?  Look at the members as an object of their own. */
	pskd_buf_free(&f.value);
	memset(&f, 0, sizeof(f));
	f.name = key;
	extra_object(&s->extra, &obj);
	if (pskd_json_fields(obj.p, obj.len, &f, 1, err, sizeof(err),
	    &off) == -1)
		goto out;
	if (f.kind == PSKD_JSON_MISSING) {
		add_str(&s->extra, ", ");
		add_quoted(&s->extra, key);
		add_str(&s->extra, ": ");
		add_str(&s->extra, json);
	} else {
		/* Splice the new value over the old (offsets shift by 1-2). */
		at = (size_t)(f.raw - obj.p) + 1;
		obj.len = 0;
		pskd_buf_add(&obj, s->extra.p, at);
		add_str(&obj, json);
		pskd_buf_add(&obj, s->extra.p + at + f.rawlen,
		    s->extra.len - at - f.rawlen);
		pskd_buf_free(&s->extra);
		s->extra = obj;
		obj.p = NULL;
	}
	r = 0;
out:
	pskd_buf_free(&f.value);
	pskd_buf_free(&obj);
	pskd_buf_free(&val);
	return r;
}

/* ---- checkpoints ------------------------------------------------------- */

void
pskd_checkpoint_clear(struct pskd_checkpoint *c)
{
	free(c->url);
	free(c->etag);
	free(c->last_modified);
	memset(c, 0, sizeof(*c));
}

int
pskd_checkpoint_parse(struct pskd_checkpoint *c, const unsigned char *p,
    size_t len, char *err, size_t errsize)
{
	static const char *const names[] = { "version", "url",
	    "verified_bytes", "expected_size", "sha256", "etag",
	    "last_modified" };
	struct pskd_json_field f[7];
	uint64_t version;
	size_t i, off;
	int r = -1;

	memset(c, 0, sizeof(*c));
	memset(f, 0, sizeof(f));
	for (i = 0; i < 7; i++)
		f[i].name = names[i];
	if (pskd_json_fields(p, len, f, 7, err, errsize, &off) == -1)
		goto out;
	for (i = 0; i < 7; i++)
		if (f[i].kind == PSKD_JSON_MISSING) {
			snprintf(err, errsize, "no \"%s\"", names[i]);
			goto out;
		}
	if (f[0].kind != PSKD_JSON_NUMBER ||
	    pskd_get_u64(f[0].raw, f[0].rawlen, &version) == -1 || version != 1) {
		snprintf(err, errsize, "not a version 1 checkpoint");
		goto out;
	}
	if (get_string(&f[1], 0, &c->url) == -1 ||
	    f[2].kind != PSKD_JSON_NUMBER ||
	    pskd_get_u64(f[2].raw, f[2].rawlen, &c->verified) == -1 ||
	    get_sha(&f[4], 0, c->sha256) == -1 ||
	    get_string(&f[5], 1, &c->etag) == -1 ||
	    get_string(&f[6], 1, &c->last_modified) == -1) {
		snprintf(err, errsize, "a member of the wrong type");
		goto out;
	}
	if (f[3].kind == PSKD_JSON_NUMBER &&
	    pskd_get_u64(f[3].raw, f[3].rawlen, &c->expected) == 0)
		c->expected_known = 1;
	else if (!(f[3].kind == PSKD_JSON_OTHER && f[3].rawlen == 4 &&
	    memcmp(f[3].raw, "null", 4) == 0)) {
		snprintf(err, errsize, "\"expected_size\" must be a whole "
		    "number or null");
		goto out;
	}
	if (c->expected_known && c->verified > c->expected) {
		snprintf(err, errsize, "more bytes verified than expected");
		goto out;
	}
	r = 0;
out:
	if (r == -1)
		pskd_checkpoint_clear(c);
	free_fields(f, 7);
	return r;
}

void
pskd_checkpoint_encode(const struct pskd_checkpoint *c, struct pskd_buf *b)
{
	add_str(b, "{\"version\": 1, \"url\": ");
	add_quoted(b, c->url);
	add_str(b, ", \"verified_bytes\": ");
	add_u64(b, c->verified);
	add_str(b, ", \"expected_size\": ");
	if (c->expected_known)
		add_u64(b, c->expected);
	else
		add_str(b, "null");
	add_str(b, ", \"sha256\": ");
	add_quoted(b, c->sha256);
	add_str(b, ", \"etag\": ");
	add_quoted(b, c->etag);
	add_str(b, ", \"last_modified\": ");
	add_quoted(b, c->last_modified);
	add_str(b, "}\n");
}
