/*
 * classify.c - what an element is to the extractor: a block or inline,
 * a subtree to drop (by its tag, because it is hidden, or an ARIA landmark
 * of navigation), and the hints its class and id names give.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc/html.h"

int
html_is_block(GumboTag t)
{
	switch (t) {
	case GUMBO_TAG_ADDRESS: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_ASIDE:
	case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_BODY: case GUMBO_TAG_CAPTION:
	case GUMBO_TAG_CENTER: case GUMBO_TAG_DD: case GUMBO_TAG_DETAILS:
	case GUMBO_TAG_DIR: case GUMBO_TAG_DIV:
	case GUMBO_TAG_DL: case GUMBO_TAG_DT: case GUMBO_TAG_FIELDSET:
	case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_FIGURE: case GUMBO_TAG_FOOTER:
	case GUMBO_TAG_FORM: case GUMBO_TAG_H1: case GUMBO_TAG_H2:
	case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5:
	case GUMBO_TAG_H6: case GUMBO_TAG_HEADER: case GUMBO_TAG_HGROUP:
	case GUMBO_TAG_HR: case GUMBO_TAG_HTML: case GUMBO_TAG_LEGEND:
	case GUMBO_TAG_LI: case GUMBO_TAG_MAIN: case GUMBO_TAG_MENU:
	case GUMBO_TAG_NAV: case GUMBO_TAG_OL: case GUMBO_TAG_P:
	case GUMBO_TAG_PRE: case GUMBO_TAG_SECTION: case GUMBO_TAG_SUMMARY:
	case GUMBO_TAG_TABLE: case GUMBO_TAG_TBODY: case GUMBO_TAG_TD:
	case GUMBO_TAG_TFOOT: case GUMBO_TAG_TH: case GUMBO_TAG_THEAD:
	case GUMBO_TAG_TR: case GUMBO_TAG_UL: case GUMBO_TAG_LISTING:
	case GUMBO_TAG_PLAINTEXT: case GUMBO_TAG_XMP:
		return 1;
	default:
		return 0;
	}
}

/* Subtrees that never hold main text. */
int
html_is_dropped(GumboTag t)
{
	switch (t) {
	case GUMBO_TAG_HEAD: case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE:
	case GUMBO_TAG_NOSCRIPT: case GUMBO_TAG_TEMPLATE: case GUMBO_TAG_IFRAME:
	case GUMBO_TAG_SVG: case GUMBO_TAG_MATH: case GUMBO_TAG_CANVAS:
	case GUMBO_TAG_OBJECT: case GUMBO_TAG_EMBED: case GUMBO_TAG_VIDEO:
	case GUMBO_TAG_AUDIO: case GUMBO_TAG_MAP: case GUMBO_TAG_SELECT:
	case GUMBO_TAG_TEXTAREA: case GUMBO_TAG_BUTTON: case GUMBO_TAG_INPUT:
	case GUMBO_TAG_OPTION: case GUMBO_TAG_DATALIST: case GUMBO_TAG_NAV:
	case GUMBO_TAG_ASIDE: case GUMBO_TAG_FOOTER: case GUMBO_TAG_MENU:
	case GUMBO_TAG_FRAMESET: case GUMBO_TAG_LABEL:
		return 1;
	default:
		return 0;
	}
}

int
html_kind(GumboTag t)
{
	switch (t) {
	case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3:
	case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6:
		return K_HEADING;
	case GUMBO_TAG_LI: case GUMBO_TAG_DD: case GUMBO_TAG_DT:
		return K_ITEM;
	case GUMBO_TAG_PRE: case GUMBO_TAG_LISTING: case GUMBO_TAG_XMP:
	case GUMBO_TAG_PLAINTEXT:
		return K_PRE;
	default:
		return K_TEXT;
	}
}

const char *
html_attr(GumboNode *n, const char *name)
{
	GumboAttribute *a = gumbo_get_attribute(&n->v.element.attributes, name);

	return a ? a->value : NULL;
}

/* Whether the attribute value v (lower-cased here) has word w. */
static int
has_word(const char *v, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = v; (p = strstr(p, w)) != NULL; p++)
		if ((p == v || p[-1] == ' ' || p[-1] == ';') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == ';'))
			return 1;
	return 0;
}

/* Hidden from readers: hidden, aria-hidden, display: none. */
int
html_hidden(GumboNode *n)
{
	const char *v;
	char s[128];
	size_t i, k = 0;

	if (html_attr(n, "hidden") != NULL)
		return 1;
	if ((v = html_attr(n, "aria-hidden")) != NULL && strcasecmp(v, "true") == 0)
		return 1;
	if ((v = html_attr(n, "style")) == NULL)
		return 0;
	for (i = 0; v[i] != '\0' && k + 1 < sizeof(s); i++)
		if (v[i] != ' ' && v[i] != '\t')
			s[k++] = (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] + 32 :
			    v[i]);
	s[k] = '\0';
	return strstr(s, "display:none") != NULL ||
	    strstr(s, "visibility:hidden") != NULL;
}

int
html_landmark_out(GumboNode *n)
{
	static const char *const roles[] = {
		"navigation", "banner", "contentinfo", "complementary",
		"search", "menu", "menubar", "dialog", "alertdialog",
	};
	const char *v = html_attr(n, "role");
	char low[64];
	size_t i;

	if (v == NULL)
		return 0;
	for (i = 0; v[i] != '\0' && i + 1 < sizeof(low); i++)
		low[i] = (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] + 32 : v[i]);
	low[i] = '\0';
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (has_word(low, roles[i]))
			return 1;
	return 0;
}

/*
 * The words of class and id names: a name's parts split at anything not
 * a letter or digit.  A long word matches a part it starts or ends
 * ("sphinxsidebar", "commentlist"); a short one only a whole part.
 */
static const struct pattern {
	const char	*w;
	unsigned	 hint;
	int		 whole;
} patterns[] = {
	{ "sidebar", H_NEG1, 0 }, { "footer", H_NEG1, 0 },
	{ "navbar", H_NEG1, 0 }, { "navigation", H_NEG1, 0 },
	{ "cookie", H_NEG1, 0 }, { "consent", H_NEG1, 0 },
	{ "breadcrumb", H_NEG1, 0 }, { "newsletter", H_NEG1, 0 },
	{ "subscribe", H_NEG1, 0 }, { "subscription", H_NEG1, 0 },
	{ "advert", H_NEG1, 0 }, { "sponsor", H_NEG1, 0 },
	{ "pagination", H_NEG1, 0 }, { "social", H_NEG1, 0 },
	{ "sharing", H_NEG1, 0 }, { "share", H_NEG1, 1 },
	{ "popup", H_NEG1, 0 }, { "modal", H_NEG1, 1 },
	{ "masthead", H_NEG1, 0 }, { "toolbar", H_NEG1, 0 },
	{ "signup", H_NEG1, 0 }, { "login", H_NEG1, 1 },
	{ "banner", H_NEG1, 0 }, { "nav", H_NEG1, 1 }, { "menu", H_NEG1, 0 },
	{ "ad", H_NEG1, 1 }, { "ads", H_NEG1, 1 }, { "skip", H_NEG1, 1 },
	{ "gdpr", H_NEG1, 1 }, { "editsection", H_NEG1, 0 }, { "promo", H_NEG1, 0 }, { "pager", H_NEG1, 1 },
	{ "comment", H_NEG2, 0 }, { "comments", H_NEG2, 0 },
	{ "related", H_NEG2, 0 }, { "recommended", H_NEG2, 0 },
	{ "widget", H_NEG2, 0 }, { "trending", H_NEG2, 0 },
	{ "popular", H_NEG2, 0 }, { "disqus", H_NEG2, 0 },
	{ "outbrain", H_NEG2, 0 }, { "taboola", H_NEG2, 0 },
	{ "tags", H_NEG2, 1 }, { "tagcloud", H_NEG2, 0 },
	{ "gallery", H_NEG2, 0 }, { "slideshow", H_NEG2, 0 },
	{ "carousel", H_NEG2, 0 }, { "byline", H_NEG2, 0 },
	{ "dateline", H_NEG2, 0 }, { "author", H_NEG2, 0 },
	{ "disclosure", H_NEG2, 0 },
	{ "caption", H_NEG2, 0 }, { "credit", H_NEG2, 0 },
	{ "article", H_POS, 0 }, { "content", H_POS, 0 },
	{ "entry", H_POS, 0 }, { "main", H_POS, 1 }, { "post", H_POS, 0 },
	{ "story", H_POS, 0 }, { "text", H_POS, 1 }, { "body", H_POS, 0 },
	{ "blog", H_POS, 1 }, { "prose", H_POS, 1 },
};

/*
 * The patterns by the first letter of their word and by its last: a word
 * is checked against those that can start it or end it.
 */
#define NPAT (sizeof(patterns) / sizeof(patterns[0]))
static unsigned char first[26][NPAT], last[26][NPAT], nfirst[26], nlast[26];
static size_t plen[NPAT];

static void
index_patterns(void)
{
	size_t i;
	unsigned a, z;

	for (i = 0; i < NPAT; i++) {
		plen[i] = strlen(patterns[i].w);
		a = (unsigned)(patterns[i].w[0] - 'a');
		z = (unsigned)(patterns[i].w[plen[i] - 1] - 'a');
		first[a][nfirst[a]++] = (unsigned char)i;
		if (!patterns[i].whole && z < 26)
			last[z][nlast[z]++] = (unsigned char)i;
	}
}

static unsigned
word_hint(const char *w, size_t n)
{
	const struct pattern *p;
	unsigned h = 0, a = (unsigned)(w[0] - 'a');
	unsigned z = (unsigned)(w[n - 1] - 'a');
	size_t i, k;

	if (plen[0] == 0)
		index_patterns();
	if (a < 26)
		for (i = 0; i < nfirst[a]; i++) {
			p = &patterns[first[a][i]];
			k = plen[first[a][i]];
			if (k <= n && (k == n || !p->whole) &&
			    memcmp(p->w, w, k) == 0)
				h |= p->hint;
		}
	if (z < 26)
		for (i = 0; i < nlast[z]; i++) {
			p = &patterns[last[z][i]];
			k = plen[last[z][i]];
			if (k < n && memcmp(p->w, w + n - k, k) == 0)
				h |= p->hint;
		}
	return h;
}

static unsigned
names_hint(const char *v)
{
	char w[48];
	unsigned h = 0;
	size_t n = 0;

	for (;; v++) {
		unsigned char c = (unsigned char)*v;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    (c >= 'A' && c <= 'Z')) {
			if (n + 1 < sizeof(w))
				w[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
			continue;
		}
		if (n > 0)
			h |= word_hint(w, n);
		n = 0;
		if (c == '\0')
			return h;
	}
}

unsigned
html_hint(GumboNode *n, int article)
{
	GumboTag t = n->v.element.tag;
	const char *v;
	unsigned h = 0;

	if (t == GUMBO_TAG_HTML || t == GUMBO_TAG_BODY)
		return H_KEEP;
	if (t == GUMBO_TAG_ARTICLE || t == GUMBO_TAG_MAIN ||
	    ((v = html_attr(n, "role")) != NULL && strcasecmp(v, "main") == 0))
		return H_KEEP | H_POS;
	if ((v = html_attr(n, "class")) != NULL)
		h |= names_hint(v);
	if ((v = html_attr(n, "id")) != NULL)
		h |= names_hint(v);
	(void)article;
	if (h & (H_NEG1 | H_NEG2))
		h &= ~(unsigned)H_POS;
	return h;
}

/*
 * A table row of plain cells (no block inside them, two levels down):
 * one line, its cells joined by " | ".
 */
int
html_plain_row(GumboNode *tr)
{
	GumboVector *cells = &tr->v.element.children, *in, *in2;
	GumboNode *c, *d;
	size_t i, j, k;

	for (i = 0; i < cells->length; i++) {
		c = cells->data[i];
		if (c->type != GUMBO_NODE_ELEMENT)
			continue;
		in = &c->v.element.children;
		for (j = 0; j < in->length; j++) {
			d = in->data[j];
			if (d->type != GUMBO_NODE_ELEMENT)
				continue;
			if (html_is_block(d->v.element.tag))
				return 0;
			in2 = &d->v.element.children;
			for (k = 0; k < in2->length; k++)
				if (((GumboNode *)in2->data[k])->type ==
				    GUMBO_NODE_ELEMENT && html_is_block(((GumboNode *)
				    in2->data[k])->v.element.tag))
					return 0;
		}
	}
	return 1;
}

