/* simd.c - whether the vector code paths may be taken. */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

/*
 * PSKD_SIMD=0 (or off) sends every program down its portable paths: the
 * same bytes out, slower.  The tests compare the two that way.
 */
int
pskd_simd(void)
{
	static int v = -1;
	const char *e;

	if (v == -1) {
		e = getenv("PSKD_SIMD");
		v = !(e != NULL && (strcmp(e, "0") == 0 ||
		    strcmp(e, "off") == 0));
	}
	return v;
}
