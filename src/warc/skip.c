/*
 * skip.c - where an element that prepare.c drops whole (nav, aside,
 * footer, select ...) ends: past the '>' of the end tag that brings the
 * count of its start tags ("<NAME" then no letter) less its end tags
 * ("</NAME" then no letter) back to zero, counted from after its start
 * tag; 0 when none does.
 *
 * Counted anew for each start tag, a page of n such tags that never end
 * costs n times its length.  So for each name, once a page, the pass
 * lists every start and end tag of it with the running count P of starts
 * less ends before it, and for each entry the next entry whose count is
 * lower (a stack, right to left): the end of an element that starts
 * before entry j is entry next(j) - 1, the first where the count falls
 * below where it began.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc/html.h"

static int
is_alpha(unsigned char c)
{
	return (c | 32) >= 'a' && (c | 32) <= 'z';
}

void
skip_reset(struct skip *s)
{
	size_t k;

	for (k = 0; k < s->nnames; k++)
		s->names[k].built = 0;
}

void
skip_free(struct skip *s)
{
	size_t k;

	for (k = 0; k < SKIP_NAMES; k++) {
		free(s->names[k].pos);
		free(s->names[k].next);
	}
	memset(s, 0, sizeof(*s));
}

static void
grow(struct skip_name *t, size_t need)
{
	if (need <= t->cap)
		return;
	while (t->cap < need)
		t->cap = t->cap ? 2 * t->cap : 1024;
	t->pos = pskd_xreallocarray(t->pos, t->cap, sizeof(*t->pos));
	t->next = pskd_xreallocarray(t->next, t->cap, sizeof(*t->next));
}

/*
 * The starts and ends of name in p[0..n): pos[j] the '<' of entry j (the
 * top bit set for an end tag), then next[j] for j in 0..m.
 */
static void
build(struct skip_name *t, const unsigned char *p, size_t n)
{
	const unsigned char *q;
	const unsigned char *name = (const unsigned char *)t->name;
	size_t len = t->len, i = 0, m = 0, j, sp;
	int32_t *count;
	uint32_t *stack;

	while ((q = memchr(p + i, '<', n - i)) != NULL) {
		i = (size_t)(q - p) + 1;
		if (i + len > n)
			break;
		if (p[i] == '/' && i + 1 + len <= n &&
		    strncasecmp((const char *)p + i + 1, (const char *)name,
		    len) == 0 && (i + 1 + len == n || !is_alpha(p[i + 1 + len]))) {
			grow(t, m + 2);
			t->pos[m++] = (uint32_t)(i - 1) | SKIP_END;
		} else if (strncasecmp((const char *)p + i, (const char *)name,
		    len) == 0 && (i + len == n || !is_alpha(p[i + len]))) {
			grow(t, m + 2);
			t->pos[m++] = (uint32_t)(i - 1);
		}
	}
	grow(t, m + 1);
	t->m = m;
	/* P[j], then next[j]: the first k > j with P[k] < P[j], or m + 1. */
	count = pskd_xreallocarray(NULL, m + 1, sizeof(*count));
	stack = pskd_xreallocarray(NULL, m + 1, sizeof(*stack));
	count[0] = 0;
	for (j = 0; j < m; j++)
		count[j + 1] = count[j] + (t->pos[j] & SKIP_END ? -1 : 1);
	for (j = m + 1, sp = 0; j-- > 0;) {
		while (sp > 0 && count[stack[sp - 1]] >= count[j])
			sp--;
		t->next[j] = sp > 0 ? stack[sp - 1] : (uint32_t)(m + 1);
		stack[sp++] = (uint32_t)j;
	}
	free(count);
	free(stack);
	t->built = 1;
}

size_t
skip_end(struct skip *s, const unsigned char *p, size_t n, size_t from,
    const unsigned char *name, size_t len)
{
	struct skip_name *t = NULL;
	const unsigned char *q;
	size_t k, lo, hi, mid, e;

	for (k = 0; k < s->nnames && t == NULL; k++)
		if (s->names[k].len == len && strncasecmp(s->names[k].name,
		    (const char *)name, len) == 0)
			t = &s->names[k];
	if (t == NULL) {
		if (s->nnames == SKIP_NAMES || len >= sizeof(t->name))
			return 0;
		t = &s->names[s->nnames++];
		memcpy(t->name, name, len);
		t->name[len] = '\0';
		t->len = len;
		t->built = 0;
	}
	if (!t->built)
		build(t, p, n);
	/* The first entry at or after from. */
	for (lo = 0, hi = t->m; lo < hi;) {
		mid = lo + (hi - lo) / 2;
		if ((t->pos[mid] & ~SKIP_END) < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if ((e = t->next[lo]) > t->m)
		return 0;
	/* Entry e - 1 is the end tag; past its '>'. */
	k = (t->pos[e - 1] & ~SKIP_END) + 1;
	q = memchr(p + k, '>', n - k);
	return q ? (size_t)(q - p) + 1 : 0;
}
