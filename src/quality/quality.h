/*
 * quality.h - the private code of pskd-filter and pskd-redact (the quality
 * family): the text as datatrove's filters see it (Python's str: code
 * points, its white space, its line breaks), words and sentences by ICU's
 * UAX #29 break iterators, the rule sets (Gopher quality, Gopher
 * repetition, C4, FineWeb, url), their settings by name, and the PII
 * replacements of pskd-redact.
 *
 * A rule set reads a struct q_text and writes a struct q_verdict: its name
 * (NULL: the document passes), the value measured and the threshold.
 */
#ifndef QUALITY_H
#define QUALITY_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/* ---- pyclass.c: the character classes of Python's str ------------------ */

/* str.isspace(): the 29 code points of bidi class WS, B or S, or Zs. */
int	q_isspace_table(uint32_t c);

static inline int
q_isspace(uint32_t c)
{
	if (c < 0x80)
		return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
	return q_isspace_table(c);
}
/* str.isalpha(): general category L (ICU's u_isalpha). */
int	q_isalpha(uint32_t c);
/* The \w of Python's re on str: isalnum() or '_'. */
int	q_isword(uint32_t c);
/* \d of Python's re on str: general category Nd. */
int	q_isdigit(uint32_t c);
/* Ends a line for str.splitlines(): \n \r \v \f \x1c-\x1e \x85 \u2028-9. */
int	q_islinebreak(uint32_t c);
/* In datatrove's PUNCTUATION_SET (text.py), and in TERMINAL_PUNCTUATION. */
int	q_ispunct_table(uint32_t c);
extern const unsigned char q_ascii_punct[128];

static inline int
q_ispunct(uint32_t c)
{
	return c < 0x80 ? q_ascii_punct[c] : q_ispunct_table(c);
}
int	q_isterminal(uint32_t c);
/*
 * The code point at s[0..n) (n > 0; the text is valid UTF-8) and its
 * length.
 */
static inline size_t
q_cp(const unsigned char *s, size_t n, uint32_t *c)
{
	if (s[0] < 0x80) {
		*c = s[0];
		return 1;
	}
	return pskd_utf8_decode(s, n, c);
}
/* Python's str.strip(): the bounds of s[0..n) without white space. */
void	q_strip(const unsigned char *s, size_t n, size_t *a, size_t *b);
/*
 * s lowercased as far as ASCII needles can tell: A-Z, U+212A (to k) and
 * U+0130 (to i U+0307) as str.lower() maps them, every other byte as it
 * is, into b (emptied first).
 */
void	q_lower(struct pskd_buf *b, const unsigned char *s, size_t n);
/* Occurrences of needle in s, counted as str.count does (no overlaps). */
size_t	q_count(const unsigned char *s, size_t n, const char *needle);
/* Does s[0..n) contain needle (memmem)? */
int	q_contains(const unsigned char *s, size_t n, const char *needle);

/* ---- scan.c: byte scans, vector code and its portable twin --------------- */

/* Code points in s[0..n). */
size_t	q_cplen(const unsigned char *s, size_t n);
/* Is s[0..n) all ASCII? */
int	q_is_ascii(const unsigned char *s, size_t n);
/* The offset of the first byte a or b in s[0..n), or n. */
size_t	q_find2(const unsigned char *s, size_t n, unsigned char a,
	    unsigned char b);
/*
 * The offset of the first byte of s[0..n) that may start a line break
 * of str.splitlines() (below 0x20, 0xc2, 0xe2), or n.
 */
size_t	q_find_break(const unsigned char *s, size_t n);
/* str.count("...") + str.count("\u2026") of s[0..n). */
size_t	q_count_ellipses(const unsigned char *s, size_t n);
/*
 * Does s[0..n) hold needle (lowercase ASCII letters and spaces) with its
 * bytes ORed with 0x20?  So whenever str.lower() of an ASCII-cased text
 * holds it, and sometimes besides.
 */
int	q_contains_folded(const unsigned char *s, size_t n, const char *needle);
/*
 * Has s[0..n) a run of more than lim bytes without ASCII white space (\t
 * to \r, \x1c to space)?  (None: no word of str.split() is longer.)
 */
int	q_run_over(const unsigned char *s, size_t n, size_t lim);
/*
 * The pieces of s[0..n) between ASCII white space that splits them
 * (space, \t to \r) that start with ASCII that is not white space: no
 * more than its words (see fineweb.c).
 */
size_t	q_count_pieces(const unsigned char *s, size_t n);
/*
 * The vector code's levels: each takes the paths of those below it where
 * it has none of its own (an AVX2 processor takes the SSE2 ones).
 */
enum { Q_PORTABLE, Q_SSE2, Q_AVX2, Q_AVX512 };
/*
 * The vector code of level (at most q_simd_max()) from now on (tests).
 * By default, what the processor has, no more than PSKD_SIMD allows: 0
 * or off the portable code, sse2, avx2 or avx512 up to that level.
 */
void	q_scan_simd(int level);
/* The highest level this processor runs. */
int	q_simd_max(void);
/* The level the vector code takes (seg.c too). */
int	q_simd(void);

/* ---- lines.c: the line splits of datatrove's rules --------------------- */

struct q_span {
	size_t		 off, len;	/* bytes in the text */
	size_t		 cps;		/* code points */
};

struct q_spans {
	struct q_span	*v;
	size_t		 n, cap;
};

void	q_spans_grow(struct q_spans *s);

static inline void
q_spans_add(struct q_spans *s, size_t off, size_t len, size_t cps)
{
	if (s->n == s->cap)
		q_spans_grow(s);
	s->v[s->n].off = off;
	s->v[s->n].len = len;
	s->v[s->n].cps = cps;
	s->n++;
}
void	q_spans_free(struct q_spans *s);
/*
 * str.splitlines(): no empty last line after a final line break; the
 * spans' cps are not counted (0).
 */
void	q_splitlines(const unsigned char *t, size_t n, struct q_spans *out);
/* re.split(sep+): sep a byte ('\n'); pieces may be empty. */
void	q_split_runs(const unsigned char *t, size_t n, unsigned char sep,
	    size_t min, struct q_spans *out);
/*
 * find_duplicates of datatrove's Gopher repetition filter: the elements
 * that are repeats of an earlier one, and their code points.
 */
void	q_duplicates(const unsigned char *t, const struct q_spans *s,
	    uint64_t *elements, uint64_t *chars);

/* ---- seg.c: words and sentences (ICU) ----------------------------------- */

/*
 * The word and sentence break iterators of ICU's root locale over UTF-8
 * text.  A word is every segment between two UAX #29 word boundaries
 * with its white space (q_isspace) stripped, when something is left.
 */
struct q_seg;

struct q_seg *q_seg_open(struct pskd_error *e);
void	q_seg_close(struct q_seg *s);
/* -1 (e set) for a text ICU cannot take (longer than 2^31 - 1 bytes). */
int	q_words(struct q_seg *s, const unsigned char *t, size_t n,
	    struct q_spans *out, struct pskd_error *e);
/*
 * The sentences of t as datatrove's split_into_sentences cuts them: the
 * text from one sentence's end to the next (the first from 0, the last to
 * n), so white space goes with the sentence before.
 */
int	q_sentences(struct q_seg *s, const unsigned char *t, size_t n,
	    struct q_spans *out, struct pskd_error *e);
/*
 * sent.c: the sentences of ASCII text t[0..n) (n > 0), as ICU cuts them
 * (to out, when not NULL, with their code points): how many, counted up
 * to limit.
 */
size_t	q_ascii_sentences(const unsigned char *t, size_t n, size_t limit,
	    struct q_spans *out);
/* ICU for every word and sentence, no ASCII path (to test that they agree). */
void	q_seg_icu_only(struct q_seg *s, int on);
/* How many pieces q_sentences would cut t into, counted up to limit. */
int	q_sentence_count(struct q_seg *s, const unsigned char *t, size_t n,
	    size_t limit, size_t *count, struct pskd_error *e);
/* The ICU version the iterators come from ("72.1"). */
const char *q_icu_version(void);

/* ---- settings.c: every threshold by name -------------------------------- */

#define Q_NGRAM_MAX	16	/* repetition n-grams: n from 1 to this */

struct q_words {		/* a list of strings (stop words) */
	char		**v;
	size_t		 n;
	char		*mem;
};

struct q_settings {
	/* Gopher quality (datatrove's GopherQualityFilter); -1: off */
	double		 min_doc_words, max_doc_words;
	double		 min_avg_word_length, max_avg_word_length;
	double		 max_symbol_word_ratio, max_bullet_lines_ratio;
	double		 max_ellipsis_lines_ratio, max_non_alpha_words_ratio;
	double		 min_stop_words;
	struct q_words	 stop_words;
	/* Gopher repetition; -1: off */
	double		 dup_line_frac, dup_para_frac;
	double		 dup_line_char_frac, dup_para_char_frac;
	double		 top_ngram[Q_NGRAM_MAX + 1];	/* by n */
	double		 dup_ngram[Q_NGRAM_MAX + 1];
	/* C4 */
	int		 split_paragraph, remove_citations;
	int		 filter_no_terminal_punct;
	double		 min_num_sentences, min_words_per_line, max_word_length;
	int		 filter_lorem_ipsum, filter_javascript;
	int		 filter_curly_bracket, filter_policy;
	/* FineWeb */
	double		 line_punct_thr;
	int		 line_punct_exclude_zero;
	uint32_t	*stop_chars;	/* NULL: TERMINAL_PUNCTUATION */
	size_t		 nstop_chars;
	double		 short_line_thr, short_line_length;
	double		 char_duplicates_ratio, new_line_ratio;
	/* pskd-redact (PIIFormatter) */
	int		 remove_emails, remove_ips, only_remove_public_ips;
	struct q_words	 email_replacement, ip_replacement;
};

#define Q_SET_FILTER	1	/* the settings of pskd-filter */
#define Q_SET_REDACT	2	/* of pskd-redact */

/* datatrove's defaults. */
void	q_settings_default(struct q_settings *s);
/*
 * "NAME=VALUE" (--set): 0, or -1 with a message in e ("unknown setting
 * 'x'", "gopher.min_doc_words: 'x' is not a number or off").
 */
int	q_settings_set(struct q_settings *s, int which, const char *arg,
	    struct pskd_error *e);
/* Every setting of which, "NAME=VALUE" a line (lang: "LANG:NAME=VALUE"). */
void	q_settings_print(const struct q_settings *s, int which,
	    struct pskd_writer *w, const char *lang);
void	q_settings_free(struct q_settings *s);

/* ---- the rule sets -------------------------------------------------------- */

struct q_verdict {
	const char	*name;		/* NULL: passes */
	char		 what[64];
	char		 against[64];
};

/* A document's text and what the rules found in it, computed once. */
struct q_text {
	const unsigned char *p;
	size_t		 n;
	size_t		 cps;		/* code points */
	int		 have_words, have_lines;
	unsigned	 gen;		/* counts the word lists computed */
	struct q_spans	 words;
	struct q_spans	 plines;	/* str.splitlines(), once */
	/* scratch of the rules */
	struct q_spans	 lines, lines2, sents;
	struct pskd_buf	 lower, passed, buf;
	uint64_t	*hash;
	size_t		 hashcap;
	struct q_ngram_tab *tab;
};

void	q_text_set(struct q_text *t, const unsigned char *p, size_t n);
/* The lines of t as str.splitlines() cuts them, once. */
const struct q_spans *q_text_lines(struct q_text *t);
/* The words of t (q_words, once); -1 with e set. */
int	q_text_words(struct q_text *t, struct q_seg *seg, struct pskd_error *e);
void	q_text_free(struct q_text *t);

/* v = the first rule of the set that t fails; -1 with e set on errors. */
int	q_gopher_quality(struct q_text *t, struct q_seg *seg,
	    const struct q_settings *s, struct q_verdict *v,
	    struct pskd_error *e);
int	q_gopher_repetition(struct q_text *t, struct q_seg *seg,
	    const struct q_settings *s, struct q_verdict *v,
	    struct pskd_error *e);
/*
 * C4 also leaves in t->passed the text it passes on (its kept lines, as
 * datatrove's C4QualityFilter rewrites the document).
 */
int	q_c4(struct q_text *t, struct q_seg *seg, const struct q_settings *s,
	    struct q_verdict *v, struct pskd_error *e);
int	q_fineweb(struct q_text *t, struct q_seg *seg,
	    const struct q_settings *s, struct q_verdict *v,
	    struct pskd_error *e);

/* a / b, with 0 / 0 = 0 and a / 0 = infinity (where datatrove fails). */
static inline double
q_ratio(double a, double b)
{
	if (b == 0)
		return a == 0 ? 0 : 1.0 / 0.0;
	return a / b;
}

/* A threshold that is not off (-1). */
static inline int
q_on(double threshold)
{
	return threshold >= 0;
}

/* Whole numbers as such, others as the shortest text that reads back. */
void	q_format_number(char *out, size_t size, double d);
/* The what and against of a verdict: a count, a ratio, a string. */
void	q_verdict_set(struct q_verdict *v, const char *name, double what,
	    double against);
void	q_verdict_str(struct q_verdict *v, const char *name, const char *what,
	    size_t whatlen, const char *against);

/* ---- ngram.c: the repetition n-grams ------------------------------------- */

struct q_ngram_tab;

/*
 * Of the n-grams of words joined by a space: the code points of the most
 * frequent one times its count (ties: the first to appear), and that
 * count in *topcount.  On entry *topcount is no less than the count of
 * the most frequent (n-1)-gram (UINT64_MAX: not known).  Where a bound
 * shows the fraction of t->cps cannot pass frac, it may give the bound
 * instead, and for the count one no smaller than it.
 */
uint64_t q_top_ngram(struct q_text *t, size_t n, double frac,
	    uint64_t *topcount);
/*
 * datatrove's find_all_duplicate: the code points of the n-grams (joined
 * with nothing between) seen before, scanning on past each one found.
 * It may stop short, with a count that is not the whole one, where the
 * rest cannot bring the fraction of t->cps above frac.
 */
uint64_t q_dup_ngrams(struct q_text *t, size_t n, double frac);
void	q_ngram_free(struct q_text *t);

/* ---- url.c: the url rule set ---------------------------------------------- */

struct q_urls;

struct q_urls *q_urls_new(void);
/*
 * A blocklist (domains and URLs, one a line) or a list of banned
 * substrings (substrings 1), from path: 0, or -1 with e "FILE:LINE: why".
 */
int	q_urls_load(struct q_urls *u, const char *path, int substrings,
	    struct pskd_error *e);
/* The same from memory (name for messages). */
int	q_urls_parse(struct q_urls *u, const char *name,
	    const unsigned char *p, size_t n, int substrings,
	    struct pskd_error *e);
/* 1 when no list was loaded. */
int	q_urls_empty(const struct q_urls *u);
/* The url rules on the url url[0..n); v->name NULL when it passes. */
void	q_urls_check(struct q_urls *u, const unsigned char *url, size_t n,
	    struct q_verdict *v);
void	q_urls_free(struct q_urls *u);

/* ---- pii.c: the replacements of pskd-redact ------------------------------- */

/* One match of PIIFormatter's patterns in a text: bytes [off, off+len). */
struct q_match {
	size_t		 off, len;
	const char	*with;		/* the replacement; NULL: keep it */
};

struct q_matches {
	struct q_match	*v;
	size_t		 n, cap;
};

/*
 * The emails (pass 0) or IPv4 addresses (pass 1) of t[0..n), as Python's
 * re finds datatrove's patterns, left to right without overlaps; an
 * address that is not public (only_remove_public_ips) or has a leading
 * zero is a match kept as it is.  *cycle counts the replacements used.
 */
void	q_pii_emails(const unsigned char *t, size_t n,
	    const struct q_settings *s, size_t *cycle, struct q_matches *out);
void	q_pii_ips(const unsigned char *t, size_t n,
	    const struct q_settings *s, size_t *cycle, struct q_matches *out);
/* 1 for a public IPv4 address a.b.c.d (Python's is_global). */
int	q_ipv4_global(uint32_t a);

/* ---- redact.c: pskd-redact's rewriting of a line ------------------------- */

struct q_edit;

struct q_redactor {
	const struct q_settings *s;	/* set before the first q_redact */
	uint64_t	 nemails, nips;	/* replaced so far */
	struct pskd_buf	 line;		/* the line q_redact made */
	/* private */
	struct q_matches emails, ips;
	struct pskd_buf	 text1, text2, wbuf;
	struct q_edit	*edits;
	size_t		 nedits, capedits, ce, ci;
};

/*
 * The line[0..len) with the emails and addresses of its text members
 * f[0..nf) (as pskd_json_fields left them) replaced, in r->line: 1; or 0
 * when there is nothing to replace.
 */
int	q_redact(struct q_redactor *r, const unsigned char *line, size_t len,
	    const struct pskd_json_field *f, size_t nf);
void	q_redactor_free(struct q_redactor *r);

#endif /* QUALITY_H */
