/*
 * extract.c - the main text of a page, by rules stated in pskd-unwarc(1),
 * EXTRACTION:
 *
 * 1. Walk gumbo's tree once, depth first with a stack of its own.  Drop
 *    the subtrees that never hold the content (scripts, forms' controls,
 *    nav, aside, footer, a header outside article or main, hidden ones,
 *    ARIA landmarks of navigation).  Cut the rest into blocks: the text of
 *    each block-level element, or of a table row of plain cells, with
 *    its bytes inside links counted.
 * 2. A container whose class or id names boilerplate (cookie, sidebar,
 *    comments ...) loses its blocks, unless it holds more than half of
 *    the page's text.
 * 3. Each block gets a weight: long text with few links counts its bytes,
 *    link lists and short lines count against.  An element's score is the
 *    sum over its blocks, plus a quarter of the positive part for article,
 *    main and classes that name content; the element of the highest score
 *    holds the main text.
 * 4. Its blocks go out, one a line, but for those the mode filters:
 *    link-dense and short linked ones, a leading headline equal to the
 *    title; favour-precision filters more, favour-recall adds the
 *    siblings that score above zero.
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "warc/html.h"

struct elem {
	int		 parent;
	GumboTag	 tag;
	unsigned	 hint;
	int		 removed;
	uint32_t	 first, end;	/* its blocks */
	int64_t		 score, pos;	/* sum of weights, of positive ones */
	uint64_t	 bytes;		/* text bytes of its blocks */
};

struct block {
	size_t		 off, len;	/* in the text pool */
	size_t		 linkbytes;
	int		 owner;		/* the elem it belongs to */
	int		 kind;
	int		 h1;		/* an h1 heading */
	int		 dropped;
	int64_t		 w;
};

struct priv {
	struct html_arena *arena;
	struct elem	*e;
	size_t		 ne, ecap;
	struct block	*b;
	size_t		 nb, bcap;
	struct pskd_buf	 pool;
	struct pskd_buf	 page;		/* what gumbo parses */
	struct html_prep prep;		/* its making: the text runs' places */
	const unsigned char *src;	/* the page they are in */
	struct tbuf	 t;
	struct frame	*st;
	size_t		 stcap;
};

struct frame {
	GumboNode	*node;
	unsigned	 next;		/* the next child to visit */
	int		 elem;		/* its elem, or -1 */
	int		 owner;		/* the block owner below it */
	int		 kind;
	int		 row;		/* plain row: 1 + its cells so far */
};


static void *
grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 256;
	return pskd_xreallocarray(p, *cap, size);
}

/* The text gathered so far as a block of owner. */
static void
flush(struct priv *x, int owner, int kind)
{
	const unsigned char *p;
	struct block *b;
	size_t n = tbuf_trimmed(&x->t, &p);

	if (n > 0 && owner >= 0) {
		x->b = grow(x->b, &x->bcap, x->nb, sizeof(*x->b));
		b = &x->b[x->nb++];
		b->off = x->pool.len;
		b->len = n;
		b->linkbytes = x->t.linkbytes < n ? x->t.linkbytes : n;
		b->owner = owner;
		b->kind = kind;
		b->h1 = owner >= 0 && x->e[owner].tag == GUMBO_TAG_H1;
		b->dropped = 0;
		b->w = 0;
		pskd_buf_add(&x->pool, p, n);
	}
	tbuf_clear(&x->t);
}

static int
is_blockish(GumboTag t)
{
	/* Custom elements (<app-root>) may wrap a whole page: blocks. */
	return html_is_block(t) || t == GUMBO_TAG_UNKNOWN;
}

static int
new_elem(struct priv *x, int parent, GumboTag tag, unsigned hint)
{
	struct elem *e;

	x->e = grow(x->e, &x->ecap, x->ne, sizeof(*x->e));
	e = &x->e[x->ne];
	memset(e, 0, sizeof(*e));
	e->parent = parent;
	e->tag = tag;
	e->hint = hint;
	e->first = (uint32_t)x->nb;
	return (int)x->ne++;
}

/* Whether child c of a frame is dropped whole, before it is entered. */
static int
drop_child(GumboNode *c, int article, unsigned hint)
{
	GumboTag t = c->v.element.tag;

	if (html_is_dropped(t) || (t == GUMBO_TAG_HEADER && !article))
		return 1;
	if (html_hidden(c) || html_landmark_out(c))
		return 1;
	/* An inline element that names boilerplate: its text goes too. */
	return !is_blockish(t) && (hint & (H_NEG1 | H_NEG2));
}

/*
 * A text node: its placeholders (prepare.c) become the text runs they
 * stand for, the rest is gumbo's text (with references decoded).
 */
static void
node_text(struct priv *x, const char *s, int pre, int link)
{
	const unsigned char *p = (const unsigned char *)s, *m;
	size_t n = strlen(s), k;
	uint32_t d0, d1;

	while ((m = memmem(p, n, HTML_MARK, 3)) != NULL) {
		tbuf_text(&x->t, (const char *)p, (size_t)(m - p), pre, link);
		n -= (size_t)(m - p);
		p = m;
		if (n >= 9 && pskd_utf8_decode(p + 3, 3, &d0) == 3 &&
		    pskd_utf8_decode(p + 6, 3, &d1) == 3 &&
		    d0 >= HTML_DIGIT0 && d0 < HTML_DIGIT0 + HTML_BASE &&
		    d1 >= HTML_DIGIT0 && d1 < HTML_DIGIT0 + HTML_BASE &&
		    (k = (d0 - HTML_DIGIT0) * HTML_BASE + (d1 - HTML_DIGIT0)) <
		    x->prep.runs.n) {
			tbuf_text(&x->t, (const char *)x->src +
			    x->prep.runs.r[k].off, x->prep.runs.r[k].len, pre,
			    link);
			p += 9;
			n -= 9;
		} else {
			tbuf_text(&x->t, (const char *)p, 3, pre, link);
			p += 3;
			n -= 3;
		}
	}
	tbuf_text(&x->t, (const char *)p, n, pre, link);
}

static void
walk(struct priv *x, GumboNode *doc)
{
	struct frame *f;
	GumboVector *kids;
	GumboNode *c;
	GumboTag t;
	size_t sp = 0;
	int pre = 0, link = 0, article = 0, blk, cell;
	unsigned hint;

	x->st = grow(x->st, &x->stcap, 0, sizeof(*x->st));
	x->st[sp++] = (struct frame){ doc, 0, -1, -1, K_TEXT, 0 };
	while (sp > 0) {
		f = &x->st[sp - 1];
		kids = f->node->type == GUMBO_NODE_DOCUMENT ?
		    &f->node->v.document.children : &f->node->v.element.children;
		if (f->next < kids->length) {
			c = kids->data[f->next++];
			if (c->type == GUMBO_NODE_TEXT ||
			    c->type == GUMBO_NODE_CDATA ||
			    c->type == GUMBO_NODE_WHITESPACE) {
				node_text(x, c->v.text.text, pre > 0, link > 0);
				continue;
			}
			if (c->type != GUMBO_NODE_ELEMENT &&
			    c->type != GUMBO_NODE_TEMPLATE)
				continue;
			t = c->v.element.tag;
			if (t == GUMBO_TAG_BR) {
				tbuf_break(&x->t);
				continue;
			}
			hint = html_hint(c, article > 0);
			blk = is_blockish(t);
			if (drop_child(c, article > 0, hint)) {
				if (blk)
					flush(x, f->owner, f->kind);
				continue;
			}
			cell = f->row > 0 && (t == GUMBO_TAG_TD ||
			    t == GUMBO_TAG_TH);
			if (cell) {
				const unsigned char *q;

				if (f->row++ > 1 && tbuf_trimmed(&x->t, &q) > 0)
					pskd_buf_add(&x->t.b, " | ", 3);
				x->t.space = 0;
			} else if (blk)
				flush(x, f->owner, f->kind);
			x->st = grow(x->st, &x->stcap, sp, sizeof(*x->st));
			f = &x->st[sp - 1];
			x->st[sp].node = c;
			x->st[sp].next = 0;
			x->st[sp].elem = new_elem(x, f->elem, t, hint);
			x->st[sp].owner = blk && !cell ? x->st[sp].elem : f->owner;
			x->st[sp].kind = blk && !cell ? html_kind(t) : f->kind;
			x->st[sp].row = 0;
			if (t == GUMBO_TAG_TR && html_plain_row(c)) {
				x->st[sp].row = 1;
				x->st[sp].kind = K_ROW;
			}
			sp++;
			pre += html_kind(t) == K_PRE;
			link += t == GUMBO_TAG_A;
			article += (hint & H_KEEP) && (hint & H_POS);
			continue;
		}
		/* Leaving the node. */
		if (f->node->type != GUMBO_NODE_DOCUMENT) {
			t = f->node->v.element.tag;
			cell = sp >= 2 && x->st[sp - 2].row > 0 &&
			    (t == GUMBO_TAG_TD || t == GUMBO_TAG_TH);
			if (is_blockish(t) && !cell)
				flush(x, f->owner, f->kind);
			pre -= html_kind(t) == K_PRE;
			link -= t == GUMBO_TAG_A;
			article -= (x->e[f->elem].hint & H_KEEP) &&
			    (x->e[f->elem].hint & H_POS);
			x->e[f->elem].end = (uint32_t)x->nb;
		} else
			flush(x, f->owner, f->kind);
		sp--;
	}
}

/* ---- scores ---------------------------------------------------------------- */

static int64_t
weight(const struct block *b)
{
	int64_t l = (int64_t)b->len, ll = (int64_t)b->linkbytes, w;

	if (b->kind == K_HEADING)
		return 0;
	/* A link list: four fifths or more of it inside links. */
	if (5 * (l - ll) < l)
		return -(10 + ll / 2);
	/*
	 * Prose: its text outside links, a quarter of the rest, less 40;
	 * a short line (a date, a label) costs little.
	 */
	w = (l - ll) + ll / 4 - 40;
	return w < -8 ? -8 : w;
}

/*
 * Remove the boilerplate containers, weigh the blocks, add the weights
 * up the tree; the element of the highest score.
 */
static int
choose(struct priv *x, enum extract_mode mode)
{
	struct elem *e = x->e;
	uint64_t total = 0;
	int64_t best = 0, s;
	size_t i;
	int pick = -1, body = -1;
	unsigned neg = mode == EXTRACT_RECALL ? H_NEG1 : H_NEG1 | H_NEG2;

	for (i = 0; i < x->nb; i++) {
		e[x->b[i].owner].bytes += x->b[i].len;
		total += x->b[i].len;
	}
	for (i = x->ne; i-- > 0;)
		if (e[i].parent >= 0)
			e[e[i].parent].bytes += e[i].bytes;
	for (i = 0; i < x->ne; i++)
		e[i].removed = (e[i].parent >= 0 && e[e[i].parent].removed) ||
		    ((e[i].hint & neg) && !(e[i].hint & H_KEEP) &&
		    2 * e[i].bytes <= total);
	for (i = 0; i < x->nb; i++) {
		struct block *b = &x->b[i];

		b->dropped = e[b->owner].removed;
		if (b->dropped)
			continue;
		b->w = weight(b);
		e[b->owner].score += b->w;
		e[b->owner].pos += b->w > 0 ? b->w : 0;
	}
	for (i = x->ne; i-- > 0;)
		if (e[i].parent >= 0) {
			e[e[i].parent].score += e[i].score;
			e[e[i].parent].pos += e[i].pos;
		}
	for (i = 0; i < x->ne; i++) {
		if (e[i].tag == GUMBO_TAG_BODY && body < 0)
			body = (int)i;
		if (e[i].removed)
			continue;
		s = e[i].score + ((e[i].hint & H_POS) ? e[i].pos / 4 : 0);
		if (s > best) {
			best = s;
			pick = (int)i;
		}
	}
	return pick >= 0 ? pick : body >= 0 ? body : x->ne > 0 ? 0 : -1;
}

/* ---- the text out ------------------------------------------------------------- */

/* Whether block b passes the mode's filter. */
static int
keep_block(const struct block *b, enum extract_mode mode)
{
	size_t l = b->len, ll = b->linkbytes;
	size_t dmax = mode == EXTRACT_PRECISION ? 6 : mode == EXTRACT_RECALL ?
	    9 : 8;

	if (b->dropped)
		return 0;
	if (b->kind == K_HEADING)
		return 1;
	if (10 * ll > dmax * l)
		return 0;
	if (mode == EXTRACT_BALANCED && l < 20 && ll > 0)
		return 0;
	if (mode == EXTRACT_PRECISION && l < 30 && (ll > 0 ||
	    b->kind == K_TEXT))
		return 0;
	return 1;
}

/* Whether block i is inside the chosen element, or (favour-recall) a
 * sibling of it that scores above zero. */
static int
inside(struct priv *x, size_t i, int pick, int recall)
{
	int a = x->b[i].owner, p = x->e[pick].parent;

	if (i >= x->e[pick].first && i < x->e[pick].end)
		return 1;
	if (!recall || p < 0)
		return 0;
	if (a == p)
		return x->b[i].w > 0;
	while (a >= 0 && x->e[a].parent != p)
		a = x->e[a].parent;
	return a >= 0 && x->e[a].score > 0;
}

/* A line that is no text: one URL, or the label of an advertisement. */
static int
is_noise(const unsigned char *t, size_t n)
{
	static const char *const labels[] = {
		"Advert", "Advertisement", "ADVERTISEMENT", "Anzeige",
		"Werbung", "Publicité", "Publicidad", "Pubblicità", "Реклама",
		"広告", "广告", "광고",
	};
	size_t i;

	if (n > 8 && (memcmp(t, "http://", 7) == 0 ||
	    memcmp(t, "https://", 8) == 0) && memchr(t, ' ', n) == NULL)
		return 1;
	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strlen(labels[i]) == n && memcmp(labels[i], t, n) == 0)
			return 1;
	return 0;
}

static void
emit(struct priv *x, struct extract *xo, int pick)
{
	size_t from, to, i, k, n = 0, *keep;
	const unsigned char *t;
	int recall = xo->mode == EXTRACT_RECALL;

	if (pick < 0)
		return;
	from = recall && x->e[pick].parent >= 0 ?
	    x->e[x->e[pick].parent].first : x->e[pick].first;
	to = recall && x->e[pick].parent >= 0 ?
	    x->e[x->e[pick].parent].end : x->e[pick].end;
	keep = pskd_xreallocarray(NULL, to - from + 1, sizeof(*keep));
	for (i = from; i < to; i++)
		if (inside(x, i, pick, recall) && keep_block(&x->b[i],
		    xo->mode))
			keep[n++] = i;
	if (xo->mode == EXTRACT_PRECISION) {
		/* Short lines at the edges (bylines, dates), lone headings. */
		for (k = 0; k < n && x->b[keep[k]].kind != K_HEADING &&
		    x->b[keep[k]].len < 60; k++)
			;
		n -= k;
		memmove(keep, keep + k, n * sizeof(*keep));
		while (n > 0 && (x->b[keep[n - 1]].kind == K_HEADING ||
		    x->b[keep[n - 1]].len < 60))
			n--;
		for (i = k = 0; i < n; i++)
			if (x->b[keep[i]].kind != K_HEADING || (i + 1 < n &&
			    x->b[keep[i + 1]].kind != K_HEADING))
				keep[k++] = keep[i];
		n = k;
	}
	/*
	 * The headline is the title's: an h1 before the first prose, and a
	 * heading that the title holds (a title of at most HTML_TITLE_MATCH
	 * bytes: a longer one would be searched for each heading) or that
	 * holds the title.  Bare URLs,
	 * advertisement labels and a closing copyright line go too.
	 */
	for (i = k = 0; i < n; i++) {
		struct block *b = &x->b[keep[i]];

		t = x->pool.p + b->off;
		if (b->kind == K_HEADING && ((b->h1 && k == 0) ||
		    (b->len <= xo->title.len && xo->title.len <=
		    HTML_TITLE_MATCH && memmem(xo->title.p, xo->title.len, t,
		    b->len) != NULL) || (xo->title.len > 0 && memmem(t, b->len,
		    xo->title.p, xo->title.len) != NULL)))
			continue;
		if (is_noise(t, b->len) || (i == n - 1 && (b->len < 200 &&
		    (memmem(t, b->len, "\xc2\xa9", 2) != NULL ||
		    (b->len >= 9 && memcmp(t, "Copyright", 9) == 0)))))
			continue;
		keep[k++] = keep[i];
	}
	n = k;
	for (i = 0; i < n; i++) {
		if (i > 0)
			pskd_buf_addc(&xo->text, '\n');
		pskd_buf_add(&xo->text, x->pool.p + x->b[keep[i]].off,
		    x->b[keep[i]].len);
	}
	free(keep);
}

/* The <title>: html, head, title, its text. */
static void
find_title(struct priv *x, struct extract *xo, GumboNode *root)
{
	GumboVector *v;
	GumboNode *head = NULL, *c;
	const unsigned char *p;
	size_t i, n;

	if (root == NULL || root->type != GUMBO_NODE_ELEMENT)
		return;
	v = &root->v.element.children;
	for (i = 0; i < v->length && head == NULL; i++) {
		c = v->data[i];
		if (c->type == GUMBO_NODE_ELEMENT &&
		    c->v.element.tag == GUMBO_TAG_HEAD)
			head = c;
	}
	if (head == NULL)
		return;
	v = &head->v.element.children;
	for (i = 0; i < v->length; i++) {
		c = v->data[i];
		if (c->type != GUMBO_NODE_ELEMENT ||
		    c->v.element.tag != GUMBO_TAG_TITLE)
			continue;
		tbuf_clear(&x->t);
		if (c->v.element.children.length > 0 &&
		    ((GumboNode *)c->v.element.children.data[0])->type ==
		    GUMBO_NODE_TEXT) {
			const char *s = ((GumboNode *)
			    c->v.element.children.data[0])->v.text.text;

			tbuf_text(&x->t, s, strlen(s), 0, 0);
		}
		n = tbuf_trimmed(&x->t, &p);
		pskd_buf_add(&xo->title, p, n);
		tbuf_clear(&x->t);
		return;
	}
}

void
extract_html(struct extract *xo, const unsigned char *p, size_t n)
{
	struct priv *x = xo->priv;
	GumboOutput *out;

	if (x == NULL)
		x = xo->priv = pskd_xcalloc(1, sizeof(*x));
	xo->text.len = xo->title.len = 0;
	xo->cut = html_prepare(p, n, &x->page, &x->prep);
	x->src = p;
	x->ne = x->nb = 0;
	x->pool.len = 0;
	tbuf_clear(&x->t);
	out = html_parse(&x->arena, x->page.p ? x->page.p :
	    (const unsigned char *)"", x->page.len);
	find_title(x, xo, out->root);
	walk(x, out->document);
	emit(x, xo, choose(x, xo->mode));
#ifdef EXTRACT_DEBUG
	for (size_t i = 0; i < x->nb; i++)
		fprintf(stderr, "B%zu e%d k%d d%d w%lld L%zu LL%zu | %.*s\n", i,
		    x->b[i].owner, x->b[i].kind, x->b[i].dropped,
		    (long long)x->b[i].w, x->b[i].len, x->b[i].linkbytes,
		    (int)(x->b[i].len < 70 ? x->b[i].len : 70),
		    x->pool.p + x->b[i].off);
	for (size_t i = 0; i < x->ne; i++)
		if (x->e[i].score != 0)
			fprintf(stderr, "E%zu p%d t%s h%u r%d s%lld pos%lld "
			    "[%u,%u)\n", i, x->e[i].parent,
			    gumbo_normalized_tagname(x->e[i].tag), x->e[i].hint,
			    x->e[i].removed, (long long)x->e[i].score,
			    (long long)x->e[i].pos, x->e[i].first, x->e[i].end);
#endif
}

void
extract_free(struct extract *xo)
{
	struct priv *x = xo->priv;

	if (x != NULL) {
		html_arena_free(x->arena);
		free(x->e);
		free(x->b);
		free(x->st);
		pskd_buf_free(&x->pool);
		pskd_buf_free(&x->page);
		html_prep_free(&x->prep);
		pskd_buf_free(&x->t.b);
		free(x);
	}
	xo->priv = NULL;
	pskd_buf_free(&xo->text);
	pskd_buf_free(&xo->title);
}
