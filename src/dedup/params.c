/* params.c - the text form of the stream parameters and banding; params.h. */
#include <stdio.h>
#include <string.h>

#include "params.h"

#define NPARAMS	9

static const char *const key[NPARAMS] = {
	"unit", "n", "norm", "shingle_seed", "k", "family", "minhash_seed",
	"bands", "rows"
};

/* The values in the order of key[]. */
static void
values(const struct pskd_lsh_params *p, uint64_t *v)
{
	v[0] = p->fp.unit;
	v[1] = p->fp.n;
	v[2] = p->fp.norm;
	v[3] = p->fp.shingle_seed;
	v[4] = p->fp.k;
	v[5] = p->fp.family;
	v[6] = p->fp.minhash_seed;
	v[7] = p->b;
	v[8] = p->r;
}

void
pskd_lsh_params_write(struct pskd_writer *w, const struct pskd_lsh_params *p,
    int sep)
{
	uint64_t v[NPARAMS];
	size_t i;

	values(p, v);
	for (i = 0; i < NPARAMS; i++) {
		if (i > 0)
			pskd_writer_putc(w, sep);
		pskd_writer_puts(w, key[i]);
		pskd_writer_putc(w, ' ');
		pskd_writer_u64(w, v[i]);
	}
}

/* A decimal number of at most max at s[*at..n); 0 or -1. */
static int
number(const unsigned char *s, size_t n, size_t *at, uint64_t max,
    uint64_t *out)
{
	size_t i = *at;
	uint64_t v = 0;

	if (i == n || s[i] < '0' || s[i] > '9')
		return -1;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > (max - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*at = i;
	*out = v;
	return 0;
}

size_t
pskd_lsh_params_parse(const unsigned char *s, size_t n, int sep,
    struct pskd_lsh_params *p)
{
	uint64_t v[NPARAMS];
	size_t i, at = 0, klen;

	for (i = 0; i < NPARAMS; i++) {
		if (i > 0 && (at == n || s[at++] != sep))
			return 0;
		klen = strlen(key[i]);
		if (n - at < klen + 1 || memcmp(s + at, key[i], klen) != 0 ||
		    s[at + klen] != ' ')
			return 0;
		at += klen + 1;
		/* Seeds take all 64 bits; everything else fits in 32. */
		if (number(s, n, &at, i == 3 || i == 6 ? UINT64_MAX :
		    UINT32_MAX, &v[i]) == -1)
			return 0;
	}
	memset(p, 0, sizeof(*p));
	p->fp.kind = PSKD_FRAME_SIGNATURES;
	p->fp.unit = (uint32_t)v[0];
	p->fp.n = (uint32_t)v[1];
	p->fp.norm = (uint32_t)v[2];
	p->fp.shingle_seed = v[3];
	p->fp.k = (uint32_t)v[4];
	p->fp.family = (uint32_t)v[5];
	p->fp.minhash_seed = v[6];
	p->b = (uint32_t)v[7];
	p->r = (uint32_t)v[8];
	return at;
}

/* The value of the parameter pskd_frame_params_differ() named what. */
static void
show(const struct pskd_frame_params *fp, const char *what, char *buf,
    size_t n)
{
	static const char *const step[] = {
		"case", "punct", "digits", "space", "marks"
	};
	size_t i, len = 0;

	if (strcmp(what, "shingle width") == 0)
		snprintf(buf, n, "%u %s", (unsigned)fp->n,
		    fp->unit == PSKD_UNIT_CHARS ? "characters" : "words");
	else if (strcmp(what, "normalisation") == 0) {
		snprintf(buf, n, "%s", fp->norm == 0 ? "none" : "");
		for (i = 0; i < 5 && len < n; i++)
			if (fp->norm & 1u << i)
				len += (size_t)snprintf(buf + len, n - len,
				    "%s%s", len ? "," : "", step[i]);
	} else if (strcmp(what, "shingle hash seed") == 0)
		snprintf(buf, n, "%llu", (unsigned long long)fp->shingle_seed);
	else if (strcmp(what, "k") == 0)
		snprintf(buf, n, "%u", (unsigned)fp->k);
	else if (strcmp(what, "minhash family") == 0)
		snprintf(buf, n, "%s", fp->family == PSKD_FAMILY_OPH ? "oph" :
		    "classic");
	else if (strcmp(what, "minhash seed") == 0)
		snprintf(buf, n, "%llu", (unsigned long long)fp->minhash_seed);
	else
		snprintf(buf, n, "%s", fp->kind == PSKD_FRAME_SHINGLES ?
		    "shingles" : "signatures");
}

const char *
pskd_frame_params_mismatch(const struct pskd_frame_params *a,
    const struct pskd_frame_params *b, char *text, size_t n)
{
	const char *what = pskd_frame_params_differ(a, b);
	char va[160], vb[160];

	if (what == NULL)
		return NULL;
	show(a, what, va, sizeof(va));
	show(b, what, vb, sizeof(vb));
	snprintf(text, n, "%s, not %s", va, vb);
	return what;
}
