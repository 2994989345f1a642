/*
 * progress.c - what pskd-get shows on stderr while shards download, from
 * a thread of its own.
 *
 * On a terminal: a total line and one line per active shard (bytes,
 * percent, rate, ETA), redrawn in place four times a second, with a line
 * for each shard that ends above them.  Elsewhere (-P into a file or a
 * pipe): plain log lines, one per active shard every 10 seconds and one
 * when it ends, without carriage returns or escape codes.  Rates are
 * smoothed over about three seconds and shown after the first second, so
 * the first figure is not a wild one.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pskd.h"
#include "get.h"

#define TICK_TTY	0.25	/* seconds between redraws */
#define TICK_LOG	0.5
#define LOG_EVERY	10.0	/* seconds between a shard's log lines */
#define SMOOTH		3.0	/* seconds: the rate's time constant */
#define MAX_LINES	20	/* active shards shown on a terminal */

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

/* Update a shard's smoothed rate with its bytes now. */
static void
sample(struct pskd_get_job *j, double now)
{
	uint64_t have = __atomic_load_n(&j->have, __ATOMIC_RELAXED);
	double dt = now - j->p_t, inst;

	if (dt < 0.2)
		return;
	inst = have >= j->p_bytes ? (double)(have - j->p_bytes) / dt : 0;
	if (!j->p_known && now - j->started >= 1.0) {
		/* The first second's average starts it. */
		j->p_rate = (double)(have - j->p_first) / (now - j->started);
		j->p_known = 1;
	} else if (j->p_known)
		j->p_rate += (1 - exp(-dt / SMOOTH)) * (inst - j->p_rate);
	j->p_t = now;
	j->p_bytes = have;
}

/* "12.0 MiB of 48.0 MiB (25%), 5.1 MiB/s, ETA 7 s" */
static void
describe(const struct pskd_get_job *j, char *out, size_t n, int tty)
{
	uint64_t have = __atomic_load_n(&j->have, __ATOMIC_RELAXED);
	uint64_t all = __atomic_load_n(&j->expected, __ATOMIC_RELAXED);
	char a[32], b[32], c[32], of[64] = "", rate[48] = "", eta[32] = "";

	human(a, sizeof(a), (double)have);
	if (all > 0) {
		human(b, sizeof(b), (double)all);
		snprintf(of, sizeof(of), tty ? " of %s  %3.0f%%" :
		    " of %s (%.0f%%)", b, 100.0 * (double)have / (double)all);
	}
	if (j->p_known) {
		human(c, sizeof(c), j->p_rate);
		snprintf(rate, sizeof(rate), tty ? "  %s/s" : ", %s/s", c);
		if (all > have && j->p_rate > 0)
			snprintf(eta, sizeof(eta), tty ? "  ETA %.0f s" :
			    ", ETA %.0f s", (double)(all - have) / j->p_rate);
	}
	snprintf(out, n, "%s%s%s%s", a, of, rate, eta);
}

static void
put(struct pskd_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
put(struct pskd_buf *b, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		pskd_buf_add(b, line, (size_t)n < sizeof(line) ? (size_t)n :
		    sizeof(line) - 1);
}

/* Erase what was drawn on the terminal; the caller holds g->pmu. */
static void
erase(struct pskd_get *g, struct pskd_buf *b)
{
	if (g->p_lines > 0)
		put(b, "\033[%dA\r\033[J", g->p_lines);
	g->p_lines = 0;
}

static void
draw(struct pskd_get *g, double now)
{
	struct pskd_buf b = { NULL, 0, 0 };
	char d[200], all[32], rate[32];
	uint64_t total = g->done_bytes;
	double sum = 0;
	size_t i, shown = 0, active = 0;

	for (i = 0; i < g->njobs; i++) {
		struct pskd_get_job *j = &g->jobs[i];

		if (!j->active)
			continue;
		sample(j, now);
		total += __atomic_load_n(&j->have, __ATOMIC_RELAXED);
		sum += j->p_known ? j->p_rate : 0;
		active++;
	}
	pthread_mutex_lock(&g->pmu);
	erase(g, &b);
	human(all, sizeof(all), (double)total);
	human(rate, sizeof(rate), sum);
	put(&b, "%s: %zu of %zu shards done", pskd_progname, g->ndone,
	    g->njobs - g->nkept);
	if (g->nfailed > 0)
		put(&b, ", %zu failed", g->nfailed);
	put(&b, ", %s, %s/s\n", all, rate);
	g->p_lines = 1;
	for (i = 0; i < g->njobs && shown < MAX_LINES; i++) {
		if (!g->jobs[i].active)
			continue;
		describe(&g->jobs[i], d, sizeof(d), 1);
		put(&b, "  %-24.60s %s\n", g->jobs[i].name, d);
		shown++;
		g->p_lines++;
	}
	if (active > shown) {
		put(&b, "  and %zu more\n", active - shown);
		g->p_lines++;
	}
	(void)pskd_write_all(2, b.p, b.len);
	pthread_mutex_unlock(&g->pmu);
	pskd_buf_free(&b);
}

static void
log_lines(struct pskd_get *g, double now)
{
	char d[200];
	size_t i;

	for (i = 0; i < g->njobs; i++) {
		struct pskd_get_job *j = &g->jobs[i];

		if (!j->active)
			continue;
		sample(j, now);
		if (now - j->p_logged < LOG_EVERY)
			continue;
		j->p_logged = now;
		describe(j, d, sizeof(d), 0);
		pskd_warnx("%s: %s", j->name, d);
	}
}

static void *
run(void *arg)
{
	struct pskd_get *g = arg;
	double tick = g->p_tty ? TICK_TTY : TICK_LOG, now;
	struct timespec ts;

	pthread_mutex_lock(&g->mu);
	while (!g->p_stop) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)(tick * 1e9);
		ts.tv_sec += ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&g->p_wake, &g->mu, &ts);
		if (g->p_stop)
			break;
		now = pskd_get_now();
		if (g->p_tty)
			draw(g, now);
		else
			log_lines(g, now);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

void
pskd_get_progress_start(struct pskd_get *g)
{
	if (!pskd_progress_enabled())
		return;
	g->p_tty = isatty(2);
	pthread_cond_init(&g->p_wake, NULL);
	g->p_on = 1;
	if ((errno = pthread_create(&g->p_th, NULL, run, g)) != 0)
		pskd_err(PSKD_EXIT_DATA, "pthread_create");
}

void
pskd_get_progress_stop(struct pskd_get *g)
{
	struct pskd_buf b = { NULL, 0, 0 };

	if (!g->p_on)
		return;
	pthread_mutex_lock(&g->mu);
	g->p_stop = 1;
	pthread_cond_signal(&g->p_wake);
	pthread_mutex_unlock(&g->mu);
	pthread_join(g->p_th, NULL);
	g->p_on = 0;
	pthread_mutex_lock(&g->pmu);
	erase(g, &b);
	(void)pskd_write_all(2, b.p, b.len);
	pthread_mutex_unlock(&g->pmu);
	pskd_buf_free(&b);
}

/* The caller holds g->mu. */
void
pskd_get_progress_begin(struct pskd_get *g, struct pskd_get_job *j)
{
	(void)g;
	j->active = 1;
	j->started = j->p_t = j->p_logged = pskd_get_now();
	j->p_first = j->p_bytes = __atomic_load_n(&j->have, __ATOMIC_RELAXED);
	j->p_known = 0;
	j->p_rate = 0;
}

/* The caller holds g->mu; j->have is still the shard's. */
void
pskd_get_progress_end(struct pskd_get *g, struct pskd_get_job *j)
{
	double t;
	char a[32], r[32];

	j->active = 0;
	if (!g->p_on)
		return;
	t = pskd_get_now() - j->started;
	if (j->out.status != PSKD_SHARD_COMPLETE) {
		pskd_get_warnx(g, "%s: failed", j->name);
		return;
	}
	human(a, sizeof(a), (double)j->out.bytes);
	human(r, sizeof(r), t > 0 ? (double)(j->have - j->p_first) / t : 0);
	pskd_get_warnx(g, "%s: complete, %s in %.1f s (%s/s)", j->name, a, t,
	    r);
}

void
pskd_get_warnx(struct pskd_get *g, const char *fmt, ...)
{
	struct pskd_buf b = { NULL, 0, 0 };
	va_list ap;

	/* Above the lines drawn on a terminal, which the next tick redraws. */
	pthread_mutex_lock(&g->pmu);
	erase(g, &b);
	if (b.len > 0)
		(void)pskd_write_all(2, b.p, b.len);
	va_start(ap, fmt);
	pskd_vwarnx(fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&g->pmu);
	pskd_buf_free(&b);
}
