/*
 * test-lib.c - unit tests of libpskd: the reader at its buffer edges, the
 * JSON field scanner, UTF-8 validation, little-endian helpers, the type
 * parser and the sample text form.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "check.h"



/* A reader over the bytes p[0..n) through a pipe fed by a child. */
static void
reader_over(struct pskd_reader *r, const void *p, size_t n)
{
	int fd[2];

	if (pipe(fd) == -1)
		exit(2);
	if (fork() == 0) {
		close(fd[0]);
		(void)pskd_write_all(fd[1], p, n);
		_exit(0);
	}
	close(fd[1]);
	pskd_reader_fdopen(r, fd[0], "<pipe>");
	r->owned = 1;
}

static void
test_reader_edges(void)
{
	struct pskd_reader r;
	const unsigned char *line;
	unsigned char *big;
	size_t len, n = PSKD_BUFSIZE * 2 + 10, i;
	int ok, rc;

	/* A newline exactly at the last byte of the first buffer fill. */
	big = malloc(n);
	memset(big, 'a', n);
	big[PSKD_BUFSIZE - 1] = '\n';
	big[n - 1] = '\n';
	reader_over(&r, big, n);
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == PSKD_BUFSIZE - 1 && r.lineno == 1,
	    "reader: line ending at the buffer's last byte");
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == n - PSKD_BUFSIZE - 1 && line[0] == 'a',
	    "reader: line spanning two buffer fills");
	check(pskd_reader_line(&r, &line, &len) == 0, "reader: then EOF");
	pskd_reader_close(&r);

	/* A line longer than the buffer, without a final newline. */
	memset(big, 'b', n);
	reader_over(&r, big, n);
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == n && r.noeol, "reader: 2 MiB line, no newline");
	pskd_reader_close(&r);

	/*
	 * With max: a line longer is cut to max bytes and the rest read past
	 * without being held; the lines after it, and the counts, as usual.
	 */
	memset(big, 'c', n);
	big[5] = '\n';
	big[n - 2] = '\n';
	big[n - 1] = 'z';
	reader_over(&r, big, n);
	r.max = 1000;
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 5 && !r.cut, "reader max: a short line");
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 1000 && r.cut && r.lineno == 2 &&
	    line[0] == 'c', "reader max: a long line cut");
	check(r.cap < 4 * PSKD_BUFSIZE, "reader max: and not held");
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 1 && line[0] == 'z' && !r.cut && r.noeol &&
	    r.lineno == 3 && r.offset == n, "reader max: the line after it");
	check(pskd_reader_line(&r, &line, &len) == 0, "reader max: then EOF");
	pskd_reader_close(&r);
	reader_over(&r, "abcdefghij\nxy\nklmnopq", 23);
	r.max = 5;
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 5 && r.cut && line[4] == 'e',
	    "reader max: a long line already held, cut all the same");
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 2 && !r.cut, "reader max: the next line");
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 5 && r.cut,
	    "reader max: a long last line without a newline");
	check(pskd_reader_line(&r, &line, &len) == 0 && r.offset == 23,
	    "reader max: then EOF");
	pskd_reader_close(&r);
	memset(big, 'd', n);
	reader_over(&r, big, n);
	r.max = 10;
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 10 && r.cut, "reader max: a cut last line");
	check(pskd_reader_line(&r, &line, &len) == 0 && r.noeol &&
	    r.offset == n, "reader max: its rest read past, EOF");
	pskd_reader_close(&r);

	/* CR before LF is kept; NUL bytes are ordinary bytes. */
	reader_over(&r, "a\r\nb\0c\n\n", 8);
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 2 && line[1] == '\r', "reader: CRLF keeps CR");
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 3 && line[1] == '\0' && line[2] == 'c',
	    "reader: NUL inside a line");
	rc = pskd_reader_line(&r, &line, &len);
	check(rc == 1 && len == 0 && r.lineno == 3, "reader: empty line");
	check(pskd_reader_line(&r, &line, &len) == 0, "reader: EOF after it");
	pskd_reader_close(&r);

	/* Empty input. */
	reader_over(&r, "", 0);
	check(pskd_reader_line(&r, &line, &len) == 0, "reader: empty input");
	pskd_reader_close(&r);

	/* peek/skip across fills and a read larger than the buffer. */
	for (i = 0; i < n; i++)
		big[i] = (unsigned char)(i * 7);
	reader_over(&r, big, n);
	{
		const unsigned char *p;
		ssize_t got = pskd_reader_peek(&r, 10, &p);
		unsigned char *dst = malloc(n);

		ok = got >= 10 && memcmp(p, big, 10) == 0;
		pskd_reader_skip(&r, 3);
		got = pskd_reader_read(&r, dst, n);
		ok = ok && got == (ssize_t)(n - 3) &&
		    memcmp(dst, big + 3, n - 3) == 0;
		check(ok, "reader: peek, skip, read past the buffer");
		free(dst);
	}
	pskd_reader_close(&r);
	free(big);
}

static int
field(const char *json, const char *name, const char *want, const char *werr)
{
	struct pskd_json_field f = { name, 0, { 0 }, NULL, 0 };
	char err[128] = "";
	size_t off = 0;
	int rc;

	rc = pskd_json_fields((const unsigned char *)json, strlen(json), &f, 1,
	    err, sizeof(err), &off);
	if (werr != NULL)
		return rc == -1 && strcmp(err, werr) == 0;
	if (rc == -1)
		return 0;
	if (want == NULL)
		return f.kind == PSKD_JSON_MISSING;
	return f.kind == PSKD_JSON_STRING && f.value.len == strlen(want) &&
	    memcmp(f.value.p, want, f.value.len) == 0;
}

static void
test_json(void)
{
	check(field("{\"text\":\"hi\"}", "text", "hi", NULL), "json: plain");
	check(field(" {\"a\":[1,{\"text\":\"no\"}],\"text\":\"yes\"} \r",
	    "text", "yes", NULL), "json: nested key ignored, CR ok");
	check(field("{\"text\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"}", "text",
	    "a\"b\\c/d\b\f\n\r\t", NULL), "json: simple escapes");
	check(field("{\"text\":\"\\u00e9\\u4e2d\"}", "text", "\xc3\xa9\xe4\xb8\xad",
	    NULL), "json: \\u escapes to UTF-8");
	check(field("{\"text\":\"\\ud83d\\ude00\"}", "text", "\xf0\x9f\x98\x80",
	    NULL), "json: surrogate pair");
	check(field("{\"text\":\"\\ud83d\"}", "text", NULL,
	    "lone high surrogate in \\u escape"), "json: lone high surrogate");
	check(field("{\"text\":\"\\ude00x\"}", "text", NULL,
	    "lone low surrogate in \\u escape"), "json: lone low surrogate");
	check(field("{\"text\":\"\\u12\"}", "text", NULL,
	    "invalid \\u escape"), "json: short \\u");
	check(field("{\"text\":\"\\x\"}", "text", NULL, "invalid escape"),
	    "json: unknown escape");
	check(field("{\"text\":\"a\tb\"}", "text", NULL,
	    "control character in string"), "json: raw control character");
	check(field("{\"text\":\"\xc0\xaf\"}", "text", NULL, "invalid UTF-8"),
	    "json: overlong UTF-8 in a string");
	check(field("{\"id\":1}", "text", NULL, NULL), "json: missing field");
	check(field("{\"text\":\"x\",\"text\":\"y\"}", "text", "y", NULL),
	    "json: last duplicate wins");
	check(field("[1]", "text", NULL, "not a JSON object"), "json: array");
	check(field("", "text", NULL, "empty line, expected a JSON object"),
	    "json: empty line");
	check(field("{\"text\":\"x\"} x", "text", NULL,
	    "trailing characters after the object"), "json: trailing text");
	check(field("{\"text\":01}", "text", NULL, "expected ',' or '}'"),
	    "json: leading zero");
	check(field("{\"a\":tru}", "text", NULL, "invalid value"),
	    "json: bad literal");
	check(field("{\"a\":1,}", "text", NULL, "expected a member name"),
	    "json: trailing comma");
	check(field("{\"text\":\"abc", "text", NULL, "unterminated string"),
	    "json: unterminated string");
	{
		char deep[2000];
		size_t i;

		strcpy(deep, "{\"a\":");
		for (i = 0; i < 600; i++)
			strcat(deep, "[");
		check(field(deep, "text", NULL, "nested too deeply"),
		    "json: depth limit");
	}
	{
		struct pskd_buf b = { 0 };

		pskd_json_quote(&b, (const unsigned char *)"a\"\\\n\x01", 5);
		check(b.len == 15 && memcmp(b.p, "\"a\\\"\\\\\\n\\u0001\"", 15)
		    == 0, "json: quote escapes");
		pskd_buf_free(&b);
	}
}

/* The text and id pskd_doc_parse finds for -f fields --id id, or its error. */
static int
doc(const char *json, const char *fields, const char *id, const char *want,
    const char *wantid, const char *werr)
{
	struct pskd_doc d;
	struct pskd_error e;
	int rc, ok;

	if (pskd_doc_init(&d, fields, id, &e) == -1)
		return werr != NULL && strstr(e.msg, werr) != NULL;
	rc = pskd_doc_parse(&d, (const unsigned char *)json, strlen(json));
	if (werr != NULL)
		ok = rc == -1 && strcmp(d.err, werr) == 0;
	else
		ok = rc == 0 && d.textlen == strlen(want) &&
		    memcmp(d.text, want, d.textlen) == 0 &&
		    (wantid == NULL ? d.id == NULL : d.id != NULL &&
		    d.idlen == strlen(wantid) &&
		    memcmp(d.id, wantid, d.idlen) == 0);
	pskd_doc_free(&d);
	return ok;
}

static void
test_json_paths(void)
{
	check(field("{\"m\":{\"t\":\"in\"},\"t\":\"out\"}", "m.t", "in",
	    NULL), "json path: a nested member");
	check(field("{\"m\":{\"t\":\"in\"},\"t\":\"out\"}", "t", "out",
	    NULL), "json path: the top-level one is another member");
	check(field("{\"a\":{\"b\":{\"c\":\"deep\"}}}", "a.b.c", "deep",
	    NULL), "json path: three levels");
	check(field("{\"a\":[{\"b\":\"x\"}]}", "a.b", NULL, NULL),
	    "json path: arrays are not entered");
	check(field("{\"a\":\"s\"}", "a.b", NULL, NULL),
	    "json path: a string has no members");
	check(field("{\"a\":{\"b\":\"1\"},\"a\":{\"c\":\"2\"}}", "a.b",
	    NULL, NULL), "json path: the last duplicate object wins whole");
	check(field("{\"a.b\":\"x\"}", "a.b", NULL, NULL),
	    "json path: a key with a dot is not a path");
	check(doc("{\"title\":\"T\",\"text\":\"body\"}", "title,text",
	    NULL, "T\n\nbody", NULL, NULL), "doc: two members joined");
	check(doc("{\"text\":\"body\",\"title\":null}", "title,text", NULL,
	    "body", NULL, NULL), "doc: a null member is left out");
	check(doc("{\"text\":\"b\",\"id\":\"d1\"}", "text,text", "id",
	    "b\n\nb", "d1", NULL), "doc: the same member twice");
	check(doc("{\"text\":\"b\",\"id\":42}", "text", "id", "b", "42",
	    NULL), "doc: a number id");
	check(doc("{\"text\":\"b\",\"id\":[1]}", "text", "id", "b", NULL,
	    NULL), "doc: an array id is no id");
	check(doc("{\"text\":\"b\",\"meta\":{\"url\":\"u\"}}", "text",
	    "meta.url", "b", "u", NULL), "doc: a nested id");
	check(doc("{\"id\":1}", "title,text", NULL, NULL, NULL,
	    "no \"title\" or \"text\" member"), "doc: none present");
	check(doc("{\"text\":null}", "text", NULL, NULL, NULL,
	    "\"text\" is null"), "doc: null text");
	check(doc("{\"text\":5}", "text", NULL, NULL, NULL,
	    "\"text\" is not a string"), "doc: a number text");
	check(doc("{\"text\":\"\\ud800\"}", "text", NULL, NULL, NULL,
	    "lone high surrogate in \\u escape at byte 9"),
	    "doc: a JSON error says where");
	check(doc("{}", "text,,id", NULL, NULL, NULL, "separated by commas"),
	    "doc: an empty field name is refused");
	check(doc("{}", "a..b", NULL, NULL, NULL, "joined by dots"),
	    "doc: an empty path segment is refused");
}

static void
test_utf8(void)
{
	static const struct { const char *s; size_t n, bad; const char *what; }
	cases[] = {
		{ "abc", 3, 3, "ASCII" },
		{ "\xc3\xa9", 2, 2, "2-byte" },
		{ "\xf0\x9f\x98\x80", 4, 4, "4-byte" },
		{ "\xef\xbf\xbf", 3, 3, "U+FFFF" },
		{ "\xf4\x8f\xbf\xbf", 4, 4, "U+10FFFF" },
		{ "a\xc0\x80", 3, 1, "overlong NUL" },
		{ "\xe0\x80\xaf", 3, 0, "overlong 3-byte" },
		{ "\xf0\x80\x80\xaf", 4, 0, "overlong 4-byte" },
		{ "\xed\xa0\x80", 3, 0, "surrogate D800" },
		{ "\xed\xbf\xbf", 3, 0, "surrogate DFFF" },
		{ "\xf4\x90\x80\x80", 4, 0, "above U+10FFFF" },
		{ "ab\xe4\xb8", 4, 2, "truncated 3-byte" },
		{ "\x80", 1, 0, "stray continuation" },
		{ "\xff", 1, 0, "byte FF" },
		{ "12345678\xc3", 9, 8, "truncated after an ASCII block" },
	};
	size_t i;
	char what[80];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(what, sizeof(what), "utf8: %s", cases[i].what);
		check(pskd_utf8_check((const unsigned char *)cases[i].s,
		    cases[i].n) == cases[i].bad, what);
	}
	{
		unsigned char out[4];
		uint32_t cp, back;
		int ok = 1;

		for (cp = 0; cp <= 0x10FFFF; cp += 7) {
			size_t n;

			if (cp >= 0xD800 && cp <= 0xDFFF)
				continue;
			n = pskd_utf8_encode(cp, out);
			if (pskd_utf8_decode(out, n, &back) != n || back != cp)
				ok = 0;
		}
		check(ok, "utf8: encode/decode round trip");
	}
}

/*
 * pskd_utf8_check at every PSKD_SIMD level the machine has gives the
 * offset the character-at-a-time check gives: every sequence of 4 bytes
 * from those where the rules change (27^4), placed on each side of a
 * 32-byte step in ASCII and after a 3-byte character, then random texts
 * of valid characters with a byte changed.
 */
static void
test_utf8_levels(void)
{
	static const unsigned char edge[] = { 0x00, 0x41, 0x7f, 0x80, 0x8f,
	    0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec,
	    0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xff };
	static const size_t at[] = { 0, 28, 29, 30, 31, 32, 60, 61 };
	static const char *const pool[] = { "a", " ", "\xe2\x96\x81",
	    "\xc3\xa9", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf",
	    "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80",
	    "\xf4\x8f\xbf\xbf", "\xe4\xb8\xad" };
	unsigned char b[96];
	size_t ne = sizeof(edge), i, a, len, want, got;
	uint32_t x = 12345;
	int l, top = pskd_simd_cpu(), bad, tried;
	char what[96];

	for (l = PSKD_SIMD_SSE2; l <= top; l++) {
		bad = tried = 0;
		for (a = 0; a < sizeof(at) / sizeof(at[0]); a++)
			for (i = 0; i < ne * ne * ne * ne; i++) {
				memset(b, 'x', sizeof(b));
				if (a % 2)
					memcpy(b + at[a] - 3 + 3 * (at[a] < 3),
					    "\xe4\xb8\xad", 3);
				b[at[a]] = edge[i % ne];
				b[at[a] + 1] = edge[i / ne % ne];
				b[at[a] + 2] = edge[i / ne / ne % ne];
				b[at[a] + 3] = edge[i / ne / ne / ne];
				for (len = at[a] + 4; len <= 96; len += 92 - at[a]) {
					want = pskd_utf8_check_at(b, len,
					    PSKD_SIMD_PORTABLE);
					got = pskd_utf8_check_at(b, len, l);
					bad += want != got;
					tried++;
				}
			}
		for (i = 0; i < 20000; i++) {
			len = 0;
			while (len < 80) {
				x = x * 1103515245 + 12345;
				a = strlen(pool[(x >> 16) % 12]);
				memcpy(b + len, pool[(x >> 16) % 12], a);
				len += a;
			}
			x = x * 1103515245 + 12345;
			if (i % 2)
				b[(x >> 16) % len] = (unsigned char)(x >> 8);
			want = pskd_utf8_check_at(b, len, PSKD_SIMD_PORTABLE);
			bad += want != pskd_utf8_check_at(b, len, l);
			tried++;
		}
		snprintf(what, sizeof(what), "utf8: %s's check gives the "
		    "portable offset (%d texts)", pskd_simd_name(l), tried);
		check(bad == 0, "%s", what);
	}
}

/*
 * pskd_byteset_find and _mask with AVX2 give the byte loop's answers:
 * each set of one byte (all 256) and 200 random sets, on texts of every
 * length up to 100 with a member at every offset or none.
 */
static void
test_byteset(void)
{
	struct pskd_byteset b;
	unsigned char in[256], s[100];
	uint32_t x = 99, want;
	size_t i, c, len, at, j, hit;
	int bad = 0, tried = 0;

	if (pskd_simd_cpu() < PSKD_SIMD_AVX2)
		return;
	for (i = 0; i < 456; i++) {
		memset(in, 0, sizeof(in));
		if (i < 256)
			in[i] = 1;
		else
			for (c = 0; c < 256; c++) {
				x = x * 1103515245 + 12345;
				in[c] = (x >> 16) % 9 == 0;
			}
		pskd_byteset_init(&b, in);
		for (len = 0; len <= 100; len += 1 + len / 8)
			for (at = 0; at <= len; at++) {
				for (j = 0; j < len; j++) {
					do {
						x = x * 1103515245 + 12345;
						s[j] = (unsigned char)(x >> 16);
					} while (in[s[j]]);
				}
				if (at < len) {
					for (c = 0; !in[c] && c < 255; c++)
						;
					s[at] = (unsigned char)c;
				}
				hit = at < len && in[s[at]] ? at : len;
				b.avx2 = 1;
				bad += pskd_byteset_find(&b, s, len) != hit;
				want = 0;
				for (j = 0; j < len && j < 32; j++)
					want |= (uint32_t)in[s[j]] << j;
				bad += pskd_byteset_mask(&b, s, len) != want;
				b.avx2 = 0;
				bad += pskd_byteset_find(&b, s, len) != hit;
				tried++;
			}
	}
	check(bad == 0, "byteset: AVX2's find and mask are the byte loop's "
	    "(%d texts)", tried);
}

static void
test_le(void)
{
	unsigned char b[8];

	pskd_put_le64(b, 0x0102030405060708ULL);
	check(b[0] == 8 && b[7] == 1 && pskd_get_le64(b) == 0x0102030405060708ULL,
	    "le: 64-bit");
	pskd_put_le32(b, 0xA1B2C3D4u);
	check(b[0] == 0xD4 && pskd_get_le32(b) == 0xA1B2C3D4u, "le: 32-bit");
	pskd_put_le16(b, 0xBEEF);
	check(b[0] == 0xEF && pskd_get_le16(b) == 0xBEEF, "le: 16-bit");
}

static int
type_err(const char *text, const char *msg)
{
	struct pskd_type t;
	struct pskd_error e;
	int r = pskd_type_parse(&t, text, strlen(text), &e) == -1 &&
	    strcmp(e.msg, msg) == 0;

	if (!r)
		printf("# %s -> %s\n", text, e.msg);
	pskd_type_free(&t);
	return r;
}

static void
test_type(void)
{
	struct pskd_type t;
	struct pskd_error e;
	char *s;
	int ok;

	ok = pskd_type_parse(&t, "(idx[65][seq: 4], ℝ[2][3], idx[70000])", 40,
	    &e) == 0;
	ok = ok && t.nleaves == 3 && t.leaves[0].width == 1 &&
	    t.leaves[0].nelem == 4 && t.leaves[1].offset == 4 &&
	    t.leaves[1].nelem == 6 && t.leaves[2].width == 4 &&
	    t.leaves[2].offset == 52 && t.sample_size == 56;
	check(ok, "type: tuple layout");
	s = pskd_type_format(&t, "batch", 8);
	check(strcmp(s, "(idx[65][batch: 8][seq: 4], ℝ[batch: 8][2][3], "
	    "idx[70000][batch: 8])") == 0, "type: format with batch dim");
	free(s);
	ok = pskd_type_set_encodings(&t, "bf16", &e) == 0 &&
	    t.leaves[1].width == 2 && t.sample_size == 4 + 12 + 4;
	check(ok, "type: set encodings");
	check(pskd_type_set_encodings(&t, "f32,f32", &e) == -1 &&
	    e.code == PSKD_E_MISMATCH, "type: encodings count mismatch");
	pskd_type_free(&t);

	check(pskd_idx_width(1) == 1 && pskd_idx_width(256) == 1 &&
	    pskd_idx_width(257) == 2 && pskd_idx_width(65536) == 2 &&
	    pskd_idx_width(65537) == 4 && pskd_idx_width(1ULL << 32) == 4 &&
	    pskd_idx_width((1ULL << 32) + 1) == 8, "type: idx widths");

	check(type_err("idx[V]", "E9001: type: column 5: type not closed: "
	    "idx bound V has no literal"), "type: open bound");
	check(type_err("idx[9][seq: T]", "E9001: type: column 13: type not "
	    "closed: dimension seq: T is not a literal"), "type: open dim");
	check(type_err("idx[9][seq]", "E9001: type: column 8: type not "
	    "closed: dimension seq has no literal size"), "type: bare name");
	check(type_err("ℕ[3]", "E9001: type: column 1: not a data type "
	    "(expected ℝ, idx or '(')"), "type: unknown leaf");
	check(type_err("(ℝ, idx[3]", "E9001: type: column 11: expected ')'"),
	    "type: unclosed tuple");
	check(type_err("idx[3] x", "E9001: type: column 8: unexpected text "
	    "after the type"), "type: trailing text");
	check(type_err("\xff", "E9001: type: byte 1: invalid UTF-8"),
	    "type: invalid UTF-8");
	check(type_err("idx[0]", "E9001: type: column 5: idx[0] has no values"),
	    "type: idx[0]");
	check(type_err("ℝ[99999999999][99999999999]", "E9001: type: the "
	    "sample size overflows 64 bits"), "type: size overflow");
	check(type_err("idx[99999999999999999999]", "E9001: type: column 5: "
	    "number too large"), "type: number overflow");
	ok = pskd_type_parse(&t, "params M", 8, &e) == 0 && t.params;
	check(ok, "type: params");
	pskd_type_free(&t);
	ok = pskd_type_parse(&t, "((ℝ))", 7, &e) == 0 && t.nshape == 1;
	check(ok, "type: parentheses around one type only group");
	pskd_type_free(&t);
}

static void
test_values(void)
{
	struct pskd_type t;
	struct pskd_error e;
	struct pskd_buf b = { 0 };
	unsigned char s[64];
	const char *text = "[[0.5,-0,1e+300],[[1,2],[3,65535]],NaN]";
	uint32_t f;
	uint16_t h;

	pskd_type_parse(&t, "(ℝ[3], idx[65536][2][2], ℝ)", 31, &e);
	check(pskd_sample_parse(&t, (const unsigned char *)text, strlen(text),
	    s, &e) == 0, "value: parse nested sample");
	pskd_sample_format(&b, &t, s);
	check(b.len == strlen(text) && memcmp(b.p, text, b.len) == 0,
	    "value: format is the inverse");
	check(pskd_sample_parse(&t, (const unsigned char *)"[[1,2],[[1,2],"
	    "[3,4]],5]", 24, s, &e) == -1 && e.code == PSKD_E_MISMATCH,
	    "value: short leaf is E9005");
	check(pskd_sample_parse(&t, (const unsigned char *)"[[1,2,x],[[1,2],"
	    "[3,4]],5]", 26, s, &e) == -1 && e.code == PSKD_E_VALUE,
	    "value: not a number is E9004");
	check(pskd_sample_parse(&t, (const unsigned char *)"[[1,2,3],[[1,2],"
	    "[3,65536]],5]", 30, s, &e) == -1 && e.code == PSKD_E_VALUE,
	    "value: out of bound is E9004");
	pskd_type_free(&t);
	check(pskd_f64_to_f32(0.1, &f) == -1 && pskd_f64_to_f32(0.5, &f) == 0 &&
	    f == 0x3F000000u, "value: f32 exactness");
	check(pskd_f64_to_bf16(1.0 + 1.0 / 256, &h) == -1 &&
	    pskd_f64_to_bf16(1.0 + 1.0 / 128, &h) == 0 && h == 0x3F81,
	    "value: bf16 exactness");
	{
		char out[40];

		pskd_format_double(out, sizeof(out), 0.1);
		check(strcmp(out, "0.1") == 0, "value: shortest 0.1");
		pskd_format_double(out, sizeof(out), 1.0 / 3);
		check(strcmp(out, "0.3333333333333333") == 0,
		    "value: shortest 1/3");
	}
	pskd_buf_free(&b);
}

static void
test_header(void)
{
	struct pskd_type t;
	struct pskd_header h;
	struct pskd_error e;
	struct pskd_buf b = { 0 };

	pskd_type_parse(&t, "idx[3]", 6, &e);
	pskd_header_encode(&b, &t, 5);
	check(pskd_header_parse(&h, b.p, b.len, &e) == 0 && h.count == 5 &&
	    h.version == 1 && h.size == b.len, "header: encode/parse");
	pskd_header_free(&h);
	check(pskd_header_parse(&h, b.p, b.len - 1, &e) == -1 &&
	    e.code == PSKD_E_TRUNC, "header: one byte short is E9003");
	pskd_header_free(&h);
	b.p[0] = 'X';
	check(pskd_header_parse(&h, b.p, b.len, &e) == -1 &&
	    e.code == PSKD_E_MAGIC, "header: bad magic is E9002");
	pskd_header_free(&h);
	b.p[0] = 'P';
	pskd_put_le32(b.p + 6, 0xFFFFFFF0u);
	check(pskd_header_parse(&h, b.p, b.len, &e) == -1 &&
	    e.code == PSKD_E_TRUNC, "header: huge type_len is E9003");
	pskd_header_free(&h);
	pskd_type_free(&t);
	pskd_buf_free(&b);
}

int
main(void)
{
	test_reader_edges();
	test_json();
	test_json_paths();
	test_utf8();
	test_utf8_levels();
	test_byteset();
	test_le();
	test_type();
	test_values();
	test_header();
	return check_status();
}
