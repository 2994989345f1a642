/*
 * html.h - what the extractor's files share: the page prepared for gumbo
 * (prepare.c, with nest.c and skip.c), gumbo's parse into an arena
 * (html.c), the text of blocks (text.c).
 */
#ifndef WARC_HTML_H
#define WARC_HTML_H

#include <gumbo.h>

#include "warc/warc.h"

/* ---- nest.c: the elements open in the prepared page ------------------- */

struct nest_el {
	const unsigned char *name;	/* in the page, as written */
	uint32_t	 len;
	unsigned	 flags;
	uint32_t	 seq;		/* when it went on gumbo's list */
	size_t		 tag, taglen;	/* its start tag in the output */
};

struct nest {
	struct nest_el	 s[HTML_MAX_DEPTH];	/* open, the top last */
	size_t		 n;
	/* gumbo's list: closed formatting elements (ghosts) and markers */
	struct nest_el	 g[2 * HTML_MAX_DEPTH];
	size_t		 ng, nghosts;
	uint32_t	 seq;
	uint64_t	 reopened;	/* elements gumbo made again */
	size_t		 foreign;	/* svg and math open */
	struct pskd_buf	*out;		/* the prepared page */
	struct pskd_buf	 tag;		/* a tag moved past end tags */
};

void	nest_init(struct nest *n, struct pskd_buf *out);
void	nest_free(struct nest *n);
/* Elements open, or closed and to be reopened by gumbo. */
size_t	nest_count(const struct nest *n);
/*
 * A start tag (name[0..len)) just written at out[at..): the end tags of
 * what it closes go before it.  -1: it would open more than
 * HTML_MAX_DEPTH elements, or gumbo reopen more than HTML_MAX_TAGS (the
 * page is cut before it).
 */
int	nest_start(struct nest *n, const unsigned char *name, size_t len,
	    size_t at, int selfclose);
/* An end tag just written at out[at..): the end tags it implies first. */
void	nest_end(struct nest *n, const unsigned char *name, size_t len,
	    size_t at);
/* Text goes out: gumbo reopens the formatting elements first.  -1: cut. */
int	nest_reopen(struct nest *n);

/* ---- skip.c: where a dropped element ends ---------------------------- */

#define SKIP_NAMES	16
#define SKIP_END	0x80000000u	/* an end tag's entry */

struct skip_name {
	char		 name[16];
	size_t		 len;
	int		 built;		/* for this page */
	uint32_t	*pos;		/* the '<' of each start and end tag */
	uint32_t	*next;
	size_t		 m, cap;
};

struct skip {
	struct skip_name names[SKIP_NAMES];
	size_t		 nnames;
};

/* A new page. */
void	skip_reset(struct skip *s);
void	skip_free(struct skip *s);
/*
 * Where the element NAME whose start tag ends at from ends in p[0..n):
 * past the '>' of its end tag, counting nested ones; 0 when it does not.
 */
size_t	skip_end(struct skip *s, const unsigned char *p, size_t n,
	    size_t from, const unsigned char *name, size_t len);

/* ---- prepare.c ------------------------------------------------------------ */

/*
 * The page gumbo parses, from n bytes of UTF-8 HTML, into out: what the
 * extractor reads, within the bounds, its text runs as placeholders
 * (HTML_MARK and two digits U+E000 + d, d < HTML_BASE, the run's index)
 * whose places in p are in runs.  1 when the page was cut at a bound.
 */
struct html_runs {
	struct {
		size_t	 off, len;
	}		*r;
	size_t		 n, cap;
};

struct html_prep {
	struct html_runs runs;
	struct nest	 nest;
	struct skip	 skip;
};

int	html_prepare(const unsigned char *p, size_t n, struct pskd_buf *out,
	    struct html_prep *h);
void	html_prep_free(struct html_prep *h);

/* ---- html.c ------------------------------------------------------------- */

struct html_arena;

/* A parse of p[0..n) (UTF-8) in *a (made at the first call). */
GumboOutput *html_parse(struct html_arena **a, const unsigned char *p,
	    size_t n);
void	html_arena_free(struct html_arena *a);

/*
 * A block's text as it is gathered: white space collapsed to one space
 * (kept as it is inside pre), the bytes inside links counted.
 */
struct tbuf {
	struct pskd_buf	 b;
	size_t		 linkbytes;
	int		 space;		/* a blank is pending */
};

/* Append text; pre: keep its white space; link: count it as link text. */
void	tbuf_text(struct tbuf *t, const char *s, size_t n, int pre, int link);
/* A line break inside the block (br, a table row's cells are not). */
void	tbuf_break(struct tbuf *t);
/* The block's bytes without blanks at its ends; then empty it. */
size_t	tbuf_trimmed(struct tbuf *t, const unsigned char **p);
void	tbuf_clear(struct tbuf *t);

/* classify.c: what an element is. */
enum { H_NEG1 = 1, H_NEG2 = 2, H_POS = 4, H_KEEP = 8 };	/* hints */
enum { K_TEXT, K_HEADING, K_ITEM, K_PRE, K_ROW };	/* blocks */

int	html_is_block(GumboTag t);
int	html_is_dropped(GumboTag t);
int	html_kind(GumboTag t);
const char *html_attr(GumboNode *n, const char *name);
int	html_hidden(GumboNode *n);
int	html_landmark_out(GumboNode *n);
/* H_* of an element; article: inside article or main. */
unsigned html_hint(GumboNode *n, int article);
int	html_plain_row(GumboNode *tr);

#endif
