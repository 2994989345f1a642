/*
 * chart.c - bar charts as inline SVG, drawn from numbers alone (no
 * script, no font or file from elsewhere), and HTML escaping.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pskd.h"
#include "stats/chart.h"

#define TOP	28		/* above the plot: the legend */
#define LEFT	90		/* left of the plot: the axis numbers */
#define RIGHT	20
#define BOTTOM	30		/* under the plot: the group labels */
#define TURNED	66		/* the same when they are turned */

void
html_escape(struct pskd_buf *b, const unsigned char *s, size_t n)
{
	size_t i = 0, k;
	uint32_t cp;

	while (i < n) {
		switch (s[i]) {
		case '&': html_puts(b, "&amp;"); i++; continue;
		case '<': html_puts(b, "&lt;"); i++; continue;
		case '>': html_puts(b, "&gt;"); i++; continue;
		case '"': html_puts(b, "&quot;"); i++; continue;
		default: break;
		}
		k = pskd_utf8_decode(s + i, n - i, &cp);
		if (k == 0 || (cp < 0x20 && cp != '\n' && cp != '\t') ||
		    cp == 0x7f) {
			html_puts(b, "\xef\xbf\xbd");	/* U+FFFD */
			i += k ? k : 1;
			continue;
		}
		pskd_buf_add(b, s + i, k);
		i += k;
	}
}

void
html_puts(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

/* A label, a series name or a caption: text of the page's users. */
static void
text(struct pskd_buf *b, const char *s)
{
	html_escape(b, (const unsigned char *)s, strlen(s));
}

static void
printf_buf(struct pskd_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
printf_buf(struct pskd_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	pskd_buf_reserve(b, 512);
	va_start(ap, fmt);
	n = vsnprintf((char *)b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n >= b->cap - b->len) {
		pskd_buf_reserve(b, (size_t)n + 1);
		va_start(ap, fmt);
		n = vsnprintf((char *)b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	if (n > 0)
		b->len += (size_t)n;
}

uint64_t
chart_axis_max(uint64_t max)
{
	static const uint64_t step[] = { 1, 2, 5 };
	uint64_t p = 1;
	int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (step[i] * p >= max)
				return step[i] * p;
		if (p > UINT64_MAX / 100)
			return UINT64_MAX;
		p *= 10;
	}
}

uint64_t
chart_bar_height(uint64_t v, uint64_t axis)
{
	unsigned __int128 x = (unsigned __int128)v * (CHART_PLOT * 100) * 2 +
	    axis;

	return (uint64_t)(x / ((unsigned __int128)axis * 2));
}

static void
number(struct pskd_buf *b, uint64_t v)
{
	printf_buf(b, "%llu", (unsigned long long)v);
}

static void
legend(struct pskd_buf *b, const struct chart *c)
{
	double x = LEFT;
	size_t s;

	if (c->nseries < 2)
		return;
	for (s = 0; s < c->nseries; s++) {
		printf_buf(b, "<rect class=\"key s%zu\" x=\"%.0f\" y=\"8\" "
		    "width=\"12\" height=\"12\"/><text class=\"key\" "
		    "x=\"%.0f\" y=\"18\">", s, x, x + 16);
		text(b, c->series[s]);
		html_puts(b, "</text>");
		x += 40 + 8 * (double)strlen(c->series[s]);
	}
}

/* Ticks at fifths of a maximum of 1 or 5 times 10^k, quarters of 2. */
static void
axis(struct pskd_buf *b, uint64_t top)
{
	uint64_t v, prev = 0, t = top;
	int k, n;
	double y;

	while (t >= 10)
		t /= 10;
	n = t == 2 ? 4 : 5;
	for (k = 0; k <= n; k++) {
		v = top / (uint64_t)n * (uint64_t)k +
		    top % (uint64_t)n * (uint64_t)k / (uint64_t)n;
		if (k > 0 && v == prev)
			continue;
		prev = v;
		y = TOP + CHART_PLOT - (double)chart_bar_height(v, top) / 100;
		printf_buf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%.2f\" "
		    "x2=\"%d\" y2=\"%.2f\"/><text class=\"tick\" x=\"%d\" "
		    "y=\"%.2f\">", LEFT, y, CHART_WIDTH - RIGHT, y, LEFT - 6,
		    y + 4);
		number(b, v);
		html_puts(b, "</text>");
	}
}

void
chart_svg(struct pskd_buf *b, const struct chart *c)
{
	const double pw = CHART_WIDTH - LEFT - RIGHT;
	const double gw = c->ngroups ? pw / (double)c->ngroups : pw;
	const double bw = gw * 0.8 / (double)c->nseries;
	const int rotate = c->ngroups > 8;
	const int height = TOP + CHART_PLOT + (rotate ? TURNED : BOTTOM);
	uint64_t max = 0, top, v, h;
	size_t g, s;
	double x, cx;

	for (g = 0; g < c->ngroups * c->nseries; g++)
		if (c->values[g] != CHART_NONE && c->values[g] > max)
			max = c->values[g];
	top = chart_axis_max(max);
	printf_buf(b, "<svg id=\"%s\" "
	    "class=\"chart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "role=\"img\" data-axis-max=\"%llu\" data-plot-height=\"%d\" "
	    "aria-label=\"", c->id, CHART_WIDTH, height, CHART_WIDTH, height,
	    (unsigned long long)top,
	    CHART_PLOT);
	text(b, c->caption);
	html_puts(b, "\">");
	legend(b, c);
	axis(b, top);
	for (g = 0; g < c->ngroups; g++) {
		cx = LEFT + gw * ((double)g + 0.5);
		for (s = 0; s < c->nseries; s++) {
			v = c->values[g * c->nseries + s];
			if (v == CHART_NONE)
				continue;
			h = chart_bar_height(v, top);
			x = LEFT + gw * (double)g + gw * 0.1 + bw * (double)s;
			printf_buf(b, "<rect class=\"bar s%zu\" x=\"%.2f\" "
			    "y=\"%.2f\" width=\"%.2f\" height=\"%llu.%02llu\">"
			    "<title>", s, x, TOP + CHART_PLOT - (double)h / 100,
			    bw, (unsigned long long)(h / 100),
			    (unsigned long long)(h % 100));
			text(b, c->labels[g]);
			html_puts(b, ", ");
			text(b, c->series[s]);
			html_puts(b, ": ");
			number(b, v);
			html_puts(b, "</title></rect>");
		}
		if (rotate)
			printf_buf(b, "<text class=\"label\" x=\"%.2f\" "
			    "y=\"%d\" transform=\"rotate(-50 %.2f %d)\" "
			    "text-anchor=\"end\">", cx, TOP + CHART_PLOT + 14,
			    cx, TOP + CHART_PLOT + 14);
		else
			printf_buf(b, "<text class=\"label\" x=\"%.2f\" "
			    "y=\"%d\" text-anchor=\"middle\">", cx,
			    TOP + CHART_PLOT + 18);
		text(b, c->labels[g]);
		html_puts(b, "</text>");
	}
	printf_buf(b, "<line class=\"base\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
	    "y2=\"%d\"/></svg>\n", LEFT, TOP + CHART_PLOT,
	    CHART_WIDTH - RIGHT, TOP + CHART_PLOT);
}
