/*
 * charset.c - which charset a page is in: a byte order mark, else the
 * label of the HTTP Content-Type, else a meta tag near the start, else
 * valid UTF-8, else uchardet's guess, else windows-1252.  Labels are the
 * WHATWG Encoding Standard's (encoding.spec.whatwg.org, "Names and
 * labels"), so "latin1" and "ascii" mean windows-1252 and "gb2312" means
 * GBK, as in browsers; each charset names the iconv decoder of glibc
 * that reads it (a superset where WHATWG's decoder is one: CP932 for
 * Shift_JIS, GB18030 for GBK, CP949 for EUC-KR).
 */
#define _GNU_SOURCE		/* memmem */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <uchardet/uchardet.h>

#include "warc/warc.h"

#define META_SCAN	8192u		/* bytes searched for a meta tag */
#define DETECT_SCAN	(64u << 10)	/* bytes shown to uchardet */

static const struct charset charsets[] = {
	{ "utf-8", NULL },			/* 0 */
	{ "ibm866", "IBM866" },
	{ "iso-8859-2", "ISO-8859-2" },
	{ "iso-8859-3", "ISO-8859-3" },
	{ "iso-8859-4", "ISO-8859-4" },
	{ "iso-8859-5", "ISO-8859-5" },		/* 5 */
	{ "iso-8859-6", "ISO-8859-6" },
	{ "iso-8859-7", "ISO-8859-7" },
	{ "iso-8859-8", "ISO-8859-8" },
	{ "iso-8859-8-i", "ISO-8859-8" },
	{ "iso-8859-10", "ISO-8859-10" },	/* 10 */
	{ "iso-8859-13", "ISO-8859-13" },
	{ "iso-8859-14", "ISO-8859-14" },
	{ "iso-8859-15", "ISO-8859-15" },
	{ "iso-8859-16", "ISO-8859-16" },
	{ "koi8-r", "KOI8-R" },			/* 15 */
	{ "koi8-u", "KOI8-U" },
	{ "macintosh", "MACINTOSH" },
	{ "windows-874", "CP874" },
	{ "windows-1250", "CP1250" },
	{ "windows-1251", "CP1251" },		/* 20 */
	{ "windows-1252", "CP1252" },
	{ "windows-1253", "CP1253" },
	{ "windows-1254", "CP1254" },
	{ "windows-1255", "CP1255" },
	{ "windows-1256", "CP1256" },		/* 25 */
	{ "windows-1257", "CP1257" },
	{ "windows-1258", "CP1258" },
	{ "x-mac-cyrillic", "MAC-CYRILLIC" },
	{ "gbk", "GB18030" },
	{ "gb18030", "GB18030" },		/* 30 */
	{ "big5", "BIG5-HKSCS" },
	{ "euc-jp", "EUC-JP" },
	{ "iso-2022-jp", "ISO-2022-JP" },
	{ "shift_jis", "CP932" },
	{ "euc-kr", "CP949" },			/* 35 */
	{ "utf-16be", "UTF-16BE" },
	{ "utf-16le", "UTF-16LE" },
};

#define CS_UTF8		0
#define CS_1252		21
#define CS_UTF16BE	36
#define CS_UTF16LE	37

/* The labels, each with its charset's index above. */
static const struct label {
	const char	*label;
	int		 cs;
} labels[] = {
	{ "unicode-1-1-utf-8", 0 }, { "unicode11utf8", 0 },
	{ "unicode20utf8", 0 }, { "utf-8", 0 }, { "utf8", 0 },
	{ "x-unicode20utf8", 0 },
	{ "866", 1 }, { "cp866", 1 }, { "csibm866", 1 }, { "ibm866", 1 },
	{ "csisolatin2", 2 }, { "iso-8859-2", 2 }, { "iso-ir-101", 2 },
	{ "iso8859-2", 2 }, { "iso88592", 2 }, { "iso_8859-2", 2 },
	{ "iso_8859-2:1987", 2 }, { "l2", 2 }, { "latin2", 2 },
	{ "csisolatin3", 3 }, { "iso-8859-3", 3 }, { "iso-ir-109", 3 },
	{ "iso8859-3", 3 }, { "iso88593", 3 }, { "iso_8859-3", 3 },
	{ "iso_8859-3:1988", 3 }, { "l3", 3 }, { "latin3", 3 },
	{ "csisolatin4", 4 }, { "iso-8859-4", 4 }, { "iso-ir-110", 4 },
	{ "iso8859-4", 4 }, { "iso88594", 4 }, { "iso_8859-4", 4 },
	{ "iso_8859-4:1988", 4 }, { "l4", 4 }, { "latin4", 4 },
	{ "csisolatincyrillic", 5 }, { "cyrillic", 5 }, { "iso-8859-5", 5 },
	{ "iso-ir-144", 5 }, { "iso8859-5", 5 }, { "iso88595", 5 },
	{ "iso_8859-5", 5 }, { "iso_8859-5:1988", 5 },
	{ "arabic", 6 }, { "asmo-708", 6 }, { "csiso88596e", 6 },
	{ "csiso88596i", 6 }, { "csisolatinarabic", 6 }, { "ecma-114", 6 },
	{ "iso-8859-6", 6 }, { "iso-8859-6-e", 6 }, { "iso-8859-6-i", 6 },
	{ "iso-ir-127", 6 }, { "iso8859-6", 6 }, { "iso88596", 6 },
	{ "iso_8859-6", 6 }, { "iso_8859-6:1987", 6 },
	{ "csisolatingreek", 7 }, { "ecma-118", 7 }, { "elot_928", 7 },
	{ "greek", 7 }, { "greek8", 7 }, { "iso-8859-7", 7 },
	{ "iso-ir-126", 7 }, { "iso8859-7", 7 }, { "iso88597", 7 },
	{ "iso_8859-7", 7 }, { "iso_8859-7:1987", 7 }, { "sun_eu_greek", 7 },
	{ "csiso88598e", 8 }, { "csisolatinhebrew", 8 }, { "hebrew", 8 },
	{ "iso-8859-8", 8 }, { "iso-8859-8-e", 8 }, { "iso-ir-138", 8 },
	{ "iso8859-8", 8 }, { "iso88598", 8 }, { "iso_8859-8", 8 },
	{ "iso_8859-8:1988", 8 }, { "visual", 8 },
	{ "csiso88598i", 9 }, { "iso-8859-8-i", 9 }, { "logical", 9 },
	{ "csisolatin6", 10 }, { "iso-8859-10", 10 }, { "iso-ir-157", 10 },
	{ "iso8859-10", 10 }, { "iso885910", 10 }, { "l6", 10 },
	{ "latin6", 10 },
	{ "iso-8859-13", 11 }, { "iso8859-13", 11 }, { "iso885913", 11 },
	{ "iso-8859-14", 12 }, { "iso8859-14", 12 }, { "iso885914", 12 },
	{ "csisolatin9", 13 }, { "iso-8859-15", 13 }, { "iso8859-15", 13 },
	{ "iso885915", 13 }, { "iso_8859-15", 13 }, { "l9", 13 },
	{ "iso-8859-16", 14 },
	{ "cskoi8r", 15 }, { "koi", 15 }, { "koi8", 15 }, { "koi8-r", 15 },
	{ "koi8_r", 15 },
	{ "koi8-ru", 16 }, { "koi8-u", 16 },
	{ "csmacintosh", 17 }, { "mac", 17 }, { "macintosh", 17 },
	{ "x-mac-roman", 17 },
	{ "dos-874", 18 }, { "iso-8859-11", 18 }, { "iso8859-11", 18 },
	{ "iso885911", 18 }, { "tis-620", 18 }, { "windows-874", 18 },
	{ "cp1250", 19 }, { "windows-1250", 19 }, { "x-cp1250", 19 },
	{ "cp1251", 20 }, { "windows-1251", 20 }, { "x-cp1251", 20 },
	{ "ansi_x3.4-1968", 21 }, { "ascii", 21 }, { "cp1252", 21 },
	{ "cp819", 21 }, { "csisolatin1", 21 }, { "ibm819", 21 },
	{ "iso-8859-1", 21 }, { "iso-ir-100", 21 }, { "iso8859-1", 21 },
	{ "iso88591", 21 }, { "iso_8859-1", 21 }, { "iso_8859-1:1987", 21 },
	{ "l1", 21 }, { "latin1", 21 }, { "us-ascii", 21 },
	{ "windows-1252", 21 }, { "x-cp1252", 21 },
	{ "cp1253", 22 }, { "windows-1253", 22 }, { "x-cp1253", 22 },
	{ "cp1254", 23 }, { "csisolatin5", 23 }, { "iso-8859-9", 23 },
	{ "iso-ir-148", 23 }, { "iso8859-9", 23 }, { "iso88599", 23 },
	{ "iso_8859-9", 23 }, { "iso_8859-9:1989", 23 }, { "l5", 23 },
	{ "latin5", 23 }, { "windows-1254", 23 }, { "x-cp1254", 23 },
	{ "cp1255", 24 }, { "windows-1255", 24 }, { "x-cp1255", 24 },
	{ "cp1256", 25 }, { "windows-1256", 25 }, { "x-cp1256", 25 },
	{ "cp1257", 26 }, { "windows-1257", 26 }, { "x-cp1257", 26 },
	{ "cp1258", 27 }, { "windows-1258", 27 }, { "x-cp1258", 27 },
	{ "x-mac-cyrillic", 28 }, { "x-mac-ukrainian", 28 },
	{ "chinese", 29 }, { "csgb2312", 29 }, { "csiso58gb231280", 29 },
	{ "gb2312", 29 }, { "gb_2312", 29 }, { "gb_2312-80", 29 },
	{ "gbk", 29 }, { "iso-ir-58", 29 }, { "x-gbk", 29 },
	{ "gb18030", 30 },
	{ "big5", 31 }, { "big5-hkscs", 31 }, { "cn-big5", 31 },
	{ "csbig5", 31 }, { "x-x-big5", 31 },
	{ "cseucpkdfmtjapanese", 32 }, { "euc-jp", 32 }, { "x-euc-jp", 32 },
	{ "csiso2022jp", 33 }, { "iso-2022-jp", 33 },
	{ "csshiftjis", 34 }, { "ms932", 34 }, { "ms_kanji", 34 },
	{ "shift-jis", 34 }, { "shift_jis", 34 }, { "sjis", 34 },
	{ "windows-31j", 34 }, { "x-sjis", 34 },
	{ "cseuckr", 35 }, { "csksc56011987", 35 }, { "euc-kr", 35 },
	{ "iso-ir-149", 35 }, { "korean", 35 }, { "ks_c_5601-1987", 35 },
	{ "ks_c_5601-1989", 35 }, { "ksc5601", 35 }, { "ksc_5601", 35 },
	{ "windows-949", 35 },
	{ "unicodefffe", 36 }, { "utf-16be", 36 },
	{ "csunicode", 37 }, { "iso-10646-ucs-2", 37 }, { "ucs-2", 37 },
	{ "unicode", 37 }, { "unicodefeff", 37 }, { "utf-16", 37 },
	{ "utf-16le", 37 },
	/* uchardet's names that are no WHATWG label. */
	{ "uhc", 35 }, { "cp949", 35 }, { "mac-cyrillic", 28 },
	{ "cp932", 34 }, { "euc-tw", 31 },
};

const struct charset *
charset_label(const char *label, size_t n)
{
	char low[32];
	size_t i, k = 0;

	while (n > 0 && (*label == ' ' || *label == '\t' || *label == '\n' ||
	    *label == '\r' || *label == '\f')) {
		label++;
		n--;
	}
	while (n > 0 && (label[n - 1] == ' ' || label[n - 1] == '\t' ||
	    label[n - 1] == '\n' || label[n - 1] == '\r' ||
	    label[n - 1] == '\f'))
		n--;
	if (n == 0 || n >= sizeof(low))
		return NULL;
	for (i = 0; i < n; i++)
		low[k++] = (char)(label[i] >= 'A' && label[i] <= 'Z' ?
		    label[i] + 32 : label[i]);
	low[k] = '\0';
	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		if (strcmp(labels[i].label, low) == 0)
			return &charsets[labels[i].cs];
	return NULL;
}

static int
blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/*
 * One attribute of a tag at p[*i..n): its name and value (lower case
 * name); 0 at the tag's end.
 */
static int
attribute(const unsigned char *p, size_t n, size_t *i, char *name,
    size_t nsize, const unsigned char **v, size_t *vlen)
{
	size_t k = 0, j = *i;
	unsigned char q;

	while (j < n && (blank(p[j]) || p[j] == '/'))
		j++;
	if (j >= n || p[j] == '>')
		return 0;
	while (j < n && !blank(p[j]) && p[j] != '=' && p[j] != '>' &&
	    p[j] != '/') {
		if (k + 1 < nsize)
			name[k++] = (char)(p[j] >= 'A' && p[j] <= 'Z' ? p[j] + 32 :
			    p[j]);
		j++;
	}
	name[k] = '\0';
	while (j < n && blank(p[j]))
		j++;
	*v = p + j;
	*vlen = 0;
	if (j < n && p[j] == '=') {
		j++;
		while (j < n && blank(p[j]))
			j++;
		if (j < n && (p[j] == '"' || p[j] == '\'')) {
			q = p[j++];
			*v = p + j;
			while (j < n && p[j] != q)
				j++;
			*vlen = (size_t)(p + j - *v);
			if (j < n)
				j++;
		} else {
			*v = p + j;
			while (j < n && !blank(p[j]) && p[j] != '>')
				j++;
			*vlen = (size_t)(p + j - *v);
		}
	}
	*i = j;
	return 1;
}

/* The charset= of a content attribute ("text/html; charset=koi8-r"). */
static const unsigned char *
content_charset(const unsigned char *v, size_t n, size_t *len)
{
	size_t i, k;

	for (i = 0; i + 7 <= n; i++) {
		if (strncasecmp((const char *)v + i, "charset", 7) != 0)
			continue;
		k = i + 7;
		while (k < n && blank(v[k]))
			k++;
		if (k >= n || v[k] != '=')
			continue;
		k++;
		while (k < n && blank(v[k]))
			k++;
		if (k < n && (v[k] == '"' || v[k] == '\''))
			k++;
		for (i = k; i < n && !blank(v[i]) && v[i] != ';' &&
		    v[i] != '"' && v[i] != '\''; i++)
			;
		*len = i - k;
		return v + k;
	}
	return NULL;
}

/*
 * The label of the first meta tag that gives one, in p[0..n): a
 * simplification of WHATWG's prescan (HTML, 13.2.3.2) that skips
 * comments and reads the attributes of meta tags.
 */
static const unsigned char *
meta_label(const unsigned char *p, size_t n, size_t *len)
{
	const unsigned char *v, *cs, *charset, *content;
	const unsigned char *q;
	char name[16];
	size_t i = 0, vlen, charlen = 0, contlen = 0;
	int httpequiv;

	while (i < n) {
		q = memchr(p + i, '<', n - i);
		if (q == NULL)
			return NULL;
		i = (size_t)(q - p);
		if (n - i >= 4 && memcmp(p + i, "<!--", 4) == 0) {
			q = memmem(p + i + 4, n - i - 4, "-->", 3);
			if (q == NULL)
				return NULL;
			i = (size_t)(q - p) + 3;
			continue;
		}
		if (n - i < 6 || strncasecmp((const char *)p + i + 1, "meta",
		    4) != 0 || !(blank(p[i + 5]) || p[i + 5] == '/')) {
			i++;
			continue;
		}
		i += 5;
		httpequiv = 0;
		charset = content = NULL;
		while (attribute(p, n, &i, name, sizeof(name), &v, &vlen)) {
			if (strcmp(name, "charset") == 0 && charset == NULL) {
				charset = v;
				charlen = vlen;
			} else if (strcmp(name, "http-equiv") == 0)
				httpequiv = vlen == 12 && strncasecmp(
				    (const char *)v, "content-type", 12) == 0;
			else if (strcmp(name, "content") == 0 &&
			    content == NULL &&
			    (cs = content_charset(v, vlen, &contlen)) != NULL)
				content = cs;
		}
		/* content= counts only with http-equiv=content-type. */
		if (charset != NULL) {
			*len = charlen;
			return charset;
		}
		if (content != NULL && httpequiv) {
			*len = contlen;
			return content;
		}
	}
	return NULL;
}

static uchardet_t ud;

/* uchardet's guess for p[0..n), or windows-1252. */
static const struct charset *
detect(const unsigned char *p, size_t n)
{
	const struct charset *cs;
	const char *name;

	if (ud == NULL && (ud = uchardet_new()) == NULL)
		return &charsets[CS_1252];
	uchardet_reset(ud);
	uchardet_handle_data(ud, (const char *)p, n < DETECT_SCAN ? n :
	    DETECT_SCAN);
	uchardet_data_end(ud);
	name = uchardet_get_charset(ud);
	cs = name ? charset_label(name, strlen(name)) : NULL;
	return cs ? cs : &charsets[CS_1252];
}

const struct charset *
charset_find(const unsigned char *p, size_t n, const char *label,
    const char **how, char *why, size_t whysize)
{
	const struct charset *cs;
	const unsigned char *m;
	size_t mlen, k;

	*how = "bom";
	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		return &charsets[CS_UTF8];
	if (n >= 2 && p[0] == 0xfe && p[1] == 0xff)
		return &charsets[CS_UTF16BE];
	if (n >= 2 && p[0] == 0xff && p[1] == 0xfe)
		return &charsets[CS_UTF16LE];
	*how = "header";
	if (label != NULL && *label != '\0') {
		if ((cs = charset_label(label, strlen(label))) == NULL)
			snprintf(why, whysize, "unknown charset '%.60s' "
			    "(Content-Type)", label);
		return cs;
	}
	*how = "meta";
	if ((m = meta_label(p, n < META_SCAN ? n : META_SCAN, &mlen)) != NULL) {
		if ((cs = charset_label((const char *)m, mlen)) == NULL)
			snprintf(why, whysize, "unknown charset '%.*s' "
			    "(meta tag)", (int)(mlen < 60 ? mlen : 60),
			    (const char *)m);
		/* A page that says UTF-16 in ASCII bytes is not (WHATWG). */
		if (cs == &charsets[CS_UTF16BE] || cs == &charsets[CS_UTF16LE])
			cs = &charsets[CS_UTF8];
		return cs;
	}
	*how = "detected";
	/* Valid, or cut short inside a character (Common Crawl's cut). */
	k = pskd_utf8_check(p, n);
	if (k == n || (n - k < 4 && p[k] >= 0xc2 && p[k] <= 0xf4 &&
	    k + 2 + (p[k] >= 0xe0) + (p[k] >= 0xf0) > n))
		return &charsets[CS_UTF8];
	return detect(p, n);
}

void
charset_free(void)
{
	if (ud != NULL)
		uchardet_delete(ud);
	ud = NULL;
}
