/*
 * html.h - what the extractor's files share about gumbo's tree: the
 * parse into an arena (html.c), the text of blocks (text.c).
 */
#ifndef WARC_HTML_H
#define WARC_HTML_H

#include <gumbo.h>

#include "warc/warc.h"

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
