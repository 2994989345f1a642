/*
 * lines.c - the pieces datatrove's rules cut a text into (str.splitlines,
 * re.split on runs of newlines), and find_duplicates over them: a piece
 * equal to an earlier one is a duplicate, counted with its code points.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "quality/quality.h"
#include "quality/hset.h"

void
q_spans_grow(struct q_spans *s)
{
	s->cap = s->cap ? s->cap * 2 : 256;
	s->v = pskd_xreallocarray(s->v, s->cap, sizeof(*s->v));
}

void
q_spans_free(struct q_spans *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void
q_splitlines(const unsigned char *t, size_t n, struct q_spans *out)
{
	size_t i = 0, start = 0, len;
	uint32_t c;

	out->n = 0;
	/* Line breaks below 0x80 but \x85, \u2028, \u2029. */
	while ((i += q_find_break(t + i, n - i)) < n) {
		len = q_cp(t + i, n - i, &c);
		if (!q_islinebreak(c)) {
			i += len;
			continue;
		}
		q_spans_add(out, start, i - start, 0);
		i += len;
		if (c == '\r' && i < n && t[i] == '\n')
			i++;
		start = i;
	}
	if (start < n)
		q_spans_add(out, start, n - start, 0);
}

void
q_split_runs(const unsigned char *t, size_t n, unsigned char sep,
    size_t min, struct q_spans *out)
{
	const unsigned char *p = t, *end = t + n, *q;
	size_t start = 0, run;

	out->n = 0;
	while ((q = memchr(p, sep, (size_t)(end - p))) != NULL) {
		for (run = 0; q + run < end && q[run] == sep; run++)
			;
		if (run >= min) {
			q_spans_add(out, start, (size_t)(q - t) - start,
			    q_cplen(t + start, (size_t)(q - t) - start));
			start = (size_t)(q - t) + run;
		}
		p = q + run;
	}
	q_spans_add(out, start, n - start, q_cplen(t + start, n - start));
}

struct eqctx {
	const unsigned char *t;
	const struct q_spans *s;
	size_t		 i;
};

static int
span_eq(void *arg, size_t j)
{
	struct eqctx *c = arg;
	const struct q_span *a = &c->s->v[c->i], *b = &c->s->v[j];

	return a->len == b->len && memcmp(c->t + a->off, c->t + b->off,
	    a->len) == 0;
}

void
q_duplicates(const unsigned char *t, const struct q_spans *s,
    uint64_t *elements, uint64_t *chars)
{
	struct q_hset h;
	struct eqctx c = { t, s, 0 };
	size_t *slot;
	int found;

	*elements = *chars = 0;
	q_hset_init(&h, s->n);
	for (c.i = 0; c.i < s->n; c.i++) {
		slot = q_hset_find(&h, XXH3_64bits(t + s->v[c.i].off,
		    s->v[c.i].len), span_eq, &c, &found);
		if (found) {
			(*elements)++;
			*chars += s->v[c.i].cps;
		} else
			*slot = c.i;
	}
	q_hset_free(&h);
}
