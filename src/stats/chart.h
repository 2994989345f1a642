/*
 * chart.h - bar charts as inline SVG, for pskd-report's page: groups of
 * bars (one per series) on a linear scale from 0 to a round maximum, each
 * bar with its value as a title, each group with its label under it.
 */
#ifndef PSKD_CHART_H
#define PSKD_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

#define CHART_WIDTH	900	/* the SVG's width in pixels */
#define CHART_PLOT	200	/* the height of the plot area: a value of
				   the axis maximum is a bar this tall */
#define CHART_MAXSERIES	4

#define CHART_NONE	UINT64_MAX	/* no value: no bar */

struct chart {
	const char	*id;		/* the svg element's id */
	const char	*caption;	/* for aria-label */
	size_t		 ngroups;
	size_t		 nseries;
	const char	*series[CHART_MAXSERIES];
	const char	**labels;	/* ngroups group labels */
	const uint64_t	*values;	/* ngroups * nseries, by group */
};

/* The axis maximum for a largest value: 1, 2 or 5 times a power of 10. */
uint64_t chart_axis_max(uint64_t max);
/* The height in hundredths of a pixel of a bar of value v. */
uint64_t chart_bar_height(uint64_t v, uint64_t axis);
void	chart_svg(struct pskd_buf *b, const struct chart *c);

/* Text and attribute values for HTML: & < > " escaped, bad UTF-8 as U+FFFD. */
void	html_escape(struct pskd_buf *b, const unsigned char *s, size_t n);
void	html_puts(struct pskd_buf *b, const char *s);

#endif /* PSKD_CHART_H */
