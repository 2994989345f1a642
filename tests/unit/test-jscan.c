/*
 * test-jscan.c - pskd_jscan_pass, the walk of a tokenizer.json past its
 * vocab and merges by their brackets alone, ends where pskd_jscan_skip
 * (the full walk, an independent reader of the same grammar) does, at
 * every PSKD_SIMD level the machine has: on random values whose strings
 * hold brackets, quotes and backslash escapes at every offset of its
 * 64-byte steps, runs of backslashes across a step's end, and on values
 * cut short (no close: skip's error, at skip's place); and the blanks
 * between values skipped as a byte loop skips them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "check.h"
#include "tok/hf-json.h"

static unsigned long seed = 7;

static unsigned
rnd(unsigned n)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(seed >> 33) % n;
}

/* A string of JSON: plain bytes, brackets, escapes, UTF-8. */
static void
gen_string(struct pskd_buf *b)
{
	static const char *const bits[] = { "a", "\xc4\xa0", "{", "}", "[",
	    "]", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00", ",",
	    ":", " ", "\\n", "\\\\\\\"", "\xc3\xa9", "x y" };
	unsigned n = rnd(4) == 0 ? rnd(90) : rnd(8), i, w;

	pskd_buf_addc(b, '"');
	for (i = 0; i < n; i++) {
		w = rnd(sizeof(bits) / sizeof(bits[0]));
		pskd_buf_add(b, bits[w], strlen(bits[w]));
	}
	pskd_buf_addc(b, '"');
}

static void
gen(struct pskd_buf *b, int depth)
{
	unsigned k = depth > 5 ? 2 + rnd(3) : rnd(5), n, i;
	char num[32];

	switch (k) {
	case 0:
	case 1:
		pskd_buf_addc(b, k == 0 ? '{' : '[');
		n = rnd(depth == 0 ? 40 : 6);
		for (i = 0; i < n; i++) {
			if (i > 0 && rnd(2))
				pskd_buf_add(b, ", ", 2);
			else if (i > 0)
				pskd_buf_add(b, ",\n  ", 4);
			if (k == 0) {
				gen_string(b);
				pskd_buf_add(b, ": ", 2);
			}
			gen(b, depth + 1);
		}
		pskd_buf_addc(b, k == 0 ? '}' : ']');
		break;
	case 2:
		gen_string(b);
		break;
	case 3:
		snprintf(num, sizeof(num), "%d", (int)rnd(200000) - 1000);
		pskd_buf_add(b, num, strlen(num));
		break;
	default:
		pskd_buf_add(b, rnd(2) ? "true" : "null", 4);
	}
}

/* Where skip and pass end on text (1 if they agree), at level simd. */
static int
same(const unsigned char *text, size_t n, int simd, int *ok)
{
	struct pskd_jscan a, b;
	int ra, rb;

	pskd_jscan_init(&a, text, n);
	pskd_jscan_init(&b, text, n);
	b.simd = simd;
	ra = pskd_jscan_skip(&a);
	rb = pskd_jscan_pass(&b);
	*ok = ra;
	if (ra)
		return rb == 1 && a.p == b.p;
	/* No close: skip's error where skip found it. */
	return rb == 0 && b.err != NULL && a.errat == b.errat &&
	    strcmp(a.err, b.err) == 0;
}

int
main(void)
{
	struct pskd_buf b = { 0 }, t = { 0 };
	int levels[3] = { PSKD_SIMD_PORTABLE, PSKD_SIMD_SSE2,
	    PSKD_SIMD_AVX2 }, nl, l, ok;
	int bad, cut, good;
	size_t i, k, at;
	char what[128];

	nl = pskd_simd_cpu() >= PSKD_SIMD_AVX2 ? 3 :
	    pskd_simd_cpu() >= PSKD_SIMD_SSE2 ? 2 : 1;
	for (l = 0; l < nl; l++) {
		seed = 7;
		bad = good = 0;
		for (i = 0; i < 3000; i++) {
			b.len = 0;
			/* Padding, so the value starts at every offset. */
			for (k = rnd(64); k > 0; k--)
				pskd_buf_addc(&b, ' ');
			gen(&b, 0);
			pskd_buf_add(&b, ", \"after\": [1]}", 15);
			if (!same(b.p, b.len, levels[l], &ok))
				bad++;
			good += ok;
		}
		snprintf(what, sizeof(what), "%s: pass ends where skip does "
		    "on 3000 random values (%d of them JSON)",
		    pskd_simd_name(levels[l]), good);
		check(bad == 0 && good > 2500, "%s", what);

		/* A run of k backslashes ending at every byte of a step. */
		bad = 0;
		for (at = 50; at < 140; at++)
			for (k = 1; k <= 6; k++) {
				b.len = 0;
				pskd_buf_add(&b, "[\"", 2);
				while (b.len + k < at)
					pskd_buf_addc(&b, 'x');
				for (i = 0; i < k; i++)
					pskd_buf_addc(&b, '\\');
				/* Odd: the quote is escaped, then one more. */
				pskd_buf_add(&b, k % 2 ? "\"]\"]" : "\"]",
				    k % 2 ? 4 : 2);
				pskd_buf_add(&b, "], 1", 4);
				if (!same(b.p, b.len, levels[l], &ok) || !ok)
					bad++;
			}
		check(bad == 0, "%s: backslash runs across a 64-byte step",
		    pskd_simd_name(levels[l]));

		/* Cut short anywhere: no close, skip's error. */
		seed = 11;
		bad = cut = 0;
		for (i = 0; i < 300; i++) {
			t.len = 0;
			pskd_buf_addc(&t, '[');
			gen(&t, 1);
			pskd_buf_addc(&t, ',');
			gen(&t, 1);
			pskd_buf_addc(&t, ']');
			k = 1 + rnd((unsigned)t.len - 1);
			if (!same(t.p, k, levels[l], &ok))
				bad++;
			cut += !ok;
		}
		check(bad == 0 && cut == 300, "%s: values cut short fail "
		    "with skip's error (%d)", pskd_simd_name(levels[l]), cut);
	}
	/*
	 * A string's UTF-8 at the edges of the two- and three-byte forms:
	 * each is taken or refused as pskd_utf8_check takes or refuses it.
	 */
	{
		static const char *const seq[] = { "\xc2\x80", "\xc1\xbf",
		    "\xdf\xbf", "\xe0\xa0\x80", "\xe0\x9f\xbf",
		    "\xe1\x80\x80", "\xec\xbf\xbf", "\xed\x9f\xbf",
		    "\xed\xa0\x80", "\xee\x80\x80", "\xef\xbf\xbf",
		    "\xe2\x96", "\xe2\x41\x81", "\xf0\x9f\x98\x80",
		    "\xf4\x90\x80\x80" };
		struct pskd_jscan j;
		const unsigned char *sp;
		size_t sn, m;
		int want, got;

		bad = 0;
		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
			for (k = 0; k < 12; k++) {
				b.len = 0;
				pskd_buf_addc(&b, '"');
				for (m = 0; m < k; m++)
					pskd_buf_addc(&b, 'a');
				pskd_buf_add(&b, seq[i], strlen(seq[i]));
				pskd_buf_add(&b, "z\"", 2);
				want = pskd_utf8_check(b.p + 1, b.len - 2) ==
				    b.len - 2;
				pskd_jscan_init(&j, b.p, b.len);
				got = pskd_jscan_str(&j, &sp, &sn, &t);
				bad += want != got;
			}
		check(bad == 0, "jscan: a string's UTF-8 is refused where "
		    "pskd_utf8_check refuses it");
	}
	/*
	 * A string's run of plain bytes, 16 a step with SSE2 and 8 without:
	 * random mixes of ASCII, characters of two, three and four bytes,
	 * bytes that begin or continue none, and controls, at every offset
	 * of a step, cut at the end or not, anything after the close:
	 * taken, and as far, exactly when the bytes before the first '"'
	 * or control are UTF-8 by pskd_utf8_check (a control is an error).
	 */
	{
		static const char *const bits[] = { "a", "Z", "~", " ",
		    "\xc3\xa9", "\xc4\xa0", "\xdf\xbf", "\xe2\x96\x81",
		    "\xe4\xb8\xad", "\xed\x9f\xbf", "\xf0\x9f\x98\x80",
		    "\x80", "\xc1\xbf", "\xed\xa0\x80", "\xe2\x96", "\x01",
		    "\xf5\x80\x80\x80", "\xe0\x9f\xbf", "\x1f" };
		struct pskd_jscan j;
		const unsigned char *sp, *q;
		size_t sn, n, want_n;
		int want, got, taken = 0;

		for (l = 0; l < nl; l++) {
			seed = 17;
			bad = 0;
			for (i = 0; i < 20000; i++) {
				b.len = 0;
				pskd_buf_addc(&b, '"');
				n = rnd(40);
				for (k = 0; k < n; k++) {
					/* Mostly well-formed. */
					at = rnd(8) ? rnd(11) : rnd(19);
					pskd_buf_add(&b, bits[at],
					    strlen(bits[at]));
				}
				/* After the close, anything. */
				if (rnd(5)) {
					pskd_buf_addc(&b, '"');
					for (k = rnd(20); k > 0; k--) {
						at = rnd(19);
						pskd_buf_add(&b, bits[at],
						    strlen(bits[at]));
					}
				}
				for (q = b.p + 1; q < b.p + b.len &&
				    *q != '"' && *q >= 0x20; q++)
					;
				want_n = (size_t)(q - b.p - 1);
				want = q < b.p + b.len && *q == '"' &&
				    pskd_utf8_check(b.p + 1, want_n) == want_n;
				pskd_jscan_init(&j, b.p, b.len);
				j.simd = levels[l];
				got = pskd_jscan_str(&j, &sp, &sn, &t);
				bad += got != want || (got && sn != want_n);
				taken += got;
			}
			check(bad == 0 && taken > 4000, "%s: a string's run "
			    "ends, and is refused, where pskd_utf8_check says "
			    "(%d taken)", pskd_simd_name(levels[l]), taken);
			taken = 0;
		}
	}
	/*
	 * pskd_jscan_int, its short way (digits only) and the general one
	 * (a sign, 19 digits, a fraction or exponent): values, where it
	 * stops, and what it refuses, by hand.
	 */
	{
		static const struct {
			const char *text;
			int64_t max, want;
			int ok, at;
		} nums[] = {
			{ "0,", 1000, 0, 1, 1 },
			{ "7,", 1000, 7, 1, 1 },
			{ "262143,", 1 << 20, 262143, 1, 6 },
			{ "0123,", 1000, 0, 1, 1 },	/* the walk refuses 1 */
			{ "00", 1000, 0, 1, 1 },
			{ "-5,", 1000, -5, 1, 2 },
			{ "5", 1000, 5, 1, 1 },		/* at the end */
			{ "1.5,", 1000, 0, 0, 0 },
			{ "1e3,", 1000, 0, 0, 0 },
			{ "12E1,", 1000, 0, 0, 0 },
			{ "101,", 100, 0, 0, 0 },
			{ "123456789012345678,", INT64_MAX,
			    123456789012345678LL, 1, 18 },
			{ "1234567890123456789]", INT64_MAX,
			    1234567890123456789LL, 1, 19 },
			{ "9223372036854775808,", INT64_MAX, 0, 0, 0 },
			{ "-,", 1000, 0, 0, 0 },
		};
		struct pskd_jscan j;
		int64_t v;
		int got;

		bad = 0;
		for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
			pskd_jscan_init(&j, (const unsigned char *)nums[i].text,
			    strlen(nums[i].text));
			v = 0;
			got = pskd_jscan_int(&j, -1000, nums[i].max, &v);
			if (got != nums[i].ok || (got && (v != nums[i].want ||
			    j.p - j.start != nums[i].at))) {
				fprintf(stderr, "# %s: %d %lld\n", nums[i].text,
				    got, (long long)v);
				bad++;
			}
		}
		check(bad == 0, "jscan: whole numbers read, stopped at and "
		    "refused by hand");
	}
	/*
	 * pskd_json_blanks, eight bytes a step through spaces, ends where
	 * a byte loop does: random runs of the four blanks (mostly spaces,
	 * as indents are) before a byte that is none or before the end, at
	 * every length to 40.
	 */
	{
		static const char bl[] = "    \n\r\t ";
		const unsigned char *e, *want;
		size_t n;

		seed = 13;
		bad = 0;
		for (i = 0; i < 4000; i++) {
			b.len = 0;
			n = rnd(41);
			for (k = 0; k < n; k++)
				pskd_buf_addc(&b, (unsigned char)bl[rnd(8)]);
			if (rnd(4) != 0)
				pskd_buf_addc(&b, "\"[1x"[rnd(4)]);
			e = b.p + b.len;
			for (want = b.p; want < e && (*want == ' ' ||
			    *want == '\n' || *want == '\r' || *want == '\t');
			    want++)
				;
			bad += pskd_json_blanks(b.p, e) != want;
		}
		check(bad == 0, "jscan: blanks end where a byte loop does");
	}
	pskd_buf_free(&b);
	pskd_buf_free(&t);
	return check_status();
}
