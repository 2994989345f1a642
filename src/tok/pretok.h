/*
 * pretok.h - the pre-tokenizers of the tiktoken encodings, hand-written
 * (no regex engine): where each piece of a text ends.
 */
#ifndef PSKD_PRETOK_H
#define PSKD_PRETOK_H

#include <stddef.h>

enum pskd_pretok_pattern {
	PSKD_PAT_R50K = 0,	/* r50k_base and p50k_base (gpt2) */
	PSKD_PAT_CL100K,
	PSKD_PAT_O200K
};

/* "r50k_base", "p50k_base", "gpt2", "cl100k_base", "o200k_base"; or -1. */
int	pskd_pretok_pattern(const char *name);
/* The name of a pattern: r50k_base, cl100k_base, o200k_base; or NULL. */
const char *pskd_pretok_name(int pattern);
/*
 * The end of the piece that starts at text[pos] (pos < len) under the
 * pattern; text[0..len) is valid UTF-8.  Always > pos.
 */
size_t	pskd_pretok_next(int pattern, const unsigned char *text, size_t len,
	    size_t pos);

#endif
