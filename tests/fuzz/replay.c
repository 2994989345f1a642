/*
 * replay.c - run a fuzz target's LLVMFuzzerTestOneInput over files (its
 * saved corpus) without libFuzzer, so `make check` replays every corpus
 * under the ordinary and the sanitizer builds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf;
		long n;

		if (f == NULL || fseek(f, 0, SEEK_END) != 0 ||
		    (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
			perror(argv[i]);
			return 1;
		}
		buf = malloc(n > 0 ? (size_t)n : 1);	/* exactly n: ASan sees past */
		if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
	}
	printf("%d inputs replayed\n", argc - 1);
	return 0;
}
