/*
 * warc.h - pskd-unwarc's family: WARC and WET files to documents.
 *
 *   input.c    a file's decoded bytes (plain, a gzip member or a zstd frame
 *              per record, or one for all), which of them are checked, and
 *              where in the file each member started
 *   record.c   WARC records: the header fields, the block, the end
 *   http.c     an HTTP response in a block: status, fields, chunked body
 *   coding.c   the content codings of a body: gzip, deflate, br, zstd
 *   charset.c  which charset: BOM, header, meta tag, detection; labels
 *   convert.c  from that charset to UTF-8, bad bytes replaced and counted
 *   html.c     the bounds on a page, gumbo's parse in an arena
 *   extract.c  the main text: blocks, boilerplate, the content's container
 *   text.c     a block's text: white space, line breaks
 *
 * Errors: functions return -1 and leave a message (no newline) in the
 * struct they work on; the program names the file, record and offset.
 */
#ifndef WARC_H
#define WARC_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

/* ---- input.c ------------------------------------------------------------ */

enum wi_format { WI_EMPTY, WI_PLAIN, WI_GZIP, WI_ZSTD };

/* Where a piece (gzip member, zstd frame) began: decoded and file offsets. */
struct wi_piece {
	uint64_t	 d, f;
};

struct wi {
	struct pskd_reader r;		/* the file's bytes */
	const char	*name;
	enum wi_format	 fmt;
	uint64_t	 base;		/* file offset of the reader's byte 0 */
	unsigned char	*buf;		/* decoded bytes */
	size_t		 pos, end, cap;
	uint64_t	 dpos;		/* decoded offset of buf[pos] */
	uint64_t	 checked;	/* decoded bytes before it are checked */
	int		 inside;	/* inside a piece */
	int		 eof;		/* the file has ended, cleanly */
	struct wi_piece	*pieces;	/* pieces not yet behind the reader */
	size_t		 npieces, piecescap;
	void		*zs;		/* z_stream */
	void		*zd;		/* ZSTD_DCtx */
	void		*fast;		/* libdeflate's decompressor */
	char		 why[256];	/* the error, after -1 */
};

/* Opens path (NULL or "-": standard input) and sniffs its format. */
int	wi_open(struct wi *w, const char *path);
/* The same for an open descriptor (closed by wi_close only if owned). */
int	wi_fdopen(struct wi *w, int fd, const char *name);
/* Continue at file offset off, the start of a piece (a seek if it can). */
int	wi_seek(struct wi *w, uint64_t off);
void	wi_close(struct wi *w);
/*
 * At least n decoded bytes at *p (fewer only at the end of the file):
 * returns how many, or -1 (w->why).
 */
ssize_t	wi_peek(struct wi *w, size_t n, const unsigned char **p);
void	wi_skip(struct wi *w, size_t n);
/* Decode until the bytes before d are checked: 0, or -1. */
int	wi_check(struct wi *w, uint64_t d);
/* Skip to the end of the piece holding the next byte: 0, or -1. */
int	wi_piece_rest(struct wi *w);
/* Skip n decoded bytes without holding them; 0, or -1 (short: why). */
int	wi_discard(struct wi *w, uint64_t n);
/*
 * The file offset of the piece holding decoded offset d (plain: d itself),
 * and whether d is that piece's first byte (so a range may start there).
 * Pieces before it are forgotten: d never goes back.
 */
uint64_t wi_file_offset(struct wi *w, uint64_t d, int *first);
const char *wi_format_name(enum wi_format f);

/* ---- record.c ------------------------------------------------------------ */

#define WARC_HEADER_MAX	(1u << 20)	/* a record's header fields */

struct warc_field {
	const char	*name;		/* NUL-terminated, in rec->hdr */
	const char	*value;		/* NUL-terminated, trimmed */
	size_t		 vlen;
};

struct warc_rec {
	uint64_t	 no;		/* 1 for the first record of a file */
	uint64_t	 d;		/* decoded offset of its first byte */
	uint64_t	 off;		/* its file offset (its piece's) */
	char		 version[16];	/* "1.0" */
	struct pskd_buf	 hdr;		/* the fields' text, NUL-split */
	struct warc_field *f;
	size_t		 nf, fcap;
	uint64_t	 length;	/* Content-Length */
	int		 loaded;	/* warc_block gave the block */
	int		 too_short;	/* text after the block, skipped */
	int		 first;		/* it starts its piece */
	char		 why[256];
};

/*
 * The next record's header: 1, 0 at the end of the file, -1 (rec->why;
 * the input's own error when w->why is set).
 */
int	warc_next(struct wi *w, struct warc_rec *rec);
/* A field's value (first of its name, any case), or NULL. */
const char *warc_get(const struct warc_rec *rec, const char *name,
	    size_t *len);
/* The block, all of it in memory (at most max bytes): 0, or -1. */
int	warc_block(struct wi *w, struct warc_rec *rec, size_t max,
	    const unsigned char **p);
/* Past the block (read or not) and the CR LF CR LF after it: 0 or -1. */
int	warc_finish(struct wi *w, struct warc_rec *rec);
void	warc_rec_free(struct warc_rec *rec);
/* Blanks (and a CR) trimmed from both ends of p[0..*n). */
const unsigned char *warc_trim(const unsigned char *p, size_t *n);

/* ---- http.c ------------------------------------------------------------- */

struct http_resp {
	int		 status;
	char		 media[80];	/* "text/html", lower case; "" none */
	char		 label[64];	/* the charset parameter; "" none */
	int		 chunked;	/* Transfer-Encoding: chunked */
	char		 coding[64];	/* Content-Encoding, lower case */
	const unsigned char *body;
	size_t		 bodylen;
};

/* A response's status line and fields: 0, or -1 when it is none. */
int	http_parse(const unsigned char *p, size_t n, struct http_resp *h);
/* The media type and charset label of a Content-Type value. */
void	http_content_type(const char *v, size_t n, char *media, size_t msize,
	    char *label, size_t lsize);
/*
 * The body without its transfer and content codings, at most max bytes,
 * into out.  A chunked body that does not parse is taken as it is; a
 * coding that fails midway gives what decoded before.  Returns 0, 1 when
 * cut at max, or -1 (why) for an unknown coding or nothing decodable.
 */
int	http_decode(const struct http_resp *h, size_t max,
	    struct pskd_buf *out, char *why, size_t whysize);

/* ---- coding.c ------------------------------------------------------------ */

enum coding { CODING_GZIP, CODING_DEFLATE, CODING_BR, CODING_ZSTD };

/* p[0..n) decoded into out (at most max bytes): 0, 1 cut at max, -1 bad. */
int	coding_decode(enum coding c, const unsigned char *p, size_t n,
	    size_t max, struct pskd_buf *out);
void	coding_free(void);

/* ---- charset.c ------------------------------------------------------------ */

/* A charset by its WHATWG name, and what iconv calls it. */
struct charset {
	const char	*name;		/* "windows-1251" */
	const char	*iconv;		/* "CP1251"; NULL: UTF-8 itself */
};

/* The charset a label names (any case, blanks around), or NULL. */
const struct charset *charset_label(const char *label, size_t n);
/*
 * The charset of a page: the BOM, else the HTTP label, else a meta tag in
 * its first 1024 bytes, else detection; how it was found in *how
 * ("bom", "header", "meta", "detected").  NULL with why set: the first
 * label found names no charset.
 */
const struct charset *charset_find(const unsigned char *p, size_t n,
	    const char *label, const char **how, char *why, size_t whysize);
void	charset_free(void);

/* ---- convert.c ----------------------------------------------------------- */

/*
 * p[0..n) in charset cs to UTF-8 appended to out, every byte that does not
 * decode replaced by U+FFFD; returns how many were.  A BOM is dropped.
 */
uint64_t convert_utf8(const struct charset *cs, const unsigned char *p,
	    size_t n, struct pskd_buf *out);
void	convert_free(void);

/* ---- html.c, extract.c, text.c -------------------------------------------- */

/* The bounds of one page (pskd-unwarc(1), EXTRACTION). */
#define HTML_MAX_BYTES	(8u << 20)	/* bytes parsed */
#define HTML_MAX_TAGS	200000u		/* tags parsed */
#define HTML_MAX_DEPTH	512u		/* elements open at once */
#define HTML_MAX_TAGLEN	(64u << 10)	/* bytes of one tag */
#define HTML_TITLE_MATCH 4096u		/* a title headings may be in */

enum extract_mode { EXTRACT_BALANCED, EXTRACT_PRECISION, EXTRACT_RECALL };

struct extract {
	enum extract_mode mode;
	struct pskd_buf	 text;		/* out: the main text, UTF-8 */
	struct pskd_buf	 title;		/* out: the <title>, "" none */
	int		 cut;		/* out: the page was cut at a bound */
	void		*priv;		/* the arena, the blocks */
};

/* Placeholders of text runs in the page gumbo parses (prepare.c). */
#define HTML_MARK	"\xef\xa3\xbe"	/* U+F8FE */
#define HTML_DIGIT0	0xE000u
#define HTML_BASE	6000u
#define HTML_RUNS_MAX	(HTML_BASE * HTML_BASE)

/* The main text and title of n bytes of UTF-8 HTML into x. */
void	extract_html(struct extract *x, const unsigned char *p, size_t n);
void	extract_free(struct extract *x);

/* ---- doc.c ------------------------------------------------------------- */

/* Why a record is no document (counted; the "skip" member of --all). */
enum {
	DOC_TYPE, DOC_REVISIT, DOC_NOTHTTP, DOC_BADHTTP, DOC_STATUS,
	DOC_NOTHTML, DOC_CODING, DOC_EMPTY, DOC_NSKIP
};
extern const char *const doc_skip_names[DOC_NSKIP];

#define DOC_MAXTYPES	16

struct doc {
	/* options */
	const char	*types[DOC_MAXTYPES];	/* WARC-Types made documents */
	size_t		 ntypes;
	int		 all;		/* --all */
	size_t		 max;		/* bytes of a decoded body */
	/* counts */
	uint64_t	 docs, skipped[DOC_NSKIP], ninvalid, cut;
	/* private */
	struct extract	 x;
	struct pskd_buf	 body, utf8, tmp;
	const unsigned char *text;	/* the record's text in UTF-8 */
	size_t		 textlen;
	uint64_t	 invalid;
	size_t		 start;
};

/*
 * Record rec with its block p[0..n) (when its type is wanted) as a line
 * appended to out: 1 a line, 0 skipped, -1 a bad record (why).
 */
int	doc_record(struct doc *d, const struct warc_rec *rec,
	    const unsigned char *p, size_t n, struct pskd_buf *out, char *why,
	    size_t whysize);
int	doc_type_wanted(const struct doc *d, const char *type);
void	doc_free(struct doc *d);

#endif
