/* sniff.c - which format a file is in, from its first bytes. */
#include <string.h>

#include "unzst/unzst.h"

static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

/* Do the n bytes at p start like a skippable zstd frame (0x184D2A5?)? */
static int
skippable_start(const unsigned char *p, size_t n)
{
	static const unsigned char m[3] = { 0x2a, 0x4d, 0x18 };

	return (p[0] & 0xf0) == 0x50 && memcmp(p + 1, m, n - 1 < 3 ? n - 1 :
	    3) == 0;
}

static int
bzip2_start(const unsigned char *p, size_t n)
{
	return memcmp(p, "BZh", n < 3 ? n : 3) == 0 &&
	    (n < 4 || (p[3] >= '1' && p[3] <= '9'));
}

/*
 * p[0..n) are the first bytes of the file (n < 6 only when it is that
 * short).  A file too short for its magic number is that format
 * (reported as truncated by its decoder) unless force asks to copy it.
 */
enum unz_format
unz_sniff(const unsigned char *p, size_t n, int force)
{
	if (n == 0)
		return UNZ_EMPTY;
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return UNZ_GZIP;
	if (n >= 4 && (memcmp(p, zstd_magic, 4) == 0 || skippable_start(p, 4)))
		return UNZ_ZSTD;
	if (n >= 6 && memcmp(p, xz_magic, 6) == 0)
		return UNZ_XZ;
	if (n >= 4 && bzip2_start(p, 4))
		return UNZ_BZIP2;
	if (force || n >= 6)
		return UNZ_OTHER;
	if (n == 1 && p[0] == 0x1f)
		return UNZ_GZIP;
	if (n < 4 && (memcmp(p, zstd_magic, n) == 0 || skippable_start(p, n)))
		return UNZ_ZSTD;
	if (memcmp(p, xz_magic, n) == 0)
		return UNZ_XZ;
	if (n < 4 && bzip2_start(p, n))
		return UNZ_BZIP2;
	return UNZ_OTHER;
}

const char *
unz_format_name(enum unz_format f)
{
	switch (f) {
	case UNZ_ZSTD: return "zstd";
	case UNZ_GZIP: return "gzip";
	case UNZ_XZ: return "xz";
	case UNZ_BZIP2: return "bzip2";
	default: return "plain";
	}
}
