/*
 * tokinfo.c - tokinfo.h: what the table of tiktoken's encodings tells
 * (tiktoken-enc.c), which needs no file; tokinfo-vocab.c opens the others.
 * (Apart, so that a program that only asks by V, pskd-stats, links no
 * vocabulary reader.)
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "tiktoken.h"
#include "tokinfo.h"
#include "tokinfo-int.h"

void
pskd_tokinfo_specials(struct pskd_tokinfo *ti,
    const struct pskd_vocab_special *sp, size_t n)
{
	size_t i;

	ti->special = pskd_xcalloc(n ? n : 1, sizeof(*ti->special));
	for (i = 0; i < n; i++) {
		ti->special[i].text = pskd_xstrndup(sp[i].text, sp[i].len);
		ti->special[i].len = sp[i].len;
		ti->special[i].id = sp[i].id;
	}
	ti->nspecial = n;
}

void
pskd_tokinfo_table(struct pskd_tokinfo *ti, const struct pskd_tiktoken *t)
{
	ti->name = pskd_xstrdup(t->name);
	ti->kind = "tiktoken";
	ti->nvocab = t->nvocab;
	ti->haseot = 1;
	ti->eot = t->eot;
	ti->pattern = t->pattern_name;
	pskd_tokinfo_specials(ti, t->special, t->nspecial);
}

int
pskd_tokinfo_of_size(struct pskd_tokinfo *ti, uint64_t nvocab)
{
	const struct pskd_tiktoken *t;

	memset(ti, 0, sizeof(*ti));
	if ((t = pskd_tiktoken_of_size(nvocab)) != NULL) {
		pskd_tokinfo_table(ti, t);
		return 1;
	}
	ti->nvocab = nvocab;
	ti->haseot = nvocab > 0;
	ti->eot = nvocab > 0 ? nvocab - 1 : 0;
	return 0;
}

void
pskd_tokinfo_free(struct pskd_tokinfo *ti)
{
	size_t i;

	for (i = 0; i < ti->nspecial; i++)
		free(ti->special[i].text);
	free(ti->special);
	free(ti->name);
	memset(ti, 0, sizeof(*ti));
}
