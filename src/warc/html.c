/*
 * html.c - the bounds on the work one page may cost, and gumbo's parse of
 * what is within them into an arena.
 *
 * Gumbo builds the HTML5 tree as browsers do, but some of its steps walk
 * the stack of open elements, so a page of a million nested tags would
 * take hours, and it frees a tree by recursion.  So before gumbo sees a
 * page, a linear scan finds where the page leaves its bounds (bytes, tags,
 * the length of one tag, and the nesting as the scan estimates it) and the
 * page is cut there; and the tree lives in an arena that is reset, never
 * freed node by node.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc/html.h"

/* Elements that never hold others, or close themselves (no nesting). */
static const char *const flat[] = {
	"area", "base", "basefont", "bgsound", "br", "col", "colgroup",
	"dd", "dt", "embed", "frame", "hr", "img", "input", "keygen", "li",
	"link", "meta", "option", "optgroup", "p", "param", "rb", "rp", "rt",
	"rtc", "source", "tbody", "td", "tfoot", "th", "thead", "tr",
	"track", "wbr", "html", "head", "body", "image", "isindex",
};

/* Elements whose content is text up to their end tag. */
static const char *const rawtext[] = {
	"script", "style", "textarea", "title", "xmp", "iframe",
	"noembed", "noframes", "plaintext", "noscript",
};

static int
is_alpha(unsigned char c)
{
	return (c | 32) >= 'a' && (c | 32) <= 'z';
}

static int
in_list(const char *const *list, size_t n, const unsigned char *name,
    size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len &&
		    strncasecmp(list[i], (const char *)name, len) == 0)
			return 1;
	return 0;
}

#define NITEMS(a) (sizeof(a) / sizeof((a)[0]))

size_t
html_bound(const unsigned char *p, size_t n)
{
	const unsigned char *q, *name;
	size_t i = 0, start, len, tags = 0, depth = 0, foreign = 0, k;
	int end, selfclose;

	if (n > HTML_MAX_BYTES)
		n = HTML_MAX_BYTES;
	while (i < n) {
		q = memchr(p + i, '<', n - i);
		if (q == NULL)
			return n;
		start = i = (size_t)(q - p);
		if (n - i >= 4 && memcmp(p + i, "<!--", 4) == 0) {
			q = memmem(p + i + 4, n - i - 4, "-->", 3);
			if (q == NULL)
				return n;
			i = (size_t)(q - p) + 3;
			continue;
		}
		end = i + 1 < n && p[i + 1] == '/';
		k = i + 1 + (size_t)end;
		if (k >= n || !is_alpha(p[k])) {
			i++;
			continue;
		}
		name = p + k;
		for (len = 0; k + len < n && p[k + len] != '>' &&
		    p[k + len] != '/' && p[k + len] > ' '; len++)
			;
		q = memchr(p + k, '>', n - k);
		if (q == NULL)
			return n;	/* the rest is one unfinished tag */
		if ((size_t)(q - p) - start > HTML_MAX_TAGLEN)
			return start;
		selfclose = q[-1] == '/';
		i = (size_t)(q - p) + 1;
		if (++tags > HTML_MAX_TAGS)
			return start;
		if (len == 3 && strncasecmp((const char *)name, "svg", 3) == 0)
			foreign += end ? (foreign > 0 ? (size_t)-1 : 0) : 1;
		else if (len == 4 &&
		    strncasecmp((const char *)name, "math", 4) == 0)
			foreign += end ? (foreign > 0 ? (size_t)-1 : 0) : 1;
		if (end) {
			if (depth > 0 && !in_list(flat, NITEMS(flat), name, len))
				depth--;
			continue;
		}
		if (in_list(rawtext, NITEMS(rawtext), name, len)) {
			/* To its end tag, "</NAME". */
			for (k = i; (q = memchr(p + k, '<', n - k)) != NULL;
			    k = (size_t)(q - p) + 1)
				if ((size_t)(q - p) + 2 + len <= n && q[1] == '/' &&
				    strncasecmp((const char *)q + 2,
				    (const char *)name, len) == 0)
					break;
			if (q == NULL)
				return n;
			i = (size_t)(q - p);
			continue;
		}
		if (in_list(flat, NITEMS(flat), name, len) ||
		    (selfclose && foreign > 0))
			continue;
		if (++depth > HTML_MAX_DEPTH)
			return start;
	}
	return n;
}

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
