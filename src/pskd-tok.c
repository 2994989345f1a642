/*
 * pskd-tok - documents to a token stream (.psk.d, idx[V], one token a
 * sample) and back: byte-level BPE with tiktoken's vocabularies and ids,
 * or a character vocabulary built from a text.
 */
#define _GNU_SOURCE		/* memmem, memrchr */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "tok/bpe.h"
#include "tok/bpetrain.h"
#include "tok/charvocab.h"
#include "tok/pretok.h"
#include "tok/ranks.h"

static const char usage_text[] =
    "pskd-tok [-bPq] [-E encoding] [-v vocab] [-e token | --no-eot]\n"
    "           [--allow-special] [-f field | -l | -r] [file ...]\n"
    "       pskd-tok -d [-E encoding] [-v vocab] [file]\n"
    "       pskd-tok --build-vocab [-f field | -l | -r] [file ...]";

#define NOT_CHAR	UINT32_MAX

/* The tiktoken encodings: pattern, special tokens, the vocabulary size. */
struct special {
	const char	*text;
	size_t		 len;
	uint32_t	 id;
};

static const struct encoding {
	const char	*name;
	int		 pattern;
	uint32_t	 nranks;	/* tokens in the ranks file */
	uint32_t	 nvocab;	/* V, tiktoken's n_vocab */
	struct special	 special[5];
} encodings[] = {
	{ "r50k_base", PSKD_PAT_R50K, 50256, 50257,
	    { { "<|endoftext|>", 13, 50256 } } },
	{ "p50k_base", PSKD_PAT_R50K, 50280, 50281,
	    { { "<|endoftext|>", 13, 50256 } } },
	{ "cl100k_base", PSKD_PAT_CL100K, 100256, 100277,
	    { { "<|endoftext|>", 13, 100257 }, { "<|fim_prefix|>", 14, 100258 },
	    { "<|fim_middle|>", 14, 100259 }, { "<|fim_suffix|>", 14, 100260 },
	    { "<|endofprompt|>", 15, 100276 } } },
	{ "o200k_base", PSKD_PAT_O200K, 199998, 200019,
	    { { "<|endoftext|>", 13, 199999 },
	    { "<|endofprompt|>", 15, 200018 } } },
};
#define NENC	(sizeof(encodings) / sizeof(encodings[0]))

static struct {
	int		 allow_special;	/* --allow-special */
	int		 bytes;		/* -b */
	int		 build;		/* --build-vocab */
	int		 decode;	/* -d */
	const char	*eot;		/* -e */
	const char	*encoding;	/* -E */
	const char	*field;		/* -f */
	int		 input;		/* 'j' JSON Lines, 'l', 'r' */
	int		 noeot;		/* --no-eot */
	const char	*vocab;		/* -v */
} opt = { .field = "text", .input = 'j' };

/* The vocabulary in use. */
static struct {
	const char	*name;		/* for messages */
	char		*path;		/* the ranks file */
	struct pskd_special *trained;	/* its .special file */
	int		 isbpe;
	struct pskd_ranks ranks;
	struct pskd_bpe	 bpe;
	struct pskd_charvocab cv;	/* -E char */
	struct special	*special;
	size_t		 nspecial;
	uint64_t	 nvocab;	/* V */
	uint32_t	 eot;
} voc;

static struct pskd_ids ids;
static struct pskd_sink sink;
static unsigned width;			/* bytes per id */
static unsigned char *outbuf;
static uint64_t nbytes_in;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -b, --bytes           encode text that is not UTF-8 as bytes\n"
	    "  -d, --decode          token stream to text\n"
	    "  -E, --encoding NAME   r50k_base, p50k_base, cl100k_base, "
	    "o200k_base, char\n"
	    "  -e, --eot TOKEN       the token after each document "
	    "(<|endoftext|>)\n"
	    "  -f, --field NAME      JSON Lines input, text in NAME "
	    "(default text)\n"
	    "  -l, --lines           plain text, one document a line\n"
	    "  -P, --progress        show progress even when stderr is not "
	    "a terminal\n"
	    "  -q, --quiet           no progress\n"
	    "  -r, --raw             plain text, each file one document\n"
	    "  -v, --vocab FILE      the vocabulary (ranks or characters)\n"
	    "      --allow-special   special token text in documents is "
	    "the special token\n"
	    "      --build-vocab     print the character vocabulary of the "
	    "input\n"
	    "      --no-eot          nothing between documents\n"
	    "      --train N         learn a BPE vocabulary (see "
	    "pskd-tok --train --help)\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

static _Noreturn void
fail_at(const char *name, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void
fail_at(const char *name, uint64_t line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		pskd_errx(PSKD_EXIT_DATA, "%s:%llu: %s", name,
		    (unsigned long long)line, msg);
	pskd_errx(PSKD_EXIT_DATA, "%s: %s", name, msg);
}

/* ---- vocabularies --------------------------------------------------- */

static int
readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/*
 * NAME.tiktoken in $PSKD_VOCAB_DIR, then in vocab/ beside the folder of
 * this program (the build tree: bin/../vocab), then in PSKD_DATADIR.
 */
static char *
find_vocab(const char *name)
{
	char exe[PATH_MAX], *dirs[3], *path, *slash, *tried = NULL;
	size_t i, n = 0, k;
	ssize_t len;

	if (getenv("PSKD_VOCAB_DIR") != NULL && *getenv("PSKD_VOCAB_DIR"))
		dirs[n++] = pskd_xstrdup(getenv("PSKD_VOCAB_DIR"));
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			k = strlen(exe) + sizeof("/../vocab");
			dirs[n] = pskd_xmalloc(k);
			snprintf(dirs[n++], k, "%s/../vocab", exe);
		}
	}
	dirs[n++] = pskd_xstrdup(PSKD_DATADIR);
	for (i = 0; i < n; i++) {
		k = strlen(dirs[i]) + strlen(name) + sizeof("/.tiktoken");
		path = pskd_xmalloc(k);
		snprintf(path, k, "%s/%s.tiktoken", dirs[i], name);
		if (readable(path)) {
			while (n > 0)
				free(dirs[--n]);
			free(tried);
			return path;
		}
		free(path);
		k = (tried ? strlen(tried) : 0) + strlen(dirs[i]) + 3;
		path = pskd_xmalloc(k);
		snprintf(path, k, "%s%s%s", tried ? tried : "",
		    tried ? ", " : "", dirs[i]);
		free(tried);
		tried = path;
	}
	pskd_errx(PSKD_EXIT_DATA, "%s.tiktoken: not found in %s (give -v "
	    "FILE, or run make deps)", name, tried);
}

static const struct encoding *
encoding_named(const char *name)
{
	size_t i;

	if (strcmp(name, "gpt2") == 0)
		name = "r50k_base";
	for (i = 0; i < NENC; i++)
		if (strcmp(encodings[i].name, name) == 0)
			return &encodings[i];
	return NULL;
}

/* Which encoding a ranks file is for, from its name or its size. */
static const struct encoding *
guess_encoding(const char *path, uint32_t ntokens)
{
	const char *base = strrchr(path, '/');
	size_t i, n;

	base = base ? base + 1 : path;
	for (i = 0; i < NENC; i++) {
		n = strlen(encodings[i].name);
		if (strncmp(base, encodings[i].name, n) == 0 &&
		    (base[n] == '\0' || base[n] == '.'))
			return &encodings[i];
	}
	for (i = 0; i < NENC; i++)
		if (encodings[i].nranks == ntokens)
			return &encodings[i];
	return NULL;
}

static void
load_bpe(void)
{
	const struct encoding *enc = NULL;
	struct pskd_special *tsp;
	char err[256], *path;
	size_t i, n;

	if (opt.encoding != NULL && (enc = encoding_named(opt.encoding)) ==
	    NULL)
		pskd_errx(PSKD_EXIT_USAGE, "-E %s: unknown encoding (r50k_base, "
		    "p50k_base, cl100k_base, o200k_base or char)",
		    opt.encoding);
	if (opt.vocab == NULL && enc == NULL)
		enc = encoding_named("cl100k_base");
	path = opt.vocab ? pskd_xstrdup(opt.vocab) : find_vocab(enc->name);
	voc.path = path;
	voc.name = opt.vocab ? path : enc->name;
	if (pskd_ranks_load(&voc.ranks, path, err, sizeof(err)) == -1) {
		if (err[0] >= '0' && err[0] <= '9')
			pskd_errx(PSKD_EXIT_DATA, "%s:%s", path, err);
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", path, err);
	}
	if (!pskd_bpe_complete(&voc.ranks))
		pskd_errx(PSKD_EXIT_DATA, "%s: not a byte-level vocabulary: "
		    "some single bytes are not tokens", path);
	if (enc == NULL && (enc = guess_encoding(path, voc.ranks.ntokens)) ==
	    NULL)
		pskd_errx(PSKD_EXIT_USAGE, "-v %s: cannot tell its encoding; "
		    "give -E", path);
	voc.isbpe = 1;
	voc.nvocab = voc.ranks.n;
	n = pskd_special_load(path, &tsp);
	voc.trained = tsp;
	if (n > 0) {
		/* A vocabulary of pskd-tok --train: its own special tokens. */
		voc.special = pskd_xcalloc(n, sizeof(*voc.special));
		for (i = 0; i < n; i++) {
			voc.special[i].text = tsp[i].text;
			voc.special[i].len = tsp[i].len;
			voc.special[i].id = tsp[i].rank;
		}
		voc.nspecial = n;
	} else {
		for (n = 0; n < 5 && enc->special[n].text != NULL; n++)
			;
		voc.special = pskd_xcalloc(n, sizeof(*voc.special));
		memcpy(voc.special, enc->special, n * sizeof(*voc.special));
		voc.nspecial = n;
		if (enc->nvocab > voc.nvocab)
			voc.nvocab = enc->nvocab;
	}
	for (i = 0; i < voc.nspecial; i++) {
		if (voc.special[i].id < voc.ranks.n &&
		    voc.ranks.len[voc.special[i].id] != 0 &&
		    (voc.ranks.len[voc.special[i].id] != voc.special[i].len ||
		    memcmp(voc.ranks.bytes + voc.ranks.off[voc.special[i].id],
		    voc.special[i].text, voc.special[i].len) != 0))
			pskd_errx(PSKD_EXIT_DATA, "%s: rank %u is both a token "
			    "and the special token %s", path,
			    voc.special[i].id, voc.special[i].text);
		if (voc.special[i].id >= voc.nvocab)
			voc.nvocab = (uint64_t)voc.special[i].id + 1;
	}
	pskd_bpe_init(&voc.bpe, &voc.ranks, enc->pattern);
}

/* A whole file into memory (vocabularies are small). */
static void
slurp(const char *path, struct pskd_buf *b)
{
	struct pskd_reader r;
	unsigned char chunk[65536];
	ssize_t got;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	while ((got = pskd_reader_read(&r, chunk, sizeof(chunk))) > 0)
		pskd_buf_add(b, chunk, (size_t)got);
	if (got < 0)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	pskd_reader_close(&r);
}

static void
load_chars(void)
{
	struct pskd_buf b = { 0 };
	char err[256];

	if (opt.vocab == NULL)
		pskd_errx(PSKD_EXIT_USAGE, "-E char needs -v FILE (make one "
		    "with --build-vocab)");
	voc.name = opt.vocab;
	slurp(opt.vocab, &b);
	if (pskd_charvocab_parse(&voc.cv, b.p, b.len, err, sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s:%s", opt.vocab, err);
	pskd_buf_free(&b);
	/* <|endoftext|> follows the characters. */
	voc.special = pskd_xcalloc(1, sizeof(*voc.special));
	voc.special[0].text = "<|endoftext|>";
	voc.special[0].len = 13;
	voc.special[0].id = voc.cv.n;
	voc.nspecial = 1;
	voc.nvocab = (uint64_t)voc.cv.n + 1;
}

static void
load_vocab(void)
{
	if (opt.encoding != NULL && strcmp(opt.encoding, "char") == 0)
		load_chars();
	else
		load_bpe();
}

/* The id of the -e token: a special token, else a single token. */
static uint32_t
eot_id(void)
{
	const char *t = opt.eot ? opt.eot : "<|endoftext|>";
	size_t i, n = strlen(t);
	uint32_t k, cp;

	for (i = 0; i < voc.nspecial; i++)
		if (voc.special[i].len == n &&
		    memcmp(voc.special[i].text, t, n) == 0)
			return voc.special[i].id;
	if (voc.isbpe && n > 0 && (k = pskd_ranks_find(&voc.ranks, t, n)) !=
	    PSKD_RANK_NONE)
		return k;
	if (!voc.isbpe && n > 0 &&
	    pskd_utf8_decode((const unsigned char *)t, n, &cp) == n &&
	    voc.cv.id[cp] != 0)
		return voc.cv.id[cp] - 1;
	pskd_errx(PSKD_EXIT_USAGE, "-e %s: not a token of %s", t, voc.name);
}

/* ---- encoding ------------------------------------------------------- */

/* The ids as the stream's bytes: converted into outbuf, or as they are. */
static const void *
id_bytes(void)
{
	size_t i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (width == sizeof(*ids.v))
		return ids.v;
#endif
	outbuf = pskd_xreallocarray(outbuf, ids.cap, width);
	switch (width) {
	case 1:
		for (i = 0; i < ids.n; i++)
			outbuf[i] = (unsigned char)ids.v[i];
		break;
	case 2:
		for (i = 0; i < ids.n; i++)
			pskd_put_le16(outbuf + 2 * i, (uint16_t)ids.v[i]);
		break;
	default:
		for (i = 0; i < ids.n; i++)
			pskd_put_le32(outbuf + 4 * i, ids.v[i]);
		break;
	}
	return outbuf;
}

static void
flush_ids(void)
{
	if (ids.n == 0)
		return;
	pskd_sink_samples(&sink, id_bytes(), ids.n * width, ids.n);
	ids.n = 0;
	if (sink.w.error) {
		errno = sink.w.error;
		pskd_err(PSKD_EXIT_DATA, "%s", sink.w.name);
	}
}

/* Characters of a char vocabulary; *bad the offset of one not in it. */
static int
encode_chars(const unsigned char *s, size_t n, size_t *bad, uint32_t *badcp)
{
	size_t i, k;
	uint32_t cp;

	pskd_ids_reserve(&ids, n);
	for (i = 0; i < n; i += k) {
		k = pskd_utf8_decode(s + i, n - i, &cp);
		if (k == 0 || voc.cv.id[cp] == 0) {
			*bad = i;
			*badcp = k ? cp : NOT_CHAR;
			return -1;
		}
		ids.v[ids.n++] = voc.cv.id[cp] - 1;
	}
	return 0;
}

/*
 * Ordinary text (no special tokens): -1 with *bad the offset of a
 * character a char vocabulary lacks.
 */
static int
encode_ordinary(const unsigned char *s, size_t n, size_t *bad,
    uint32_t *badcp)
{
	if (!voc.isbpe)
		return encode_chars(s, n, bad, badcp);
	pskd_bpe_encode(&voc.bpe, s, n, &ids);
	return 0;
}

/* First special token text in s[from..n): its offset, *which the token. */
static size_t
find_special(const unsigned char *s, size_t n, size_t from, size_t *which)
{
	const unsigned char *p;
	size_t i, best = n, blen = 0;

	for (i = 0; i < voc.nspecial; i++) {
		p = memmem(s + from, n - from, voc.special[i].text,
		    voc.special[i].len);
		if (p != NULL && ((size_t)(p - s) < best ||
		    ((size_t)(p - s) == best && voc.special[i].len > blen))) {
			best = (size_t)(p - s);
			blen = voc.special[i].len;
			*which = i;
		}
	}
	return best;
}

static int
encode_text(const unsigned char *s, size_t n, size_t *bad, uint32_t *badcp)
{
	size_t pos = 0, at, k = 0;

	if (!opt.allow_special)
		return encode_ordinary(s, n, bad, badcp);
	while (pos < n) {
		at = find_special(s, n, pos, &k);
		if (encode_ordinary(s + pos, at - pos, bad, badcp) == -1) {
			*bad += pos;
			return -1;
		}
		if (at == n)
			break;
		pskd_ids_push(&ids, voc.special[k].id);
		pos = at + voc.special[k].len;
	}
	return 0;
}

/* Where text[0..n) of line `line` (1-based) has its n-th newline. */
static void
locate(const unsigned char *s, size_t off, uint64_t *line, size_t *col)
{
	const unsigned char *p = s, *nl;

	*col = off;
	while ((nl = memchr(p, '\n', (size_t)(s + off - p))) != NULL) {
		(*line)++;
		p = nl + 1;
		*col = (size_t)(s + off - p);
	}
}

/* A whole document: check, encode, end it with the eot token. */
static void
document(const char *name, uint64_t line, const unsigned char *s, size_t n,
    int last)
{
	size_t bad, col;
	uint32_t cp;

	if (!opt.bytes && (bad = pskd_utf8_check(s, n)) != n) {
		locate(s, bad, &line, &col);
		fail_at(name, line, "invalid UTF-8 at byte %zu", col);
	}
	if (encode_text(s, n, &bad, &cp) == -1) {
		locate(s, bad, &line, &col);
		if (cp == NOT_CHAR)
			fail_at(name, line, "invalid UTF-8 at byte %zu", col);
		fail_at(name, line, "character U+%04X not in vocabulary", cp);
	}
	if (last && !opt.noeot)
		pskd_ids_push(&ids, voc.eot);
	nbytes_in += n;
	if (ids.n >= (1u << 16))	/* stay in the cache */
		flush_ids();
}

/*
 * Where a document may be cut so both halves pre-tokenize as the whole:
 * before t[p] when t[p-1] is a newline and t[p] printable ASCII but '/'
 * (o200k takes a '/' after newlines into the piece), or when t[p] is a
 * space between two ASCII letters.  0 if there is no such place.
 */
static size_t
find_cut(const unsigned char *t, size_t n)
{
	size_t p;

	for (p = n - 2; p > 0; p--) {
		if (t[p - 1] == '\n' && t[p] > ' ' && t[p] < 0x7f &&
		    t[p] != '/')
			return p;
		if (t[p] == ' ' && ((t[p - 1] | 0x20) >= 'a' &&
		    (t[p - 1] | 0x20) <= 'z') && ((t[p + 1] | 0x20) >= 'a' &&
		    (t[p + 1] | 0x20) <= 'z'))
			return p;
	}
	return 0;
}

/*
 * The newlines in p[0..n), for the line numbers of messages: eight bytes
 * at a time (a memchr a line was 2% of a run), a byte counter each, the
 * counters summed before they can overflow.
 */
static uint64_t
newlines(const unsigned char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL, low7 = ones * 0x7f;
	uint64_t k = 0, acc, v;
	size_t i = 0, j;

	while (i + 8 <= n) {
		acc = 0;
		for (j = 0; j < 255 && i + 8 <= n; j++, i += 8) {
			memcpy(&v, p + i, 8);
			v ^= ones * '\n';	/* a newline is a zero byte */
			acc += ~(((v & low7) + low7) | v) >> 7 & ones;
		}
		acc = (acc & 0x00ff00ff00ff00ffULL) + (acc >> 8 &
		    0x00ff00ff00ff00ffULL);
		k += acc * 0x0001000100010001ULL >> 48;
	}
	for (; i < n; i++)
		k += p[i] == '\n';
	return k;
}

/* -r: each input one document, in pieces cut where it cannot matter. */
static void
read_raw(struct pskd_reader *r)
{
	const unsigned char *p;
	size_t want = PSKD_BUFSIZE, n, cut;
	uint64_t line = 1;
	ssize_t got;
	int eof, any = 0;

	for (;;) {
		if ((got = pskd_reader_peek(r, want, &p)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r->name);
		n = (size_t)got;
		eof = n < want;
		if (n == 0 && !any)
			return;		/* an empty input: no document */
		cut = eof ? n : find_cut(p, n);
		if (cut == 0) {
			want *= 2;
			continue;
		}
		any = 1;
		/* Special tokens hold no white space: never cut in two. */
		document(r->name, line, p, cut, eof);
		if (eof)
			break;
		line += newlines(p, cut);
		pskd_reader_skip(r, cut);
		want = PSKD_BUFSIZE;
		if (pskd_progress_enabled())
			pskd_progress(0, "%llu MB, %llu tokens",
			    (unsigned long long)(nbytes_in >> 20),
			    (unsigned long long)(sink.count + ids.n));
	}
}

/* JSON Lines or -l: one document a line. */
static void
read_lines(struct pskd_reader *r)
{
	struct pskd_json_field f = { .name = opt.field };
	const unsigned char *line;
	char err[128];
	size_t len, off;
	int rc;

	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		if (opt.input == 'l') {
			document(r->name, r->lineno, line, len, 1);
		} else {
			if (pskd_json_fields(line, len, &f, 1, err, sizeof(err),
			    &off) == -1)
				fail_at(r->name, r->lineno, "%s at byte %zu",
				    err, off);
			if (f.kind != PSKD_JSON_STRING)
				fail_at(r->name, r->lineno, "no string member "
				    "\"%s\"", opt.field);
			document(r->name, r->lineno, f.value.p, f.value.len,
			    1);
		}
		if (pskd_progress_enabled() && (r->lineno & 1023) == 0)
			pskd_progress(0, "%llu MB, %llu tokens",
			    (unsigned long long)(nbytes_in >> 20),
			    (unsigned long long)(sink.count + ids.n));
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
	pskd_buf_free(&f.value);
}

static void
each_input(int argc, char **argv, void (*fn)(struct pskd_reader *))
{
	struct pskd_reader r;
	const char *path;
	int i;

	for (i = 0; i < (argc ? argc : 1); i++) {
		path = argc ? argv[i] : NULL;
		if (pskd_reader_open(&r, path) == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", path ? path : "<stdin>");
		fn(&r);
		pskd_reader_close(&r);
	}
}

static void
encode_main(int argc, char **argv)
{
	struct pskd_type t;
	struct pskd_error e;
	char text[64];

	pskd_refuse_tty(1, "<stdout>");
	load_vocab();
	voc.eot = eot_id();
	snprintf(text, sizeof(text), "idx[%llu]",
	    (unsigned long long)voc.nvocab);
	if (pskd_type_parse(&t, text, strlen(text), &e) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s", e.msg);
	width = pskd_idx_width(voc.nvocab);
	pskd_pipe_grow(1);
	pskd_sink_init(&sink, 1, "<stdout>", &t, PSKD_COUNT_STREAM);
	each_input(argc, argv, opt.input == 'r' ? read_raw : read_lines);
	flush_ids();
	if (pskd_sink_finish(&sink) == -1)
		pskd_err(PSKD_EXIT_DATA, "<stdout>");
	pskd_writer_finish(&sink.w);
	if (pskd_progress_enabled())
		pskd_progress(1, "%llu MB, %llu tokens",
		    (unsigned long long)(nbytes_in >> 20),
		    (unsigned long long)sink.count);
	pskd_type_free(&t);
}

/* ---- decoding ------------------------------------------------------- */

static void
decode_main(int argc, char **argv)
{
	struct pskd_reader r;
	struct pskd_header h;
	struct pskd_error e;
	struct pskd_writer w;
	const struct pskd_leaf *l;
	const unsigned char *p;
	unsigned char u[4];
	uint64_t id, k = 0;
	size_t i, n, ss, sp;
	ssize_t got;

	if (argc > 1)
		pskd_usage_error(usage_text);
	if (pskd_reader_open(&r, argc ? argv[0] : NULL) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", argv[0]);
	if (pskd_header_read(&h, &r, &e) == -1)
		fail_at(r.name, 0, "%s", e.msg);
	l = h.type.leaves;
	if (h.type.params || h.type.nleaves != 1 || l->real || l->ndim != 0)
		fail_at(r.name, 0, "E%d: not a token stream: type %s, not "
		    "idx[V]", PSKD_E_MISMATCH, h.type.text);
	if (opt.encoding == NULL && opt.vocab == NULL)
		for (i = 0; i < NENC; i++)
			if (encodings[i].nvocab == l->bound)
				opt.encoding = encodings[i].name;
	load_vocab();
	if (l->bound != voc.nvocab)
		fail_at(r.name, 0, "E%d: type %s is not idx[%llu] of %s",
		    PSKD_E_MISMATCH, h.type.text,
		    (unsigned long long)voc.nvocab, voc.name);
	ss = l->width;
	pskd_writer_init(&w, 1, "<stdout>");
	for (;;) {
		if ((got = pskd_reader_peek(&r, PSKD_BUFSIZE, &p)) < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r.name);
		if (got == 0)
			break;
		n = (size_t)got / ss;
		if (n == 0)
			fail_at(r.name, 0, "E%d: truncated at sample %llu",
			    PSKD_E_TRUNC, (unsigned long long)k);
		if (h.count != PSKD_COUNT_STREAM && k + n > h.count)
			fail_at(r.name, 0, "E%d: data after the last of %llu "
			    "samples", PSKD_E_MAGIC,
			    (unsigned long long)h.count);
		for (i = 0; i < n; i++, k++) {
			id = pskd_leaf_idx(l, p + i * ss, 0);
			if (voc.isbpe && id < voc.ranks.n &&
			    voc.ranks.len[id] != 0) {
				pskd_writer_write(&w, voc.ranks.bytes +
				    voc.ranks.off[id], voc.ranks.len[id]);
				continue;
			}
			if (!voc.isbpe && id < voc.cv.n) {
				pskd_writer_write(&w, u,
				    pskd_utf8_encode(voc.cv.chars[id], u));
				continue;
			}
			for (sp = 0; sp < voc.nspecial; sp++)
				if (voc.special[sp].id == id)
					break;
			if (sp < voc.nspecial) {
				pskd_writer_write(&w, voc.special[sp].text,
				    voc.special[sp].len);
				continue;
			}
			fail_at(r.name, 0, "E%d: sample %llu: %llu is "
				    "not a token of %s", PSKD_E_VALUE,
				    (unsigned long long)k,
				    (unsigned long long)id, voc.name);
		}
		pskd_reader_skip(&r, n * ss);
	}
	if (h.count != PSKD_COUNT_STREAM && k < h.count)
		fail_at(r.name, 0, "E%d: truncated at sample %llu (%llu "
		    "samples declared)", PSKD_E_TRUNC, (unsigned long long)k,
		    (unsigned long long)h.count);
	pskd_writer_finish(&w);
	pskd_reader_close(&r);
	pskd_header_free(&h);
}

/* ---- --build-vocab -------------------------------------------------- */

static unsigned char *seen;		/* a bit per code point */

static void
collect(const char *name, uint64_t line, const unsigned char *s, size_t n)
{
	size_t i, k, col;
	uint32_t cp;

	for (i = 0; i < n; i += k) {
		if ((k = pskd_utf8_decode(s + i, n - i, &cp)) == 0) {
			locate(s, i, &line, &col);
			fail_at(name, line, "invalid UTF-8 at byte %zu", col);
		}
		seen[cp >> 3] |= (unsigned char)(1u << (cp & 7));
	}
}

static void
build_reader(struct pskd_reader *r)
{
	struct pskd_json_field f = { .name = opt.field };
	const unsigned char *line, *p;
	char err[128];
	size_t len, off;
	ssize_t got;
	uint64_t lines = 1;
	int rc;

	if (opt.input == 'r') {
		/* Characters are independent: cut between any two. */
		while ((got = pskd_reader_peek(r, PSKD_BUFSIZE, &p)) > 0) {
			const unsigned char *nl;
			size_t cut = (size_t)got, k;

			if (got >= (ssize_t)PSKD_BUFSIZE) {
				for (k = cut; k > cut - 4 &&
				    (p[k - 1] & 0xc0) == 0x80; k--)
					;
				if (p[k - 1] >= 0xc0)
					cut = k - 1;
			}

			collect(r->name, lines, p, cut);
			for (nl = p; (nl = memchr(nl, '\n',
			    (size_t)(p + cut - nl))) != NULL; nl++)
				lines++;
			pskd_reader_skip(r, cut);
		}
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", r->name);
		return;
	}
	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		if (opt.input == 'l') {
			collect(r->name, r->lineno, line, len);
			continue;
		}
		if (pskd_json_fields(line, len, &f, 1, err, sizeof(err),
		    &off) == -1)
			fail_at(r->name, r->lineno, "%s at byte %zu", err, off);
		if (f.kind != PSKD_JSON_STRING)
			fail_at(r->name, r->lineno, "no string member \"%s\"",
			    opt.field);
		collect(r->name, r->lineno, f.value.p, f.value.len);
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", r->name);
	pskd_buf_free(&f.value);
}

static void
build_main(int argc, char **argv)
{
	struct pskd_writer w;
	struct pskd_buf line = { 0 };
	uint32_t cp;

	seen = pskd_xcalloc(0x110000 / 8, 1);
	each_input(argc, argv, build_reader);
	pskd_writer_init(&w, 1, "<stdout>");
	for (cp = 0; cp < 0x110000; cp++) {
		if (!(seen[cp >> 3] & (1u << (cp & 7))))
			continue;
		line.len = 0;
		pskd_charvocab_line(&line, cp);
		pskd_writer_write(&w, line.p, line.len);
	}
	pskd_buf_free(&line);
	pskd_writer_finish(&w);
	free(seen);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "allow-special", no_argument, NULL, 'S' },
		{ "build-vocab", no_argument, NULL, 'B' },
		{ "bytes", no_argument, NULL, 'b' },
		{ "decode", no_argument, NULL, 'd' },
		{ "encoding", required_argument, NULL, 'E' },
		{ "eot", required_argument, NULL, 'e' },
		{ "field", required_argument, NULL, 'f' },
		{ "lines", no_argument, NULL, 'l' },
		{ "no-eot", no_argument, NULL, 'N' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "raw", no_argument, NULL, 'r' },
		{ "vocab", required_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c, i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--train") == 0 ||
		    strncmp(argv[i], "--train=", 8) == 0)
			return pskd_tok_train_main(argc, argv);
	pskd_setprogname(argv[0]);
	while ((c = getopt_long(argc, argv, "bdE:e:f:lPqrv:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'b': opt.bytes = 1; break;
		case 'B': opt.build = 1; break;
		case 'd': opt.decode = 1; break;
		case 'E': opt.encoding = optarg; break;
		case 'e': opt.eot = optarg; break;
		case 'f': opt.field = optarg; opt.input = 'j'; break;
		case 'l': opt.input = 'l'; break;
		case 'N': opt.noeot = 1; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 'r': opt.input = 'r'; break;
		case 'S': opt.allow_special = 1; break;
		case 'v': opt.vocab = optarg; break;
		case 'h': usage(); break;
		case 'V': puts("pskd-tok " PSKD_VERSION); return 0;
		default: pskd_usage_error(usage_text);
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.decode + opt.build > 1 || (opt.eot && opt.noeot))
		pskd_usage_error(usage_text);
	if (opt.build)
		build_main(argc, argv);
	else if (opt.decode)
		decode_main(argc, argv);
	else
		encode_main(argc, argv);
	return 0;
}
