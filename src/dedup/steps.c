/* steps.c - the normalisation steps by name (steps.h). */
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "steps.h"

int
pskd_norm_steps(const char *s, unsigned *bits, char *bad, size_t badsize)
{
	static const struct { const char *name; unsigned bit; } steps[] = {
		{ "case", PSKD_NORM_CASE }, { "punct", PSKD_NORM_PUNCT },
		{ "digits", PSKD_NORM_DIGITS }, { "space", PSKD_NORM_SPACE },
		{ "marks", PSKD_NORM_MARKS }, { "all", PSKD_NORM_ALL },
		{ "none", 0 }
	};
	size_t i, len;

	*bits = 0;
	for (;;) {
		len = strcspn(s, ",");
		for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
			if (strlen(steps[i].name) == len &&
			    strncmp(steps[i].name, s, len) == 0)
				break;
		if (i == sizeof(steps) / sizeof(steps[0])) {
			snprintf(bad, badsize, "%.*s", (int)len, s);
			return -1;
		}
		*bits |= steps[i].bit;
		if (s[len] == '\0')
			return 0;
		s += len + 1;
	}
}
