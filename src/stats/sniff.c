/*
 * sniff.c - what kind of stream an input is, from its first bytes: the
 * magic of a frame stream or a .psk.d, a pskd-stats object, a JSON object
 * (documents), or a verdict line (any verdict word in its second field);
 * and progress while it is read.
 */
#include <string.h>

#include "pskd.h"
#include "stats/collect.h"
#include "stats/stats.h"

#define STATS_PREFIX	"{\"pskd_stats\":"
#define FIRST_LINE	(128u << 10)	/* the longest id is 64 KiB */

int
collect_kind_parse(const char *name, enum collect_kind *k)
{
	static const struct { const char *name; enum collect_kind k; } t[] = {
		{ "documents", COLLECT_DOCUMENTS }, { "lines", COLLECT_LINES },
		{ "verdicts", COLLECT_VERDICTS }, { "frames", COLLECT_FRAMES },
		{ "tokens", COLLECT_TOKENS }, { "windows", COLLECT_WINDOWS },
		{ "samples", COLLECT_SAMPLES }, { "stats", COLLECT_STATS }
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(name, t[i].name) == 0) {
			*k = t[i].k;
			return 0;
		}
	return -1;
}

/* A first line whose second field is a verdict (pskd-verdicts(5)). */
static int
verdict_line(const unsigned char *p, size_t n)
{
	const unsigned char *nl = memchr(p, '\n', n), *tab, *end;

	if (nl != NULL)
		n = (size_t)(nl - p);
	if ((tab = memchr(p, '\t', n)) == NULL)
		return 0;
	tab++;
	end = memchr(tab, '\t', n - (size_t)(tab - p));
	return stats_verdict_word((const char *)tab, (size_t)((end ? end :
	    p + n) - tab));
}

enum collect_kind
collect_sniff(struct pskd_reader *r)
{
	const unsigned char *p;
	ssize_t got;
	size_t i;

	got = pskd_reader_peek(r, sizeof(STATS_PREFIX) - 1, &p);
	if (got < 0)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
	if (got == 0)
		return COLLECT_DOCUMENTS;
	if (got >= 4 && memcmp(p, "PSKF", 4) == 0)
		return COLLECT_FRAMES;
	if (got >= 4 && memcmp(p, PSKD_MAGIC, 4) == 0)
		return COLLECT_PSK;
	if ((size_t)got >= sizeof(STATS_PREFIX) - 1 &&
	    memcmp(p, STATS_PREFIX, sizeof(STATS_PREFIX) - 1) == 0)
		return COLLECT_STATS;
	for (i = 0; i < (size_t)got && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	if (i < (size_t)got && p[i] == '{')
		return COLLECT_DOCUMENTS;
	got = pskd_reader_peek(r, FIRST_LINE, &p);
	if (got < 0)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
	if (verdict_line(p, (size_t)got))
		return COLLECT_VERDICTS;
	pskd_errx(PSKD_EXIT_DATA, "%s: not a stream pskd-stats knows "
	    "(documents, verdicts, frames, .psk.d, pskd-stats objects; -t "
	    "names the kind)", r->name);
}

void
collect_progress(const struct pskd_reader *r)
{
	pskd_progress(0, "%s: %llu MB", r->name,
	    (unsigned long long)(r->offset / 1000000));
}
