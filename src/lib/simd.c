/*
 * simd.c - which vector code paths may be taken: the widest level the
 * processor has, capped by PSKD_SIMD.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"

static const char *const names[] = { "portable", "sse2", "avx2", "avx512" };

/* What the processor has, whatever PSKD_SIMD says. */
int
pskd_simd_cpu(void)
{
	static int v = -1;

	if (v != -1)
		return v;
	v = PSKD_SIMD_PORTABLE;
#if defined(__x86_64__) && defined(__GNUC__)
	__builtin_cpu_init();
	v = PSKD_SIMD_SSE2;	/* every x86-64 has it */
	if (__builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("popcnt") &&
	    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2"))
		v = PSKD_SIMD_AVX2;
	if (v == PSKD_SIMD_AVX2 && __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512vl") &&
	    __builtin_cpu_supports("avx512dq") &&
	    __builtin_cpu_supports("avx512bw"))
		v = PSKD_SIMD_AVX512;
#endif
	return v;
}

/*
 * PSKD_SIMD names the widest level allowed: 0, off or portable; sse2;
 * avx2; avx512.  Unset, empty, 1, on or best: no cap.  Another value is
 * warned about once and taken as no cap.  The tests run every level the
 * machine has and compare the outputs.
 */
int
pskd_simd(void)
{
	static int v = -1;
	const char *e;
	int cap = PSKD_SIMD_AVX512, i;

	if (v != -1)
		return v;
	e = getenv("PSKD_SIMD");
	if (e != NULL && (strcmp(e, "0") == 0 || strcmp(e, "off") == 0))
		cap = PSKD_SIMD_PORTABLE;
	else if (e != NULL && *e != '\0' && strcmp(e, "1") != 0 &&
	    strcmp(e, "on") != 0 && strcmp(e, "best") != 0) {
		for (i = 0; i <= PSKD_SIMD_AVX512; i++)
			if (strcmp(e, names[i]) == 0)
				break;
		if (i <= PSKD_SIMD_AVX512)
			cap = i;
		else
			pskd_warnx("PSKD_SIMD=%s: not 0, off, portable, sse2, "
			    "avx2, avx512 or best; taking the best", e);
	}
	v = pskd_simd_cpu();
	if (v > cap)
		v = cap;
	return v;
}

const char *
pskd_simd_name(int level)
{
	return level >= 0 && level <= PSKD_SIMD_AVX512 ? names[level] : "?";
}
