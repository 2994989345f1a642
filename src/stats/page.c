/*
 * page.c - pskd-report's outputs: one HTML page with its style and its
 * charts inline (nothing loaded from elsewhere, no script), and the same
 * numbers as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/chart.h"
#include "stats/report.h"

static const char style[] =
    "body{font-family:sans-serif;margin:24px auto;max-width:960px;"
    "color:#222;background:#fff}\n"
    "h1{font-size:26px}h2{font-size:19px;margin-top:32px;"
    "border-bottom:1px solid #ccc}h3{font-size:15px}\n"
    "p.note{color:#555;font-size:14px}\n"
    ".chart{display:block}.chart text{font-size:12px;fill:#333}\n"
    ".tick{text-anchor:end}.grid{stroke:#ddd}.base{stroke:#444}\n"
    ".s0{fill:#3b6ea5}.s1{fill:#6aa84f}.s2{fill:#cc4125}.s3{fill:#e69138}\n"
    "table{border-collapse:collapse;font-size:13px}"
    "td,th{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right}\n"
    "pre{white-space:pre-wrap;background:#f5f5f5;padding:12px;"
    "font-size:13px}\n";

static void
puts_b(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

static void
putu(struct pskd_buf *b, uint64_t v)
{
	char t[32];

	if (v == REPORT_NONE) {
		puts_b(b, "\xe2\x80\x93");	/* an en dash */
		return;
	}
	snprintf(t, sizeof(t), "%llu", (unsigned long long)v);
	puts_b(b, t);
}

static void
text(struct pskd_buf *b, const char *s)
{
	html_escape(b, (const unsigned char *)s, strlen(s));
}

/* A bin's lower edge as the histograms of pskd-stats write it. */
static char *
bin_label(enum stats_scale scale, unsigned bin)
{
	char t[48];

	stats_value_text(t, sizeof(t), scale, stats_bin_lo(scale, bin));
	return pskd_xstrdup(t);
}

/* A histogram's bins from its min's to its max's as one chart. */
static void
histogram(struct pskd_buf *b, const char *id, const char *caption,
    const char *series, const struct stats_dist *d)
{
	struct chart c;
	const char **labels;
	uint64_t *values;
	unsigned lo, hi, i;

	lo = stats_bin(d->scale, d->min);
	hi = stats_bin(d->scale, d->max);
	labels = pskd_xcalloc(hi - lo + 1, sizeof(*labels));
	values = pskd_xcalloc(hi - lo + 1, sizeof(*values));
	for (i = lo; i <= hi; i++) {
		labels[i - lo] = bin_label(d->scale, i);
		values[i - lo] = d->bin[i];
	}
	memset(&c, 0, sizeof(c));
	c.id = id;
	c.caption = caption;
	c.ngroups = hi - lo + 1;
	c.nseries = 1;
	c.series[0] = series;
	c.labels = labels;
	c.values = values;
	chart_svg(b, &c);
	for (i = 0; i <= hi - lo; i++)
		free((void *)labels[i]);
	free(labels);
	free(values);
}

static void
section(struct pskd_buf *b, const char *id, const char *title,
    const char *note)
{
	puts_b(b, "<section id=\"");
	puts_b(b, id);
	puts_b(b, "\"><h2>");
	text(b, title);
	puts_b(b, "</h2>\n<p class=\"note\">");
	text(b, note);
	puts_b(b, "</p>\n");
}

static void
para(struct pskd_buf *b, const char *cls, const char *what)
{
	puts_b(b, "<p class=\"");
	puts_b(b, cls);
	puts_b(b, "\">");
	text(b, what);
	puts_b(b, "</p>\n");
}

static void
missing(struct pskd_buf *b, const char *what)
{
	para(b, "none", what);
}

/* Per-shard bars of some of the row's numbers. */
static void
shard_chart(struct pskd_buf *b, const struct report *rp, const char *id,
    const char *caption, const char *const *series, const size_t *field,
    size_t nseries, enum stats_kind other)
{
	struct report_row r;
	struct chart c;
	const char **labels;
	uint64_t *values;
	size_t n = rp->nshards + rp->nothers, g = 0, i, s;

	labels = pskd_xcalloc(n ? n : 1, sizeof(*labels));
	values = pskd_xcalloc((n ? n : 1) * nseries, sizeof(*values));
	for (i = 0; i < rp->nshards; i++, g++) {
		report_row(&rp->shards[i], &r);
		labels[g] = rp->shards[i].name;
		for (s = 0; s < nseries; s++)
			values[g * nseries + s] = *(const uint64_t *)(const void *)
			    ((const char *)&r + field[s]);
	}
	/* Objects of the chart's kind labelled with no shard, after them. */
	for (i = 0; nseries == 1 && i < rp->nothers; i++)
		if (rp->others[i].s.kind == other) {
			labels[g] = rp->others[i].label;
			values[g++] = rp->others[i].s.n;
		}
	memset(&c, 0, sizeof(c));
	c.id = id;
	c.caption = caption;
	c.ngroups = g;
	c.nseries = nseries;
	for (s = 0; s < nseries; s++)
		c.series[s] = series[s];
	c.labels = labels;
	c.values = values;
	if (g > 0)
		chart_svg(b, &c);
	else
		missing(b, "No shards.");
	free(labels);
	free(values);
}

static void
documents_section(struct pskd_buf *b, const struct report *rp)
{
	static const char *const series[] = {
		"documents", "kept", "near-duplicates"
	};
	static const size_t field[] = {
		offsetof(struct report_row, documents),
		offsetof(struct report_row, kept),
		offsetof(struct report_row, neardup)
	};

	section(b, "documents", "Documents per shard", "Documents in each "
	    "shard, those kept (kept and empty verdicts) and the "
	    "near-duplicates dropped, from the verdicts of pskd-lsh (or the "
	    "manifest's counts).");
	shard_chart(b, rp, "documents-chart", "documents, kept and "
	    "near-duplicates per shard", series, field, 3, STATS_NKINDS);
	puts_b(b, "</section>\n");
}

static void
estimates_section(struct pskd_buf *b, const struct report *rp)
{
	const struct stats *v = &rp->all[STATS_VERDICTS];

	section(b, "estimates", "Near-duplicate estimates", "The estimated "
	    "Jaccard similarity of each dropped document to the kept one it "
	    "matched, in bins of 0.01.");
	if (!rp->has_all[STATS_VERDICTS] || v->est.count == 0)
		missing(b, "No near-duplicates.");
	else
		histogram(b, "estimates-chart", "near-duplicates by estimate",
		    "near-duplicates", &v->est);
	puts_b(b, "</section>\n");
}

/* One series of bars, one per name, of the counts of t. */
static void
tally_chart(struct pskd_buf *b, const char *id, const char *caption,
    const char *series, const struct stats_tally *t, const size_t *order,
    size_t n)
{
	struct chart c;
	const char **labels = pskd_xcalloc(n ? n : 1, sizeof(*labels));
	uint64_t *values = pskd_xcalloc(n ? n : 1, sizeof(*values));
	size_t i;

	for (i = 0; i < n; i++) {
		labels[i] = t->name[order ? order[i] : i];
		values[i] = t->count[order ? order[i] : i];
	}
	memset(&c, 0, sizeof(c));
	c.id = id;
	c.caption = caption;
	c.ngroups = n;
	c.nseries = 1;
	c.series[0] = series;
	c.labels = labels;
	c.values = values;
	chart_svg(b, &c);
	free(labels);
	free(values);
}

static void
drops_section(struct pskd_buf *b, const struct report *rp)
{
	struct stats_tally all, *per;
	struct report_row r;
	char note[200];
	int trim = report_has_trimmed(rp);
	size_t i, k;

	section(b, "drops", "Documents dropped, by verdict", "The documents "
	    "each stage dropped, by its verdict: the document stages' "
	    "(pskd-lid, pskd-filter, pskd-exact, pskd-decon, whose verdicts "
	    "are labelled SHARD.STAGE) and deduplication's near-duplicates, "
	    "all shards together; the table gives each shard's, and the "
	    "documents pskd-exact kept with repeated units cut out (trimmed) "
	    "and the bytes it removed from them.");
	if (trim) {
		report_totals(rp, &r);
		snprintf(note, sizeof(note), "%llu documents trimmed, %llu "
		    "bytes removed.", (unsigned long long)r.trimmed,
		    (unsigned long long)r.trim_bytes);
		para(b, "figures", note);
	}
	memset(&all, 0, sizeof(all));
	per = pskd_xcalloc(rp->nshards ? rp->nshards : 1, sizeof(*per));
	for (i = 0; i < rp->nshards; i++) {
		report_drops(&rp->shards[i], &per[i]);
		(void)stats_tally_merge(&all, &per[i]);
	}
	if (all.n == 0)
		missing(b, "No documents were dropped.");
	else
		tally_chart(b, "drops-chart", "documents dropped, by verdict",
		    "documents", &all, NULL, all.n);
	puts_b(b, "<table class=\"drops\">\n<tr><th>shard</th>"
	    "<th>documents</th><th>kept</th>");
	for (k = 0; k < all.n; k++) {
		puts_b(b, "<th>");
		text(b, all.name[k]);
		puts_b(b, "</th>");
	}
	if (trim)
		puts_b(b, "<th>trimmed</th><th>bytes removed</th>");
	puts_b(b, "</tr>\n");
	for (i = 0; i < rp->nshards; i++) {
		report_row(&rp->shards[i], &r);
		puts_b(b, "<tr><td>");
		text(b, rp->shards[i].name);
		puts_b(b, "</td><td class=\"n\">");
		putu(b, r.documents);
		puts_b(b, "</td><td class=\"n\">");
		putu(b, r.kept);
		puts_b(b, "</td>");
		for (k = 0; k < all.n; k++) {
			puts_b(b, "<td class=\"n\">");
			putu(b, stats_tally_get(&per[i], all.name[k]));
			puts_b(b, "</td>");
		}
		if (trim) {
			puts_b(b, "<td class=\"n\">");
			putu(b, r.trimmed);
			puts_b(b, "</td><td class=\"n\">");
			putu(b, r.trim_bytes);
			puts_b(b, "</td>");
		}
		puts_b(b, "</tr>\n");
		stats_tally_free(&per[i]);
	}
	puts_b(b, "</table>\n</section>\n");
	free(per);
	stats_tally_free(&all);
}

#define LANG_BARS	30	/* the most frequent languages drawn */

static const struct stats_tally *sort_langs;

static int
by_count(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const uint64_t *c = sort_langs->count;

	if (c[i] != c[j])
		return c[i] > c[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

static void
languages_section(struct pskd_buf *b, const struct report *rp)
{
	const struct stats *d = &rp->all[STATS_DOCUMENTS];
	size_t *order, i, n = d->langs.n;
	char note[200];

	section(b, "languages", "Languages", "The documents of each language "
	    "(the language member pskd-lid adds), the most frequent first, "
	    "and the distribution of its score, in bins of 0.01.");
	order = pskd_xcalloc(n ? n : 1, sizeof(*order));
	for (i = 0; i < n; i++)
		order[i] = i;
	sort_langs = &d->langs;
	qsort(order, n, sizeof(*order), by_count);
	snprintf(note, sizeof(note), "%zu languages in %llu of %llu "
	    "documents%s.", n, (unsigned long long)stats_tally_sum(&d->langs),
	    (unsigned long long)d->n, n > LANG_BARS ? "; the 30 most frequent "
	    "are drawn" : "");
	para(b, "figures", note);
	if (n > 0)
		tally_chart(b, "languages-chart", "documents by language",
		    "documents", &d->langs, order, n < LANG_BARS ? n :
		    LANG_BARS);
	if (d->lscore.count > 0)
		histogram(b, "scores-chart", "documents by language score",
		    "documents", &d->lscore);
	puts_b(b, "</section>\n");
	free(order);
}

static void
lengths_section(struct pskd_buf *b, const struct report *rp)
{
	struct stats_dist d;
	char note[400];

	section(b, "lengths", "Document length in tokens", "Tokens per "
	    "document (up to each end-of-text token, which is not counted) "
	    "in bins of a quarter octave, each labelled with its smallest "
	    "length.");
	if (!rp->has_all[STATS_TOKENS]) {
		missing(b, "No token streams.");
		puts_b(b, "</section>\n");
		return;
	}
	stats_token_docs(&rp->all[STATS_TOKENS], &d);
	if (d.count == 0) {
		missing(b, "No documents.");
	} else {
		snprintf(note, sizeof(note), "%llu documents, %llu to %llu "
		    "tokens, %.1f on average.", (unsigned long long)d.count,
		    (unsigned long long)d.min, (unsigned long long)d.max,
		    (double)d.sum / (double)d.count);
		para(b, "figures", note);
		histogram(b, "lengths-chart", "documents by length in tokens",
		    "documents", &d);
	}
	puts_b(b, "</section>\n");
}

static void
tokens_section(struct pskd_buf *b, const struct report *rp)
{
	static const char *const tok[] = { "tokens" }, *const win[] = {
		"windows"
	};
	static const size_t ftok[] = { offsetof(struct report_row, tokens) };
	static const size_t fwin[] = { offsetof(struct report_row, windows) };

	section(b, "tokens", "Tokens and windows per shard", "Tokens of "
	    "each shard's token stream, and windows of the window streams "
	    "labelled with a shard; streams labelled otherwise (the whole "
	    "training set) follow the shards.");
	puts_b(b, "<h3>Tokens</h3>\n");
	shard_chart(b, rp, "tokens-chart", "tokens per shard", tok, ftok, 1,
	    STATS_TOKENS);
	puts_b(b, "<h3>Windows</h3>\n");
	shard_chart(b, rp, "windows-chart", "windows per shard", win, fwin, 1,
	    STATS_WINDOWS);
	puts_b(b, "</section>\n");
}

static void
window_section(struct pskd_buf *b, const struct report *rp)
{
	section(b, "window", "First shuffled window, decoded", "The input "
	    "of the first window of the first epoch, as text.");
	if (!rp->has_window) {
		missing(b, "Not given (pskd-report -w).");
	} else {
		puts_b(b, "<pre>");
		html_escape(b, rp->window.p, rp->window.len);
		puts_b(b, "</pre>\n");
	}
	puts_b(b, "</section>\n");
}

static void
cells(struct pskd_buf *b, const struct report_row *r)
{
	const uint64_t v[] = { r->documents, r->kept, r->neardup, r->empty,
	    r->rejected, r->tokens, r->windows };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		puts_b(b, "<td class=\"n\">");
		putu(b, v[i]);
		puts_b(b, "</td>");
	}
}

static void
table_section(struct pskd_buf *b, const struct report *rp)
{
	struct report_row r;
	size_t i;

	section(b, "numbers", "Numbers", "Every number of the charts; "
	    "report.json holds them too.");
	puts_b(b, "<table>\n<tr><th>shard</th><th>file</th><th>bytes</th>"
	    "<th>status</th><th>documents</th><th>kept</th>"
	    "<th>near-duplicates</th><th>empty</th><th>rejected</th>"
	    "<th>tokens</th>"
	    "<th>windows</th></tr>\n");
	for (i = 0; i < rp->nshards; i++) {
		const struct report_shard *sh = &rp->shards[i];

		puts_b(b, "<tr><td>");
		text(b, sh->name);
		puts_b(b, "</td><td>");
		text(b, sh->file);
		puts_b(b, "</td><td class=\"n\">");
		putu(b, sh->bytes);
		puts_b(b, "</td><td>");
		text(b, sh->status);
		puts_b(b, "</td>");
		report_row(sh, &r);
		cells(b, &r);
		puts_b(b, "</tr>\n");
	}
	report_totals(rp, &r);
	puts_b(b, "<tr class=\"total\"><th>total</th><td></td><td></td>"
	    "<td></td>");
	cells(b, &r);
	puts_b(b, "</tr>\n</table>\n");
	if (rp->nothers > 0) {
		puts_b(b, "<table class=\"others\">\n<tr><th>label</th>"
		    "<th>kind</th><th>count</th><th>bytes</th></tr>\n");
		for (i = 0; i < rp->nothers; i++) {
			puts_b(b, "<tr><td>");
			text(b, rp->others[i].label);
			puts_b(b, "</td><td>");
			text(b, stats_kind_name(rp->others[i].s.kind));
			puts_b(b, "</td><td class=\"n\">");
			putu(b, rp->others[i].s.n);
			puts_b(b, "</td><td class=\"n\">");
			putu(b, rp->others[i].s.bytes);
			puts_b(b, "</td></tr>\n");
		}
		puts_b(b, "</table>\n");
	}
	puts_b(b, "</section>\n");
}

void
report_html(struct pskd_buf *b, const struct report *rp)
{
	struct report_row t;

	puts_b(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\"><title>");
	text(b, rp->title);
	puts_b(b, "</title>\n<style>\n");
	puts_b(b, style);
	puts_b(b, "</style></head>\n<body>\n<h1>");
	text(b, rp->title);
	puts_b(b, "</h1>\n<p class=\"summary\">");
	report_totals(rp, &t);
	putu(b, rp->nshards);
	puts_b(b, " shards: ");
	putu(b, t.documents);
	puts_b(b, " documents, ");
	putu(b, t.kept);
	puts_b(b, " kept, ");
	putu(b, t.neardup);
	puts_b(b, " near-duplicates; ");
	putu(b, t.tokens);
	puts_b(b, " tokens.</p>\n");
	documents_section(b, rp);
	if (report_has_drops(rp))
		drops_section(b, rp);
	estimates_section(b, rp);
	if (rp->has_all[STATS_DOCUMENTS] && (rp->all[STATS_DOCUMENTS].langs.n >
	    0 || rp->all[STATS_DOCUMENTS].lscore.count > 0))
		languages_section(b, rp);
	lengths_section(b, rp);
	tokens_section(b, rp);
	window_section(b, rp);
	table_section(b, rp);
	puts_b(b, "</body></html>\n");
}

/* ---- report.json ---------------------------------------------------------- */

static void
jkey(struct pskd_buf *b, const char *key, int first)
{
	if (!first)
		pskd_buf_addc(b, ',');
	pskd_json_quote(b, (const unsigned char *)key, strlen(key));
	pskd_buf_addc(b, ':');
}

static void
jnum(struct pskd_buf *b, const char *key, uint64_t v, int first)
{
	char t[32];

	jkey(b, key, first);
	if (v == REPORT_NONE) {
		puts_b(b, "null");
		return;
	}
	snprintf(t, sizeof(t), "%llu", (unsigned long long)v);
	puts_b(b, t);
}

static void
jstr(struct pskd_buf *b, const char *key, const char *s, int first)
{
	jkey(b, key, first);
	pskd_json_quote(b, (const unsigned char *)s, strlen(s));
}

static void
jrow(struct pskd_buf *b, const struct report_row *r)
{
	jnum(b, "documents", r->documents, 0);
	jnum(b, "kept", r->kept, 0);
	jnum(b, "near_duplicates", r->neardup, 0);
	jnum(b, "empty", r->empty, 0);
	jnum(b, "rejected", r->rejected, 0);
	jnum(b, "tokens", r->tokens, 0);
	jnum(b, "windows", r->windows, 0);
}

/* The window's text with its bad bytes as U+FFFD, as in the page. */
static void
jwindow(struct pskd_buf *b, const struct report *rp)
{
	struct pskd_buf t = { NULL, 0, 0 };
	size_t i = 0, k;
	uint32_t cp;

	jkey(b, "window", 0);
	if (!rp->has_window) {
		puts_b(b, "null");
		return;
	}
	while (i < rp->window.len) {
		k = pskd_utf8_decode(rp->window.p + i, rp->window.len - i, &cp);
		if (k == 0 || (cp < 0x20 && cp != '\n' && cp != '\t') ||
		    cp == 0x7f) {
			puts_b(&t, "\xef\xbf\xbd");
			i += k ? k : 1;
			continue;
		}
		pskd_buf_add(&t, rp->window.p + i, k);
		i += k;
	}
	pskd_json_quote(b, t.p, t.len);
	pskd_buf_free(&t);
}

void
report_json(struct pskd_buf *b, const struct report *rp)
{
	struct report_row r;
	struct stats_dist d;
	struct stats_tally t;
	const struct stats *docs = &rp->all[STATS_DOCUMENTS];
	int drops = report_has_drops(rp), trim = report_has_trimmed(rp);
	size_t i;

	puts_b(b, "{\"pskd_report\":1");
	jstr(b, "title", rp->title, 0);
	puts_b(b, ",\"shards\":[");
	for (i = 0; i < rp->nshards; i++) {
		const struct report_shard *sh = &rp->shards[i];

		puts_b(b, i ? ",{" : "{");
		jstr(b, "name", sh->name, 1);
		jstr(b, "file", sh->file, 0);
		jnum(b, "bytes", sh->bytes, 0);
		jstr(b, "status", sh->status, 0);
		report_row(sh, &r);
		jrow(b, &r);
		if (drops) {
			/* The stages' verdicts: what they dropped, by name. */
			jnum(b, "dropped", r.dropped, 0);
			jkey(b, "drops", 0);
			report_drops(sh, &t);
			stats_tally_json(b, &t);
			stats_tally_free(&t);
		}
		if (trim) {
			jnum(b, "trimmed", r.trimmed, 0);
			jnum(b, "trimmed_bytes", r.trim_bytes, 0);
		}
		puts_b(b, "}");
	}
	puts_b(b, "],\"totals\":{");
	report_totals(rp, &r);
	jnum(b, "shards", rp->nshards, 1);
	jrow(b, &r);
	if (drops)
		jnum(b, "dropped", r.dropped, 0);
	if (trim) {
		jnum(b, "trimmed", r.trimmed, 0);
		jnum(b, "trimmed_bytes", r.trim_bytes, 0);
	}
	puts_b(b, "},\"others\":[");
	for (i = 0; i < rp->nothers; i++) {
		puts_b(b, i ? ",{" : "{");
		jstr(b, "label", rp->others[i].label, 1);
		jstr(b, "kind", stats_kind_name(rp->others[i].s.kind), 0);
		jnum(b, "count", rp->others[i].s.n, 0);
		jnum(b, "bytes", rp->others[i].s.bytes, 0);
		puts_b(b, "}");
	}
	puts_b(b, "]");
	jkey(b, "estimates", 0);
	if (rp->has_all[STATS_VERDICTS])
		stats_dist_json(b, &rp->all[STATS_VERDICTS].est);
	else
		puts_b(b, "null");
	jkey(b, "token_lengths", 0);
	if (rp->has_all[STATS_TOKENS]) {
		stats_token_docs(&rp->all[STATS_TOKENS], &d);
		stats_dist_json(b, &d);
	} else {
		puts_b(b, "null");
	}
	if (rp->has_all[STATS_DOCUMENTS] && (docs->langs.n > 0 ||
	    docs->lscore.count > 0)) {
		jkey(b, "languages", 0);
		stats_tally_json(b, &docs->langs);
		jkey(b, "language_score", 0);
		stats_dist_json(b, &docs->lscore);
	}
	jwindow(b, rp);
	puts_b(b, "}\n");
}
