/* stats.c - pskd-lsh's statistics line; see stats.h. */
#include <inttypes.h>
#include <stdio.h>

#include "pskd.h"
#include "stats.h"

void
pskd_lsh_stats_add(struct pskd_lsh_stats *to, const struct pskd_lsh_stats *c)
{
	to->docs += c->docs;
	to->kept += c->kept;
	to->dup += c->dup;
	to->empty += c->empty;
	to->rejected += c->rejected;
}

void
pskd_lsh_stats_warn(const char *name, const struct pskd_lsh_stats *c,
    const char *note)
{
	char rej[40] = "";

	if (c->rejected > 0)
		snprintf(rej, sizeof(rej), ", rejected %" PRIu64, c->rejected);
	pskd_warnx("%s: documents %" PRIu64 ", kept %" PRIu64 ", "
	    "near-duplicates %" PRIu64 ", empty %" PRIu64 "%s%s%s%s", name,
	    c->docs, c->kept, c->dup, c->empty, rej, note ? " (" : "",
	    note ? note : "", note ? ")" : "");
}
