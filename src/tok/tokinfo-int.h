/*
 * tokinfo-int.h - what the two halves of tokinfo.h share (tokinfo.c,
 * tokinfo-vocab.c).
 */
#ifndef PSKD_TOKINFO_INT_H
#define PSKD_TOKINFO_INT_H

#include "tiktoken.h"
#include "tokinfo.h"
#include "vocab.h"

/* ti from the table's row t. */
void	pskd_tokinfo_table(struct pskd_tokinfo *ti,
	    const struct pskd_tiktoken *t);
/* ti's special tokens: copies of sp[0..n). */
void	pskd_tokinfo_specials(struct pskd_tokinfo *ti,
	    const struct pskd_vocab_special *sp, size_t n);

#endif
