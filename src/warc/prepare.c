/*
 * prepare.c - the page gumbo sees: one pass over the HTML that keeps
 * what the extractor reads and bounds the work of the parse.
 *
 * Gumbo builds the HTML5 tree as browsers do, but it is slow (it spends
 * most of a page's time on scripts, styles and attributes the extractor
 * never reads), and some of its steps walk the stack of open elements, so
 * a page of a million nested tags would take hours.  So the pass
 *
 *   - drops comments, processing instructions, scripts, styles, and
 *     what the extractor drops whole anyway (noscript, textarea, iframe,
 *     nav, aside, footer, select, svg, math, template, object, video,
 *     audio, canvas, map, datalist, button) when their end tag is there,
 *     counting nested ones of the same name;
 *   - keeps of each tag its name and the attributes the extractor reads
 *     (class, id, role, hidden, aria-hidden, and a style that names
 *     display or visibility), drops the tags of formatting elements that
 *     have none of those (span, b, i, em, strong, font ...) and the white
 *     space beside block tags, and puts a placeholder for each run of
 *     text (run_text);
 *   - keeps the elements open as gumbo will (nest.c), writing the end
 *     tags of those that an end tag or a start tag closes;
 *   - stops before the first tag past 200000, the first tag longer than
 *     64 KiB, the first start tag that would leave more than 512 elements
 *     open (counting the formatting elements gumbo reopens), or once
 *     gumbo would have reopened 200000 of them, or past 8 MiB of the
 *     page: the page is cut there.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc/html.h"

enum { T_OTHER, T_DROPRAW, T_SKIP, T_TITLE, T_PRE, T_PLAINTEXT, T_META,
    T_INLINE };

/* What a tag name is to the pass (names lower case). */
static const struct {
	const char	*name;
	unsigned char	 len, what;
} names[] = {
#define N(s, w) { s, sizeof(s) - 1, w }
	N("base", T_META), N("img", T_META), N("link", T_META),
	N("meta", T_META), N("script", T_DROPRAW), N("style", T_DROPRAW),
	N("textarea", T_DROPRAW), N("iframe", T_DROPRAW),
	N("noembed", T_DROPRAW), N("noframes", T_DROPRAW),
	N("noscript", T_DROPRAW), N("nav", T_SKIP), N("aside", T_SKIP),
	N("footer", T_SKIP), N("select", T_SKIP), N("template", T_SKIP),
	N("object", T_SKIP), N("video", T_SKIP), N("audio", T_SKIP),
	N("canvas", T_SKIP), N("map", T_SKIP), N("datalist", T_SKIP),
	N("button", T_SKIP), N("span", T_INLINE), N("b", T_INLINE),
	N("i", T_INLINE), N("em", T_INLINE), N("strong", T_INLINE),
	N("font", T_INLINE), N("small", T_INLINE), N("big", T_INLINE),
	N("u", T_INLINE), N("s", T_INLINE), N("strike", T_INLINE),
	N("sub", T_INLINE), N("sup", T_INLINE), N("abbr", T_INLINE),
	N("acronym", T_INLINE), N("cite", T_INLINE), N("time", T_INLINE),
	N("mark", T_INLINE), N("q", T_INLINE), N("dfn", T_INLINE),
	N("kbd", T_INLINE), N("samp", T_INLINE), N("var", T_INLINE),
	N("bdi", T_INLINE), N("bdo", T_INLINE), N("ins", T_INLINE),
	N("del", T_INLINE), N("nobr", T_INLINE), N("picture", T_INLINE),
	N("title", T_TITLE), N("pre", T_PRE), N("listing", T_PRE),
	N("xmp", T_PRE), N("plaintext", T_PLAINTEXT),
#undef N
};

static int
is_alpha(unsigned char c)
{
	return (c | 32) >= 'a' && (c | 32) <= 'z';
}

static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Block-level elements: white space beside their tags is no text. */
static const char *const blocks[] = {
	"address", "article", "blockquote", "body", "caption", "center",
	"dd", "details", "dir", "div", "dl", "dt", "fieldset", "figcaption",
	"figure", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head",
	"header", "hgroup", "hr", "html", "legend", "li", "link", "main",
	"meta", "ol", "p", "section", "summary", "table", "tbody", "td",
	"tfoot", "th", "thead", "title", "tr", "ul", "br",
};

/*
 * The names above and the blocks, by first letter: what a name is and
 * whether it is a block, in one look.
 */
struct entry {
	const char	*name;
	size_t		 len;
	int		 what, block;
};
static struct entry entries[sizeof(names) / sizeof(names[0]) +
    sizeof(blocks) / sizeof(blocks[0])];
static size_t bucket[27], nentries;

static void
add_entry(const char *name, size_t len, int w, int block)
{
	size_t i;

	for (i = 0; i < nentries; i++)
		if (entries[i].len == len && memcmp(entries[i].name, name,
		    len) == 0) {
			entries[i].block |= block;
			if (w != T_OTHER)
				entries[i].what = w;
			return;
		}
	entries[nentries].name = name;
	entries[nentries].len = len;
	entries[nentries].what = w;
	entries[nentries++].block = block;
}

static int
by_letter(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static void
index_names(void)
{
	size_t i, k;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		add_entry(names[i].name, names[i].len, names[i].what, 0);
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
		add_entry(blocks[i], strlen(blocks[i]), T_OTHER, 1);
	qsort(entries, nentries, sizeof(entries[0]), by_letter);
	for (i = k = 0; k < 26; k++) {
		bucket[k] = i;
		while (i < nentries && entries[i].name[0] == 'a' + (int)k)
			i++;
	}
	bucket[26] = nentries;
}

/* What a name is (T_*), and whether it is a block. */
static int
what(const unsigned char *name, size_t len, int *block)
{
	unsigned c = (unsigned)((name[0] | 32) - 'a');
	size_t i, k;

	if (nentries == 0)
		index_names();
	*block = 0;
	if (c >= 26 || len > 10)
		return T_OTHER;
	for (i = bucket[c]; i < bucket[c + 1]; i++) {
		if (entries[i].len != len)
			continue;
		for (k = 1; k < len && (name[k] | 32) == entries[i].name[k]; k++)
			;
		if (k == len) {
			*block = entries[i].block;
			return entries[i].what;
		}
	}
	return T_OTHER;
}

/*
 * Where "</NAME" (any case, then a blank, '/' or '>') starts in
 * p[from..n), or n.
 */
static size_t
end_tag(const unsigned char *p, size_t n, size_t from,
    const unsigned char *name, size_t len)
{
	const unsigned char *q;
	size_t i = from;

	while ((q = memchr(p + i, '<', n - i)) != NULL) {
		i = (size_t)(q - p);
		if (i + 2 + len <= n && q[1] == '/' && strncasecmp(
		    (const char *)q + 2, (const char *)name, len) == 0 &&
		    (i + 2 + len == n || is_space(q[2 + len]) ||
		    q[2 + len] == '/' || q[2 + len] == '>'))
			return i;
		i++;
	}
	return n;
}

/* Does an attribute of this name go through? */
static int
kept_attr(const unsigned char *a, size_t n, const unsigned char *v,
    size_t vn)
{
	if ((n == 5 && strncasecmp((const char *)a, "class", 5) == 0) ||
	    (n == 2 && strncasecmp((const char *)a, "id", 2) == 0) ||
	    (n == 4 && strncasecmp((const char *)a, "role", 4) == 0) ||
	    (n == 6 && strncasecmp((const char *)a, "hidden", 6) == 0) ||
	    (n == 11 && strncasecmp((const char *)a, "aria-hidden", 11) == 0))
		return 1;
	if (n == 5 && strncasecmp((const char *)a, "style", 5) == 0)
		return memmem(v, vn, "display", 7) != NULL ||
		    memmem(v, vn, "visibility", 10) != NULL;
	return 0;
}

/*
 * The attributes of a tag from p[i] to its '>': the kept ones to out.
 * Returns the index after the '>', or 0 when the tag does not end.
 */
static size_t
attributes(const unsigned char *p, size_t n, size_t i, struct pskd_buf *out,
    int *selfclose)
{
	size_t a, an, v, vn, start;
	unsigned char q;

	*selfclose = 0;
	for (;;) {
		while (i < n && (is_space(p[i]) || p[i] == '/')) {
			*selfclose = p[i] == '/';
			i++;
		}
		if (i >= n)
			return 0;
		if (p[i] == '>')
			return i + 1;
		*selfclose = 0;
		start = a = i;
		while (i < n && !is_space(p[i]) && p[i] != '>' && p[i] != '/' &&
		    (p[i] != '=' || i == a))
			i++;
		an = i - a;
		while (i < n && is_space(p[i]))
			i++;
		v = i;
		vn = 0;
		if (i < n && p[i] == '=') {
			i++;
			while (i < n && is_space(p[i]))
				i++;
			if (i < n && (p[i] == '"' || p[i] == '\'')) {
				q = p[i++];
				v = i;
				while (i < n && p[i] != q)
					i++;
				if (i >= n)
					return 0;
				vn = i - v;
				i++;
			} else {
				v = i;
				while (i < n && !is_space(p[i]) && p[i] != '>')
					i++;
				vn = i - v;
			}
		}
		if (an > 0 && kept_attr(p + a, an, p + v, vn)) {
			pskd_buf_addc(out, ' ');
			pskd_buf_add(out, p + start, i - start);
		}
	}
}

/*
 * The inline elements open, and whether their start tag went through:
 * the end tag goes the way its start tag went.
 */
struct inl {
	struct {
		const unsigned char *name;
		size_t		 len;
		int		 kept;
	} s[64];
	size_t		 n, lost;	/* lost: past the 64 */
};

static void
inline_start(struct inl *in, const unsigned char *name, size_t len, int kept)
{
	if (in->n == 64) {
		in->lost++;
		return;
	}
	in->s[in->n].name = name;
	in->s[in->n].len = len;
	in->s[in->n++].kept = kept;
}

/* Whether the end tag of NAME goes through. */
static int
inline_end(struct inl *in, const unsigned char *name, size_t len)
{
	size_t k = in->n;
	int kept;

	if (in->lost > 0) {
		in->lost--;
		return 1;
	}
	while (k > 0 && (in->s[k - 1].len != len ||
	    strncasecmp((const char *)in->s[k - 1].name, (const char *)name,
	    len) != 0))
		k--;
	if (k == 0)
		return 1;	/* no start seen: the parser's to judge */
	kept = in->s[k - 1].kept;
	in->n = k - 1;		/* it closes the ones opened inside it */
	return kept;
}

/* Text to out, its runs of white space one space unless verbatim. */
static void
text(struct pskd_buf *out, const unsigned char *p, size_t n, int verbatim)
{
	size_t i = 0, run;

	if (verbatim) {
		pskd_buf_add(out, p, n);
		return;
	}
	while (i < n) {
		if (is_space(p[i])) {
			while (i < n && is_space(p[i]))
				i++;
			pskd_buf_addc(out, ' ');
			continue;
		}
		run = i;
		while (i < n && !is_space(p[i]))
			i++;
		pskd_buf_add(out, p + run, i - run);
	}
}

/* Does p[0..n) hold the placeholder's mark? */
static int
has_mark(const unsigned char *p, size_t n)
{
	const unsigned char *q;

	while ((q = memchr(p, 0xef, n)) != NULL) {
		n -= (size_t)(q - p) + 1;
		p = q + 1;
		if (n >= 2 && p[0] == 0xa3 && p[1] == 0xbe)
			return 1;
	}
	return 0;
}

/*
 * A run of text that is more than white space: a placeholder for it (the
 * parse costs gumbo about 50 ns a character, and the tree's shape is the
 * same whatever the characters, but for white space), and its place in
 * the page kept in runs.  A run with a character reference, a NUL or the
 * placeholder's own mark goes to gumbo as it is, its references decoded
 * there (the mark then becomes U+FFFD).
 */
static void
run_text(struct pskd_buf *out, const unsigned char *p, size_t n,
    size_t off, int verbatim, struct html_runs *runs)
{
	const unsigned char *m;
	size_t k, i;

	if (memchr(p, '&', n) == NULL && memchr(p, '\0', n) == NULL &&
	    !has_mark(p, n) && runs->n < HTML_RUNS_MAX) {
		if (runs->n == runs->cap) {
			runs->cap = runs->cap ? 2 * runs->cap : 256;
			runs->r = pskd_xreallocarray(runs->r, runs->cap,
			    sizeof(*runs->r));
		}
		runs->r[runs->n].off = off;
		runs->r[runs->n].len = n;
		k = runs->n++;
		pskd_buf_add(out, HTML_MARK, 3);
		for (i = 0; i < 2; i++) {
			unsigned char c[3];
			uint32_t cp = HTML_DIGIT0 + (uint32_t)(i == 0 ?
			    k / HTML_BASE : k % HTML_BASE);

			c[0] = (unsigned char)(0xe0 | cp >> 12);
			c[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
			c[2] = (unsigned char)(0x80 | (cp & 0x3f));
			pskd_buf_add(out, c, 3);
		}
		return;
	}
	k = out->len;
	text(out, p, n, verbatim);
	/* The mark in the page's own text: not a placeholder. */
	while ((m = memmem(out->p + k, out->len - k, HTML_MARK, 3)) != NULL) {
		memcpy(out->p + (m - out->p), "\xef\xbf\xbd", 3);
		k = (size_t)(m - out->p) + 3;
	}
}

void
html_prep_free(struct html_prep *h)
{
	free(h->runs.r);
	nest_free(&h->nest);
	skip_free(&h->skip);
}

int
html_prepare(const unsigned char *p, size_t n, struct pskd_buf *out,
    struct html_prep *h)
{
	const unsigned char *q, *name;
	struct html_runs *runs = &h->runs;
	struct nest *nest = &h->nest;
	size_t i = 0, start, len, k, at, tags = 0;
	int end, selfclose, w, pre = 0, cut = 0, space = 0, lastblock = 0;
	int block;
	size_t j;
	struct inl in = { .n = 0, .lost = 0 };

	out->len = 0;
	runs->n = 0;
	nest_init(nest, out);
	skip_reset(&h->skip);
	if (n > HTML_MAX_BYTES) {
		n = HTML_MAX_BYTES;
		cut = 1;
	}
	pskd_buf_reserve(out, n / 2 + 64);
	while (i < n) {
		q = memchr(p + i, '<', n - i);
		k = q ? (size_t)(q - p) : n;
		/*
		 * White space alone beside a block's tag is no text: it waits
		 * for the next tag to see.
		 */
		for (j = i; j < k && is_space(p[j]); j++)
			;
		if (j == k && k > i && pre == 0) {
			if (!lastblock)
				space = 1;
		} else if (k > i) {
			/* Text: gumbo reopens the formatting closed around it. */
			if (nest_reopen(nest) == -1) {
				cut = 1;
				break;
			}
			if (space)
				pskd_buf_addc(out, ' ');
			space = 0;
			run_text(out, p + i, k - i, i, pre > 0, runs);
		}
		if ((i = k) >= n)
			break;
		start = i;
		if (n - i >= 4 && memcmp(p + i, "<!--", 4) == 0) {
			q = memmem(p + i + 4, n - i - 4, "-->", 3);
			i = q ? (size_t)(q - p) + 3 : n;
			continue;
		}
		if (i + 1 < n && (p[i + 1] == '!' || p[i + 1] == '?')) {
			q = memchr(p + i, '>', n - i);
			k = q ? (size_t)(q - p) + 1 : n;
			if (k - i > 9 && strncasecmp((const char *)p + i,
			    "<!doctype", 9) == 0)
				pskd_buf_add(out, p + i, k - i);
			i = k;
			continue;
		}
		end = i + 1 < n && p[i + 1] == '/';
		k = i + 1 + (size_t)end;
		if (k >= n || !is_alpha(p[k])) {
			pskd_buf_addc(out, '<');
			i++;
			continue;
		}
		name = p + k;
		for (len = 0; k + len < n && !is_space(p[k + len]) &&
		    p[k + len] != '>' && p[k + len] != '/'; len++)
			;
		if (++tags > HTML_MAX_TAGS) {
			cut = 1;
			break;
		}
		w = what(name, len, &block);
		if (space && !block) {
			if (nest_reopen(nest) == -1) {
				cut = 1;
				break;
			}
			pskd_buf_addc(out, ' ');
		}
		space = 0;
		lastblock = block;
		if (end) {
			q = memchr(p + k, '>', n - k);
			if (q == NULL)
				break;
			i = (size_t)(q - p) + 1;
			if (i - start > HTML_MAX_TAGLEN) {
				cut = 1;
				break;
			}
			if (w == T_INLINE && !inline_end(&in, name, len))
				continue;
			at = out->len;
			pskd_buf_add(out, p + start, 2 + len);
			pskd_buf_addc(out, '>');
			nest_end(nest, name, len, at);
			if (w == T_PRE && pre > 0)
				pre--;
			continue;
		}
		/* A start tag: its name, then the attributes that count. */
		at = out->len;
		pskd_buf_add(out, p + start, 1 + len);
		i = attributes(p, n, start + 1 + len, out, &selfclose);
		if (i == 0) {
			out->len = at;
			break;	/* the rest is one unfinished tag */
		}
		if (i - start > HTML_MAX_TAGLEN) {
			out->len = at;
			cut = 1;
			break;
		}
		if (selfclose)
			pskd_buf_addc(out, '/');
		pskd_buf_addc(out, '>');
		switch (w) {
		case T_INLINE:
			/*
			 * Formatting without a name the extractor reads: its
			 * text is all it gives (its end tag goes too).
			 */
			if (out->len == at + 2 + len) {
				out->len = at;
				inline_start(&in, name, len, 0);
				continue;
			}
			inline_start(&in, name, len, 1);
			break;
		case T_META:
			out->len = at;
			continue;
		case T_DROPRAW:
			/* Its text up to its end tag, and the end tag, go. */
			out->len = at;
			i = end_tag(p, n, i, name, len);
			q = i < n ? memchr(p + i, '>', n - i) : NULL;
			i = q ? (size_t)(q - p) + 1 : n;
			continue;
		case T_SKIP:
			if (selfclose)
				break;
			/* The whole element goes, if it ends. */
			if ((k = skip_end(&h->skip, p, n, i, name, len)) > 0) {
				out->len = at;
				i = k;
				continue;
			}
			break;
		case T_PRE:
			pre++;
			break;
		}
		if (nest_start(nest, name, len, at, selfclose) == -1) {
			out->len = at;
			cut = 1;
			break;
		}
		if (w == T_TITLE) {
			k = end_tag(p, n, i, name, len);
			pskd_buf_add(out, p + i, k - i);
			i = k;
		} else if (w == T_PLAINTEXT) {
			pskd_buf_add(out, p + i, n - i);
			i = n;
		}
	}
	return cut;
}
