/*
 * text.c - the line streams of documents: JSON Lines (the text, and the
 * language members pskd-lid writes) or plain text, one document a line.
 * A line of up to STATS_LINE_MAX bytes is read whole, with lib's json.c
 * (pskd_doc_parse) as every program reads documents; a longer one is read
 * as it passes, with jstream.c, so that memory stays a few MiB whatever
 * the documents' size.  Both give the same numbers and the same errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/collect.h"
#include "stats/jstream.h"

#define SCORE_MAX	64	/* bytes of a language score's text */

/* Code points in UTF-8 that is known to be valid: all but continuations. */
static uint64_t
chars(const unsigned char *p, size_t n)
{
	uint64_t cont = 0, x;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, p + i, 8);
		/* 10xxxxxx: bit 7 set, bit 6 clear. */
		cont += (uint64_t)__builtin_popcountll(x & ~(x << 1) &
		    0x8080808080808080ULL);
	}
	for (; i < n; i++)
		cont += (p[i] & 0xc0) == 0x80;
	return n - cont;
}

int
collect_line(struct pskd_reader *r, const unsigned char **line, size_t *len)
{
	const unsigned char *p;
	size_t have = r->end - r->pos, look;
	ssize_t got;

	look = have < STATS_LINE_MAX + 1 ? have : STATS_LINE_MAX + 1;
	if (memchr(r->buf + r->pos, '\n', look) == NULL &&
	    have <= STATS_LINE_MAX) {
		if ((got = pskd_reader_peek(r, STATS_LINE_MAX + 1, &p)) < 0)
			return -1;
		have = (size_t)got;
	}
	if (have > STATS_LINE_MAX && memchr(r->buf + r->pos, '\n',
	    STATS_LINE_MAX + 1) == NULL) {
		r->lineno++;
		return 2;
	}
	return pskd_reader_line(r, line, len);
}

ssize_t
collect_piece(struct pskd_reader *r, const unsigned char **p, int *last)
{
	const unsigned char *nl;
	ssize_t got;

	if ((got = pskd_reader_peek(r, 1, p)) <= 0) {
		*last = 1;
		r->noeol = 1;
		return got;
	}
	nl = memchr(*p, '\n', (size_t)got);
	*last = nl != NULL;
	if (nl != NULL) {
		r->noeol = 0;
		return nl - *p;
	}
	return got;
}

void
collect_consume(struct pskd_reader *r, size_t n, int last)
{
	pskd_reader_skip(r, n + (last && !r->noeol));
}

/* The language members of a document, from either reader. */
struct extra {
	enum pskd_json_kind lang, score;
	int		 langnull, scorenull, over;
	const unsigned char *l, *sc;
	size_t		 llen, sclen;
};

static void
add_extra(struct pskd_reader *r, struct stats *s,
    const struct collect_opts *o, const struct extra *x)
{
	char num[SCORE_MAX + 1], *end;
	double v;

	if (x->lang == PSKD_JSON_STRING) {
		if (x->llen > STATS_NAME_MAX)
			pskd_fail_at(r->name, r->lineno, "\"%s\" is longer "
			    "than %d bytes", o->lang, STATS_NAME_MAX);
		if (stats_tally_add(&s->langs, x->l, x->llen, 1) == -1)
			pskd_fail_at(r->name, r->lineno, "more than %d "
			    "languages", STATS_NAMES_MAX);
	} else if (x->lang != PSKD_JSON_MISSING && !x->langnull)
		pskd_fail_at(r->name, r->lineno, "\"%s\" is not a string",
		    o->lang);
	if (x->score == PSKD_JSON_MISSING || x->scorenull)
		return;
	v = -1;
	if (x->score == PSKD_JSON_NUMBER && x->sclen <= SCORE_MAX) {
		memcpy(num, x->sc, x->sclen);
		num[x->sclen] = '\0';
		v = strtod(num, &end);
	}
	if (!(v >= 0 && v <= 1))
		pskd_fail_at(r->name, r->lineno, "\"%s\" is not a number from "
		    "0 to 1 (in at most %d characters)", o->score, SCORE_MAX);
	stats_dist_add(&s->lscore, (uint64_t)floor(v * 10000 + 0.5));
}

static void
add_document(struct pskd_reader *r, struct stats *s, uint64_t linebytes,
    uint64_t textbytes, uint64_t textchars)
{
	s->n++;
	s->bytes += linebytes + !r->noeol;
	stats_dist_add(&s->text_bytes, textbytes);
	stats_dist_add(&s->text_chars, textchars);
	if ((s->n & 0xfff) == 0)
		collect_progress(r);
}

static int
isnull(const struct pskd_json_field *f)
{
	return f->kind == PSKD_JSON_OTHER && f->rawlen == 4 &&
	    memcmp(f->raw, "null", 4) == 0;
}

/* A line read whole: as pskd_doc_parse reads it. */
static void
whole_document(struct pskd_reader *r, struct stats *s,
    const struct collect_opts *o, struct pskd_doc *d, int li, int si,
    const unsigned char *line, size_t len)
{
	struct extra x = { 0 };

	if (pskd_doc_parse(d, line, len) == -1)
		pskd_fail_at(r->name, r->lineno, "%s", d->err);
	x.lang = d->f[li].kind;
	x.langnull = isnull(&d->f[li]);
	x.l = d->f[li].value.p;
	x.llen = d->f[li].value.len;
	x.score = d->f[si].kind;
	x.scorenull = isnull(&d->f[si]);
	x.sc = d->f[si].raw;
	x.sclen = d->f[si].rawlen;
	add_extra(r, s, o, &x);
	add_document(r, s, len, d->textlen, chars(d->text, d->textlen));
}

/* "no "text" member", "no "title" or "text" member", as doc.c says. */
static _Noreturn void
missing(struct pskd_reader *r, const struct pskd_doc *d)
{
	struct pskd_buf b = { NULL, 0, 0 };
	size_t k;

	pskd_buf_add(&b, "no ", 3);
	for (k = 0; k < d->nf; k++) {
		if (k > 0)
			pskd_buf_add(&b, k + 1 == d->nf ? " or " : ", ",
			    k + 1 == d->nf ? 4 : 2);
		pskd_buf_addc(&b, '"');
		pskd_buf_add(&b, d->f[k].name, strlen(d->f[k].name));
		pskd_buf_addc(&b, '"');
	}
	pskd_buf_add(&b, " member", 8);
	/* doc.c's message lives in 256 bytes. */
	pskd_fail_at(r->name, r->lineno, "%.*s", (int)(b.len < 255 ? b.len :
	    255), (const char *)b.p);
}

/* A line too long to hold: read as it passes, judged as doc.c judges. */
static void
long_document(struct pskd_reader *r, struct stats *s,
    const struct collect_opts *o, const struct pskd_doc *d)
{
	struct js_field f[PSKD_DOC_MAXFIELDS + 2];
	struct jstream *j = pskd_xmalloc(sizeof(*j));
	const unsigned char *p;
	struct extra x = { 0 };
	uint64_t line = 0, bytes = 0, nchars = 0, present = 0;
	size_t k, nf = d->nf;
	ssize_t got;
	int last = 0;

	memset(f, 0, sizeof(f));
	for (k = 0; k < nf; k++)
		f[k].name = d->f[k].name;
	f[nf].name = o->lang;
	f[nf].cap = STATS_NAME_MAX + 1;
	f[nf + 1].name = o->score;
	f[nf + 1].cap = SCORE_MAX + 1;
	js_begin(j, f, nf + 2);
	while (!last) {
		if ((got = collect_piece(r, &p, &last)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r->name);
		if (js_feed(j, p, (size_t)got) == -1)
			break;
		line += (uint64_t)got;
		collect_consume(r, (size_t)got, last);
		collect_progress(r);
	}
	if (j->err[0] != '\0' || js_end(j) == -1)
		pskd_fail_at(r->name, r->lineno, "%s at byte %llu", j->err,
		    (unsigned long long)j->erroff);
	for (k = 0; k < nf; k++) {
		if (f[k].kind == PSKD_JSON_MISSING || f[k].null)
			continue;
		if (f[k].kind != PSKD_JSON_STRING)
			pskd_fail_at(r->name, r->lineno, "\"%s\" is not a "
			    "string", f[k].name);
		bytes += f[k].bytes + (present > 0 ? 2 : 0);
		nchars += f[k].chars + (present > 0 ? 2 : 0);
		present++;
	}
	if (present == 0) {
		if (nf == 1 && f[0].null)
			pskd_fail_at(r->name, r->lineno, "\"%s\" is null",
			    f[0].name);
		missing(r, d);
	}
	x.lang = f[nf].kind;
	x.langnull = f[nf].null;
	x.l = f[nf].value.p;
	x.llen = f[nf].over ? STATS_NAME_MAX + 1 : f[nf].value.len;
	x.score = f[nf + 1].kind;
	x.scorenull = f[nf + 1].null;
	x.sc = f[nf + 1].value.p;
	x.sclen = f[nf + 1].over ? SCORE_MAX + 1 : f[nf + 1].value.len;
	add_extra(r, s, o, &x);
	add_document(r, s, line, bytes, nchars);
	js_free(f, nf + 2);
	free(j);
}

/* The length of the UTF-8 character that starts with c; 0: none does. */
static size_t
utf8_len(unsigned char c)
{
	return c < 0xC2 ? 0 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF5 ? 4 : 0;
}

/*
 * A plain line too long to hold, its UTF-8 checked as it passes: a
 * character cut by the end of a piece is held (at most 3 bytes) until the
 * next piece completes it.
 */
static void
long_plain(struct pskd_reader *r, struct stats *s)
{
	const unsigned char *p;
	unsigned char hold[4];
	uint64_t line = 0, nchars = 0, holdat = 0;
	size_t nhold = 0, want = 0, n, off, k;
	ssize_t got;
	uint32_t cp;
	int last = 0;

	while (!last) {
		if ((got = collect_piece(r, &p, &last)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r->name);
		n = (size_t)got;
		for (k = 0; nhold > 0 && nhold < want && k < n; k++)
			hold[nhold++] = p[k];
		if (nhold > 0 && nhold == want) {
			if (pskd_utf8_decode(hold, want, &cp) == 0)
				break;
			nchars++;
			nhold = 0;
		}
		if (nhold == 0) {
			off = k + pskd_utf8_check(p + k, n - k);
			nchars += chars(p + k, off - k);
			if (off < n && !last && n - off < utf8_len(p[off])) {
				memcpy(hold, p + off, n - off);
				nhold = n - off;
				want = utf8_len(p[off]);
				holdat = line + off;
			} else if (off < n) {
				holdat = line + off;
				nhold = 1;
				break;
			}
		}
		line += n;
		collect_consume(r, n, last);
		collect_progress(r);
	}
	if (nhold > 0)
		pskd_fail_at(r->name, r->lineno, "invalid UTF-8 at byte %llu",
		    (unsigned long long)holdat);
	add_document(r, s, line, line, nchars);
}

/* The streaming reader matches member names of up to JS_KEYCAP bytes. */
static void
check_names(const struct pskd_doc *d)
{
	const char *p, *dot;
	size_t k;

	for (k = 0; k < d->nf + d->nextra; k++)
		for (p = d->f[k].name; p != NULL; p = dot ? dot + 1 : NULL) {
			dot = strchr(p, '.');
			if ((dot ? (size_t)(dot - p) : strlen(p)) > JS_KEYCAP)
				pskd_errx(PSKD_EXIT_USAGE, "%.40s...: a member "
				    "name longer than %d bytes", p, JS_KEYCAP);
		}
}

void
collect_documents(struct pskd_reader *r, struct stats *s,
    const struct collect_opts *o, int plain)
{
	struct pskd_doc doc;
	struct pskd_error e;
	const unsigned char *line;
	size_t len, off;
	int rc, li = 0, si = 0;

	if (!plain) {
		if (pskd_doc_init(&doc, o->field, NULL, &e) == -1)
			pskd_errx(PSKD_EXIT_USAGE, "-f: %s", e.msg);
		li = pskd_doc_extra(&doc, o->lang);
		si = pskd_doc_extra(&doc, o->score);
		if (li < 0 || si < 0)
			pskd_errx(PSKD_EXIT_USAGE, "--language, "
			    "--language-score: a member name, or names joined "
			    "by dots");
		check_names(&doc);
	}
	while ((rc = collect_line(r, &line, &len)) > 0) {
		if (rc == 2 && plain)
			long_plain(r, s);
		else if (rc == 2)
			long_document(r, s, o, &doc);
		else if (!plain)
			whole_document(r, s, o, &doc, li, si, line, len);
		else {
			off = pskd_utf8_check(line, len);
			if (off != len)
				pskd_fail_at(r->name, r->lineno, "invalid UTF-8 "
				    "at byte %zu", off);
			add_document(r, s, len, len, chars(line, len));
		}
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
	if (!plain)
		pskd_doc_free(&doc);
}
