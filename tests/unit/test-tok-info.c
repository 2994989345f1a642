/*
 * test-tok-info.c - tokinfo.h, the tokenizer facts other families ask of
 * src/tok: the encodings by name from their table (tiktoken's
 * openai_public.py: n_vocab, <|endoftext|>), by V alone, and files read
 * as pskd-tok reads them; every error comes back as a status and a
 * message, none ends the program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "check.h"
#include "tok/tokinfo.h"

static char dir[] = "/tmp/test-tok-info.XXXXXX";

static const char *
file(const char *name, const char *text)
{
	static char path[4][256];
	static int k;
	FILE *f;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	if ((f = fopen(path[k], "w")) == NULL || fputs(text, f) < 0 ||
	    fclose(f) != 0) {
		perror(path[k]);
		exit(1);
	}
	return path[k];
}

static void
encoding(const char *name, uint64_t nvocab, uint64_t eot,
    const char *pattern, size_t nspecial)
{
	struct pskd_tokinfo ti;
	struct pskd_error e;

	check(pskd_tokinfo_get(&ti, name, NULL, &e) == 0 &&
	    ti.nvocab == nvocab && ti.haseot && ti.eot == eot &&
	    strcmp(ti.pattern, pattern) == 0 && ti.nspecial == nspecial &&
	    strcmp(ti.kind, "tiktoken") == 0, "-E %s: V %llu, eot %llu, %s",
	    name, (unsigned long long)nvocab, (unsigned long long)eot,
	    pattern);
	pskd_tokinfo_free(&ti);
	check(pskd_tokinfo_of_size(&ti, nvocab) == 1 && ti.eot == eot,
	    "V %llu alone: eot %llu", (unsigned long long)nvocab,
	    (unsigned long long)eot);
	pskd_tokinfo_free(&ti);
}

static void
fails(const char *encoding, const char *path, int status, const char *msg,
    const char *what)
{
	struct pskd_tokinfo ti;
	struct pskd_error e;
	int rc;

	rc = pskd_tokinfo_get(&ti, encoding, path, &e);
	check(rc == status && strstr(e.msg, msg) != NULL, "%s: %d, %s", what,
	    status, msg);
	if (rc != status || strstr(e.msg, msg) == NULL)
		printf("  got %d, \"%s\"\n", rc, rc ? e.msg : "");
	if (rc == 0)
		pskd_tokinfo_free(&ti);
}

int
main(void)
{
	struct pskd_tokinfo ti;
	struct pskd_error e;
	const char *p;
	char ranks[300 * 12], line[32];
	size_t i;
	int rc;

	if (mkdtemp(dir) == NULL) {
		perror(dir);
		return 1;
	}
	encoding("r50k_base", 50257, 50256, "r50k_base", 1);
	encoding("gpt2", 50257, 50256, "r50k_base", 1);
	encoding("p50k_base", 50281, 50256, "r50k_base", 1);
	encoding("cl100k_base", 100277, 100257, "cl100k_base", 5);
	encoding("o200k_base", 200019, 199999, "o200k_base", 2);
	check(pskd_tokinfo_of_size(&ti, 300) == 0 && ti.kind == NULL &&
	    ti.haseot && ti.eot == 299, "V 300 alone: eot 299, no kind");
	pskd_tokinfo_free(&ti);

	/* A character vocabulary: <|endoftext|> after its characters. */
	p = file("chars.txt", "a\nb\n\\n\n");
	check(pskd_tokinfo_get(&ti, NULL, p, &e) == 0 && ti.nvocab == 4 &&
	    ti.haseot && ti.eot == 3 && strcmp(ti.kind, "char") == 0 &&
	    ti.nspecial == 1 && strcmp(ti.special[0].text,
	    "<|endoftext|>") == 0, "-v chars.txt: V 4, eot 3");
	pskd_tokinfo_free(&ti);

	/* A ranks file of 256 bytes with its companion. */
	ranks[0] = '\0';
	for (i = 0; i < 256; i++) {
		static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg"
		    "hijklmnopqrstuvwxyz0123456789+/";

		snprintf(line, sizeof(line), "%c%c== %zu\n", b64[i >> 2],
		    b64[(i & 3) << 4], i);
		strcat(ranks, line);
	}
	strcat(ranks, "PHxwYWR8Pg== 256\nPHxlbmRvZnRleHR8Pg== 257\n");
	p = file("v.tiktoken", ranks);
	file("v.tiktoken.special", "pattern=o200k_base\n<|pad|> 256\n"
	    "<|endoftext|> 257\n");
	rc = pskd_tokinfo_get(&ti, NULL, p, &e);
	check(rc == 0 && ti.nvocab == 258 && ti.eot == 257 &&
	    strcmp(ti.kind, "trained") == 0 && strcmp(ti.pattern,
	    "o200k_base") == 0 && ti.nspecial == 2, "-v trained: V 258, "
	    "eot 257, o200k_base");
	if (rc == 0)
		pskd_tokinfo_free(&ti);
	fails("cl100k_base", p, PSKD_EXIT_USAGE, "trained with the pattern "
	    "of o200k_base", "-E of another pattern");

	/* Errors: a status and a message, and the program goes on. */
	fails("bogus", NULL, PSKD_EXIT_USAGE, "-E bogus: unknown encoding",
	    "-E bogus");
	fails("char", NULL, PSKD_EXIT_USAGE, "-E char needs -v FILE",
	    "-E char without -v");
	fails(NULL, file("empty", ""), PSKD_EXIT_DATA, "empty:0: no tokens",
	    "an empty ranks file");
	fails(NULL, "/nonexistent/v.tiktoken", PSKD_EXIT_DATA,
	    "No such file or directory", "a missing file");
	fails(NULL, file("bad.tiktoken", "IQ== 0\nnot-base64! 1\n"),
	    PSKD_EXIT_DATA, "bad.tiktoken:2: invalid base64 token",
	    "a bad ranks line");
	fails(NULL, file("tok.json", "{\"model\": {\"type\": \"WordPiece\"}}"),
	    PSKD_EXIT_DATA, "tok.json:1: the model WordPiece is not supported",
	    "an unsupported tokenizer.json");
	fails(NULL, file("odd.tiktoken", ranks), PSKD_EXIT_USAGE,
	    "cannot tell its encoding", "ranks of no encoding, no companion");

	{
		char rm[64];

		snprintf(rm, sizeof(rm), "rm -rf %s", dir);
		if (system(rm) != 0)
			return 1;
	}
	return check_status();
}
