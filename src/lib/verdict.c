/*
 * verdict.c - the verdicts of every stage that keeps or drops documents
 * (pskd-lsh, and the document stages of stage.c), in one format,
 * pskd-verdicts(5): a TSV line a document,
 *
 *	ID	VERDICT[	WHAT	AGAINST]
 *
 * VERDICT "keep" (or "empty": kept, nothing to compare), else the name of
 * what dropped it; for a drop, what it measured or matched and against what
 * (pskd-lsh: the kept document's id and the estimate; a rule: the value and
 * the threshold).  --dropped holds the same fields, then the line.
 */
#include <string.h>

#include "pskd.h"

void
pskd_verdicts_open(struct pskd_verdicts *v, const char *verdicts,
    const char *dropped)
{
	memset(v, 0, sizeof(*v));
	if (verdicts != NULL) {
		pskd_output_writer(&v->vo, &v->vw, verdicts, 0);
		v->verdicts = 1;
	}
	if (dropped != NULL) {
		pskd_output_writer(&v->dro, &v->dw, dropped, 0);
		v->dropped = 1;
	}
}

static void
fields(struct pskd_writer *w, const unsigned char *id, size_t idlen,
    const char *verdict, const unsigned char *a, size_t alen,
    const unsigned char *b, size_t blen)
{
	pskd_tsv_field(w, id, idlen);
	pskd_writer_putc(w, '\t');
	pskd_writer_puts(w, verdict);
	if (a == NULL)
		return;
	pskd_writer_putc(w, '\t');
	pskd_tsv_field(w, a, alen);
	pskd_writer_putc(w, '\t');
	pskd_tsv_field(w, b, blen);
}

void
pskd_verdicts_put(struct pskd_verdicts *v, const unsigned char *id,
    size_t idlen, const char *verdict, const unsigned char *a, size_t alen,
    const unsigned char *b, size_t blen, const unsigned char *line,
    size_t linelen)
{
	if (v->verdicts) {
		fields(&v->vw, id, idlen, verdict, a, alen, b, blen);
		pskd_writer_putc(&v->vw, '\n');
	}
	if (line == NULL || !v->dropped)
		return;
	fields(&v->dw, id, idlen, verdict, a, alen, b, blen);
	pskd_writer_putc(&v->dw, '\t');
	pskd_writer_write(&v->dw, line, linelen);
	pskd_writer_putc(&v->dw, '\n');
}

void
pskd_verdicts_close(struct pskd_verdicts *v)
{
	if (v->verdicts)
		pskd_output_close(&v->vo, &v->vw);
	if (v->dropped)
		pskd_output_close(&v->dro, &v->dw);
	v->verdicts = v->dropped = 0;
}
