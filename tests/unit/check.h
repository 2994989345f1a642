/*
 * check.h - the one check helper of the C unit tests: each check prints
 * "ok - WHAT" or "not ok - WHAT" (the lines tests/run counts), and
 * check_status() is main's exit status.  check_rnd(n) is the tests' one
 * random number generator (xorshift64, a fixed seed): a number below n.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

static int check_failed;

__attribute__((format(printf, 2, 3), unused)) static int
check(int cond, const char *fmt, ...)
{
	va_list ap;

	fputs(cond ? "ok - " : "not ok - ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		check_failed++;
	return cond;
}

__attribute__((unused)) static int
check_status(void)
{
	fflush(stdout);
	return check_failed != 0;
}

static uint64_t check_rng = 88172645463325252ULL;

__attribute__((unused)) static uint64_t
check_rnd(uint64_t n)
{
	check_rng ^= check_rng << 13;
	check_rng ^= check_rng >> 7;
	check_rng ^= check_rng << 17;
	return check_rng % n;
}

#endif /* CHECK_H */
