/*
 * tiktoken-enc.c - the encodings of tiktoken (tiktoken.h): for each its
 * pattern, the size of its ranks file and of its vocabulary, and its
 * special tokens with their ids, as tiktoken's openai_public.py has them.
 */
#include <string.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "tiktoken.h"

static const struct pskd_tiktoken encodings[] = {
	{ "r50k_base", PSKD_PAT_R50K, "r50k_base", 50256, 50257, 50256, 1,
	    { { "<|endoftext|>", 13, 50256, 0 } } },
	{ "p50k_base", PSKD_PAT_R50K, "r50k_base", 50280, 50281, 50256, 1,
	    { { "<|endoftext|>", 13, 50256, 0 } } },
	{ "cl100k_base", PSKD_PAT_CL100K, "cl100k_base", 100256, 100277, 100257,
	    5,
	    { { "<|endoftext|>", 13, 100257, 0 },
	    { "<|fim_prefix|>", 14, 100258, 0 },
	    { "<|fim_middle|>", 14, 100259, 0 },
	    { "<|fim_suffix|>", 14, 100260, 0 },
	    { "<|endofprompt|>", 15, 100276, 0 } } },
	{ "o200k_base", PSKD_PAT_O200K, "o200k_base", 199998, 200019, 199999,
	    2,
	    { { "<|endoftext|>", 13, 199999, 0 },
	    { "<|endofprompt|>", 15, 200018, 0 } } },
};
#define NENC	(sizeof(encodings) / sizeof(encodings[0]))

const char pskd_tiktoken_names[] =
    "r50k_base, p50k_base, cl100k_base, o200k_base";

const struct pskd_tiktoken *
pskd_tiktoken_named(const char *name)
{
	size_t i;

	if (strcmp(name, "gpt2") == 0)
		name = "r50k_base";
	for (i = 0; i < NENC; i++)
		if (strcmp(encodings[i].name, name) == 0)
			return &encodings[i];
	return NULL;
}

const struct pskd_tiktoken *
pskd_tiktoken_of_file(const char *path, uint32_t ntokens)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base ? base + 1 : path;
	for (i = 0; i < NENC; i++) {
		n = strlen(encodings[i].name);
		if (strncmp(base, encodings[i].name, n) == 0 &&
		    (base[n] == '\0' || base[n] == '.'))
			return &encodings[i];
	}
	for (i = 0; i < NENC; i++)
		if (encodings[i].nranks == ntokens)
			return &encodings[i];
	return NULL;
}

const struct pskd_tiktoken *
pskd_tiktoken_of_size(uint64_t nvocab)
{
	const struct pskd_tiktoken *t = NULL;
	size_t i;

	for (i = 0; i < NENC; i++)
		if (encodings[i].nvocab == nvocab)
			t = &encodings[i];
	return t;
}
