/*
 * stage.c - the contract of the document stages (pskd-lid, pskd-filter,
 * pskd-redact, pskd-exact, pskd-decon): JSON Lines in; every document kept
 * (byte for byte, or as the stage's job rewrites it) or dropped with a
 * verdict; --verdicts, --dropped and --rejects as pskd-lsh and
 * pskd-shingle have them; -o through the one output route.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

void
pskd_stage_open(struct pskd_stage *s, int argc, char **argv)
{
	struct pskd_error e;

	if (pskd_doc_init(&s->doc, s->fields ? s->fields : "text",
	    s->idfield ? s->idfield : "id", &e) == -1) {
		pskd_warnx("-f: %s", e.msg);
		pskd_usage_error(NULL);
	}
	s->inputs = argv;
	s->ninputs = argc;
	s->next = 0;
	s->reading = 0;
	s->decided = 1;
	pskd_output_writer(&s->out, &s->w, s->output, 0);
	if (s->output == NULL || strcmp(s->output, "-") == 0)
		pskd_pipe_grow(1);
	pskd_verdicts_open(&s->v, s->verdicts, s->dropped);
	pskd_rejects_open(&s->rej, s->rejects);
}

/* The next input open in s->r; 0 when there is none left. */
static int
next_input(struct pskd_stage *s)
{
	const char *path;

	if (s->reading)
		return 1;
	if (s->next >= (s->ninputs > 0 ? s->ninputs : 1))
		return 0;
	path = s->ninputs > 0 ? s->inputs[s->next] : NULL;
	s->next++;
	if (pskd_reader_open(&s->r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	s->reading = 1;
	s->input = s->next - 1;
	if (s->seen != NULL) {
		s->source = s->r.name;
		s->seen(s, NULL, 0);
	}
	return 1;
}

static void
name_by_line(struct pskd_stage *s)
{
	size_t n = strlen(s->r.name) + 24;

	pskd_buf_reserve(&s->idbuf, n);
	s->idbuf.len = (size_t)snprintf((char *)s->idbuf.p, s->idbuf.cap,
	    "%s:%llu", s->r.name, (unsigned long long)s->r.lineno);
	s->id = s->idbuf.p;
	s->idlen = s->idbuf.len;
}

int
pskd_stage_next(struct pskd_stage *s)
{
	int rc;

	if (!s->decided)
		pskd_errx(PSKD_EXIT_DATA, "%s:%llu: no verdict (a bug)",
		    s->source, (unsigned long long)s->lineno);
	while (s->w.error == 0 && next_input(s)) {
		rc = pskd_reader_line(&s->r, &s->line, &s->len);
		if (rc == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", s->r.name);
		if (rc == 0) {
			pskd_reader_close(&s->r);
			s->reading = 0;
			continue;
		}
		s->source = s->r.name;
		s->lineno = s->r.lineno;
		if (s->seen != NULL)
			s->seen(s, s->line, s->len);
		if (pskd_doc_parse(&s->doc, s->line, s->len) == -1) {
			if (s->rejects == NULL)
				pskd_fail_at(s->r.name, s->r.lineno, "%s",
				    s->doc.err);
			pskd_rejects_add(&s->rej, s->r.name, s->r.lineno,
			    s->doc.err);
			name_by_line(s);
			pskd_verdicts_put(&s->v, s->id, s->idlen, "rejected",
			    NULL, 0, NULL, 0, s->line, s->len);
			continue;
		}
		if (s->doc.id != NULL) {
			s->id = s->doc.id;
			s->idlen = s->doc.idlen;
		} else
			name_by_line(s);
		s->ndocs++;
		s->decided = 0;
		if ((s->ndocs & 4095) == 0)
			pskd_progress(0, "%s: %llu documents, %llu kept",
			    s->source, (unsigned long long)s->ndocs,
			    (unsigned long long)s->nkept);
		return 1;
	}
	return 0;
}

void
pskd_stage_keep_verdict(struct pskd_stage *s, const unsigned char *line,
    size_t len, const char *verdict, const char *what, const char *against)
{
	if (line == NULL) {
		line = s->line;
		len = s->len;
	}
	pskd_writer_write(&s->w, line, len);
	pskd_writer_putc(&s->w, '\n');
	pskd_verdicts_put(&s->v, s->id, s->idlen, verdict,
	    (const unsigned char *)what, what ? strlen(what) : 0,
	    (const unsigned char *)(against ? against : ""),
	    against ? strlen(against) : 0, NULL, 0);
	s->nkept++;
	s->decided = 1;
}

void
pskd_stage_keep_as(struct pskd_stage *s, const unsigned char *line,
    size_t len)
{
	pskd_stage_keep_verdict(s, line, len, "keep", NULL, NULL);
}

void
pskd_stage_keep(struct pskd_stage *s)
{
	pskd_stage_keep_as(s, s->line, s->len);
}

void
pskd_stage_annotate(struct pskd_stage *s, const unsigned char *members,
    size_t n)
{
	s->annot.len = 0;
	pskd_json_append(&s->annot, s->line, s->len, members, n);
	pskd_stage_keep_as(s, s->annot.p, s->annot.len);
}

void
pskd_stage_drop(struct pskd_stage *s, const char *verdict, const char *what,
    const char *against)
{
	pskd_verdicts_put(&s->v, s->id, s->idlen, verdict,
	    (const unsigned char *)what, what ? strlen(what) : 0,
	    (const unsigned char *)(against ? against : ""),
	    against ? strlen(against) : 0, s->line, s->len);
	s->ndropped++;
	s->decided = 1;
}

int
pskd_stage_close(struct pskd_stage *s)
{
	if (s->reading)
		pskd_reader_close(&s->r);
	s->reading = 0;
	pskd_progress(1, "%llu documents, %llu kept, %llu dropped",
	    (unsigned long long)s->ndocs, (unsigned long long)s->nkept,
	    (unsigned long long)s->ndropped);
	pskd_output_close(&s->out, &s->w);
	pskd_verdicts_close(&s->v);
	pskd_rejects_close(&s->rej);
	pskd_doc_free(&s->doc);
	pskd_buf_free(&s->idbuf);
	pskd_buf_free(&s->annot);
	if (s->rej.n == 0)
		return PSKD_EXIT_OK;
	/* --rejects: a success if any document went through. */
	return s->ndocs > 0 ? PSKD_EXIT_OK : PSKD_EXIT_DATA;
}
