/*
 * tokinfo-vocab.c - tokinfo.h's pskd_tokinfo_get: a tiktoken encoding by
 * its name from the table, anything else from its vocabulary, opened as
 * pskd-tok opens it (vocab.c), with the end-of-text id that
 * mode-encode.c's around() writes after a document.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "tiktoken.h"
#include "tokinfo.h"
#include "tokinfo-int.h"
#include "vocab.h"

int
pskd_tokinfo_get(struct pskd_tokinfo *ti, const char *encoding,
    const char *path, struct pskd_error *e)
{
	const struct pskd_tiktoken *t;
	struct pskd_vocab v;
	uint32_t id;
	int rc;

	memset(ti, 0, sizeof(*ti));
	if (path == NULL && encoding != NULL &&
	    (t = pskd_tiktoken_named(encoding)) != NULL) {
		pskd_tokinfo_table(ti, t);
		return 0;
	}
	if ((rc = pskd_vocab_open(&v, encoding, path, e)) != 0) {
		pskd_vocab_free(&v);
		return rc;
	}
	ti->name = pskd_xstrdup(v.name);
	ti->kind = v.kind->name;
	ti->nvocab = v.nvocab;
	ti->pattern = v.pattern >= 0 ? pskd_pretok_name(v.pattern) : NULL;
	/* What mode-encode.c's around() puts after a document. */
	if (v.template) {
		ti->haseot = v.neos == 1;
		ti->eot = v.neos == 1 ? v.eos[0] : 0;
	} else if ((id = pskd_vocab_id(&v, "<|endoftext|>")) !=
	    PSKD_RANK_NONE) {
		ti->haseot = 1;
		ti->eot = id;
	}
	pskd_tokinfo_specials(ti, v.special, v.nspecial);
	pskd_vocab_free(&v);
	return 0;
}

