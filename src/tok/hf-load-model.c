/*
 * hf-load-model.c - the vocab and merges of a tokenizer.json's BPE model,
 * read in a second walk straight into their tables: the tokens as the
 * bytes they stand for when the vocabulary is byte-level, the merges
 * looked up in batches whose slots are fetched ahead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "hf.h"
#include "hf-load.h"
/* ---- the model --------------------------------------------------------- */

/*
 * The vocab or merges read where the walk is (read: ld_vocab or
 * ld_merges), which walk from there on their own; the walk then goes on
 * past them in the model.  Their tables' room is sized by what is left
 * of the file, which they cannot be longer than.
 */
static void
in_place(struct ld *l, struct pskd_hf *hf,
    void (*read)(struct ld *, struct pskd_hf *), size_t *len)
{
	struct pskd_jscan outer = l->j;
	const unsigned char *at = l->j.p;

	*len = (size_t)(l->j.end - at);
	read(l, hf);
	*len = (size_t)(l->j.p - at);
	outer.p = l->j.p;
	l->j = outer;
}

/*
 * Model options; the vocab and merges read in place when what they need
 * came before them (hf-load.h's direct), else only found (passed over by
 * their brackets: ld_vocab and ld_merges check them) and read later.
 * HF writes the model's options first and the model after the
 * pre-tokenizer.
 */
void
ld_model(struct ld *l, struct pskd_hf *hf, char **unk)
{
	char *type = NULL;

	if (!pskd_jscan_object(&l->j))
		ld_die(l, "expected the model");
	l->model_seen = 1;
	while (pskd_jscan_member(&l->j, &l->key)) {
		if (ld_key_is(l, "type")) {
			type = ld_string(l, NULL);
			if (strcmp(type, "BPE") != 0)
				ld_unsupported(l, "the model", type);
		} else if (ld_key_is(l, "vocab")) {
			if (l->vocab != NULL)
				ld_die(l, "the vocab given twice");
			pskd_jscan_peek(&l->j);
			l->vocab = l->j.p;
			if (l->direct && l->pre_seen && l->prefix_seen &&
			    l->suffix_seen && l->j.err == NULL) {
				ld_settle(l, hf);
				in_place(l, hf, ld_vocab, &l->vocablen);
				l->vocab_read = 1;
				continue;
			}
			if (!pskd_jscan_pass(&l->j))
				break;
			l->vocablen = (size_t)(l->j.p - l->vocab);
		} else if (ld_key_is(l, "merges")) {
			if (l->merges != NULL)
				ld_die(l, "the merges given twice");
			pskd_jscan_peek(&l->j);
			l->merges = l->j.p;
			if (l->vocab_read && l->j.err == NULL) {
				in_place(l, hf, ld_merges, &l->mergeslen);
				l->merges_read = 1;
				continue;
			}
			if (!pskd_jscan_pass(&l->j))
				break;
			l->mergeslen = (size_t)(l->j.p - l->merges);
		} else if (ld_key_is(l, "dropout")) {
			if (!pskd_jscan_null(&l->j))
				ld_die(l, "dropout is not supported");
		} else if (ld_key_is(l, "unk_token")) {
			if (!pskd_jscan_null(&l->j))
				*unk = ld_string(l, NULL);
		} else if (ld_key_is(l, "continuing_subword_prefix")) {
			if (l->prefix_seen)
				ld_die(l, "continuing_subword_prefix given "
				    "twice");
			l->prefix_seen = 1;
			if (!pskd_jscan_null(&l->j))
				hf->prefix = ld_string(l, &hf->prefixlen);
		} else if (ld_key_is(l, "end_of_word_suffix")) {
			if (l->suffix_seen)
				ld_die(l, "end_of_word_suffix given twice");
			l->suffix_seen = 1;
			if (!pskd_jscan_null(&l->j))
				hf->suffix = ld_string(l, &hf->suffixlen);
		} else if (ld_key_is(l, "fuse_unk")) {
			hf->fuse_unk = ld_boolean(l);
		} else if (ld_key_is(l, "byte_fallback")) {
			hf->byte_fallback = ld_boolean(l);
		} else if (ld_key_is(l, "ignore_merges")) {
			hf->ignore_merges = ld_boolean(l);
		} else if (!pskd_jscan_skip(&l->j))
			break;
	}
	ld_check(l);
	if (l->vocab == NULL || l->merges == NULL)
		ld_die(l, "a BPE model without its vocab or merges");
	free(type);
}

/* s[0..n) with the ByteLevel alphabet undone into out; 0 if not in it. */
static int
unbyte(const unsigned char *s, size_t n, struct pskd_buf *out)
{
	uint32_t cp;
	unsigned char *o;
	size_t i;
	int b;

	/* The alphabet is U+0021 .. U+0143: one or two bytes of UTF-8. */
	pskd_buf_reserve(out, n);
	o = out->p;
	for (i = 0; i < n; i++) {
		if (s[i] < 0x80) {
			/* ! to ~ stand for themselves, the rest of ASCII for
			 * none: the usual case without a call. */
			if (s[i] < '!' || s[i] > '~')
				return 0;
			*o++ = s[i];
			continue;
		} else if (s[i] >= 0xc2 && s[i] <= 0xc5 && i + 1 < n &&
		    (s[i + 1] & 0xc0) == 0x80) {
			cp = (uint32_t)(s[i] & 0x1f) << 6 | (s[i + 1] & 0x3f);
			i++;
		} else
			return 0;
		if ((b = pskd_hf_char_byte(cp)) < 0)
			return 0;
		*o++ = (unsigned char)b;
	}
	out->len = (size_t)(o - out->p);
	return 1;
}

/*
 * A string's ByteLevel characters from p (past its opening quote) up to
 * the first '"', or the first ' ' when sp, as the bytes they stand for,
 * into out (room for max): where it stopped, or NULL at anything else (an
 * escape, a character outside the alphabet or its UTF-8 ill-formed, more
 * than max), which the walk then reads the general way.  The alphabet is
 * well-formed UTF-8 and has no control character, so a string this takes
 * is one the walk would take in place, without a copy.
 */
__attribute__((always_inline)) static inline const unsigned char *
scan_bytes(const unsigned char *p, const unsigned char *end, int sp,
    unsigned char *out, size_t max, size_t *n, const int16_t *back)
{
	const unsigned char *o = out;
	unsigned cp;
	int b;

	if ((size_t)(end - p) > max)
		end = p + max;
	while (p < end) {
		if (*p >= '!' && *p <= '~' && *p != '"' && *p != '\\') {
			*out++ = *p++;
			continue;
		}
		if (*p == '"' || (*p == ' ' && sp))
			break;
		/* The alphabet's other characters: U+00A1 to U+0143. */
		if (*p < 0xc2 || *p > 0xc5 || end - p < 2 ||
		    (p[1] & 0xc0) != 0x80 || (cp = (p[0] & 0x1fu) << 6 |
		    (p[1] & 0x3fu)) >= PSKD_HF_ALPHABET_END || (b = back[cp]) < 0)
			return NULL;
		*out++ = (unsigned char)b;
		p += 2;
	}
	if (p == end)
		return NULL;
	*n = (size_t)(out - o);
	return p;
}

/*
 * The same for a vocabulary of characters: a string's text as it is,
 * when it has no escape.
 */
static const unsigned char *
scan_text(const unsigned char *p, const unsigned char *end, int sp,
    unsigned char *out, size_t max, size_t *n, int simd)
{
	const unsigned char *q, *s;

	if ((size_t)(end - p) > max)
		end = p + max;
	if ((q = pskd_jscan_plain(p, end, simd)) == NULL || q == end ||
	    *q != '"')
		return NULL;
	if (sp && (s = memchr(p, ' ', (size_t)(q - p))) != NULL)
		q = s;
	*n = (size_t)(q - p);
	memcpy(out, p, *n);
	return q;
}

/* A token's name read straight into out: scan_bytes or scan_text (at
   the walk's SIMD level).  In the loops that call it, not called: the
   call was 7 % of Llama 3's load in instructions (most names are 2-8
   bytes). */
__attribute__((always_inline)) static inline const unsigned char *
scan_name(const struct ld *l, const struct pskd_hf *hf,
    const unsigned char *p, const unsigned char *end, int sp,
    unsigned char *out, size_t max, size_t *n)
{
	return hf->bytelevel ? scan_bytes(p, end, sp, out, max, n, l->back) :
	    scan_text(p, end, sp, out, max, n, l->j.simd);
}

/* A token's text as the vocabulary keeps it (undone if byte-level). */
void
ld_as_stored(const struct pskd_hf *hf, const unsigned char *s, size_t n,
    struct pskd_buf *out)
{
	if (!hf->bytelevel || !unbyte(s, n, out)) {
		out->len = 0;
		pskd_buf_add(out, s, n);
	}
}

void
ld_vocab(struct ld *l, struct pskd_hf *hf)
{
	struct pskd_buf bytes = { 0 }, tok = { 0 };
	uint32_t *off = NULL, *len = NULL, *id = NULL;
	size_t n = 0, cap = l->vocablen / 6 + 1, tl;	/* "a":0, at least */
	const unsigned char *e;
	char err[256];

	off = pskd_xreallocarray(NULL, cap, sizeof(*off));
	len = pskd_xreallocarray(NULL, cap, sizeof(*len));
	id = pskd_xreallocarray(NULL, cap, sizeof(*id));
	/* A token's bytes are no more than its name's: room for all. */
	pskd_buf_reserve(&bytes, l->vocablen);
	ld_walk_from(l, l->vocab);
	if (!pskd_jscan_object(&l->j))
		ld_die(l, "expected the vocab, an object");
	while (pskd_jscan_member_at(&l->j)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			off = pskd_xreallocarray(off, cap, sizeof(*off));
			len = pskd_xreallocarray(len, cap, sizeof(*len));
			id = pskd_xreallocarray(id, cap, sizeof(*id));
		}
		/*
		 * The token's bytes at the end of bytes, not yet counted:
		 * the usual name (no escape) straight from the text, else
		 * read and copied there.
		 */
		if (l->j.p < l->j.end && *l->j.p == '"' && (e = scan_name(l, hf,
		    l->j.p + 1, l->j.end, 0, bytes.p + bytes.len, bytes.cap -
		    bytes.len, &tl)) != NULL) {
			l->j.p = e + 1;
			if (!pskd_jscan_colon(&l->j))
				ld_check(l);
		} else {
			if (!pskd_jscan_name(&l->j, &l->key))
				ld_check(l);
			ld_as_stored(hf, l->key.p, l->key.len, &tok);
			pskd_buf_reserve(&bytes, tok.len);
			memcpy(bytes.p + bytes.len, tok.p, tok.len);
			tl = tok.len;
		}
		id[n] = (uint32_t)ld_integer(l, 0, PSKD_RANK_MAX - 1);
		if (tl == 0)
			ld_die(l, "an empty token");
		off[n] = (uint32_t)bytes.len;
		len[n++] = (uint32_t)tl;
		bytes.len += tl;
	}
	ld_check(l);
	if (bytes.p == NULL)
		bytes.p = pskd_xmalloc(1);
	if (pskd_ranks_build(&hf->vocab, bytes.p, off, len, id, n, err,
	    sizeof(err)) == -1)
		ld_die(l, pskd_xstrdup(err));
	free(off);
	free(len);
	free(id);
	pskd_buf_free(&tok);
}

/* A merge read but not yet looked up: its three tokens in the arena. */
#define BATCH	64

struct pend {
	size_t		 off[3], len[3];	/* a, b, a and b joined */
	uint64_t	 k0[3], h[3];
	uint32_t	 k1[3];
	uint32_t	 tok;		/* the joined token, if guessed */
};

/*
 * The merges as read, rank the index: for a vocabulary of characters
 * left, right and result in v, three a merge; for a byte-level one the
 * left part in left and the result in tok (the right part is only
 * checked), and sorted while the results come in the order of their
 * ids, as Llama 3's and Qwen 3's files list them.
 */
struct mlist {
	uint32_t	*v, *left, *tok;
	size_t		 n, cap;
	int		 sorted;
	uint32_t	 last;		/* the last merge's token (NONE: none) */
};

/* Look up a batch of merges (their slots prefetched) and list them. */
static void
resolve(struct ld *l, struct pskd_hf *hf, struct pend *q, size_t nq,
    const struct pskd_buf *arena, struct mlist *ml)
{
	uint32_t id[3];
	size_t i, k;

	for (i = 0; i < nq; i++) {
		for (k = 0; k < 3; k++) {
			if (k == 2 && q[i].tok != PSKD_RANK_NONE) {
				id[k] = q[i].tok;
				break;
			}
			id[k] = pskd_ranks_find_keyed(&hf->vocab,
			    arena->p + q[i].off[k], q[i].len[k], q[i].k0[k],
			    q[i].k1[k], q[i].h[k]);
			if (id[k] == PSKD_RANK_NONE)
				ld_die(l, k < 2 ? "a merge of a token that is "
				    "not in the vocab" : "a merge whose result "
				    "is not in the vocab");
		}
		if (ml->n == ml->cap) {
			ml->cap = ml->cap ? ml->cap * 2 : 4096;
			if (hf->bytelevel) {
				ml->left = pskd_xreallocarray(ml->left,
				    ml->cap, sizeof(*ml->left));
				ml->tok = pskd_xreallocarray(ml->tok,
				    ml->cap, sizeof(*ml->tok));
			} else
				ml->v = pskd_xreallocarray(ml->v, ml->cap,
				    3 * sizeof(*ml->v));
		}
		/*
		 * Its token is not a and b together (a prefix stripped, or
		 * a part outside the ByteLevel alphabet kept as text).
		 */
		if (q[i].off[2] != q[i].off[0] && (q[i].len[0] + q[i].len[1] !=
		    q[i].len[2] || memcmp(arena->p + q[i].off[2], arena->p +
		    q[i].off[0], q[i].len[0]) != 0 || memcmp(arena->p +
		    q[i].off[2] + q[i].len[0], arena->p + q[i].off[1],
		    q[i].len[1]) != 0))
			hf->apart = 1;
		if (hf->bytelevel) {
			if (ml->n > 0 && id[2] < ml->last)
				ml->sorted = 0;
			ml->left[ml->n] = id[0];
			ml->tok[ml->n++] = id[2];
		} else
			memcpy(ml->v + 3 * ml->n++, id, sizeof(id));
		ml->last = id[2];
	}
}

/*
 * The merges into their tables: a table by pair for a vocabulary of
 * characters (a pair given twice keeps its later rank, as HF's map does);
 * for a byte-level one, the merges by the token each makes, a pair given
 * twice again with its later rank and its earlier entry left unused
 * (NONE: never matched).  Listed in the order of their tokens, the
 * merges are in that order already: the left parts as read are mleft,
 * and only the ranks and where each token's merges start are written;
 * else a counting sort.
 */
static void
tables(struct pskd_hf *hf, struct mlist *ml)
{
	uint32_t *v = ml->v, n = (uint32_t)ml->n, i, c, k, *fill;

	if (!hf->bytelevel) {
		/* Each slot fetched 16 merges ahead of its insert. */
		pskd_hf_merges_init(&hf->merges, n);
		for (i = 0; i < n; i++) {
			if (i + 16 < n)
				pskd_hf_merge_prefetch(&hf->merges,
				    v[3 * (i + 16)], v[3 * (i + 16) + 1]);
			pskd_hf_merges_add(&hf->merges, v[3 * i],
			    v[3 * i + 1], i, v[3 * i + 2]);
		}
		return;
	}
	hf->mstart = pskd_xcalloc((size_t)hf->vocab.n + 1, sizeof(uint32_t));
	hf->mrank = pskd_xreallocarray(NULL, n ? n : 1, sizeof(uint32_t));
	for (i = 0; i < n; i++)
		hf->mstart[ml->tok[i] + 1]++;
	for (c = 0; c < hf->vocab.n; c++)
		hf->mstart[c + 1] += hf->mstart[c];
	if (ml->sorted) {
		hf->mleft = ml->left;
		ml->left = NULL;
		for (i = 0; i < n; i++) {
			c = ml->tok[i];
			hf->mrank[i] = i;
			for (k = hf->mstart[c]; k < i; k++)
				if (hf->mleft[k] == hf->mleft[i])
					break;
			if (k < i) {
				hf->mrank[k] = i;	/* the same pair again */
				hf->mleft[i] = PSKD_RANK_NONE;
			}
		}
		return;
	}
	hf->mleft = pskd_xreallocarray(NULL, n ? n : 1, sizeof(uint32_t));
	fill = pskd_xreallocarray(NULL, hf->vocab.n + 1, sizeof(uint32_t));
	memcpy(fill, hf->mstart, (hf->vocab.n + 1) * sizeof(uint32_t));
	for (i = 0; i < n; i++) {
		c = ml->tok[i];
		for (k = hf->mstart[c]; k < fill[c]; k++)
			if (hf->mleft[k] == ml->left[i])
				break;
		if (k < fill[c]) {
			hf->mrank[k] = i;	/* the same pair again */
			continue;
		}
		hf->mleft[fill[c]] = ml->left[i];
		hf->mrank[fill[c]++] = i;
	}
	for (c = 0; c < hf->vocab.n; c++)
		for (k = fill[c]; k < hf->mstart[c + 1]; k++)
			hf->mleft[k] = PSKD_RANK_NONE;
	free(fill);
}

/* A token of a merge into the arena, its slot prefetched. */
static void
queue(struct pskd_hf *hf, struct pend *q, int k, const unsigned char *s,
    size_t n, struct pskd_buf *arena, struct pskd_buf *tok)
{
	ld_as_stored(hf, s, n, tok);
	q->off[k] = arena->len;
	q->len[k] = tok->len;
	pskd_buf_add(arena, tok->p, tok->len);
}

/*
 * The keys of a queued merge's tokens; their slots prefetched.  Files
 * that list the merges in the order of their tokens (Llama 3, Qwen 3,
 * Gemma 3, Llama 2) make the token of the last merge again or the next
 * id: *expect, the last one known, and the id after it are tried first
 * by their bytes (held in id order: no miss), and only when neither is
 * the joined bytes is the token looked up (NONE: none known since such
 * a lookup).  Llama 3: 280,083 of 280,147 merges; Qwen 3: 151,323 of
 * 151,387; Gemma 3, a vocabulary of characters: 513,509 of 514,906.
 */
static void
keys(struct pskd_hf *hf, struct pend *q, const struct pskd_buf *arena,
    uint32_t *expect)
{
	const struct pskd_ranks *r = &hf->vocab;
	uint32_t g;
	int k, n = 3;

	q->tok = PSKD_RANK_NONE;
	if ((g = *expect) != PSKD_RANK_NONE) {
		for (; g <= *expect + 1 && g < r->n; g++)
			if (r->len[g] == q->len[2] && memcmp(r->bytes +
			    r->off[g], arena->p + q->off[2], q->len[2]) == 0) {
				q->tok = g;
				n = 2;
				break;
			}
	}
	*expect = q->tok;
	for (k = 0; k < n; k++) {
		q->h[k] = pskd_ranks_keyof(arena->p + q->off[k], q->len[k],
		    &q->k0[k], &q->k1[k]);
		__builtin_prefetch(&hf->vocab.slot[q->h[k] & hf->vocab.mask]);
	}
}

/*
 * The usual case, a byte-level merge "a b" without a prefix, straight
 * into the arena: a's bytes, b's, and the new token is the two together.
 * 0 if a or b is not in the alphabet (then the general way).
 */
static int
queue_bytes(const unsigned char *s, size_t la, size_t lb, struct pend *q,
    struct pskd_buf *arena, struct pskd_buf *tok)
{
	size_t start = arena->len;

	if (!unbyte(s, la, tok))
		return 0;
	q->len[0] = tok->len;
	pskd_buf_add(arena, tok->p, tok->len);
	if (!unbyte(s + la + 1, lb, tok)) {
		arena->len = start;
		return 0;
	}
	q->len[1] = tok->len;
	pskd_buf_add(arena, tok->p, tok->len);
	q->off[0] = q->off[2] = start;
	q->off[1] = start + q->len[0];
	q->len[2] = q->len[0] + q->len[1];
	return 1;
}

/*
 * The usual merge, "a b" with no prefix and no escape, straight from the
 * text into the arena (scan_name's): a's bytes and b's, and the new token
 * is the two together; the walk past it.  0 (nothing read) for any other.
 */
#define FAST_MAX	512	/* bytes of a merge the fast way takes */

/* A merge's a and b read into the arena's end; the walk on from next. */
static int
queued_joined(struct ld *l, struct pend *q, struct pskd_buf *arena,
    size_t la, size_t lb, const unsigned char *next)
{
	q->off[0] = q->off[2] = arena->len;
	q->len[0] = la;
	q->off[1] = arena->len + la;
	q->len[1] = lb;
	q->len[2] = la + lb;
	arena->len += la + lb;
	l->j.p = next;
	return 1;
}

static int
queue_fast(struct ld *l, const struct pskd_hf *hf, struct pend *q,
    struct pskd_buf *arena)
{
	const unsigned char *p = l->j.p + 1, *e;
	size_t la, lb;

	pskd_buf_reserve(arena, FAST_MAX);
	if ((e = scan_name(l, hf, p, l->j.end, 1, arena->p + arena->len,
	    FAST_MAX, &la)) == NULL || *e != ' ' || la == 0 ||
	    (e = scan_name(l, hf, e + 1, l->j.end, 1, arena->p + arena->len + la,
	    FAST_MAX - la, &lb)) == NULL || *e != '"' || lb == 0)
		return 0;
	return queued_joined(l, q, arena, la, lb, e + 1);
}

/* The same for a merge ["a", "b"] (the walk at its '['). */
static int
queue_pair_fast(struct ld *l, const struct pskd_hf *hf, struct pend *q,
    struct pskd_buf *arena)
{
	const unsigned char *p, *end = l->j.end;
	size_t la, lb;

	pskd_buf_reserve(arena, FAST_MAX);
	p = pskd_json_blanks(l->j.p + 1, end);
	if (p == end || *p != '"' || (p = scan_name(l, hf, p + 1, end, 0,
	    arena->p + arena->len, FAST_MAX, &la)) == NULL || la == 0)
		return 0;
	p = pskd_json_blanks(p + 1, end);
	if (p == end || *p != ',')
		return 0;
	p = pskd_json_blanks(p + 1, end);
	if (p == end || *p != '"' || (p = scan_name(l, hf, p + 1, end, 0,
	    arena->p + arena->len + la, FAST_MAX - la, &lb)) == NULL ||
	    lb == 0)
		return 0;
	p = pskd_json_blanks(p + 1, end);
	if (p == end || *p != ']')
		return 0;
	return queued_joined(l, q, arena, la, lb, p + 1);
}

static const char not_a_merge[] = "a merge is \"a b\" or [\"a\", \"b\"]";

void
ld_merges(struct ld *l, struct pskd_hf *hf)
{
	struct pskd_buf a = { 0 }, tok = { 0 }, joined = { 0 }, arena = { 0 };
	struct mlist ml = { NULL, NULL, NULL, 0, 0, 1, PSKD_RANK_NONE };
	struct pend q[BATCH];
	const unsigned char *sp, *ms;
	size_t la, strip, nq = 0, mn;
	uint32_t expect = PSKD_RANK_NONE;
	int fast;

	ld_walk_from(l, l->merges);
	if (!pskd_jscan_array(&l->j))
		ld_die(l, "expected the merges, a list");
	/* At most one merge a 6 bytes ("a b",): room, touched as used. */
	ml.cap = l->mergeslen / 6 + 1;
	if (hf->bytelevel) {
		ml.left = pskd_xreallocarray(NULL, ml.cap, sizeof(*ml.left));
		ml.tok = pskd_xreallocarray(NULL, ml.cap, sizeof(*ml.tok));
	} else
		ml.v = pskd_xreallocarray(NULL, ml.cap, 3 * sizeof(*ml.v));
	fast = hf->prefixlen == 0;
	while (pskd_jscan_next(&l->j)) {
		if (pskd_jscan_peek(&l->j) == PSKD_J_STRING) {
			if (fast && queue_fast(l, hf, &q[nq], &arena))
				goto queued;
			/* "a b": one space. */
			if (!pskd_jscan_str(&l->j, &ms, &mn, &l->s))
				ld_check(l);
			sp = memchr(ms, ' ', mn);
			if (sp == NULL || memchr(sp + 1, ' ', mn -
			    (size_t)(sp - ms) - 1) != NULL)
				ld_die(l, "a merge is \"a b\", one space");
			la = (size_t)(sp - ms);
			if (la == 0 || la + 1 == mn)
				ld_die(l, "a merge with an empty part");
			if (hf->bytelevel && hf->prefixlen == 0 &&
			    queue_bytes(ms, la, mn - la - 1, &q[nq], &arena,
			    &tok))
				goto queued;
			a.len = 0;
			pskd_buf_add(&a, ms, la);
			pskd_buf_add(&a, sp + 1, mn - la - 1);
		} else {
			if (fast && l->j.p < l->j.end && *l->j.p == '[' &&
			    queue_pair_fast(l, hf, &q[nq], &arena))
				goto queued;
			if (!pskd_jscan_array(&l->j) || !pskd_jscan_next(&l->j))
				ld_die(l, not_a_merge);
			pskd_jscan_string(&l->j, &a);
			la = a.len;
			if (!pskd_jscan_next(&l->j) ||
			    !pskd_jscan_string(&l->j, &l->s))
				ld_die(l, not_a_merge);
			pskd_buf_add(&a, l->s.p, l->s.len);
			if (pskd_jscan_next(&l->j))
				ld_die(l, not_a_merge);
			if (la == 0 || a.len == la)
				ld_die(l, "a merge with an empty part");
		}
		ld_check(l);
		/* a, b, and the new token: a and b without its prefix. */
		strip = hf->prefixlen < a.len - la ? hf->prefixlen : a.len - la;
		joined.len = 0;
		pskd_buf_add(&joined, a.p, la);
		pskd_buf_add(&joined, a.p + la + strip, a.len - la - strip);
		queue(hf, &q[nq], 0, a.p, la, &arena, &tok);
		queue(hf, &q[nq], 1, a.p + la, a.len - la, &arena, &tok);
		queue(hf, &q[nq], 2, joined.p, joined.len, &arena, &tok);
queued:
		if (++nq == BATCH) {
			for (la = 0; la < nq; la++)
				keys(hf, &q[la], &arena, &expect);
			resolve(l, hf, q, nq, &arena, &ml);
			expect = ml.last;
			nq = 0;
			arena.len = 0;
		}
	}
	ld_check(l);
	for (la = 0; la < nq; la++)
		keys(hf, &q[la], &arena, &expect);
	resolve(l, hf, q, nq, &arena, &ml);
	tables(hf, &ml);
	l->mlist = ml.v;	/* for ld_cuts, which frees it */
	l->nmlist = ml.n;
	ml.v = NULL;
	free(ml.left);
	free(ml.tok);
	pskd_buf_free(&a);
	pskd_buf_free(&tok);
	pskd_buf_free(&joined);
	pskd_buf_free(&arena);
}
