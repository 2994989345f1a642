/*
 * html.c - gumbo's parse of a page (as prepare.c made it) into an arena:
 * gumbo frees a tree by recursion, deep enough to overflow the stack on a
 * deep page, and node by node; the arena is reset instead, and its first
 * chunk kept for the next page.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc/html.h"

/* ---- the arena ------------------------------------------------------------ */

#define ARENA_CHUNK	(1u << 20)

struct chunk {
	struct chunk	*next;
	size_t		 size, used;
	max_align_t	 data[];
};

struct html_arena {
	struct chunk	*head;		/* the chunk in use, newest first */
};

static void *
arena_alloc(void *arg, size_t size)
{
	struct html_arena *a = arg;
	struct chunk *c = a->head;
	size_t need = (size + 15) & ~(size_t)15, csize;

	if (c == NULL || c->size - c->used < need) {
		csize = need > ARENA_CHUNK ? need : ARENA_CHUNK;
		c = pskd_xmalloc(sizeof(*c) + csize);
		c->size = csize;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	c->used += need;
	return (unsigned char *)c->data + c->used - need;
}

static void
arena_free(void *arg, void *p)
{
	(void)arg;
	(void)p;
}

/* Keep one chunk for the next page, free the rest. */
static void
arena_reset(struct html_arena *a)
{
	struct chunk *c, *next;

	if (a->head == NULL)
		return;
	for (c = a->head->next; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->head->next = NULL;
	a->head->used = 0;
}

GumboOutput *
html_parse(struct html_arena **ap, const unsigned char *p, size_t n)
{
	GumboOptions o = kGumboDefaultOptions;

	if (*ap == NULL)
		*ap = pskd_xcalloc(1, sizeof(**ap));
	arena_reset(*ap);
	o.allocator = arena_alloc;
	o.deallocator = arena_free;
	o.userdata = *ap;
	o.max_errors = 0;
	return gumbo_parse_with_options(&o, (const char *)p, n);
}

void
html_arena_free(struct html_arena *a)
{
	struct chunk *c, *next;

	if (a == NULL)
		return;
	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}
