/*
 * bpe-pretok.h - the pre-tokenizers of the tiktoken encodings, hand-written
 * (no regex engine): where each piece of a text ends.
 */
#ifndef PSKD_BPE_PRETOK_H
#define PSKD_BPE_PRETOK_H

#include <stddef.h>
#include <stdint.h>

enum pskd_pretok_pattern {
	PSKD_PAT_R50K = 0,	/* r50k_base and p50k_base (gpt2) */
	PSKD_PAT_CL100K,
	PSKD_PAT_O200K,
	PSKD_PAT_CL100K_N1	/* cl100k_base with one digit a piece (Qwen) */
};

/* "r50k_base", "p50k_base", "gpt2", "cl100k_base", "o200k_base"; or -1. */
int	pskd_pretok_pattern(const char *name);
/* The name of a pattern: r50k_base, cl100k_base, o200k_base; or NULL. */
const char *pskd_pretok_name(int pattern);
/*
 * The regular expression a pattern stands for (as a tokenizer.json's
 * Split has it), or NULL; and the pattern of regular expression p[0..n),
 * or -1 when no hand-written pre-tokenizer cuts as it does.
 */
const char *pskd_pretok_regex(int pattern);
int	pskd_pretok_of_regex(const char *p, size_t n);
/*
 * The classes of code point cp the patterns use (build/gen/ucd.h, Unicode
 * 16.0): PSKD_CLASS_L \p{L}, _N \p{N}, _U [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}],
 * _W [\p{Ll}\p{Lm}\p{Lo}\p{M}], _S White_Space.
 */
#define PSKD_CLASS_L	1
#define PSKD_CLASS_N	2
#define PSKD_CLASS_U	4
#define PSKD_CLASS_W	8
#define PSKD_CLASS_S	16
unsigned pskd_pretok_class(uint32_t cp);
/*
 * The code points of class bit (L, N, U or W) that PCRE2's own classes
 * (\p{L}, \p{N}, [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], [\p{Ll}\p{Lm}\p{Lo}\p{M}])
 * lack, as bracket contents: PCRE2's class and these are the table's.
 */
const char *pskd_pretok_pcre2_add(unsigned bit);
/*
 * The end of the piece that starts at text[pos] (pos < len) under the
 * pattern; text[0..len) is valid UTF-8.  Always > pos.
 */
size_t	pskd_pretok_next(int pattern, const unsigned char *text, size_t len,
	    size_t pos);

#endif
