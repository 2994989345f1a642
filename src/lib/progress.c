/* progress.c - a progress line on stderr, only when it is a terminal. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pskd.h"

int pskd_progress_mode;

int
pskd_progress_enabled(void)
{
	if (pskd_progress_mode != 0)
		return pskd_progress_mode > 0;
	return isatty(2);
}

void
pskd_progress(int final, const char *fmt, ...)
{
	static struct timespec last;
	struct timespec now;
	char line[512];
	va_list ap;
	int n;

	if (!pskd_progress_enabled())
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!final && (now.tv_sec - last.tv_sec) * 1000000000L +
	    (now.tv_nsec - last.tv_nsec) < 250000000L)
		return;
	last = now;
	n = snprintf(line, sizeof(line), "\r%s: ", pskd_progname);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n - 2, fmt, ap);
	va_end(ap);
	/* Clear the rest of the previous, longer line. */
	n = (int)strlen(line);
	snprintf(line + n, sizeof(line) - (size_t)n, "\033[K%s",
	    final ? "\n" : "");
	(void)pskd_write_all(2, line, strlen(line));
}
