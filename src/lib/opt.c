/*
 * opt.c - what every program's option loop shares: --version, and the one
 * check that two options asking for different modes were not both given.
 *
 * The idiom (every src/pskd-*.c): a usage_text string shaped like the man
 * page's SYNOPSIS; long-only options as a file-scope enum from 256 ending
 * in OPT_HELP, OPT_VERSION; one static struct opt with designated
 * defaults; longopts, the switch and the usage lines in the same order;
 * `case OPT_VERSION: pskd_version();`.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pskd.h"

#ifndef PSKD_VERSION
#error "PSKD_VERSION comes from the Makefile's VERSION"
#endif

const char pskd_version_text[] = PSKD_VERSION;

void
pskd_version(void)
{
	struct pskd_writer w;

	pskd_writer_init(&w, 1, "<stdout>");
	pskd_writer_printf(&w, "%s %s\n", pskd_progname, pskd_version_text);
	pskd_writer_finish(&w);
	exit(PSKD_EXIT_OK);
}

void
pskd_mode_set(struct pskd_mode *m, int mode, const char *flag)
{
	if (m->flag != NULL && m->mode != mode) {
		pskd_warnx("%s and %s exclude each other", m->flag, flag);
		pskd_usage_error(NULL);
	}
	m->mode = mode;
	m->flag = flag;
}
