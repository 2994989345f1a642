/* err.c - diagnostics in the form "pskd-NAME: [FILE[:LINE]: ]message". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

const char *pskd_progname = "pskd";
static const char *usage_text;

void
pskd_setprogname(const char *argv0)
{
	const char *slash;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	slash = strrchr(argv0, '/');
	pskd_progname = slash ? slash + 1 : argv0;
}

void
pskd_init(char **argv, const char *usage)
{
	if (argv != NULL && argv[0] != NULL) {
		pskd_setprogname(argv[0]);
		/* getopt's own messages name argv[0]: make it "pskd-NAME" too. */
		argv[0] = (char *)pskd_progname;
	}
	usage_text = usage;
	pskd_signals_init();
}

void
pskd_vwarnx(const char *fmt, va_list ap)
{
	char line[4096];
	int n;

	/* One write(2) per message, so parallel writers do not interleave. */
	n = snprintf(line, sizeof(line), "%s: ", pskd_progname);
	if (n < 0)
		return;
	vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	n = (int)strlen(line);
	line[n++] = '\n';
	(void)pskd_write_all(2, line, (size_t)n);
}

void
pskd_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pskd_vwarnx(fmt, ap);
	va_end(ap);
}

static void
vwarn(const char *fmt, va_list ap)
{
	char msg[3072];
	int saved = errno;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	pskd_warnx("%s: %s", msg, strerror(saved));
	errno = saved;
}

void
pskd_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
pskd_errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pskd_vwarnx(fmt, ap);
	va_end(ap);
	exit(status);
}

void
pskd_err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

void
pskd_fail_at(const char *name, uint64_t line, const char *fmt, ...)
{
	char msg[3072];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", name,
		    (unsigned long long)line, msg);
	pskd_errx(PSKD_EXIT_DATA, "%s: %s", name, msg);
}

void
pskd_usage_error(const char *usage)
{
	char line[4096];
	int n;

	if (usage == NULL)
		usage = usage_text;
	if (usage == NULL)
		exit(PSKD_EXIT_USAGE);
	n = snprintf(line, sizeof(line), "usage: %s\n", usage);
	if (n > 0)
		(void)pskd_write_all(2, line, (size_t)n < sizeof(line) ?
		    (size_t)n : sizeof(line) - 1);
	exit(PSKD_EXIT_USAGE);
}

void
pskd_error_set(struct pskd_error *e, int code, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	e->code = code;
	if (code != 0)
		n = snprintf(e->msg, sizeof(e->msg), "E%d: ", code);
	va_start(ap, fmt);
	vsnprintf(e->msg + n, sizeof(e->msg) - (size_t)n, fmt, ap);
	va_end(ap);
}

void
pskd_error_prefix(struct pskd_error *e, const char *fmt, ...)
{
	char head[128], rest[sizeof(e->msg)];
	size_t skip = 0;
	va_list ap;
	int n;

	if (e->code != 0 && strncmp(e->msg, "E", 1) == 0 &&
	    strlen(e->msg) >= 7 && e->msg[5] == ':')
		skip = 7;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	memcpy(rest, e->msg + skip, sizeof(rest) - skip);
	rest[sizeof(rest) - skip - 1] = '\0';
	n = snprintf(e->msg + skip, sizeof(e->msg) - skip, "%s, ", head);
	if (n > 0 && (size_t)n < sizeof(e->msg) - skip)
		memcpy(e->msg + skip + (size_t)n, rest,
		    strnlen(rest, sizeof(e->msg) - skip - (size_t)n - 1) + 1);
	e->msg[sizeof(e->msg) - 1] = '\0';
}
