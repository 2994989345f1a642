/*
 * nest.c - the elements open in the page prepare.c writes, kept so that
 * what gumbo builds from it stays within HTML_MAX_DEPTH.
 *
 * Gumbo walks its stack of open elements for most tags, and a reopened
 * formatting element (a b or an a that an end tag closed around it) is
 * made again at every run of text: a page whose tags nest deep, or whose
 * end tags close nothing, or that leaves formatting elements open, costs
 * its tags times its depth, and its memory that much too.  So the pass
 * keeps its own stack of what it wrote, with the rules of HTML's tree
 * construction that close elements (WHATWG HTML, 13.2.6.4.7 "in body"):
 *
 *   - an end tag closes the element it names when the rule gumbo applies
 *     to it would (in scope, no special element above an ordinary one),
 *     and the elements above it: the pass writes an end tag for each of
 *     those first, so gumbo closes them too, whatever it holds open;
 *   - a formatting element closed so is not gone: it stays on the list
 *     gumbo reopens from (until its own end tag, a start tag of a, a
 *     fourth one alike, or the end of the cell or object it is in) and
 *     counts as open, and each time it is reopened it counts towards a
 *     bound on the elements so made;
 *   - the start tags that close p, li, dd, dt, headings, options, cells,
 *     rows and table sections close them here too, the elements above
 *     them with end tags as before.
 *
 * What gumbo closes and this does not stays counted: the count is never
 * less than gumbo's, and it only meets the bound on pages that nest deep.
 */
#include <string.h>
#include <strings.h>

#include "warc/html.h"

enum {
	NF_VOID = 1 << 0,	/* never open: br, img, input ... */
	NF_SPECIAL = 1 << 1,	/* HTML's special category */
	NF_FORMAT = 1 << 2,	/* a, b, i ...: reopened by gumbo */
	NF_SCOPE = 1 << 3,	/* the end of an element's scope */
	NF_MARKER = 1 << 4,	/* td, th, caption ...: a marker on the list */
	NF_PCLOSE = 1 << 5,	/* its start tag closes a p */
	NF_HEADING = 1 << 6,
	NF_ROOT = 1 << 7,	/* html, head, body: gumbo's own */
	NF_TABLE = 1 << 8,	/* table, tbody, thead, tfoot, tr */
	NF_FOREIGN = 1 << 9	/* svg, math */
};

#define S NF_SPECIAL
static const struct kind {
	const char	*name;
	unsigned	 flags;
} kinds[] = {		/* sorted by name */
	{ "a", NF_FORMAT }, { "address", S | NF_PCLOSE },
	{ "annotation-xml", S | NF_SCOPE }, { "applet", S | NF_SCOPE |
	NF_MARKER }, { "area", S | NF_VOID }, { "article", S | NF_PCLOSE },
	{ "aside", S | NF_PCLOSE }, { "b", NF_FORMAT }, { "base", S | NF_VOID },
	{ "basefont", S | NF_VOID }, { "bgsound", S | NF_VOID },
	{ "big", NF_FORMAT }, { "blockquote", S | NF_PCLOSE },
	{ "body", S | NF_ROOT }, { "br", S | NF_VOID }, { "button", S },
	{ "caption", S | NF_SCOPE | NF_MARKER }, { "center", S | NF_PCLOSE },
	{ "code", NF_FORMAT }, { "col", S | NF_VOID }, { "colgroup", S },
	{ "dd", S | NF_PCLOSE }, { "desc", S | NF_SCOPE },
	{ "details", S | NF_PCLOSE }, { "dialog", NF_PCLOSE },
	{ "dir", S | NF_PCLOSE }, { "div", S | NF_PCLOSE },
	{ "dl", S | NF_PCLOSE }, { "dt", S | NF_PCLOSE }, { "em", NF_FORMAT },
	{ "embed", S | NF_VOID }, { "fieldset", S | NF_PCLOSE },
	{ "figcaption", S | NF_PCLOSE }, { "figure", S | NF_PCLOSE },
	{ "font", NF_FORMAT }, { "footer", S | NF_PCLOSE },
	{ "foreignobject", S | NF_SCOPE }, { "form", S | NF_PCLOSE },
	{ "frame", S | NF_VOID }, { "frameset", S },
	{ "h1", S | NF_PCLOSE | NF_HEADING },
	{ "h2", S | NF_PCLOSE | NF_HEADING },
	{ "h3", S | NF_PCLOSE | NF_HEADING },
	{ "h4", S | NF_PCLOSE | NF_HEADING },
	{ "h5", S | NF_PCLOSE | NF_HEADING },
	{ "h6", S | NF_PCLOSE | NF_HEADING }, { "head", S | NF_ROOT },
	{ "header", S | NF_PCLOSE }, { "hgroup", S | NF_PCLOSE },
	{ "hr", S | NF_VOID }, { "html", S | NF_SCOPE | NF_ROOT },
	{ "i", NF_FORMAT }, { "iframe", S }, { "image", S | NF_VOID },
	{ "img", S | NF_VOID }, { "input", S | NF_VOID },
	{ "isindex", S | NF_VOID }, { "keygen", NF_VOID }, { "li", S |
	NF_PCLOSE }, { "link", S | NF_VOID }, { "listing", S | NF_PCLOSE },
	{ "main", S | NF_PCLOSE }, { "marquee", S | NF_SCOPE | NF_MARKER },
	{ "math", NF_FOREIGN }, { "menu", S | NF_PCLOSE }, { "menuitem", S },
	{ "meta", S | NF_VOID }, { "mi", S | NF_SCOPE }, { "mn", S | NF_SCOPE },
	{ "mo", S | NF_SCOPE }, { "ms", S | NF_SCOPE }, { "mtext", S | NF_SCOPE },
	{ "nav", S | NF_PCLOSE }, { "nobr", NF_FORMAT }, { "noembed", S },
	{ "noframes", S }, { "noscript", S }, { "object", S | NF_SCOPE |
	NF_MARKER }, { "ol", S | NF_PCLOSE }, { "p", S | NF_PCLOSE },
	{ "param", S | NF_VOID }, { "plaintext", S | NF_PCLOSE },
	{ "pre", S | NF_PCLOSE }, { "s", NF_FORMAT }, { "script", S },
	{ "section", S | NF_PCLOSE }, { "select", S }, { "small", NF_FORMAT },
	{ "source", S | NF_VOID }, { "strike", NF_FORMAT },
	{ "strong", NF_FORMAT }, { "style", S }, { "summary", S | NF_PCLOSE },
	{ "svg", NF_FOREIGN }, { "table", S | NF_SCOPE | NF_TABLE },
	{ "tbody", S | NF_TABLE }, { "td", S | NF_SCOPE | NF_MARKER },
	{ "template", S | NF_SCOPE | NF_MARKER }, { "textarea", S },
	{ "tfoot", S | NF_TABLE }, { "th", S | NF_SCOPE | NF_MARKER },
	{ "thead", S | NF_TABLE }, { "title", S | NF_SCOPE },
	{ "tr", S | NF_TABLE }, { "track", S | NF_VOID }, { "tt", NF_FORMAT },
	{ "u", NF_FORMAT }, { "ul", S | NF_PCLOSE }, { "wbr", S | NF_VOID },
	{ "xmp", S | NF_PCLOSE },
};
#undef S

/* The flags of a tag name (any case); 0: an ordinary element. */
static unsigned
flags_of(const unsigned char *name, size_t len)
{
	char low[16];
	size_t i, lo = 0, hi = sizeof(kinds) / sizeof(kinds[0]), mid;
	int c;

	if (len == 0 || len >= sizeof(low))
		return 0;
	for (i = 0; i < len; i++)
		low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 :
		    name[i]);
	low[len] = '\0';
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(kinds[mid].name, low)) == 0)
			return kinds[mid].flags;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int
same(const struct nest_el *e, const unsigned char *name, size_t len)
{
	return e->len == len && strncasecmp((const char *)e->name,
	    (const char *)name, len) == 0;
}

static int
is(const struct nest_el *e, const char *name)
{
	return same(e, (const unsigned char *)name, strlen(name));
}

void
nest_free(struct nest *n)
{
	pskd_buf_free(&n->tag);
}

void
nest_init(struct nest *n, struct pskd_buf *out)
{
	n->n = n->ng = n->nghosts = 0;
	n->seq = 0;
	n->reopened = 0;
	n->foreign = 0;
	n->out = out;
}

size_t
nest_count(const struct nest *n)
{
	return n->n + n->nghosts;
}

/* The sequence number of the last marker on the list; 0: none. */
static uint32_t
last_marker(const struct nest *n)
{
	size_t k = n->ng;

	while (k > 0 && !(n->g[k - 1].flags & NF_MARKER))
		k--;
	return k > 0 ? n->g[k - 1].seq : 0;
}

static void
ghost_remove(struct nest *n, size_t k)
{
	memmove(n->g + k, n->g + k + 1, (n->ng - k - 1) * sizeof(n->g[0]));
	n->ng--;
	n->nghosts--;
}

/*
 * Pop the top element.  Written: its end tag goes out (else gumbo closes
 * it itself); a formatting element stays on the list as a ghost; the end
 * of a marker's element clears the list back to the marker.
 */
static void
pop(struct nest *n, int written)
{
	struct nest_el *e = &n->s[--n->n];

	if (e->flags & NF_FOREIGN)
		n->foreign--;
	if (e->flags & NF_MARKER) {
		while (n->ng > 0 && !(n->g[n->ng - 1].flags & NF_MARKER)) {
			n->ng--;
			n->nghosts--;
		}
		if (n->ng > 0)
			n->ng--;
	}
	if (e->flags & NF_FORMAT) {
		n->g[n->ng++] = *e;
		n->nghosts++;
	} else if (written) {
		pskd_buf_add(n->out, "</", 2);
		pskd_buf_add(n->out, e->name, e->len);
		pskd_buf_addc(n->out, '>');
	}
}

/*
 * Close element k and those above it: theirs as end tags to out (a
 * formatting one stays a ghost), its own by the caller's end tag or by
 * gumbo's rule that closes it.  Closed so, a formatting element k is off
 * the list too (the adoption agency's end).
 */
static void
close_to(struct nest *n, size_t k)
{
	while (n->n > k + 1)
		pop(n, 1);
	n->s[k].flags &= ~(unsigned)NF_FORMAT;
	pop(n, 0);
}

/* Scopes beyond the default one: button's, list items'. */
enum { SC_DEFAULT, SC_BUTTON, SC_LIST };

/*
 * The topmost element named name, unless an element with a flag of stop
 * (or of the scope sc) is above it; -1 when none is.
 */
static long
find(const struct nest *n, const unsigned char *name, size_t len,
    unsigned stop, int sc)
{
	size_t k = n->n;

	while (k-- > 0) {
		const struct nest_el *e = &n->s[k];

		if (same(e, name, len))
			return (long)k;
		if ((e->flags & stop) || (sc == SC_BUTTON && is(e, "button")) ||
		    (sc == SC_LIST && (is(e, "ol") || is(e, "ul"))))
			return -1;
	}
	return -1;
}

/* The topmost of the names (a list "td th") within table scope. */
static long
find_table(const struct nest *n, const char *const *names)
{
	size_t k = n->n, i;

	while (k-- > 0) {
		for (i = 0; names[i] != NULL; i++)
			if (is(&n->s[k], names[i]))
				return (long)k;
		if (is(&n->s[k], "table") || is(&n->s[k], "template") ||
		    is(&n->s[k], "html"))
			return -1;
	}
	return -1;
}

/* "Close a p element", if one is in button scope. */
static void
close_p(struct nest *n)
{
	long k = find(n, (const unsigned char *)"p", 1, NF_SCOPE, SC_BUTTON);

	if (k >= 0)
		close_to(n, (size_t)k);
}

/* The li, or dd and dt, that a new one closes (gumbo's loop). */
static void
close_item(struct nest *n, int li)
{
	size_t k = n->n;

	while (k-- > 0) {
		const struct nest_el *e = &n->s[k];

		if (li ? is(e, "li") : is(e, "dd") || is(e, "dt")) {
			close_to(n, k);
			return;
		}
		if ((e->flags & NF_SPECIAL) && !is(e, "address") &&
		    !is(e, "div") && !is(e, "p"))
			return;
	}
}

/*
 * The most recent formatting element of name after the last marker,
 * open (*ghost 0, its stack index) or on the list only (*ghost 1, its
 * index there); -1 when there is none.
 */
static long
last_formatting(const struct nest *n, const unsigned char *name, size_t len,
    int *ghost)
{
	uint32_t mark = last_marker(n), best = 0;
	long at = -1;
	size_t k;

	for (k = n->ng; k-- > 0 && n->g[k].seq > mark;)
		if (!(n->g[k].flags & NF_MARKER) && same(&n->g[k], name, len)) {
			best = n->g[k].seq;
			at = (long)k;
			*ghost = 1;
			break;
		}
	for (k = n->n; k-- > 0;)
		if ((n->s[k].flags & NF_FORMAT) && n->s[k].seq > mark &&
		    n->s[k].seq > best && same(&n->s[k], name, len)) {
			at = (long)k;
			*ghost = 0;
			break;
		}
	return at;
}

/* Whether a special element is above stack index k. */
static int
special_above(const struct nest *n, size_t k)
{
	while (++k < n->n)
		if (n->s[k].flags & NF_SPECIAL)
			return 1;
	return 0;
}

/*
 * Gumbo reopens the formatting elements closed around it (those on the
 * list after the last marker) before a run of text or most start tags:
 * open again here, and counted towards HTML_MAX_TAGS.  -1: past it.
 */
int
nest_reopen(struct nest *n)
{
	uint32_t mark = last_marker(n);
	size_t k = n->ng;

	while (k > 0 && n->g[k - 1].seq > mark &&
	    !(n->g[k - 1].flags & NF_MARKER))
		k--;
	if (k == n->ng)
		return 0;
	if ((n->reopened += n->ng - k) > HTML_MAX_TAGS)
		return -1;
	memcpy(n->s + n->n, n->g + k, (n->ng - k) * sizeof(n->g[0]));
	n->n += n->ng - k;
	n->nghosts -= n->ng - k;
	n->ng = k;
	return 0;
}

/*
 * Fourth alike (same name, same attributes as written): gumbo forgets
 * the earliest of the three on its list after the last marker.
 */
static void
noahs_ark(struct nest *n, const unsigned char *tag, size_t taglen)
{
	uint32_t mark = last_marker(n);
	size_t k, alike = 0, first = 0;
	int ghost = 0;

	for (k = 0; k < n->n; k++)
		if ((n->s[k].flags & NF_FORMAT) && n->s[k].seq > mark &&
		    n->s[k].taglen == taglen && memcmp(n->out->p +
		    n->s[k].tag, tag, taglen) == 0)
			alike++;
	for (k = n->ng; k-- > 0 && n->g[k].seq > mark;)
		if (!(n->g[k].flags & NF_MARKER) && n->g[k].taglen == taglen &&
		    memcmp(n->out->p + n->g[k].tag, tag, taglen) == 0) {
			alike++;
			first = k;
			ghost = 1;
		}
	/* Only a ghost can go: an open one stays counted. */
	if (alike >= 3 && ghost)
		ghost_remove(n, first);
}

/* Start tags that close what is open (gumbo's "in body" rules). */
static void
implied_closes(struct nest *n, const unsigned char *name, size_t len,
    unsigned fl)
{
	static const char *const cells[] = { "td", "th", NULL };
	static const char *const rows[] = { "tr", NULL };
	static const char *const sections[] = { "tbody", "thead", "tfoot",
	    NULL };
	struct nest_el tmp = { name, (uint32_t)len, 0, 0, 0, 0 };
	long k;
	int ghost;

	if (n->n > 0 && is(&n->s[n->n - 1], "option") && (is(&tmp,
	    "option") || is(&tmp, "optgroup")))
		pop(n, 0);
	if (n->n > 0 && is(&n->s[n->n - 1], "colgroup") && !is(&tmp, "col"))
		pop(n, 0);
	if (is(&tmp, "li"))
		close_item(n, 1);
	else if (is(&tmp, "dd") || is(&tmp, "dt"))
		close_item(n, 0);
	if (fl & NF_PCLOSE)
		close_p(n);
	if ((fl & NF_HEADING) && n->n > 0 &&
	    (n->s[n->n - 1].flags & NF_HEADING))
		pop(n, 0);
	if (is(&tmp, "td") || is(&tmp, "th")) {
		if ((k = find_table(n, cells)) >= 0)
			close_to(n, (size_t)k);
	} else if (is(&tmp, "tr")) {
		if ((k = find_table(n, rows)) >= 0)
			close_to(n, (size_t)k);
	} else if (is(&tmp, "tbody") || is(&tmp, "thead") ||
	    is(&tmp, "tfoot")) {
		if ((k = find_table(n, sections)) >= 0)
			close_to(n, (size_t)k);
	} else if (is(&tmp, "table") && n->n > 0 &&
	    (n->s[n->n - 1].flags & NF_TABLE)) {
		if ((k = find(n, name, len, 0, SC_DEFAULT)) >= 0)
			close_to(n, (size_t)k);
	} else if (is(&tmp, "button")) {
		if ((k = find(n, name, len, NF_SCOPE, SC_DEFAULT)) >= 0)
			close_to(n, (size_t)k);
	} else if (is(&tmp, "a")) {
		/* The a still on the list: the adoption agency closes it. */
		if ((k = last_formatting(n, name, len, &ghost)) >= 0) {
			if (ghost)
				ghost_remove(n, (size_t)k);
			else if (!special_above(n, (size_t)k))
				close_to(n, (size_t)k);
		}
	}
}

int
nest_start(struct nest *n, const unsigned char *name, size_t len,
    size_t at, int selfclose)
{
	unsigned fl = flags_of(name, len);
	size_t taglen = n->out->len - at;
	struct nest_el *e;

	if (fl & NF_ROOT)
		return 0;
	/* The start tag written goes after the end tags its rules write. */
	n->tag.len = 0;
	pskd_buf_add(&n->tag, n->out->p + at, taglen);
	n->out->len = at;
	implied_closes(n, name, len, fl);
	if (!(fl & NF_SPECIAL) && nest_reopen(n) == -1)
		return -1;
	at = n->out->len;
	pskd_buf_add(n->out, n->tag.p, taglen);
	if ((fl & NF_VOID) || (selfclose && n->foreign > 0))
		return 0;
	if (nest_count(n) >= HTML_MAX_DEPTH)
		return -1;
	if (fl & NF_FORMAT)
		noahs_ark(n, n->out->p + at, taglen);
	if (fl & NF_MARKER) {
		e = &n->g[n->ng++];
		e->name = name;
		e->len = (uint32_t)len;
		e->flags = NF_MARKER;
		e->seq = ++n->seq;
	}
	e = &n->s[n->n++];
	e->name = name;
	e->len = (uint32_t)len;
	e->flags = fl;
	e->seq = ++n->seq;
	e->tag = at;
	e->taglen = taglen;
	if (fl & NF_FOREIGN)
		n->foreign++;
	return 0;
}

/* The topmost of h1 to h6 in scope (any closes any); or -1. */
static long
find_heading(const struct nest *n)
{
	size_t k = n->n;

	while (k-- > 0) {
		if (n->s[k].flags & NF_HEADING)
			return (long)k;
		if (n->s[k].flags & NF_SCOPE)
			return -1;
	}
	return -1;
}

void
nest_end(struct nest *n, const unsigned char *name, size_t len, size_t at)
{
	struct nest_el tmp = { name, (uint32_t)len, 0, 0, 0, 0 };
	const char *one[2] = { NULL, NULL };
	unsigned fl = flags_of(name, len);
	size_t taglen = n->out->len - at, i;
	char low[16];
	long found = -1;
	int ghost;

	if (fl & (NF_ROOT | NF_VOID))
		return;
	if (fl & NF_FORMAT) {
		found = last_formatting(n, name, len, &ghost);
		if (found >= 0 && ghost) {
			ghost_remove(n, (size_t)found);
			return;
		}
		if (found >= 0 && special_above(n, (size_t)found))
			return;		/* the adoption agency's: as it is */
	}
	if (found >= 0)
		;
	else if (is(&tmp, "p"))
		found = find(n, name, len, NF_SCOPE, SC_BUTTON);
	else if (is(&tmp, "li"))
		found = find(n, name, len, NF_SCOPE, SC_LIST);
	else if (fl & NF_HEADING)
		found = find_heading(n);
	else if ((fl & (NF_TABLE | NF_MARKER)) && !is(&tmp, "table") &&
	    len < sizeof(low)) {
		/* Cells, rows, sections, captions: in table scope. */
		for (i = 0; i < len; i++)
			low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ?
			    name[i] + 32 : name[i]);
		low[len] = '\0';
		one[0] = low;
		found = find_table(n, one);
	} else if (fl & NF_SPECIAL)
		found = find(n, name, len, NF_SCOPE, SC_DEFAULT);
	else
		found = find(n, name, len, NF_SPECIAL, SC_DEFAULT);
	if (found < 0)
		return;
	if (is(&tmp, "form") && (size_t)found + 1 != n->n)
		return;		/* gumbo takes the form out, the rest stays */
	n->tag.len = 0;
	pskd_buf_add(&n->tag, n->out->p + at, taglen);
	n->out->len = at;
	close_to(n, (size_t)found);
	pskd_buf_add(n->out, n->tag.p, taglen);
}
