/*
 * exact.h - the exact family (src/exact): pskd-exact's units (documents,
 * paragraphs, lines, spans of sentences), the set of the units seen (a
 * table in memory, segments on disk, or a Bloom filter), its persistent
 * index, the map-reduce steps; and pskd-decon's benchmark n-grams.
 * pskd-exact(1) and pskd-decon(1) state every rule.
 */
#ifndef PSKD_EXACT_H
#define PSKD_EXACT_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "dedup/ixrun.h"
#include "dedup/normalize.h"

/* MurmurHash3's 64-bit finaliser: the bits of h mixed (bloom.c, decon.c). */
static inline uint64_t
x_fmix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

/* ---- units.c: a document's units -------------------------------------- */

enum x_grain { X_DOC, X_PARA, X_LINE, X_SPAN };

struct x_params {
	enum x_grain	 grain;
	uint32_t	 span;		/* sentences a span (X_SPAN) */
	int		 raw;		/* -n raw: the bytes as they are */
	unsigned	 norm;		/* PSKD_NORM_*, unless raw */
};

#define X_SPAN_DEFAULT	3	/* C4's three-sentence spans */
#define X_SPAN_MAX	1000

/*
 * A unit: a line, a paragraph or a span (X_SPAN: sentences first .. first
 * + count - 1 of the document), or the whole text (X_DOC), and its hash.
 */
struct x_unit {
	uint64_t	 hash;		/* never 0 */
	uint32_t	 first, count;	/* X_SPAN: its sentences */
	uint32_t	 member;	/* which text member (not X_SPAN, X_DOC) */
	size_t		 off, end;	/* what removing it takes, in the member */
};

/* A sentence (X_SPAN): where it lies in its member. */
struct x_piece {
	uint32_t	 member;
	size_t		 off, end;
};

struct x_units {
	struct x_params	 p;
	struct pskd_norm nm;
	/* Lines, spaces collapsed: a member normalised whole (units.c). */
	struct pskd_norm nml;
	int		 whole;
	size_t		*nl;		/* its line breaks, then the output's */
	size_t		 nlcap;
	struct pskd_buf	 ntext;		/* normalised contents */
	struct x_unit	*v;		/* the units of the document */
	size_t		 n, cap;
	struct x_piece	*sent;		/* X_SPAN: its sentences */
	size_t		 nsent, sentcap;
	size_t		*soff;		/* X_SPAN: each's normalised content */
	size_t		 soffcap;
	/* Told each unit's hash as soon as it has it, if not NULL. */
	void		(*hashed)(void *, uint64_t);
	void		*harg;
};

void	x_units_init(struct x_units *u, const struct x_params *p);
void	x_units_free(struct x_units *u);
/*
 * The units of a document whose text members are f[0..nf) (the strings
 * among them; two that are the same member count once), or (X_DOC) of
 * its joined text.  Returns how many; 0 also when the text is empty after
 * normalisation (pskd_x_empty says which).
 */
size_t	x_units_doc(struct x_units *u, const struct pskd_doc *d);
/* Whether the text of d normalises to nothing (no unit at any grain). */
int	x_text_empty(struct x_units *u, const unsigned char *s, size_t n);
/*
 * The words left in s[0..n) after normalisation (the minimum, -w); once
 * want are counted it may stop, with want or more.
 */
uint64_t x_words(struct x_units *u, const unsigned char *s, size_t n,
	    uint64_t want);
/* "doc", "para", "line", "span:N": the -g text of p, into out. */
void	x_grain_name(const struct x_params *p, char *out, size_t size);
int	x_grain_parse(const char *s, struct x_params *p);

/* ---- table.c: the units seen in this run, in memory -------------------- */

/*
 * An open-addressing table of 64-bit hashes and 32-bit values (the
 * document a unit first came in, counted from the run's first), ordered:
 * a hash's home slot grows with it and the occupied slots hold the hashes
 * in ascending order, so a lookup stops at the first larger one, the
 * table grows in place (table.c: 13.5 to 15.8 bytes a hash, 10.2 to
 * 13.6 without values), and a spill writes it out as it lies.  A slot is
 * the hash and the value side by side, in host order (x_table_key,
 * x_table_val), or the hash alone when the values are not wanted.
 */
struct x_table {
	unsigned char	*slot;		/* a hash of 0: empty */
	size_t		 w;		/* bytes a slot: 12, or 8 without values */
	size_t		 cap;		/* home slots */
	size_t		 size;		/* slots, cap and room at the top */
	size_t		 n;
	size_t		 res;		/* bytes mapped */
};

/* vals: whether the values are wanted (else each reads as 0). */
void	x_table_init(struct x_table *t, int vals);
void	x_table_free(struct x_table *t);
/* 1 and the value when h is there, else 0. */
int	x_table_find(const struct x_table *t, uint64_t h, uint32_t *val);
/* 1 and the value when h is there, else 0 and h added with val. */
int	x_table_put(struct x_table *t, uint64_t h, uint32_t val,
	    uint32_t *old);
void	x_table_prefetch(const struct x_table *t, uint64_t h);
size_t	x_table_memory(const struct x_table *t);
/* Slot i's hash (0: empty) and value. */
uint64_t x_table_key(const struct x_table *t, size_t i);
uint32_t x_table_val(const struct x_table *t, size_t i);

/* ---- seg.c: sorted segments of hashes on disk --------------------------- */

/*
 * A segment file: n hashes ascending (64-bit little-endian), then each
 * one's value (the number of the document it first came in, 64-bit),
 * then 2^d + 1 offsets (64-bit): where the hashes whose top d bits are b
 * start, d the fewest bits for at most 8 hashes a bucket on average.
 */
struct x_seg {
	uint64_t	 id;
	uint64_t	 n;
	unsigned	 d;
	const unsigned char *p;		/* mapped */
	size_t		 size;
};

/* The bytes of a segment of n hashes, and its d. */
uint64_t x_seg_bytes(uint64_t n, unsigned *d);
/* 1 and the value when h is in s, 0 if not, -1 when s is damaged. */
int	x_seg_find(const struct x_seg *s, uint64_t h, uint64_t *val);
/*
 * Write the segment path from the segments s[0..ns) and the table t (its
 * values plus base), merged; out gets its id, n and d.  0 or -1 with err.
 */
int	x_seg_write(const char *path, const struct x_seg *s, size_t ns,
	    const struct x_table *t, uint64_t base, struct x_seg *out,
	    char *err, size_t errsize);
/* Map dir/seg-ID, which must have the size n hashes take.  0 or -1. */
int	x_seg_map(struct x_seg *s, const char *path, char *err,
	    size_t errsize);
void	x_seg_unmap(struct x_seg *s);

/* ---- bloom.c: a blocked Bloom filter ------------------------------------ */

#define X_BLOOM_BLOCK	512	/* bits a block: one cache line */
#define X_BLOOM_MAXK	16

struct x_bloom {
	uint64_t	 nbits;		/* a multiple of X_BLOOM_BLOCK */
	uint32_t	 k;
	unsigned char	*bits;
	size_t		 size;		/* bytes mapped */
};

/*
 * The fewest bits (and the k) that keep the false-positive rate at or
 * below rate with cap units held; -1 past 2^41 bits.
 */
int	x_bloom_geometry(uint64_t cap, double rate, uint64_t *nbits,
	    uint32_t *k);
/* The expected false-positive rate with n units held. */
double	x_bloom_rate(uint64_t nbits, uint32_t k, uint64_t n);
/* 1 when h was there (each of its bits set), else 0 and h added. */
int	x_bloom_add(struct x_bloom *b, uint64_t h);
void	x_bloom_prefetch(const struct x_bloom *b, uint64_t h);

/* ---- xindex.c, xsave.c: the units seen, in memory or in an index ------- */

#define X_KIND		"pskd-exact index"	/* its manifest's */
#define X_SPILL_MIN	4096	/* the fewest units a spill writes */
#define X_VERSION	1

/* An input: its number and its first document's (for naming them). */
struct x_input {
	uint64_t	 num, first;
};

struct x_index {
	struct x_params	 p;
	int		 bloom;		/* a Bloom filter, not a table */
	uint64_t	 nbits;		/* its geometry */
	uint32_t	 k;
	char		*dir;		/* NULL: memory only */
	struct pskd_ixdir d;
	int		 have_manifest;
	uint64_t	 docs;		/* document numbers given out */
	uint64_t	 units;		/* distinct units held (the filter's: added) */
	uint64_t	 nextfile;	/* the id the next file gets */
	struct x_seg	*seg;		/* committed or spilled, in order */
	size_t		 nseg;
	struct x_table	 mem;		/* this run's, since the last spill */
	int		 vals;		/* with each unit's document */
	uint64_t	 base;		/* the document of mem's value 0 */
	uint64_t	 memlimit;	/* -m */
	struct x_bloom	 bf;
	uint64_t	 bloomid;	/* its file, bloom-ID (0: none yet) */
	int		 bloomdirty;	/* bits set since it was read */
	int		 changed;	/* spilled, or inputs added */
	struct x_input	*in;		/* every input, in order */
	size_t		 nin;
	struct pskd_buf	 rec;		/* Bloom: this input's record */
	uint64_t	 recbits;
};

/*
 * Open the set: in memory (dir NULL) or the index in dir (created when
 * missing, locked, a pending run swept, what its manifest does not vouch
 * for removed).  p, bloom, nbits and k as asked; an index made otherwise
 * is an error.  0 or -1 with err.
 */
int	x_index_open(struct x_index *ix, const char *dir,
	    const struct x_params *p, int bloom, uint64_t nbits, uint32_t k,
	    uint64_t memlimit, char *err, size_t errsize);
/*
 * Whether h is held (exact mode): 1 and the document it first came in, 0,
 * or -1 when a segment is damaged.  committed: look only at what the
 * index held before this run.
 */
int	x_index_find(struct x_index *ix, uint64_t h, int committed,
	    uint64_t *doc);
void	x_index_prefetch(const struct x_index *ix, uint64_t h);
/*
 * Exact mode: 1 and the document h first came in when it is held, else
 * 0 and h added as first seen in doc (may spill); -1 with err.
 */
int	x_index_put(struct x_index *ix, uint64_t h, uint64_t doc,
	    uint64_t *first, char *err, size_t errsize);
/* Bloom: 1 when h was held, else 0 and h added. */
int	x_index_bloom(struct x_index *ix, uint64_t h);
/* The input a document is of, and its line there (from 1). */
void	x_index_name(const struct x_index *ix, uint64_t doc, uint64_t *num,
	    uint64_t *line);
/* An input begins (a new one), its first document the next number. */
void	x_index_input(struct x_index *ix, uint64_t num);
/* Bloom: a new input's record, a bit a unit (1: repeated). */
void	x_index_record(struct x_index *ix, int repeated);
/*
 * Bloom: the end of a new input numbered num: its record to rec-NUM.  0
 * or -1 with err.
 */
int	x_index_record_end(struct x_index *ix, uint64_t num, char *err,
	    size_t errsize);
/* Bloom: the record of input num, read whole into b.  0 or -1 with err. */
int	x_index_record_read(struct x_index *ix, uint64_t num,
	    struct pskd_buf *b, char *err, size_t errsize);
size_t	x_index_memory(const struct x_index *ix);
int	x_index_spill(struct x_index *ix, char *err, size_t errsize);
/*
 * The end of a run: spill, write the filter, and leave the new state
 * pending (ixrun.h); nothing when it added nothing.  0 or -1 with err.
 */
int	x_index_pend(struct x_index *ix, char *err, size_t errsize);
/* --commit and --abort (pskd-lsh's, for this index): 1, 0 or -1. */
int	x_index_commit_dir(const char *dir, char *err, size_t errsize);
int	x_index_abort_dir(const char *dir, char *err, size_t errsize);
void	x_index_close(struct x_index *ix);

/* xsave.c, for xindex.c: the manifest's lines, and what it vouches for. */
void	x_manifest_body(struct pskd_writer *w, void *arg);
int	x_manifest_parse(struct x_index *ix, char *s);
void	x_remove_unlisted(struct x_index *ix);
char	*x_path(const struct x_index *ix, const char *fmt, uint64_t id);

/* ---- decide.c: a document's verdict from its repeated units ------------ */

/* Counts of an input, or of all. */
struct x_counts {
	uint64_t	 docs, kept, trimmed, shorter, dups, empty, rejected;
	uint64_t	 units, repeats, bytes;
};

struct x_decide {
	struct x_units	 u;
	uint64_t	 min;		/* -w: the fewest words left */
	unsigned char	*rep;		/* a flag a unit: repeated */
	unsigned char	*cut;		/* X_SPAN: a flag a sentence: removed */
	size_t		 repcap, cutcap;
	struct pskd_buf	 text, line;
	struct pskd_buf	*member;	/* the members' texts left */
	size_t		 nmember;
};

void	x_decide_init(struct x_decide *x, const struct x_params *p,
	    uint64_t min);
void	x_decide_free(struct x_decide *x);
/* The units of the stage's document (x->u.v, x->u.n) and room for flags. */
size_t	x_decide_units(struct x_decide *x, struct pskd_stage *st);
/*
 * The verdict of the stage's document, its units' flags in x->rep: kept
 * as it came (none repeated; "empty" with no unit), rewritten without the
 * repeated units ("trimmed"), dropped when fewer than x->min words are
 * left ("exact_too_short"), or at the doc grain dropped as a copy of line
 * line of input num ("exact_duplicate"; line 0: not known, no fields).
 */
void	x_decide(struct x_decide *x, struct pskd_stage *st, uint64_t num,
	    uint64_t line, struct x_counts *c);
void	x_counts_add(struct x_counts *a, const struct x_counts *b);
/* "pskd-exact: NAME: documents N, ..." to stderr; more: appended. */
void	x_counts_warn(const char *name, const struct x_counts *c,
	    enum x_grain g, const char *more);

/* ---- decon.c: pskd-decon's benchmark n-grams --------------------------- */

#define X_DECON_N	13	/* GPT-3's 13-grams */

struct x_bench {
	char		*name;		/* the file's name up to its first dot */
	uint32_t	 first, n;	/* its items */
};

struct x_item {
	uint32_t	 bench;
	char		*id;		/* its id, or its line number */
	uint64_t	 ngrams;	/* distinct n-grams */
	uint64_t	 docs;		/* documents it was found in */
	uint64_t	 stamp;		/* the last document that counted it */
};

/* An n-gram of an item: its key and its normalised bytes in the pool. */
struct x_gram {
	uint64_t	 key;
	uint64_t	 off;
	uint32_t	 item;
	uint32_t	 len;
};

/* A match: the item and the n-gram, in the document's normalised text. */
struct x_match {
	uint32_t	 item;
	const unsigned char *gram;
	size_t		 len;
};

struct x_decon {
	uint32_t	 n;		/* words an n-gram */
	struct pskd_norm nm;
	struct x_bench	*bench;
	size_t		 nbench;
	struct x_item	*item;
	size_t		 nitem;
	struct pskd_buf	 pool;		/* the items' normalised n-grams */
	struct x_gram	*gram;
	size_t		 ngram, gramcap;
	uint32_t	*slot;		/* gram + 1 by key; 0 empty */
	unsigned	 slotbits;
	uint64_t	*bits;		/* a bit a key's top bits: a prefilter */
	unsigned	 bitbits;
	uint64_t	 pow;		/* B^(n-1), to roll */
	uint32_t	*dup;		/* loading: an item's n-grams + 1, by key */
	size_t		 dupcap;
	/* a document's */
	struct pskd_buf	 ntext, seps;
	uint64_t	*wh;
	size_t		 whcap;
	uint64_t	*key;		/* its n-grams' keys */
	size_t		 keycap;
	size_t		*cand;		/* those the prefilter lets through */
	size_t		 candcap;
	uint64_t	 docno;
	size_t		 nfound;	/* the items it matched */
};

void	x_decon_init(struct x_decon *x, uint32_t n, unsigned norm);
/*
 * The items of a benchmark file: the members fields (commas) joined, the
 * item named by its member idfield, else its line.  -1 with e set
 * ("FILE:LINE: why").
 */
int	x_decon_load(struct x_decon *x, const char *path, const char *fields,
	    const char *idfield, struct pskd_error *e);
/* A benchmark named name[0..len), and an item of it (the last one's). */
void	x_decon_bench(struct x_decon *x, const char *name, size_t len);
void	x_decon_item(struct x_decon *x, const char *id, size_t idlen,
	    const unsigned char *text, size_t len);
/* After the last file: the lookup table. */
void	x_decon_ready(struct x_decon *x);
/*
 * The items whose n-grams text[0..len) holds: how many (each item's docs
 * counted), the first in the text in *m.
 */
size_t	x_decon_doc(struct x_decon *x, const unsigned char *text, size_t len,
	    struct x_match *m);
void	x_decon_free(struct x_decon *x);

#endif /* PSKD_EXACT_H */
