/*
 * pskd-shingle - documents (JSON Lines, or plain lines) to shingle frames:
 * the set of XXH3-64 hashes of the word (or character) n-grams of each
 * document's normalised text, with the document's id and original line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "pskd.h"
#include "dedup/frame.h"
#include "dedup/normalize.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

static const char usage_text[] =
    "pskd-shingle [-ls] [-c N | -w N] [-f field] [-n steps] [file ...]";

#define SHINGLE_SEED	0	/* the XXH3-64 seed, in every header */

static struct {
	int		 plain;		/* -l */
	int		 skip;		/* -s */
	const char	*field;		/* -f */
	uint32_t	 unit;
	uint32_t	 n;
	unsigned	 norm;
} opt = { 0, 0, "text", PSKD_UNIT_WORDS, 5, PSKD_NORM_ALL };

static struct pskd_writer out;
static struct pskd_frame_relay relay;	/* lines go out from the reader's buffer */
static struct pskd_norm nm;
static struct pskd_buf idbuf, ntext, seps;
static const unsigned char *textp;
static size_t textlen;
static size_t *pos;		/* word or code point boundaries */
static size_t poscap;
static uint64_t *hv;
static size_t hvcap;
static uint64_t *spans;		/* n-grams (start << 32 | length) by class */
static size_t spanscap;
static uint64_t nskipped;
static char firstbad[512];

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -c, --char-ngrams N    character n-grams of N code points\n"
	    "  -f, --field NAME       the text field (default text)\n"
	    "  -l, --lines            plain text, one document a line\n"
	    "  -n, --normalize STEPS  case,punct,digits,space,marks, all or "
	    "none\n"
	    "  -s, --skip-bad         skip bad lines, count them, exit 1\n"
	    "  -w, --shingle-width N  word n-grams of N words (default 5)\n"
	    "      --help             this text\n"
	    "      --version          the version\n");
	exit(0);
}

static uint32_t
parse_n(const char *s, const char *name)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v == 0 ||
	    v > 1024) {
		pskd_warnx("%s: '%s' is not a number from 1 to 1024", name, s);
		pskd_usage_error(usage_text);
	}
	return (uint32_t)v;
}

static unsigned
parse_steps(const char *s)
{
	static const struct { const char *name; unsigned bit; } steps[] = {
		{ "case", PSKD_NORM_CASE }, { "punct", PSKD_NORM_PUNCT },
		{ "digits", PSKD_NORM_DIGITS }, { "space", PSKD_NORM_SPACE },
		{ "marks", PSKD_NORM_MARKS }, { "all", PSKD_NORM_ALL },
		{ "none", 0 }
	};
	unsigned bits = 0;
	size_t i, len;

	for (;;) {
		len = strcspn(s, ",");
		for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
			if (strlen(steps[i].name) == len &&
			    strncmp(steps[i].name, s, len) == 0)
				break;
		if (i == sizeof(steps) / sizeof(steps[0])) {
			pskd_warnx("-n: unknown step '%.*s'", (int)len, s);
			pskd_usage_error(usage_text);
		}
		bits |= steps[i].bit;
		if (s[len] == '\0')
			return bits;
		s += len + 1;
	}
}

static void
sort_u64(uint64_t *a, size_t n)
{
	uint64_t p, t;
	size_t i, j;

	while (n > 16) {
		/* Median of three, then Hoare partition; recurse on the smaller. */
		uint64_t x = a[0], y = a[n / 2], z = a[n - 1];

		p = x < y ? (y < z ? y : (x < z ? z : x)) :
		    (x < z ? x : (y < z ? z : y));
		i = 0;
		j = n - 1;
		for (;;) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i >= j)
				break;
			t = a[i], a[i] = a[j], a[j] = t;
			i++, j--;
		}
		if (j + 1 < n - j - 1) {
			sort_u64(a, j + 1);
			a += j + 1, n -= j + 1;
		} else {
			sort_u64(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		t = a[i];
		for (j = i; j > 0 && a[j - 1] > t; j--)
			a[j] = a[j - 1];
		a[j] = t;
	}
}

static inline uint64_t
at(const unsigned char *d, size_t i)
{
	return pskd_get_le64(d + 8 * i);
}

static inline void
put(unsigned char *d, size_t i, uint64_t v)
{
	pskd_put_le64(d + 8 * i, v);
}

/*
 * The distinct values of the sorted a[0..n) to d, little-endian; returns
 * how many.
 */
static size_t
unique(const uint64_t *a, size_t n, unsigned char *d)
{
	size_t i, j;
	uint64_t last;

	if (n == 0)
		return 0;
	put(d, 0, last = a[0]);
	for (i = 1, j = 1; i < n; i++)
		if (a[i] != last)
			put(d, j++, last = a[i]);
	return j;
}

/*
 * Sort the hashes a[0..n) and write the distinct ones to d, ascending,
 * little-endian (the values of the frame, in the writer's buffer); returns
 * how many.  cnt[0] and cnt[1] count bits 48..55 and 56..63 of the hashes
 * (the hashing loop keeps them).  Hashes are uniform: two counting passes
 * on those 16 bits, lower byte first, leave only the few pairs that share
 * them out of order, and the last pass, to d, puts each such hash in its
 * place as it drops repeats.  That beats one pass on more bits, whose
 * counts must be cleared and summed for every document, and which leaves
 * more neighbours out of order, each a mispredicted branch.  A skewed
 * input (the fix-ups moving more than 8n hashes) goes to the quicksort.
 */
static size_t
sort_unique(uint64_t *a, size_t n, uint32_t cnt[2][256], unsigned char *d)
{
	static uint64_t *tmp;
	static size_t cap;
	uint32_t s0, s1, x;
	size_t i, j, k, moves;
	uint64_t t, last;

	if (n < 64) {
		sort_u64(a, n);
		return unique(a, n, d);
	}
	if (n > cap) {
		cap = n + n / 2;
		tmp = pskd_xreallocarray(tmp, cap, sizeof(*tmp));
	}
	for (i = 0, s0 = s1 = 0; i < 256; i++) {
		x = cnt[0][i], cnt[0][i] = s0, s0 += x;
		x = cnt[1][i], cnt[1][i] = s1, s1 += x;
	}
	for (i = 0; i < n; i++)
		tmp[cnt[0][a[i] >> 48 & 255]++] = a[i];
	for (i = 0; i < n; i++)
		a[cnt[1][tmp[i] >> 56]++] = tmp[i];
	put(d, 0, last = a[0]);
	for (i = 1, j = 1, moves = 0; i < n; i++) {
		t = a[i];
		if (t > last) {
			put(d, j++, last = t);
			continue;
		}
		if (t == last)
			continue;
		/* Its place among the j sorted ones, unless it is there. */
		for (k = j - 1; k > 0 && at(d, k - 1) > t; k--)
			;
		if (k > 0 && at(d, k - 1) == t)
			continue;
		moves += j - k;
		if (moves > 8 * n) {
			/* a[0..i) is spent: the j sorted ones go back there. */
			for (k = 0; k < j; k++)
				a[k] = at(d, k);
			memmove(a + j, a + i, (n - i) * sizeof(*a));
			sort_u64(a, j + n - i);
			return unique(a, j + n - i, d);
		}
		memmove(d + 8 * (k + 1), d + 8 * k, 8 * (j - k));
		put(d, k, t);
		j++;
	}
	return j;
}

#ifdef __SIZEOF_INT128__
/*
 * XXH3-64 with the seed 0, as XXH3_64bits_withSeed() computes it, for the
 * 17..32- and 33..64-byte n-grams that most word 5-grams are: the same
 * arithmetic as the library's 17..128-byte path, with the first 64 bytes
 * of its default secret as constants, and without its length branches,
 * which mispredict on n-grams of random length.  tests/t/shingle-hash
 * checks every length against the xxhash module.
 */
static const uint64_t ksecret[8] = {
	0xbe4ba423396cfeb8ULL, 0x1cad21f72c81017cULL, 0xdb979083e96dd4deULL,
	0x1f67b3b7a4a44072ULL, 0x78e5c0cc4ee679cbULL, 0x2172ffcc7dd05a82ULL,
	0x8e2443f7744608b8ULL, 0x4c263a81e69035e0ULL
};
#define PRIME64_1	0x9E3779B185EBCA87ULL

static inline uint64_t
mix16(const unsigned char *p, unsigned k)
{
	__uint128_t m = (__uint128_t)(pskd_get_le64(p) ^ ksecret[k]) *
	    (pskd_get_le64(p + 8) ^ ksecret[k + 1]);

	return (uint64_t)m ^ (uint64_t)(m >> 64);
}

static inline uint64_t
avalanche(uint64_t h)
{
	h ^= h >> 37;
	h *= 0x165667919E3779F9ULL;
	return h ^ h >> 32;
}

static inline uint64_t
hash17to32(const unsigned char *p, size_t len)
{
	return avalanche(len * PRIME64_1 + mix16(p, 0) +
	    mix16(p + len - 16, 2));
}

static inline uint64_t
hash33to64(const unsigned char *p, size_t len)
{
	return avalanche(len * PRIME64_1 + mix16(p, 0) +
	    mix16(p + len - 16, 2) + mix16(p + 16, 4) + mix16(p + len - 32, 6));
}
#define HASH_17TO32	1
#define HASH_33TO64	1
#else
/* Without 128-bit products, the library for all lengths. */
#define HASH_17TO32	0
#define HASH_33TO64	0
#define hash17to32(p, len)	XXH3_64bits_withSeed((p), (len), SHINGLE_SEED)
#define hash33to64(p, len)	XXH3_64bits_withSeed((p), (len), SHINGLE_SEED)
#endif

#if defined(__x86_64__) && defined(__GNUC__) && HASH_17TO32
#define HAVE_DEAL512	1
static int avx512;		/* deal512() may run */

/*
 * The dealing loop of shingles() for word n-grams, eight at a time: the
 * n-grams' starts and lengths from two loads of the separators, and each
 * class's share packed to the front of a vector (a compress) and stored
 * whole; the stores past a class's count fall in its own room, which is
 * nh long, and are overwritten or never read.  Returns how many n-grams
 * it dealt, a multiple of 8; *n1 and *n2 count the second and third class.
 */
__attribute__((target("avx512f,avx512vl,popcnt"))) static size_t
deal512(const uint32_t *sv, size_t nh, size_t w, uint64_t *c0, uint64_t *c1,
    uint64_t *c2, size_t *n1, size_t *n2)
{
	const __m256i one = _mm256_set1_epi32(1);
	const __m256i m17 = _mm256_set1_epi32(17), m33 = _mm256_set1_epi32(33);
	const __m256i k16 = _mm256_set1_epi32(16), k32 = _mm256_set1_epi32(32);
	__m256i a, len;
	__m512i x;
	__mmask8 s1, s2, s0;
	size_t i, j0 = 0, j1 = 0, j2 = 0;

	for (i = 0; i + 8 <= nh; i += 8) {
		a = _mm256_add_epi32(_mm256_loadu_si256((const void *)
		    (sv + i - 1)), one);
		len = _mm256_sub_epi32(_mm256_loadu_si256((const void *)
		    (sv + i + w - 1)), a);
		x = _mm512_or_si512(_mm512_slli_epi64(_mm512_cvtepu32_epi64(a),
		    32), _mm512_cvtepu32_epi64(len));
		s1 = _mm256_cmplt_epu32_mask(_mm256_sub_epi32(len, m17), k16);
		s2 = _mm256_cmplt_epu32_mask(_mm256_sub_epi32(len, m33), k32);
		s0 = (__mmask8)~(s1 | s2);
		_mm512_storeu_si512(c0 + j0, _mm512_maskz_compress_epi64(s0, x));
		_mm512_storeu_si512(c1 + j1, _mm512_maskz_compress_epi64(s1, x));
		_mm512_storeu_si512(c2 + j2, _mm512_maskz_compress_epi64(s2, x));
		j0 += (size_t)__builtin_popcount(s0);
		j1 += (size_t)__builtin_popcount(s1);
		j2 += (size_t)__builtin_popcount(s2);
	}
	*n1 = j1;
	*n2 = j2;
	return i;
}
#endif

static void
need_pos(size_t n)
{
	if (n > poscap) {
		poscap = n + n / 2 + 64;
		pos = pskd_xreallocarray(pos, poscap, sizeof(*pos));
	}
}

static void
need_spans(size_t n)
{
	if (n > spanscap) {
		spanscap = n + n / 2;
		spans = pskd_xreallocarray(spans, spanscap, sizeof(*spans));
	}
}

static void
need_hv(size_t n)
{
	if (n > hvcap) {
		hvcap = n + n / 2;
		hv = pskd_xreallocarray(hv, hvcap, sizeof(*hv));
	}
}

/* Keep a hash, counting its top two bytes for the sort. */
#define KEEP(h) do {							\
	uint64_t h_ = (h);						\
									\
	hv[k++] = h_;							\
	cnt[0][h_ >> 48 & 255]++;					\
	cnt[1][h_ >> 56]++;						\
} while (0)

/*
 * Hash the n-grams of the normalised text s[0..len) into hv, counting the
 * top bytes of the hashes into cnt for sort_unique(); returns how many.
 * For words, seps holds the offsets of the spaces between them between
 * two sentinels, -1 and len: word k starts one past sv[k - 1] and ends at
 * sv[k], and n-grams are hashed straight from them.  The n-grams,
 * as start << 32 | length, are first dealt into three length classes (a
 * store into each, the right count moving; no branch), so that each class
 * is hashed by a loop without length branches.  The top bytes are
 * counted while the hash waits on its multiplies.
 */
static size_t
shingles(const unsigned char *s, size_t len, uint32_t cnt[2][256])
{
	const uint32_t *sv = (const uint32_t *)(void *)seps.p + 1;
	size_t nb = 0, i, nh, w = opt.n, a, b, k, n1 = 0, n2 = 0;
	int words = opt.unit == PSKD_UNIT_WORDS;
	int huge = !words && len > UINT32_MAX;
	uint64_t *c0, *c1, *c2, x;

	if (len == 0)
		return 0;
	if (words)
		nb = seps.len / 4 - 1;
	else {
		need_pos(len + 2);
		/*
		 * The start of every code point and one past the last: the
		 * normalised text is well-formed UTF-8 (it is written by
		 * pskd_norm_text()), so every byte but a continuation byte
		 * starts one.
		 */
		for (i = 0; i < len; i++) {
			pos[nb] = i;
			nb += (s[i] & 0xc0) != 0x80;
		}
		pos[nb] = len;
	}
	nh = nb >= w ? nb - w + 1 : 1;
	need_hv(nh);
	if (nb < w)
		w = nb;
	/*
	 * The classes hold starts in 32 bits; -c keeps size_t offsets, and
	 * hashes the n-grams of a text longer than that in order (huge).
	 */
	c0 = c1 = c2 = NULL;
	if (!huge) {
		need_spans(3 * nh);
		c0 = spans, c1 = spans + nh, c2 = spans + 2 * nh;
	}
	i = 0;
#ifdef HAVE_DEAL512
	if (words && avx512)
		i = deal512(sv, nh, w, c0, c1, c2, &n1, &n2);
#endif
	for (; i < nh && !huge; i++) {
		if (words)
			a = (uint32_t)(sv[i - 1] + 1), b = sv[i + w - 1];
		else
			a = pos[i], b = pos[i + w];
		x = (uint64_t)a << 32 | (b - a);
		c0[i - n1 - n2] = x;
		c1[n1] = x;
		c2[n2] = x;
		n1 += HASH_17TO32 && b - a - 17 < 16;
		n2 += HASH_33TO64 && b - a - 33 < 32;
	}
	memset(cnt, 0, 2 * 256 * sizeof(cnt[0][0]));
	k = 0;
	for (i = 0; i < nh - n1 - n2; i++) {
		a = huge ? pos[i] : c0[i] >> 32;
		b = huge ? pos[i + w] : a + (uint32_t)c0[i];
		KEEP(XXH3_64bits_withSeed(s + a, b - a, SHINGLE_SEED));
	}
	for (i = 0; i < n1; i++)
		KEEP(hash17to32(s + (c1[i] >> 32), (uint32_t)c1[i]));
	for (i = 0; i < n2; i++)
		KEEP(hash33to64(s + (c2[i] >> 32), (uint32_t)c2[i]));
	return nh;
}

static int
bad_line(const char *name, uint64_t lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Report a bad line: an error, or with -s a count. */
static int
bad_line(const char *name, uint64_t lineno, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!opt.skip)
		pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", name,
		    (unsigned long long)lineno, msg);
	if (nskipped++ == 0)
		snprintf(firstbad, sizeof(firstbad), "%s:%llu: %s", name,
		    (unsigned long long)lineno, msg);
	return -1;
}

/*
 * The text (textp, textlen) and id (idbuf) of one line; -1 for a bad line.
 * The JSON fields' buffers are kept from line to line.
 */
static int
document(const char *name, uint64_t lineno, const unsigned char *line,
    size_t len)
{
	static struct pskd_json_field f[2];
	char err[200];
	size_t off;

	idbuf.len = 0;
	if (opt.plain) {
		off = pskd_utf8_check(line, len);
		if (off != len)
			return bad_line(name, lineno, "invalid UTF-8 at byte "
			    "%zu", off);
		textp = line;
		textlen = len;
		goto noid;
	}
	f[0].name = opt.field;
	f[1].name = "id";
	if (pskd_json_fields(line, len, f, 2, err, sizeof(err), &off) == -1)
		return bad_line(name, lineno, "%s at byte %zu", err, off);
	if (f[0].kind != PSKD_JSON_STRING)
		return bad_line(name, lineno, f[0].kind == PSKD_JSON_MISSING ?
		    "no \"%s\" field" : "\"%s\" is not a string", opt.field);
	textp = f[0].value.p;
	textlen = f[0].value.len;
	if (f[1].kind == PSKD_JSON_STRING)
		pskd_buf_add(&idbuf, f[1].value.p, f[1].value.len);
	else if (f[1].kind == PSKD_JSON_NUMBER)
		pskd_buf_add(&idbuf, f[1].raw, f[1].rawlen);
	if (f[1].kind == PSKD_JSON_STRING || f[1].kind == PSKD_JSON_NUMBER) {
		if (idbuf.len > PSKD_FRAME_MAX_ID)
			return bad_line(name, lineno, "id longer than %u bytes",
			    PSKD_FRAME_MAX_ID);
		return 0;
	}
noid:
	pskd_buf_reserve(&idbuf, strlen(name) + 24);
	idbuf.len = (size_t)snprintf((char *)idbuf.p, idbuf.cap, "%s:%llu",
	    name, (unsigned long long)lineno);
	if (idbuf.len > PSKD_FRAME_MAX_ID)
		idbuf.len = PSKD_FRAME_MAX_ID;
	return 0;
}

static void
shingle_file(const char *path)
{
	struct pskd_reader r;
	const unsigned char *line;
	unsigned char *d;
	size_t len, nh;
	uint32_t minus1 = UINT32_MAX, end, cnt[2][256];
	int rc;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_frame_relay_watch(&relay, &r);
	while ((rc = pskd_reader_line(&r, &line, &len)) == 1) {
		if (document(r.name, r.lineno, line, len) == -1)
			continue;
		/* The spaces between words between the sentinels -1 and len. */
		ntext.len = 0;
		seps.len = 0;
		pskd_buf_add(&seps, &minus1, sizeof(minus1));
		pskd_norm_text(&nm, &ntext, textp, textlen,
		    opt.unit == PSKD_UNIT_WORDS, opt.unit == PSKD_UNIT_WORDS ?
		    &seps : NULL);
		end = (uint32_t)ntext.len;
		pskd_buf_add(&seps, &end, sizeof(end));
		nh = shingles(ntext.p, ntext.len, cnt);
		if (nh > UINT32_MAX)
			pskd_errx(PSKD_EXIT_DATA, "%s:%llu: too many shingles",
			    r.name, (unsigned long long)r.lineno);
		d = pskd_frame_relay_begin(&relay, idbuf.p, idbuf.len, line,
		    len, (uint32_t)nh);
		pskd_frame_relay_end(&relay, (uint32_t)sort_unique(hv, nh, cnt,
		    d));
		if (out.error)
			break;
	}
	pskd_frame_relay_flush(&relay);
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r.name);
	pskd_reader_close(&r);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "char-ngrams", required_argument, NULL, 'c' },
		{ "field", required_argument, NULL, 'f' },
		{ "lines", no_argument, NULL, 'l' },
		{ "normalize", required_argument, NULL, 'n' },
		{ "skip-bad", no_argument, NULL, 's' },
		{ "shingle-width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_frame_params fp;
	int c, cset = 0, wset = 0, i;

	pskd_setprogname(argv[0]);
	pskd_set_bufsize(PSKD_WORK_BUFSIZE);
	while ((c = getopt_long(argc, argv, "c:f:ln:sw:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.n = parse_n(optarg, "-c");
			opt.unit = PSKD_UNIT_CHARS;
			cset = 1;
			break;
		case 'f': opt.field = optarg; break;
		case 'l': opt.plain = 1; break;
		case 'n': opt.norm = parse_steps(optarg); break;
		case 's': opt.skip = 1; break;
		case 'w':
			opt.n = parse_n(optarg, "-w");
			wset = 1;
			break;
		case 'h': usage(); break;
		case 'V': puts("pskd-shingle " PSKD_VERSION); return 0;
		default: pskd_usage_error(usage_text);
		}
	}
	if (cset && wset) {
		pskd_warnx("-c and -w exclude each other");
		pskd_usage_error(usage_text);
	}
	argc -= optind;
	argv += optind;

	pskd_refuse_tty(1, "<stdout>");
	pskd_writer_init(&out, 1, "<stdout>");
	pskd_frame_relay_init(&relay, &out);
	pskd_pipe_grow(1);
	pskd_norm_init(&nm, opt.norm);
#ifdef HAVE_DEAL512
	avx512 = pskd_simd() && __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512vl");
#endif
	memset(&fp, 0, sizeof(fp));
	fp.kind = PSKD_FRAME_SHINGLES;
	fp.unit = opt.unit;
	fp.n = opt.n;
	fp.norm = opt.norm;
	fp.shingle_seed = SHINGLE_SEED;
	pskd_frame_write_header(&out, &fp);
	if (argc == 0)
		shingle_file(NULL);
	for (i = 0; i < argc && !out.error; i++)
		shingle_file(argv[i]);
	pskd_writer_finish(&out);
	if (nskipped > 0) {
		pskd_warnx("skipped %llu bad line%s (first: %s)",
		    (unsigned long long)nskipped, nskipped == 1 ? "" : "s",
		    firstbad);
		return PSKD_EXIT_DATA;
	}
	return 0;
}
