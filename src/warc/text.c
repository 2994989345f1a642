/*
 * text.c - the text of one block as the extractor gathers it: runs of
 * white space (and no-break spaces) become one space, as a browser shows
 * them; inside pre, white space stays as it is, CR LF as LF; a br is a
 * line break.  The bytes that came from inside links are counted, for
 * the link density of the block.
 */
#include <string.h>

#include "warc/html.h"

static int
blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

void
tbuf_text(struct tbuf *t, const char *s, size_t n, int pre, int link)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run;

	if (pre) {
		pskd_buf_reserve(&t->b, n);
		if (t->space && t->b.len > 0)
			pskd_buf_addc(&t->b, ' ');
		t->space = 0;
		for (i = 0; i < n; i++) {
			if (p[i] == '\r') {
				pskd_buf_addc(&t->b, '\n');
				if (i + 1 < n && p[i + 1] == '\n')
					i++;
			} else
				pskd_buf_addc(&t->b, p[i]);
		}
		if (link)
			t->linkbytes += n;
		return;
	}
	while (i < n) {
		if (blank(p[i]) || (p[i] == 0xc2 && i + 1 < n &&
		    p[i + 1] == 0xa0)) {
			i += p[i] == 0xc2 ? 2 : 1;
			t->space = 1;
			continue;
		}
		run = i;
		while (i < n && !blank(p[i]) && !(p[i] == 0xc2 && i + 1 < n &&
		    p[i + 1] == 0xa0))
			i++;
		if (t->space && t->b.len > 0 && t->b.p[t->b.len - 1] != '\n')
			pskd_buf_addc(&t->b, ' ');
		t->space = 0;
		pskd_buf_add(&t->b, p + run, i - run);
		if (link)
			t->linkbytes += i - run;
	}
}

void
tbuf_break(struct tbuf *t)
{
	while (t->b.len > 0 && t->b.p[t->b.len - 1] == ' ')
		t->b.len--;
	if (t->b.len > 0 && t->b.p[t->b.len - 1] != '\n')
		pskd_buf_addc(&t->b, '\n');
	t->space = 0;
}

size_t
tbuf_trimmed(struct tbuf *t, const unsigned char **p)
{
	size_t a = 0, n = t->b.len;

	if (n == 0) {
		*p = (const unsigned char *)"";
		return 0;
	}
	while (a < n && (t->b.p[a] == ' ' || t->b.p[a] == '\n'))
		a++;
	while (n > a && blank(t->b.p[n - 1]))
		n--;
	*p = t->b.p + a;
	return n - a;
}

void
tbuf_clear(struct tbuf *t)
{
	t->b.len = 0;
	t->linkbytes = 0;
	t->space = 0;
}
