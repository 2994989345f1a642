/*
 * eot.c - the end-of-text id pskd-tok writes after each document, for -E
 * and -v: asked of pskd-tok's family (tok/tokinfo.h), which owns the
 * encodings, the vocabulary files and their rules (pskd-tok(1)).
 */
#include "pskd.h"
#include "export/export.h"
#include "tok/tokinfo.h"

uint64_t
xeot_lookup(const char *encoding, const char *vocab)
{
	struct pskd_tokinfo ti;
	struct pskd_error e;
	uint64_t id;
	int rc;

	if ((rc = pskd_tokinfo_get(&ti, encoding, vocab, &e)) != 0)
		pskd_errx(rc, "%s", e.msg);
	if (!ti.haseot)
		pskd_errx(PSKD_EXIT_USAGE, "%s: pskd-tok writes no one "
		    "end-of-text token after a document with it; give -e ID",
		    ti.name);
	id = ti.eot;
	pskd_tokinfo_free(&ti);
	return id;
}
