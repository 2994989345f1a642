/*
 * pskd-redact - JSON Lines documents with the email addresses and public
 * IPv4 addresses of their text replaced the way datatrove's PIIFormatter
 * replaces them (emails first, then addresses, each from its own list in
 * turn), the turn starting over with each document.  Only the bytes of
 * each match in the line change, to the replacement; a document with
 * nothing to replace leaves as it came.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "quality/quality.h"

static const char usage_text[] =
    "pskd-redact [-Pq] [-f fields] [-o file] [-s name=value ...]\n"
    "                   [--id field] [--rejects file] [--verdicts file]\n"
    "                   [file ...]\n"
    "       pskd-redact --settings [-s name=value ...]";

enum { OPT_ID = 256, OPT_REJECTS, OPT_VERDICTS, OPT_SETTINGS, OPT_HELP,
	OPT_VERSION };

/* An edit of the line: bytes [off, off+len) become out[woff..woff+wlen). */
struct edit {
	size_t		 off, len, woff, wlen;
};

static struct q_settings cfg;
static struct q_matches emails, ips;
static struct pskd_buf text1, text2, wbuf, line;
static struct edit *edits;
static size_t nedits, capedits;
static uint64_t nemails, nips, nchanged;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -f, --field NAME,...   the text members (default text)\n"
	    "  -o, --output FILE      the documents (default stdout)\n"
	    "  -P, --progress         progress on stderr, even if not a tty\n"
	    "  -q, --quiet            no progress\n"
	    "  -s, --set NAME=VALUE   a switch or list (--settings lists "
	    "them)\n"
	    "      --id NAME          the id member (default id)\n"
	    "      --rejects FILE     bad documents to FILE as TSV, and on\n"
	    "      --verdicts FILE    one verdict a document\n"
	    "      --settings         print every setting and its value\n"
	    "      --help             this text\n"
	    "      --version          the version\n");
	exit(0);
}

/* Bytes [off, off+len) of the line become wbuf.p[woff..wbuf.len). */
static void
edit_add(size_t off, size_t len, size_t woff)
{
	if (nedits == capedits) {
		capedits = capedits ? 2 * capedits : 16;
		edits = pskd_xreallocarray(edits, capedits, sizeof(*edits));
	}
	edits[nedits].off = off;
	edits[nedits].len = len;
	edits[nedits].woff = woff;
	edits[nedits].wlen = wbuf.len - woff;
	nedits++;
}

/* A replacement as the inside of a JSON string. */
static void
edit_text(size_t off, size_t len, const char *with)
{
	size_t start = wbuf.len;

	pskd_json_quote(&wbuf, (const unsigned char *)with, strlen(with));
	/* without its quotes */
	memmove(wbuf.p + start, wbuf.p + start + 1, wbuf.len - start - 2);
	wbuf.len -= 2;
	edit_add(off, len, start);
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

/*
 * The raw JSON string raw[0..rawlen) (quotes included) walked in step with
 * the text it decodes to: the raw offset of decoded offset d, for d given
 * in increasing order.
 */
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
			if (cp >= 0xd800 && cp <= 0xdbff) {
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
 * the line; *cycle_e and *cycle_i go on from member to member.
 */
static void
redact_member(const unsigned char *linep, const struct pskd_json_field *f,
    size_t *cycle_e, size_t *cycle_i)
{
	const unsigned char *d = f->value.p;
	size_t n = f->value.len, i, j, shift, a, e, k;
	struct walk w = { f->raw, 1, 0 };
	int whole = 0;

	emails.n = ips.n = 0;
	if (cfg.remove_emails)
		q_pii_emails(d, n, &cfg, cycle_e, &emails);
	apply(&text1, d, n, &emails);
	if (cfg.remove_ips)
		q_pii_ips(text1.p, text1.len, &cfg, cycle_i, &ips);
	nemails += replaced(&emails);
	nips += replaced(&ips);
	if (replaced(&emails) + replaced(&ips) == 0)
		return;
	/* an address in the text, not in an email's replacement: shift back */
	for (i = 0; i < ips.n && !whole; i++) {
		if (ips.v[i].with == NULL)
			continue;
		for (shift = 0, j = 0; j < emails.n; j++) {
			if (emails.v[j].with == NULL)
				continue;
			a = emails.v[j].off + shift;
			e = a + strlen(emails.v[j].with);
			if (ips.v[i].off + ips.v[i].len <= a)
				break;
			if (ips.v[i].off < e) {
				whole = 1;
				break;
			}
			shift += strlen(emails.v[j].with) - emails.v[j].len;
		}
		ips.v[i].off -= shift;
	}
	if (whole) {	/* a replacement that holds an address: all anew */
		apply(&text2, text1.p, text1.len, &ips);
		k = wbuf.len;
		pskd_json_quote(&wbuf, text2.p, text2.len);
		edit_add((size_t)(f->raw - linep), f->rawlen, k);
		return;
	}
	/* both lists in text order, then each match's raw bytes replaced */
	for (i = 0, j = 0; i < emails.n || j < ips.n;) {
		const struct q_match *m;

		if (j == ips.n || (i < emails.n && emails.v[i].off <
		    ips.v[j].off))
			m = &emails.v[i++];
		else
			m = &ips.v[j++];
		if (m->with == NULL)
			continue;
		a = walk_to(&w, m->off);
		e = walk_to(&w, m->off + m->len);
		edit_text((size_t)(f->raw - linep) + a, e - a, m->with);
	}
}

static int
by_offset(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static void
redact(struct pskd_stage *st)
{
	size_t k, at, ce = 0, ci = 0;

	nedits = 0;
	wbuf.len = 0;
	for (k = 0; k < st->doc.nf; k++)
		if (st->doc.f[k].kind == PSKD_JSON_STRING)
			redact_member(st->line, &st->doc.f[k], &ce, &ci);
	if (nedits == 0) {
		pskd_stage_keep(st);
		return;
	}
	qsort(edits, nedits, sizeof(*edits), by_offset);
	line.len = 0;
	for (at = 0, k = 0; k < nedits; k++) {
		pskd_buf_add(&line, st->line + at, edits[k].off - at);
		pskd_buf_add(&line, wbuf.p + edits[k].woff, edits[k].wlen);
		at = edits[k].off + edits[k].len;
	}
	pskd_buf_add(&line, st->line + at, st->len - at);
	nchanged++;
	pskd_stage_keep_as(st, line.p, line.len);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "field",		required_argument,	NULL, 'f' },
		{ "output",		required_argument,	NULL, 'o' },
		{ "progress",		no_argument,		NULL, 'P' },
		{ "quiet",		no_argument,		NULL, 'q' },
		{ "set",		required_argument,	NULL, 's' },
		{ "id",			required_argument,	NULL, OPT_ID },
		{ "rejects",		required_argument,	NULL, OPT_REJECTS },
		{ "verdicts",		required_argument,	NULL, OPT_VERDICTS },
		{ "settings",		no_argument,		NULL, OPT_SETTINGS },
		{ "help",		no_argument,		NULL, OPT_HELP },
		{ "version",		no_argument,		NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static struct pskd_stage st;
	struct pskd_error e;
	struct pskd_writer w;
	int c, settings = 0, rc;

	pskd_init(argv, usage_text);
	q_settings_default(&cfg);
	while ((c = getopt_long(argc, argv, "f:o:Pqs:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'f': st.fields = optarg; break;
		case 'o': st.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 's':
			if (q_settings_set(&cfg, Q_SET_REDACT, optarg,
			    &e) == -1) {
				pskd_warnx("-s: %s", e.msg);
				pskd_usage_error(NULL);
			}
			break;
		case OPT_ID: st.idfield = optarg; break;
		case OPT_REJECTS: st.rejects = optarg; break;
		case OPT_VERDICTS: st.verdicts = optarg; break;
		case OPT_SETTINGS: settings = 1; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (settings) {
		if (argc > 0)
			pskd_usage_error(NULL);
		pskd_writer_init(&w, 1, "<stdout>");
		q_settings_print(&cfg, Q_SET_REDACT, &w);
		pskd_writer_finish(&w);
		q_settings_free(&cfg);
		return 0;
	}
	pskd_stage_open(&st, argc, argv);
	while (pskd_stage_next(&st))
		redact(&st);
	pskd_progress(1, "%llu emails, %llu addresses replaced in %llu "
	    "documents", (unsigned long long)nemails, (unsigned long long)nips,
	    (unsigned long long)nchanged);
	rc = pskd_stage_close(&st);
	q_settings_free(&cfg);
	free(emails.v);
	free(ips.v);
	free(edits);
	pskd_buf_free(&text1);
	pskd_buf_free(&text2);
	pskd_buf_free(&wbuf);
	pskd_buf_free(&line);
	return rc;
}
