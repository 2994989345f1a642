/*
 * stats.h - the statistics family (pskd-stats, pskd-report): one object of
 * statistics per stream, which merges with another of its kind into the
 * object of the two streams one after the other, and is written as one line
 * of JSON and read back from it (pskd-stats(1) documents every member).
 */
#ifndef PSKD_STATS_H
#define PSKD_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "stats/jv.h"

/*
 * A distribution of whole numbers: count, sum, min, max and a histogram
 * with fixed bins.  The log scale: the values 0 to 7 have a bin each, then
 * each octave [2^e, 2^(e+1)) is split into four bins of equal width.  The
 * per-cent scale (estimates, kept in ten-thousandths): one bin per
 * hundredth, [0.00, 0.01) to [0.99, 1.00), and one for 1 exactly.
 */
enum stats_scale { STATS_LOG, STATS_PERCENT };

#define STATS_LOG_BINS		252
#define STATS_PERCENT_BINS	101
#define STATS_BINS		STATS_LOG_BINS

struct stats_dist {
	enum stats_scale scale;
	uint64_t	 count;
	uint64_t	 sum;
	uint64_t	 min;		/* valid when count > 0 */
	uint64_t	 max;
	uint64_t	 bin[STATS_BINS];
};

void	stats_dist_init(struct stats_dist *d, enum stats_scale scale);
unsigned stats_bin(enum stats_scale scale, uint64_t v);
/* The smallest and the largest value of bin b. */
uint64_t stats_bin_lo(enum stats_scale scale, unsigned b);
uint64_t stats_bin_hi(enum stats_scale scale, unsigned b);

static inline void
stats_dist_add(struct stats_dist *d, uint64_t v)
{
	if (d->count == 0 || v < d->min)
		d->min = v;
	if (d->count == 0 || v > d->max)
		d->max = v;
	d->count++;
	d->sum += v;
	d->bin[stats_bin(d->scale, v)]++;
}

/* Add the values of s to d; nonzero when a count or the sum overflows. */
int	stats_dist_merge(struct stats_dist *d, const struct stats_dist *s);
/*
 * Whether min lies in the first bin that holds a value, max in the last,
 * and the sum between the bins' smallest and largest sums: 0, or -1.
 */
int	stats_dist_check(const struct stats_dist *d);
/*
 * Take out one value v that d holds: count, sum and bin (min and max are
 * the caller's to set).
 */
void	stats_dist_remove(struct stats_dist *d, uint64_t v);
/* A value as the JSON shows it: ten-thousandths as a decimal. */
void	stats_value_text(char *t, size_t size, enum stats_scale scale,
	    uint64_t v);
/* {"count": ..., "histogram": [[lo, hi, n], ...]} to b. */
void	stats_dist_json(struct pskd_buf *b, const struct stats_dist *d);
/* Read it back; -1 with err set. */
int	stats_dist_parse(struct stats_dist *d, const struct jv *v,
	    enum stats_scale scale, char *err, size_t errsize);

/*
 * Counts by name, in the order of the names' bytes: the verdicts that
 * dropped documents, the languages of documents.  At most
 * STATS_NAMES_MAX names of at most STATS_NAME_MAX bytes each.
 */
#define STATS_NAMES_MAX	10000
#define STATS_NAME_MAX	255

struct stats_tally {
	size_t		 n;
	char		**name;
	uint64_t	*count;
};

/* Add k to name's count: 0, or -1 for one name too many or too long. */
int	stats_tally_add(struct stats_tally *t, const unsigned char *name,
	    size_t len, uint64_t k);
int	stats_tally_merge(struct stats_tally *t, const struct stats_tally *s);
/* The count of name (0: none). */
uint64_t stats_tally_get(const struct stats_tally *t, const char *name);
void	stats_tally_copy(struct stats_tally *to, const struct stats_tally *from);
uint64_t stats_tally_sum(const struct stats_tally *t);
void	stats_tally_free(struct stats_tally *t);
/* {"name":count,...} to b. */
void	stats_tally_json(struct pskd_buf *b, const struct stats_tally *t);
/* Read it back (v NULL: none); ok() judges each name.  -1 with err. */
int	stats_tally_parse(struct stats_tally *t, const struct jv *v,
	    int (*ok)(const char *, size_t), char *err, size_t errsize);
/* A verdict's name: letters, digits, underscores and dots (1 or more). */
int	stats_verdict_word(const char *s, size_t n);

/* The kinds of stream, and of object. */
enum stats_kind {
	STATS_DOCUMENTS,
	STATS_VERDICTS,
	STATS_SHINGLES,
	STATS_SIGNATURES,
	STATS_TOKENS,
	STATS_WINDOWS,
	STATS_SAMPLES,
	STATS_NKINDS
};

const char *stats_kind_name(enum stats_kind k);
int	stats_kind_parse(const char *name, enum stats_kind *k);

/*
 * The windows a token stream would make (pskd-stats --length): what
 * pskd-window's accounting (pskd-window(1), What is kept) gives for the
 * documents of the stream cut the way asked.
 */
enum stats_packing {
	STATS_PACK_NONE = 0,	/* not asked */
	STATS_PACK_PLAIN,	/* windows of a stride */
	STATS_PACK_BOS,		/* --align bos */
	STATS_PACK_BESTFIT	/* --pack best-fit */
};

struct stats_eff {
	enum stats_packing packing;
	uint64_t	 length;	/* T */
	uint64_t	 stride;	/* plain */
	uint64_t	 buffer;	/* best-fit */
	uint64_t	 windows, kept, cropped, padded;
};

/* Plain windows of n tokens: windows, kept and cropped from e's T and S. */
void	stats_eff_plain(struct stats_eff *e, uint64_t n);
/* ,"efficiency":{...} of a token stream that has one, to b. */
void	stats_eff_json(struct pskd_buf *b, const struct stats_eff *e);
/* Read it back from object v (none: packing NONE); -1 with err. */
int	stats_eff_parse(struct stats_eff *e, const struct jv *v, uint64_t n,
	    char *err, size_t errsize);
/*
 * b's after a's (a's tokens na, b's nb): the same cut of both streams, or
 * -1 with err.  Plain windows are those of the two streams as one.
 */
int	stats_eff_merge(struct stats_eff *a, const struct stats_eff *b,
	    uint64_t na, uint64_t nb, char *err, size_t errsize);

/* Vocabularies up to this size get an exact count of every id. */
#define STATS_MAX_COUNTED	(1u << 21)

struct stats {
	enum stats_kind	 kind;
	char		*label;		/* NULL: null */
	uint64_t	 bytes;		/* of the records, headers excluded */
	uint64_t	 n;		/* documents, verdicts, frames, tokens,
					   windows or samples */

	/* documents: the text's bytes and characters */
	struct stats_dist text_bytes, text_chars;
	/* and the language members (pskd-lid's): names, scores */
	struct stats_tally langs;
	struct stats_dist lscore;	/* ten-thousandths */

	/* verdicts */
	uint64_t	 keep, empty, neardup, rejected;
	struct stats_dist est;		/* ten-thousandths */
	struct stats_tally drops;	/* every other verdict, by name */
	/* kept, some units cut (pskd-exact's trimmed): the bytes, units */
	uint64_t	 trimmed, trim_bytes, trim_units;

	/* frames (shingles, signatures): the stream's parameters */
	uint32_t	 unit, width, norm, k, family;
	uint64_t	 shingle_seed, minhash_seed;
	struct stats_dist line_bytes, values;

	/* tokens, windows: the vocabulary and the end-of-text id */
	uint64_t	 vocab, eot;
	/*
	 * tokens: the documents (tokens between end-of-text ids) as a
	 * monoid: neot end-of-text ids; head tokens before the first (all
	 * of them when there is none), tail after the last; inner, the
	 * documents between the first and the last.
	 */
	uint64_t	 neot, head, tail;
	struct stats_dist inner;
	uint64_t	*ids;		/* vocab counts, or NULL */
	struct stats_eff eff;		/* --length */

	/* windows */
	uint64_t	 samples, seq, shifted;
	struct stats_dist eot_per_window;
	/* and their segment ids (pskd-window --segments), when they have */
	int		 segs;
	uint64_t	 padded;	/* row tokens of padding (id 0) */
	struct stats_dist segments;	/* segments a window */

	/* windows, samples */
	char		*type;		/* the .psk.d type text */
	uint64_t	 sample_size;
};

void	stats_init(struct stats *s, enum stats_kind kind);
void	stats_free(struct stats *s);
/* A deep copy of from, with no label. */
void	stats_copy(struct stats *to, const struct stats *from);
void	stats_set_label(struct stats *s, const char *label);
/* Give a tokens object its id counts (vocab must be set). */
void	stats_want_ids(struct stats *s);
/* The documents of a token stream as they stand: inner, head and tail. */
void	stats_token_docs(const struct stats *s, struct stats_dist *out);
/*
 * Merge b into a, as if b's stream followed a's.  -1 with err set when the
 * two cannot be merged (other kinds or parameters).
 */
int	stats_merge(struct stats *a, const struct stats *b, char *err,
	    size_t errsize);
/* One line of JSON (with its newline) to b; top: ids in the top list. */
void	stats_json(struct pskd_buf *b, const struct stats *s, uint64_t top);
/* Read an object back; -1 with err set. */
int	stats_parse(struct stats *s, const struct jv *v, char *err,
	    size_t errsize);
/* The same from its line of JSON. */
int	stats_read(struct stats *s, const unsigned char *line, size_t len,
	    char *err, size_t errsize);

/*
 * The default end-of-text id of a vocabulary of size V: <|endoftext|> of
 * the tiktoken encoding of that size, else V-1 (the last id, where
 * pskd-tok puts it in char and trained vocabularies).
 */
uint64_t stats_default_eot(uint64_t vocab);

#endif /* PSKD_STATS_H */
