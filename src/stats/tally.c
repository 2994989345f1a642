/*
 * tally.c - counts by name (the verdicts that dropped documents, the
 * languages of documents), kept in the order of their names' bytes so
 * that two tallies merge name by name and write out the same whatever
 * order the names came in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/stats.h"

void
stats_tally_free(struct stats_tally *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	free(t->count);
	memset(t, 0, sizeof(*t));
}

/* The place of name in t: its index (*found 1) or where it would go. */
static size_t
find(const struct stats_tally *t, const unsigned char *name, size_t len,
    int *found)
{
	size_t lo = 0, hi = t->n, mid, l;
	int c;

	*found = 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		l = strlen(t->name[mid]);
		c = memcmp(t->name[mid], name, l < len ? l : len);
		if (c == 0)
			c = l < len ? -1 : l > len;
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
stats_tally_add(struct stats_tally *t, const unsigned char *name, size_t len,
    uint64_t k)
{
	size_t i;
	int found;

	if (len > STATS_NAME_MAX || memchr(name, '\0', len) != NULL)
		return -1;
	i = find(t, name, len, &found);
	if (found)
		return __builtin_add_overflow(t->count[i], k, &t->count[i]) ?
		    -1 : 0;
	if (t->n == STATS_NAMES_MAX)
		return -1;
	t->name = pskd_xreallocarray(t->name, t->n + 1, sizeof(*t->name));
	t->count = pskd_xreallocarray(t->count, t->n + 1, sizeof(*t->count));
	memmove(t->name + i + 1, t->name + i, (t->n - i) * sizeof(*t->name));
	memmove(t->count + i + 1, t->count + i, (t->n - i) *
	    sizeof(*t->count));
	t->name[i] = pskd_xstrndup((const char *)name, len);
	t->count[i] = k;
	t->n++;
	return 0;
}

uint64_t
stats_tally_get(const struct stats_tally *t, const char *name)
{
	size_t i;
	int found;

	i = find(t, (const unsigned char *)name, strlen(name), &found);
	return found ? t->count[i] : 0;
}

int
stats_tally_merge(struct stats_tally *t, const struct stats_tally *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (stats_tally_add(t, (const unsigned char *)s->name[i],
		    strlen(s->name[i]), s->count[i]) == -1)
			return -1;
	return 0;
}

void
stats_tally_copy(struct stats_tally *to, const struct stats_tally *from)
{
	size_t i;

	memset(to, 0, sizeof(*to));
	if (from->n == 0)
		return;
	to->name = pskd_xreallocarray(NULL, from->n, sizeof(*to->name));
	to->count = pskd_xreallocarray(NULL, from->n, sizeof(*to->count));
	for (i = 0; i < from->n; i++)
		to->name[i] = pskd_xstrdup(from->name[i]);
	memcpy(to->count, from->count, from->n * sizeof(*to->count));
	to->n = from->n;
}

uint64_t
stats_tally_sum(const struct stats_tally *t)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		sum += t->count[i];
	return sum;
}

void
stats_tally_json(struct pskd_buf *b, const struct stats_tally *t)
{
	char num[32];
	size_t i;
	int n;

	pskd_buf_addc(b, '{');
	for (i = 0; i < t->n; i++) {
		if (i > 0)
			pskd_buf_addc(b, ',');
		pskd_json_quote(b, (const unsigned char *)t->name[i],
		    strlen(t->name[i]));
		n = snprintf(num, sizeof(num), ":%llu",
		    (unsigned long long)t->count[i]);
		pskd_buf_add(b, num, (size_t)n);
	}
	pskd_buf_addc(b, '}');
}

int
stats_tally_parse(struct stats_tally *t, const struct jv *v,
    int (*ok)(const char *, size_t), char *err, size_t errsize)
{
	uint64_t k, sum = 0;
	size_t i, before;

	memset(t, 0, sizeof(*t));
	if (v == NULL)		/* an object of an earlier pskd-stats */
		return 0;
	if (v->type != JV_OBJECT) {
		snprintf(err, errsize, "not an object of counts");
		return -1;
	}
	for (i = 0; i < v->n; i++) {
		before = t->n;
		if (jv_u64(&v->items[i], &k) == -1 || k == 0 ||
		    __builtin_add_overflow(sum, k, &sum) ||
		    !ok(v->keys[i], strlen(v->keys[i])) ||
		    stats_tally_add(t, (const unsigned char *)v->keys[i],
		    strlen(v->keys[i]), k) == -1 || t->n == before) {
			snprintf(err, errsize, "\"%.100s\" is not a name once "
			    "with a count of 1 or more", v->keys[i]);
			stats_tally_free(t);
			return -1;
		}
	}
	return 0;
}
