/*
 * progress.c - what pskd-get shows on stderr while shards download: the
 * shard's bytes, percent, rate and ETA, and the total of the run.
 */
#include <stdio.h>

#include "pskd.h"
#include "get.h"

static void
human(char *out, size_t n, double v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(out, n, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

void
pskd_get_progress(struct pskd_get *g, struct pskd_get_job *j, double t0,
    uint64_t got0, int final)
{
	char a[32], b[32], c[32], tot[32], of[64] = "", eta[32] = "";
	double t = pskd_get_now(), rate;
	uint64_t all = 0;
	size_t i;

	if (!pskd_progress_enabled())
		return;
	pthread_mutex_lock(&g->mu);
	for (i = 0; i < g->njobs; i++)
		if (g->jobs[i].out.status == PSKD_SHARD_PENDING)
			all += g->jobs[i].have;
	all += g->done_bytes;
	rate = t > t0 && j->have > got0 ? (double)(j->have - got0) / (t - t0) :
	    0;
	human(a, sizeof(a), (double)j->have);
	human(b, sizeof(b), rate);
	human(c, sizeof(c), (double)all);
	if (j->expected > 0) {
		human(tot, sizeof(tot), (double)j->expected);
		snprintf(of, sizeof(of), " of %s (%.0f%%)", tot,
		    100.0 * (double)j->have / (double)j->expected);
	}
	if (j->expected > j->have && rate > 0)
		snprintf(eta, sizeof(eta), ", ETA %.0f s",
		    (double)(j->expected - j->have) / rate);
	pskd_progress(final, "%s: %s%s, %s/s%s; %zu/%zu shards done, %s "
	    "in all", j->name, a, of, b, eta, g->ndone, g->njobs, c);
	pthread_mutex_unlock(&g->mu);
}
