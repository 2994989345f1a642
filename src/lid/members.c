/*
 * members.c - the members pskd-lid writes into a kept line.  A line that
 * has one already (FineWeb's documents come with "language" and
 * "language_score"; a second run) gets the new value in the old one's
 * place, so no reader has two to choose from; the others go after the
 * line's last member (pskd_json_append).  Every other byte stays.
 */
#include <stdio.h>
#include <string.h>

#include "pskd.h"
#include "lid/lid.h"

int
lid_members_init(struct lid_members *mm, struct pskd_doc *d,
    const char *const *name, size_t n)
{
	size_t i;

	memset(mm, 0, sizeof(*mm));
	if (n > LID_MAXMEMBERS)
		return -1;
	for (i = 0; i < n; i++) {
		mm->name[i] = name[i];
		if ((mm->field[i] = pskd_doc_extra(d, name[i])) == -1)
			return -1;
	}
	mm->n = n;
	return 0;
}

void
lid_members_apply(struct lid_members *mm, const struct pskd_doc *d,
    const unsigned char *line, size_t len)
{
	const struct pskd_json_field *f;
	size_t order[LID_MAXMEMBERS], n = 0, i, j, t;
	const unsigned char *at = line;

	mm->tail.len = 0;
	for (i = 0; i < mm->n; i++) {
		f = &d->f[mm->field[i]];
		if (f->raw != NULL) {
			order[n++] = i;
			continue;
		}
		if (mm->tail.len > 0)
			pskd_buf_addc(&mm->tail, ',');
		pskd_json_quote(&mm->tail, (const unsigned char *)mm->name[i],
		    strlen(mm->name[i]));
		pskd_buf_addc(&mm->tail, ':');
		pskd_buf_add(&mm->tail, mm->value[i].p, mm->value[i].len);
	}
	/* The values already there, replaced in the order of the line. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && d->f[mm->field[order[j]]].raw <
		    d->f[mm->field[order[j - 1]]].raw; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	mm->mid.len = 0;
	for (i = 0; i < n; i++) {
		f = &d->f[mm->field[order[i]]];
		pskd_buf_add(&mm->mid, at, (size_t)(f->raw - at));
		pskd_buf_add(&mm->mid, mm->value[order[i]].p,
		    mm->value[order[i]].len);
		at = f->raw + f->rawlen;
	}
	pskd_buf_add(&mm->mid, at, (size_t)(line + len - at));
	mm->line.len = 0;
	if (mm->tail.len > 0)
		pskd_json_append(&mm->line, mm->mid.p, mm->mid.len,
		    mm->tail.p, mm->tail.len);
	else
		pskd_buf_add(&mm->line, mm->mid.p, mm->mid.len);
}

void
lid_members_free(struct lid_members *mm)
{
	size_t i;

	for (i = 0; i < LID_MAXMEMBERS; i++)
		pskd_buf_free(&mm->value[i]);
	pskd_buf_free(&mm->line);
	pskd_buf_free(&mm->mid);
	pskd_buf_free(&mm->tail);
}

void
lid_score_json(struct pskd_buf *b, float p)
{
	char tmp[40];

	pskd_format_double(tmp, sizeof(tmp), (double)p);
	pskd_buf_add(b, tmp, strlen(tmp));
}
