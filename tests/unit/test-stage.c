/*
 * test-stage.c - unit tests of what the document stages share: members
 * appended to a line (pskd_json_append), the extra members of a document
 * (pskd_doc_extra), the whole-file reader (pskd_slurp), the verdict
 * lines (pskd_verdicts_put) and a stage's hook on its inputs and lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "check.h"

static int
appended(const char *line, const char *members, const char *want)
{
	struct pskd_buf b = { 0 };
	int ok;

	pskd_json_append(&b, (const unsigned char *)line, strlen(line),
	    (const unsigned char *)members, strlen(members));
	ok = b.len == strlen(want) && memcmp(b.p, want, b.len) == 0;
	if (!ok)
		printf("# got '%.*s'\n", (int)b.len, b.p);
	pskd_buf_free(&b);
	return ok;
}

static void
test_append(void)
{
	check(appended("{\"text\":\"a\"}", "\"l\":\"en\"",
	    "{\"text\":\"a\",\"l\":\"en\"}"), "append: after the last member");
	check(appended("{}", "\"l\":1", "{\"l\":1}"), "append: empty object");
	check(appended("{ \t}", "\"l\":1", "{ \t\"l\":1}"),
	    "append: empty object with blanks");
	check(appended("{\"a\":\"}\" }\r", "\"l\":1",
	    "{\"a\":\"}\" ,\"l\":1}\r"),
	    "append: blanks and the CR after the brace kept");
	check(appended("{\"a\":{\"b\":{}}}", "\"l\":1",
	    "{\"a\":{\"b\":{}},\"l\":1}"), "append: nested objects");
	check(appended("{\"a\":1}", "", "{\"a\":1}"), "append: nothing");
}

static void
test_extra(void)
{
	static const char line[] =
	    "{\"text\":\"t\",\"url\":\"http://x/\",\"m\":{\"lang\":\"en\"}}";
	struct pskd_doc d;
	struct pskd_error e;
	int u, l, z;

	check(pskd_doc_init(&d, "text", "id", &e) == 0, "extra: init");
	u = pskd_doc_extra(&d, "url");
	l = pskd_doc_extra(&d, "m.lang");
	z = pskd_doc_extra(&d, "missing");
	check(u > 0 && l > u && z > l, "extra: indexes after the id");
	check(pskd_doc_extra(&d, "a..b") == -1, "extra: a bad path refused");
	check(pskd_doc_parse(&d, (const unsigned char *)line,
	    sizeof(line) - 1) == 0, "extra: parse");
	check(d.f[u].kind == PSKD_JSON_STRING && d.f[u].value.len == 9 &&
	    memcmp(d.f[u].value.p, "http://x/", 9) == 0, "extra: url");
	check(d.f[l].kind == PSKD_JSON_STRING && d.f[l].value.len == 2,
	    "extra: nested member");
	check(d.f[z].kind == PSKD_JSON_MISSING, "extra: missing member");
	check(d.textlen == 1 && d.id == NULL, "extra: text and id unchanged");
	pskd_doc_free(&d);
}

static void
test_slurp(void)
{
	char path[] = "/tmp/pskd-slurp.XXXXXX";
	struct pskd_buf b = { 0 };
	unsigned char *big;
	size_t n = 3 * 65536 + 17, i;
	int fd;

	big = pskd_xmalloc(n);
	for (i = 0; i < n; i++)
		big[i] = (unsigned char)(i * 7);
	fd = mkstemp(path);
	check(fd != -1 && pskd_write_all(fd, big, n) == 0, "slurp: file");
	close(fd);
	check(pskd_slurp(path, 0, &b) == 0 && b.len == n &&
	    memcmp(b.p, big, n) == 0, "slurp: every byte");
	b.len = 0;
	check(pskd_slurp(path, n, &b) == 0 && b.len == n,
	    "slurp: exactly max");
	b.len = 0;
	errno = 0;
	check(pskd_slurp(path, n - 1, &b) == -1 && errno == EFBIG,
	    "slurp: one byte past max is EFBIG");
	b.len = 0;
	pskd_buf_add(&b, "x", 1);
	check(pskd_slurp(path, 0, &b) == 0 && b.len == n + 1 && b.p[0] == 'x',
	    "slurp: appends");
	unlink(path);
	b.len = 0;
	check(pskd_slurp(path, 0, &b) == -1 && errno == ENOENT,
	    "slurp: no such file");
	pskd_buf_free(&b);
	free(big);
}

static void
test_verdicts(void)
{
	char vpath[] = "/tmp/pskd-verdicts.XXXXXX", dpath[64];
	static const char wantv[] = "a\\tb\tkeep\nc\tgopher_short\t3\t50\n";
	static const char wantd[] = "c\tgopher_short\t3\t50\t{\"x\":1}\n";
	struct pskd_verdicts v;
	struct pskd_buf b = { 0 };
	int fd;

	fd = mkstemp(vpath);
	close(fd);
	snprintf(dpath, sizeof(dpath), "%s.d", vpath);
	pskd_verdicts_open(&v, vpath, dpath);
	pskd_verdicts_put(&v, (const unsigned char *)"a\tb", 3, "keep", NULL,
	    0, NULL, 0, NULL, 0);
	pskd_verdicts_put(&v, (const unsigned char *)"c", 1, "gopher_short",
	    (const unsigned char *)"3", 1, (const unsigned char *)"50", 2,
	    (const unsigned char *)"{\"x\":1}", 7);
	pskd_verdicts_close(&v);
	check(pskd_slurp(vpath, 0, &b) == 0 && b.len == strlen(wantv) &&
	    memcmp(b.p, wantv, b.len) == 0, "verdicts: the lines, escaped");
	b.len = 0;
	check(pskd_slurp(dpath, 0, &b) == 0 && b.len == strlen(wantd) &&
	    memcmp(b.p, wantd, b.len) == 0, "verdicts: the dropped line");
	unlink(vpath);
	unlink(dpath);
	pskd_buf_free(&b);
}

/* What the hook saw: "<NAME:INPUT>" a begin, "[LINE]" a line. */
static struct pskd_buf seen_log;

static void
seen(struct pskd_stage *s, const unsigned char *line, size_t len)
{
	char t[64];

	if (line == NULL) {
		snprintf(t, sizeof(t), "<%s:%d>", strrchr(s->source, '/') + 1,
		    s->input);
		pskd_buf_add(&seen_log, t, strlen(t));
		return;
	}
	pskd_buf_addc(&seen_log, '[');
	pskd_buf_add(&seen_log, line, len);
	pskd_buf_addc(&seen_log, ']');
}

static void
test_seen(void)
{
	static const char want[] = "<a:0>[{\"text\":\"x\"}][bad]<b:1><c:2>"
	    "[{\"text\":\"y\"}]";
	static struct pskd_stage st;
	char dir[] = "/tmp/test-stage.XXXXXX", path[3][64], *argv[3];
	const char *body[3] = { "{\"text\":\"x\"}\nbad\n", "",
	    "{\"text\":\"y\"}" };
	FILE *f;
	int i, docs = 0, inputs[2];

	if (mkdtemp(dir) == NULL)
		return;
	for (i = 0; i < 3; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/%c", dir, 'a' + i);
		f = fopen(path[i], "w");
		fputs(body[i], f);
		fclose(f);
		argv[i] = path[i];
	}
	st.seen = seen;
	st.output = "/dev/null";
	st.rejects = "/dev/null";
	pskd_stage_open(&st, 3, argv);
	while (pskd_stage_next(&st)) {
		inputs[docs++ & 1] = st.input;
		pskd_stage_keep(&st);
	}
	pskd_stage_close(&st);
	check(seen_log.len == strlen(want) && memcmp(seen_log.p, want,
	    seen_log.len) == 0, "seen: each input as it opens, an empty one "
	    "too, and every line");
	check(docs == 2 && inputs[0] == 0 && inputs[1] == 2,
	    "seen: the documents' inputs");
	for (i = 0; i < 3; i++)
		unlink(path[i]);
	rmdir(dir);
	pskd_buf_free(&seen_log);
}

int
main(void)
{
	test_append();
	test_extra();
	test_slurp();
	test_verdicts();
	test_seen();
	return check_status();
}
