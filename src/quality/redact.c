/*
 * redact.c - pskd-redact's rewriting of a JSON Lines line: the emails,
 * then the IPv4 addresses (in the text the emails' replacements left) of
 * each text member, replaced in the line itself.  The member's raw JSON
 * string is walked in step with its decoded text, so each match's raw
 * bytes, escapes and all, become its replacement and nothing else moves.
 */
#include <stdlib.h>
#include <string.h>

#include "quality/quality.h"

/* Bytes [off, off+len) of the line become wbuf.p[woff..woff+wlen). */
struct q_edit {
	size_t		 off, len, woff, wlen;
};

static void
edit_add(struct q_redactor *r, size_t off, size_t len, size_t woff)
{
	if (r->nedits == r->capedits) {
		r->capedits = r->capedits ? 2 * r->capedits : 16;
		r->edits = pskd_xreallocarray(r->edits, r->capedits,
		    sizeof(*r->edits));
	}
	r->edits[r->nedits].off = off;
	r->edits[r->nedits].len = len;
	r->edits[r->nedits].woff = woff;
	r->edits[r->nedits].wlen = r->wbuf.len - woff;
	r->nedits++;
}

/* A replacement as the inside of a JSON string (escaped, no quotes). */
static void
edit_text(struct q_redactor *r, size_t off, size_t len, const char *with)
{
	size_t start = r->wbuf.len;

	pskd_json_quote(&r->wbuf, (const unsigned char *)with, strlen(with));
	memmove(r->wbuf.p + start, r->wbuf.p + start + 1,
	    r->wbuf.len - start - 2);
	r->wbuf.len -= 2;
	edit_add(r, off, len, start);
}

/* s with the matches m replaced, into b. */
static void
apply(struct pskd_buf *b, const unsigned char *s, size_t n,
    const struct q_matches *m)
{
	size_t i, at = 0;

	b->len = 0;
	for (i = 0; i < m->n; i++) {
		if (m->v[i].with == NULL)
			continue;
		pskd_buf_add(b, s + at, m->v[i].off - at);
		pskd_buf_add(b, m->v[i].with, strlen(m->v[i].with));
		at = m->v[i].off + m->v[i].len;
	}
	if (n > at)
		pskd_buf_add(b, s + at, n - at);
}

static size_t
replaced(const struct q_matches *m)
{
	size_t i, k = 0;

	for (i = 0; i < m->n; i++)
		k += m->v[i].with != NULL;
	return k;
}

/* A JSON string (raw, after its quote) walked with the text it decodes to. */
struct walk {
	const unsigned char *raw;
	size_t		 r, d;
};

static size_t
hex4(const unsigned char *p)
{
	size_t v = 0, k;

	for (k = 0; k < 4; k++)
		v = v * 16 + (size_t)(p[k] <= '9' ? p[k] - '0' :
		    (p[k] | 0x20) - 'a' + 10);
	return v;
}

/* The raw offset of decoded offset d (d given in increasing order). */
static size_t
walk_to(struct walk *w, size_t d)
{
	const unsigned char *p;
	size_t cp;

	while (w->d < d) {
		p = w->raw + w->r;
		if (*p != '\\') {
			w->r++;
			w->d++;
		} else if (p[1] != 'u') {
			w->r += 2;
			w->d++;
		} else {
			cp = hex4(p + 2);
			if (cp >= 0xd800 && cp <= 0xdbff) {	/* a pair */
				w->r += 12;
				w->d += 4;
			} else {
				w->r += 6;
				w->d += cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
			}
		}
	}
	return w->r;
}

/*
 * Member f: the edits of its emails and addresses, as raw offsets into
 * the line; the turns r->ce, r->ci go on from member to member.
 */
static void
member(struct q_redactor *r, const unsigned char *line,
    const struct pskd_json_field *f)
{
	const struct q_settings *s = r->s;
	const unsigned char *d = f->value.p;
	size_t n = f->value.len, i, j, shift, a, e;
	struct walk w = { f->raw, 1, 0 };
	const struct q_match *m;
	int whole = 0;

	r->emails.n = r->ips.n = 0;
	if (s->remove_emails)
		q_pii_emails(d, n, s, &r->ce, &r->emails);
	apply(&r->text1, d, n, &r->emails);
	if (s->remove_ips)
		q_pii_ips(r->text1.p, r->text1.len, s, &r->ci, &r->ips);
	r->nemails += replaced(&r->emails);
	r->nips += replaced(&r->ips);
	if (replaced(&r->emails) + replaced(&r->ips) == 0)
		return;
	/* an address's offset in the text before the emails' replacements */
	for (i = 0; i < r->ips.n && !whole; i++) {
		if (r->ips.v[i].with == NULL)
			continue;
		for (shift = 0, j = 0; j < r->emails.n; j++) {
			m = &r->emails.v[j];
			if (m->with == NULL)
				continue;
			a = m->off + shift;
			e = a + strlen(m->with);
			if (r->ips.v[i].off + r->ips.v[i].len <= a)
				break;
			if (r->ips.v[i].off < e) {
				whole = 1;	/* in an email's replacement */
				break;
			}
			shift += strlen(m->with) - m->len;
		}
		r->ips.v[i].off -= shift;
	}
	if (whole) {	/* the member's string written anew */
		apply(&r->text2, r->text1.p, r->text1.len, &r->ips);
		a = r->wbuf.len;
		pskd_json_quote(&r->wbuf, r->text2.p, r->text2.len);
		edit_add(r, (size_t)(f->raw - line), f->rawlen, a);
		return;
	}
	/* both lists in text order, each match's raw bytes replaced */
	for (i = 0, j = 0; i < r->emails.n || j < r->ips.n;) {
		if (j == r->ips.n || (i < r->emails.n &&
		    r->emails.v[i].off < r->ips.v[j].off))
			m = &r->emails.v[i++];
		else
			m = &r->ips.v[j++];
		if (m->with == NULL)
			continue;
		a = walk_to(&w, m->off);
		e = walk_to(&w, m->off + m->len);
		edit_text(r, (size_t)(f->raw - line) + a, e - a, m->with);
	}
}

static int
by_offset(const void *a, const void *b)
{
	const struct q_edit *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

int
q_redact(struct q_redactor *r, const unsigned char *line, size_t len,
    const struct pskd_json_field *f, size_t nf)
{
	size_t k, at;

	r->nedits = 0;
	r->wbuf.len = 0;
	r->ce = r->ci = 0;
	for (k = 0; k < nf; k++)
		if (f[k].kind == PSKD_JSON_STRING)
			member(r, line, &f[k]);
	if (r->nedits == 0)
		return 0;
	qsort(r->edits, r->nedits, sizeof(*r->edits), by_offset);
	r->line.len = 0;
	for (at = 0, k = 0; k < r->nedits; k++) {
		pskd_buf_add(&r->line, line + at, r->edits[k].off - at);
		pskd_buf_add(&r->line, r->wbuf.p + r->edits[k].woff,
		    r->edits[k].wlen);
		at = r->edits[k].off + r->edits[k].len;
	}
	pskd_buf_add(&r->line, line + at, len - at);
	return 1;
}

void
q_redactor_free(struct q_redactor *r)
{
	free(r->emails.v);
	free(r->ips.v);
	free(r->edits);
	pskd_buf_free(&r->text1);
	pskd_buf_free(&r->text2);
	pskd_buf_free(&r->wbuf);
	pskd_buf_free(&r->line);
	memset(r, 0, sizeof(*r));
}
