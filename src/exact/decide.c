/*
 * decide.c - a document's verdict once its repeated units are known
 * (pskd-exact(1), VERDICTS): kept as it came, kept with the repeated
 * units cut out of its text members (each such member's JSON string
 * written anew, every other byte of the line as it was), or dropped.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact/exact.h"

void
x_decide_init(struct x_decide *x, const struct x_params *p, uint64_t min)
{
	memset(x, 0, sizeof(*x));
	x_units_init(&x->u, p);
	x->min = min;
}

void
x_decide_free(struct x_decide *x)
{
	size_t i;

	x_units_free(&x->u);
	free(x->rep);
	free(x->cut);
	pskd_buf_free(&x->text);
	pskd_buf_free(&x->line);
	for (i = 0; i < x->nmember; i++)
		pskd_buf_free(&x->member[i]);
	free(x->member);
	memset(x, 0, sizeof(*x));
}

static void
need(unsigned char **p, size_t *cap, size_t n)
{
	if (n > *cap) {
		*cap = n + n / 2 + 16;
		*p = pskd_xrealloc(*p, *cap);
	}
	if (n > 0)
		memset(*p, 0, n);
}

size_t
x_decide_units(struct x_decide *x, struct pskd_stage *st)
{
	size_t n = x_units_doc(&x->u, &st->doc);

	need(&x->rep, &x->repcap, n);
	return n;
}

/* Whether member k is no string, or one named before it (once only). */
static int
twice(const struct pskd_doc *d, size_t k)
{
	size_t j;

	if (d->f[k].kind != PSKD_JSON_STRING)
		return 1;
	for (j = 0; j < k; j++)
		if (d->f[j].kind == PSKD_JSON_STRING && d->f[j].raw == d->f[k].raw)
			return 1;
	return 0;
}

/*
 * The members' texts left, into x->member[k] for each member that lost
 * something (changed[k] set); returns the units removed, *bytes their
 * bytes.
 */
static uint64_t
rebuild(struct x_decide *x, const struct pskd_doc *d, unsigned char *changed,
    uint64_t *bytes)
{
	const struct x_units *u = &x->u;
	size_t i, j, *at, nf = d->nf;
	uint64_t removed = 0;
	uint32_t k;
	size_t off, end;

	if (x->nmember < nf) {
		x->member = pskd_xreallocarray(x->member, nf,
		    sizeof(*x->member));
		memset(x->member + x->nmember, 0, (nf - x->nmember) *
		    sizeof(*x->member));
		x->nmember = nf;
	}
	at = pskd_xcalloc(nf, sizeof(*at));
	for (i = 0; i < nf; i++)
		x->member[i].len = 0;
	*bytes = 0;
	if (u->p.grain == X_SPAN) {
		need(&x->cut, &x->cutcap, u->nsent);
		for (i = 0; i < u->n; i++)
			if (x->rep[i])
				for (j = 0; j < u->v[i].count; j++)
					x->cut[u->v[i].first + j] = 1;
	}
	for (i = 0; i < (u->p.grain == X_SPAN ? u->nsent : u->n); i++) {
		if (u->p.grain == X_SPAN) {
			if (!x->cut[i])
				continue;
			k = u->sent[i].member;
			off = u->sent[i].off;
			end = u->sent[i].end;
		} else {
			if (!x->rep[i])
				continue;
			k = u->v[i].member;
			off = u->v[i].off;
			end = u->v[i].end;
		}
		pskd_buf_add(&x->member[k], d->f[k].value.p + at[k],
		    off - at[k]);
		at[k] = end;
		changed[k] = 1;
		*bytes += end - off;
		removed++;
	}
	for (k = 0; k < nf; k++)
		if (changed[k])
			pskd_buf_add(&x->member[k], d->f[k].value.p + at[k],
			    d->f[k].value.len - at[k]);
	free(at);
	return removed;
}

/* The line with the changed members' strings written anew, into x->line. */
static void
splice(struct x_decide *x, const struct pskd_stage *st,
    const unsigned char *changed)
{
	const struct pskd_doc *d = &st->doc;
	const unsigned char *at = st->line, *next;
	size_t k, best;

	x->line.len = 0;
	for (;;) {
		/* The changed member that comes next in the line. */
		for (best = d->nf, k = 0; k < d->nf; k++)
			if (changed[k] && d->f[k].raw >= at && (best == d->nf ||
			    d->f[k].raw < d->f[best].raw))
				best = k;
		if (best == d->nf)
			break;
		next = d->f[best].raw;
		pskd_buf_add(&x->line, at, (size_t)(next - at));
		pskd_json_quote(&x->line, x->member[best].p,
		    x->member[best].len);
		at = next + d->f[best].rawlen;
	}
	pskd_buf_add(&x->line, at, (size_t)(st->line + st->len - at));
}

void
x_decide(struct x_decide *x, struct pskd_stage *st, uint64_t num,
    uint64_t line, struct x_counts *c)
{
	const struct pskd_doc *d = &st->doc;
	unsigned char *changed;
	uint64_t r = 0, removed, bytes, words = 0;
	char a[32], b[32];
	size_t i, k;

	c->docs++;
	if (x->u.n == 0) {
		c->empty++;
		pskd_stage_keep_verdict(st, NULL, 0, "empty", NULL, NULL);
		return;
	}
	for (i = 0; i < x->u.n; i++)
		r += x->rep[i];
	c->units += x->u.n;
	c->repeats += r;
	if (r == 0) {
		c->kept++;
		pskd_stage_keep(st);
		return;
	}
	if (x->u.p.grain == X_DOC) {
		c->dups++;
		snprintf(a, sizeof(a), "%" PRIu64, num);
		snprintf(b, sizeof(b), "%" PRIu64, line);
		pskd_stage_drop(st, "exact_duplicate", line ? a : NULL, b);
		return;
	}
	changed = pskd_xcalloc(d->nf, 1);
	removed = rebuild(x, d, changed, &bytes);
	for (k = 0; k < d->nf && words < x->min; k++)
		if (!twice(d, k))
			words += changed[k] ? x_words(&x->u, x->member[k].p,
			    x->member[k].len, x->min - words) : x_words(&x->u,
			    d->f[k].value.p, d->f[k].value.len, x->min - words);
	if (words < x->min) {
		c->shorter++;
		snprintf(a, sizeof(a), "%" PRIu64, words);
		snprintf(b, sizeof(b), "%" PRIu64, x->min);
		pskd_stage_drop(st, "exact_too_short", a, b);
		free(changed);
		return;
	}
	splice(x, st, changed);
	free(changed);
	c->trimmed++;
	c->bytes += bytes;
	snprintf(a, sizeof(a), "%" PRIu64, bytes);
	snprintf(b, sizeof(b), "%" PRIu64, removed);
	pskd_stage_keep_verdict(st, x->line.p, x->line.len, "trimmed", a, b);
}

void
x_counts_add(struct x_counts *a, const struct x_counts *b)
{
	a->docs += b->docs;
	a->kept += b->kept;
	a->trimmed += b->trimmed;
	a->shorter += b->shorter;
	a->dups += b->dups;
	a->empty += b->empty;
	a->rejected += b->rejected;
	a->units += b->units;
	a->repeats += b->repeats;
	a->bytes += b->bytes;
}

void
x_counts_warn(const char *name, const struct x_counts *c, enum x_grain g,
    const char *more)
{
	char rej[48] = "", tail[128] = "";

	if (c->rejected > 0)
		snprintf(rej, sizeof(rej), ", rejected %" PRIu64, c->rejected);
	if (more != NULL)
		snprintf(tail, sizeof(tail), " (%s)", more);
	if (g == X_DOC)
		pskd_warnx("%s: documents %" PRIu64 ", kept %" PRIu64
		    ", duplicates %" PRIu64 ", empty %" PRIu64 "%s%s", name,
		    c->docs, c->kept, c->dups, c->empty, rej, tail);
	else
		pskd_warnx("%s: documents %" PRIu64 ", kept %" PRIu64
		    ", trimmed %" PRIu64 ", too short %" PRIu64 ", empty %"
		    PRIu64 "%s; units %" PRIu64 ", repeated %" PRIu64
		    ", bytes removed %" PRIu64 "%s", name, c->docs, c->kept,
		    c->trimmed, c->shorter, c->empty, rej, c->units, c->repeats,
		    c->bytes, tail);
}
