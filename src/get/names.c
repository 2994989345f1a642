/*
 * names.c - a set of names with a value each: open addressing, linear
 * probing, FNV-1a, at most half full.  A list of 100,000 shards is named
 * and matched to its manifest in linear time.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "names.h"

static uint64_t
hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

void
pskd_names_init(struct pskd_names *t)
{
	memset(t, 0, sizeof(*t));
}

void
pskd_names_free(struct pskd_names *t)
{
	free(t->e);
	pskd_names_init(t);
}

/* The slot of name, or the free slot where it would go. */
static struct pskd_names_entry *
slot(const struct pskd_names *t, const char *name, uint64_t h)
{
	size_t i = (size_t)h & (t->cap - 1);

	while (t->e[i].name != NULL && (t->e[i].hash != h ||
	    strcmp(t->e[i].name, name) != 0))
		i = (i + 1) & (t->cap - 1);
	return &t->e[i];
}

static void
grow(struct pskd_names *t)
{
	struct pskd_names_entry *old = t->e;
	size_t i, n = t->cap;

	t->cap = n ? 2 * n : 64;
	t->e = pskd_xcalloc(t->cap, sizeof(*t->e));
	for (i = 0; i < n; i++)
		if (old[i].name != NULL)
			*slot(t, old[i].name, old[i].hash) = old[i];
	free(old);
}

size_t
pskd_names_add(struct pskd_names *t, const char *name, size_t value)
{
	struct pskd_names_entry *e;
	uint64_t h = hash(name);

	if (2 * (t->n + 1) > t->cap)
		grow(t);
	e = slot(t, name, h);
	if (e->name != NULL)
		return e->value;
	e->name = name;
	e->value = value;
	e->hash = h;
	t->n++;
	return PSKD_NAMES_NONE;
}

size_t
pskd_names_find(const struct pskd_names *t, const char *name)
{
	const struct pskd_names_entry *e;

	if (t->cap == 0)
		return PSKD_NAMES_NONE;
	e = slot(t, name, hash(name));
	return e->name != NULL ? e->value : PSKD_NAMES_NONE;
}
