/*
 * pii.c - the two patterns of datatrove's PIIFormatter, matched as Python's
 * re matches them (leftmost first, each match consumed, no overlaps):
 *
 * email: \b LOCAL @ DOMAIN, where LOCAL is runs of [A-Za-z0-9!#$%&'*+/=?^_`{|}~-]
 *   joined by single dots, and DOMAIN is either labels ([A-Za-z0-9], then
 *   [A-Za-z0-9-]* ending in a letter or digit) joined by dots, two or
 *   more, or "[a.b.c.d]" ("[a.b.c.TAG:]" too); \b as Python's re has it
 *   for str (a word character: a letter, a number or '_').
 * IPv4: four octets of one to three digits (at most 255, leading zeros
 *   allowed by the pattern) joined by dots, anywhere (no \b): the last
 *   octet takes what the pattern's alternation takes first.
 *
 * A match is replaced only if Python's ipaddress takes it (no leading
 * zeros) and, with only_remove_public_ips, is_global (q_ipv4_global).
 */
#include <string.h>

#include "quality/quality.h"

static void
add(struct q_matches *m, size_t off, size_t len, const char *with)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->v = pskd_xreallocarray(m->v, m->cap, sizeof(*m->v));
	}
	m->v[m->n].off = off;
	m->v[m->n].len = len;
	m->v[m->n].with = with;
	m->n++;
}

static int
isalnum_ascii(unsigned char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static int
isdigit_ascii(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* The atext characters of the local part. */
static int
islocal(unsigned char c)
{
	return isalnum_ascii(c) || (c != 0 && strchr("!#$%&'*+/=?^_`{|}~-", c));
}

/* Is the code point ending just before t[i] a word character? */
static int
word_before(const unsigned char *t, size_t i)
{
	size_t k;
	uint32_t c;

	if (i == 0)
		return 0;
	if (t[i - 1] < 0x80)
		return q_isword(t[i - 1]);
	for (k = i - 1; k > 0 && (t[k] & 0xc0) == 0x80; k--)
		;
	q_cp(t + k, i - k, &c);
	return q_isword(c);
}

/* Where a run of [A-Za-z0-9-] from i ends. */
static size_t
label_run(const unsigned char *t, size_t n, size_t i)
{
	while (i < n && (isalnum_ascii(t[i]) || t[i] == '-'))
		i++;
	return i;
}

/*
 * An octet of the pattern before a '.' or ']' (end): digits t[i..j) with
 * j - i from 1 to 3 and a value of at most 255.
 */
static int
octet(const unsigned char *t, size_t i, size_t j)
{
	unsigned v = 0;
	size_t k;

	if (j <= i || j - i > 3)
		return 0;
	for (k = i; k < j; k++) {
		if (!isdigit_ascii(t[k]))
			return 0;
		v = v * 10 + (unsigned)(t[k] - '0');
	}
	return v <= 255;
}

/* The end of an email's domain from d, or 0 if none matches there. */
static size_t
domain(const unsigned char *t, size_t n, size_t d)
{
	size_t pos = d, r, groups = 0, last = 0, k, j;

	for (;;) {
		r = label_run(t, n, pos);
		if (r > pos && isalnum_ascii(t[pos]) &&
		    isalnum_ascii(t[r - 1]) && r < n && t[r] == '.') {
			groups++;
			last = r;
			pos = r + 1;
			continue;
		}
		break;
	}
	if (groups >= 1 && pos < n && isalnum_ascii(t[pos])) {
		while (!isalnum_ascii(t[r - 1]))
			r--;
		return r;
	}
	if (groups >= 2)
		return last;
	/* "[" octet "." octet "." octet "." (octet | tag ":") "]" */
	if (groups > 0 || d >= n || t[d] != '[')
		return 0;
	pos = d + 1;
	for (k = 0; k < 3; k++) {
		for (j = pos; j < n && isdigit_ascii(t[j]); j++)
			;
		if (j >= n || t[j] != '.' || !octet(t, pos, j))
			return 0;
		pos = j + 1;
	}
	for (j = pos; j < n && t[j] != ']'; j++)
		;
	if (j >= n)
		return 0;
	if (octet(t, pos, j))
		return j + 1;
	if (j - pos >= 2 && t[j - 1] == ':' && isalnum_ascii(t[j - 2])) {
		for (k = pos; k < j - 1; k++)
			if (!isalnum_ascii(t[k]) && t[k] != '-')
				return 0;
		return j + 1;
	}
	return 0;
}

void
q_pii_emails(const unsigned char *t, size_t n, const struct q_settings *s,
    size_t *cycle, struct q_matches *out)
{
	const unsigned char *at;
	size_t from = 0, m, r, lo, i, end;
	const struct q_words *rep = &s->email_replacement;

	out->n = 0;
	while (from < n && (at = memchr(t + from, '@', n - from)) != NULL) {
		m = (size_t)(at - t);
		/* the local part's run before '@', and past its last ".." */
		for (r = m; r > from && (islocal(t[r - 1]) || t[r - 1] == '.'); r--)
			;
		for (lo = r, i = r; i + 1 < m; i++)
			if (t[i] == '.' && t[i + 1] == '.')
				lo = i + 2;
		from = m + 1;
		if (m == lo || t[m - 1] == '.')
			continue;
		for (i = lo; i < m; i++)
			if (t[i] != '.' && q_isword(t[i]) != word_before(t, i))
				break;
		if (i == m || (end = domain(t, n, m + 1)) == 0)
			continue;
		add(out, i, end - i, rep->v[*cycle % rep->n]);
		(*cycle)++;
		from = end;
	}
}

/* The length of the last octet at t[i..n), as the alternation takes it. */
static size_t
last_octet(const unsigned char *t, size_t n, size_t i)
{
	size_t r = 0;

	while (r < 3 && i + r < n && isdigit_ascii(t[i + r]))
		r++;
	if (r == 0)
		return 0;
	if (r == 3 && t[i] == '2' && octet(t, i, i + 3))
		return 3;		/* 25[0-5] | 2[0-4][0-9] */
	if (t[i] == '0' || t[i] == '1')
		return r;		/* [01][0-9][0-9]? or [0-9] */
	return r >= 2 ? 2 : 1;		/* [0-9][0-9]? */
}

/* Python's ip_address(x).is_global, for a.b.c.d as one number. */
int
q_ipv4_global(uint32_t a)
{
	/* not globally reachable (ipaddress's _private_networks) */
	static const struct { uint32_t net; int bits; } priv[] = {
		{ 0x00000000, 8 }, { 0x0a000000, 8 }, { 0x7f000000, 8 },
		{ 0xa9fe0000, 16 }, { 0xac100000, 12 }, { 0xc0000000, 24 },
		{ 0xc00000aa, 31 }, { 0xc0000200, 24 }, { 0xc0a80000, 16 },
		{ 0xc6120000, 15 }, { 0xc6336400, 24 }, { 0xcb007100, 24 },
		{ 0xf0000000, 4 }, { 0xffffffff, 32 },
	};
	size_t k;

	if ((a & 0xffc00000) == 0x64400000)	/* 100.64.0.0/10: shared */
		return 0;
	if (a == 0xc0000009 || a == 0xc000000a)	/* 192.0.0.9, .10: global */
		return 1;
	for (k = 0; k < sizeof(priv) / sizeof(priv[0]); k++)
		if ((a & (uint32_t)(0xffffffffull << (32 - priv[k].bits))) ==
		    priv[k].net)
			return 0;
	return 1;
}

void
q_pii_ips(const unsigned char *t, size_t n, const struct q_settings *s,
    size_t *cycle, struct q_matches *out)
{
	const struct q_words *rep = &s->ip_replacement;
	size_t i, pos, j, k, len, start[4], end;
	uint32_t a;
	int zero, ok;

	out->n = 0;
	for (i = 0; i + 7 <= n; i++) {
		if (!isdigit_ascii(t[i]))
			continue;
		pos = i;
		for (k = 0; k < 3; k++) {
			for (j = pos; j < n && j < pos + 4 && isdigit_ascii(t[j]);
			    j++)
				;
			if (j >= n || t[j] != '.' || !octet(t, pos, j))
				break;
			start[k] = pos;
			pos = j + 1;
		}
		if (k < 3 || (len = last_octet(t, n, pos)) == 0)
			continue;
		start[3] = pos;
		end = pos + len;
		/* ipaddress refuses leading zeros: such a match stays */
		a = 0;
		zero = 0;
		for (k = 0; k < 4; k++) {
			size_t e = k < 3 ? start[k + 1] - 1 : end;
			unsigned v = 0;

			zero |= e - start[k] > 1 && t[start[k]] == '0';
			for (j = start[k]; j < e; j++)
				v = v * 10 + (unsigned)(t[j] - '0');
			a = a << 8 | v;
		}
		ok = !zero && (!s->only_remove_public_ips || q_ipv4_global(a));
		add(out, i, end - i, ok ? rep->v[*cycle % rep->n] : NULL);
		if (ok)
			(*cycle)++;
		i = end - 1;
	}
}
