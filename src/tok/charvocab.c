/* charvocab.c - character vocabularies: parse, write a line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "charvocab.h"

#define NCP	0x110000

static int
hexval(unsigned c)
{
	if (c >= '0' && c <= '9')
		return (int)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (int)(c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (int)(c - 'A' + 10);
	return -1;
}

/* Undo the escapes of s[0..n) into out; its length, or -1. */
static long
unescape(const unsigned char *s, size_t n, unsigned char *out)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		if (++i == n)
			return -1;
		switch (s[i]) {
		case '\\': out[o++] = '\\'; break;
		case 'n': out[o++] = '\n'; break;
		case 't': out[o++] = '\t'; break;
		case 'r': out[o++] = '\r'; break;
		case 'x':
			if (i + 2 >= n || hexval(s[i + 1]) < 0 ||
			    hexval(s[i + 2]) < 0)
				return -1;
			out[o++] = (unsigned char)(hexval(s[i + 1]) << 4 |
			    hexval(s[i + 2]));
			i += 2;
			break;
		default:
			return -1;
		}
	}
	return (long)o;
}

int
pskd_charvocab_parse(struct pskd_charvocab *v, const unsigned char *p,
    size_t n, char *err, size_t errsize)
{
	const unsigned char *line, *end = p + n, *nl;
	unsigned char buf[8];
	uint64_t lineno = 0;
	size_t cap = 0;
	uint32_t cp;
	long k;

	memset(v, 0, sizeof(*v));
	v->id = pskd_xcalloc(NCP, sizeof(uint32_t));
	for (line = p; line < end; line = nl + 1) {
		lineno++;
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		if (nl - line > 8) {
			snprintf(err, errsize, "%llu: not one character",
			    (unsigned long long)lineno);
			goto fail;
		}
		if ((k = unescape(line, (size_t)(nl - line), buf)) < 0) {
			snprintf(err, errsize, "%llu: invalid escape",
			    (unsigned long long)lineno);
			goto fail;
		}
		if (k == 0 || pskd_utf8_decode(buf, (size_t)k, &cp) !=
		    (size_t)k) {
			snprintf(err, errsize, "%llu: not one UTF-8 character",
			    (unsigned long long)lineno);
			goto fail;
		}
		if (v->id[cp] != 0) {
			snprintf(err, errsize, "%llu: U+%04X given twice",
			    (unsigned long long)lineno, cp);
			goto fail;
		}
		if (v->n == cap) {
			cap = cap ? cap * 2 : 256;
			v->chars = pskd_xreallocarray(v->chars, cap,
			    sizeof(*v->chars));
		}
		v->chars[v->n++] = cp;
		v->id[cp] = v->n;
	}
	return 0;
fail:
	pskd_charvocab_free(v);
	return -1;
}

void
pskd_charvocab_free(struct pskd_charvocab *v)
{
	free(v->chars);
	free(v->id);
	memset(v, 0, sizeof(*v));
}

void
pskd_charvocab_line(struct pskd_buf *b, uint32_t cp)
{
	unsigned char u[4];
	char hex[8];

	if (cp == '\\')
		pskd_buf_add(b, "\\\\", 2);
	else if (cp == '\n')
		pskd_buf_add(b, "\\n", 2);
	else if (cp == '\t')
		pskd_buf_add(b, "\\t", 2);
	else if (cp == '\r')
		pskd_buf_add(b, "\\r", 2);
	else if (cp < 0x20 || cp == 0x7f) {
		snprintf(hex, sizeof(hex), "\\x%02x", cp);
		pskd_buf_add(b, hex, 4);
	} else
		pskd_buf_add(b, u, pskd_utf8_encode(cp, u));
	pskd_buf_addc(b, '\n');
}
