/*
 * fuzz-filter.c - what pskd-filter and pskd-redact parse, on any bytes.
 * The first byte picks:
 *   0  a document's text (cut at its first invalid UTF-8 byte): every rule
 *      set runs on it without fault; the ASCII path's words are ICU's;
 *      the PII matches are in order, inside the text, not overlapping.
 *   1  a url blocklist, then a list of banned substrings: either loads or
 *      fails with a FILE:LINE message; the rest checked against them.
 *   2  --set values, a line each, for both programs: taken or refused
 *      with a message; the settings printed after.
 *   3  a JSON Lines line for pskd-redact: when it parses, the line it
 *      writes parses too, with the text datatrove's order of replacements
 *      gives, and its bytes outside the text member unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "quality/quality.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct q_seg *seg, *icu;
static struct q_text text;
static struct q_spans a, b;

static void
matches_ok(const struct q_matches *m, size_t n)
{
	size_t i, end = 0;

	for (i = 0; i < m->n; i++) {
		if (m->v[i].off < end || m->v[i].len == 0 ||
		    m->v[i].off + m->v[i].len > n)
			abort();
		end = m->v[i].off + m->v[i].len;
	}
}

static void
rules(const unsigned char *p, size_t n)
{
	struct q_settings s;
	struct q_verdict v;
	struct pskd_error e;
	struct q_matches m = { 0 };
	size_t k, cycle = 0;

	n = pskd_utf8_check(p, n);
	if (q_words(seg, p, n, &a, &e) == -1 || q_words(icu, p, n, &b, &e) == -1)
		abort();
	if (a.n != b.n)
		abort();
	for (k = 0; k < a.n; k++)
		if (a.v[k].off != b.v[k].off || a.v[k].len != b.v[k].len)
			abort();
	q_settings_default(&s);
	for (k = 0; k < 2; k++) {
		q_text_set(&text, p, n);
		if (q_gopher_repetition(&text, seg, &s, &v, &e) == -1 ||
		    q_gopher_quality(&text, seg, &s, &v, &e) == -1 ||
		    q_c4(&text, seg, &s, &v, &e) == -1 ||
		    q_fineweb(&text, seg, &s, &v, &e) == -1)
			abort();
		s.split_paragraph = 0;
		s.max_word_length = -1;
	}
	q_pii_emails(p, n, &s, &cycle, &m);
	matches_ok(&m, n);
	q_pii_ips(p, n, &s, &cycle, &m);
	matches_ok(&m, n);
	free(m.v);
	q_settings_free(&s);
}

static void
lists(const unsigned char *p, size_t n)
{
	struct q_urls *u = q_urls_new();
	struct pskd_error e;
	struct q_verdict v;
	const unsigned char *half = memchr(p, 0, n);
	size_t n1 = half ? (size_t)(half - p) : n;

	if (q_urls_parse(u, "list", p, n1, 0, &e) == -1 &&
	    strncmp(e.msg, "list:", 5) != 0)
		abort();
	if (half && q_urls_parse(u, "list", half + 1, n - n1 - 1, 1, &e) == -1 &&
	    strncmp(e.msg, "list:", 5) != 0)
		abort();
	q_urls_check(u, p, n1, &v);
	q_urls_free(u);
}

static void
settings(const unsigned char *p, size_t n)
{
	struct q_settings s;
	struct pskd_error e;
	struct pskd_writer w;
	char *copy = pskd_xstrndup((const char *)p, n), *line, *next;
	int which;

	for (which = Q_SET_FILTER; which <= Q_SET_REDACT; which++) {
		q_settings_default(&s);
		for (line = copy; line != NULL; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			if (q_settings_set(&s, which, line, &e) == -1 &&
			    e.msg[0] == '\0')
				abort();
		}
		pskd_writer_init(&w, -1, "null");
		q_settings_print(&s, which, &w, NULL);
		free(w.buf);
		q_settings_free(&s);
		free(copy);
		copy = pskd_xstrndup((const char *)p, n);
	}
	free(copy);
}

static void
redact(const unsigned char *p, size_t n)
{
	struct pskd_json_field f = { "text", 0, { 0 }, NULL, 0 };
	struct pskd_json_field g = { "text", 0, { 0 }, NULL, 0 };
	struct q_redactor r = { 0 };
	struct q_settings s;
	char err[128];
	size_t off;

	if (pskd_json_fields(p, n, &f, 1, err, sizeof(err), &off) == 0) {
		q_settings_default(&s);
		r.s = &s;
		if (q_redact(&r, p, n, &f, 1) == 1) {
			size_t pre = (size_t)(f.raw - p), post = n - pre - f.rawlen;

			if (pskd_json_fields(r.line.p, r.line.len, &g, 1, err,
			    sizeof(err), &off) != 0 ||
			    memcmp(r.line.p, p, pre) != 0 ||
			    memcmp(r.line.p + r.line.len - post, p + pre +
			    f.rawlen, post) != 0)
				abort();
		}
		q_redactor_free(&r);
		q_settings_free(&s);
	}
	pskd_buf_free(&f.value);
	pskd_buf_free(&g.value);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pskd_error e;

	if (seg == NULL) {
		seg = q_seg_open(&e);
		icu = q_seg_open(&e);
		if (seg == NULL || icu == NULL)
			abort();
		q_seg_icu_only(icu, 1);
	}
	if (size == 0)
		return 0;
	switch (data[0] & 3) {
	case 0: rules(data + 1, size - 1); break;
	case 1: lists(data + 1, size - 1); break;
	case 2: settings(data + 1, size - 1); break;
	case 3: redact(data + 1, size - 1); break;
	}
	return 0;
}
