/*
 * hf-json.h - a JSON reader that walks a document in place, value by value,
 * without building a tree: for tokenizer.json files, whose vocabulary and
 * merges (hundreds of thousands of strings) go straight into their tables.
 *
 * Every function returns 0 once the document is found malformed, and the
 * first error stays in j->err (with its offset j->errat); the walk then
 * stops everywhere.  Nesting is limited to PSKD_JSCAN_DEPTH.  (Why this
 * is not lib/json.c, the reader of JSON Lines: see hf-json.c.)
 */
#ifndef PSKD_HF_JSON_H
#define PSKD_HF_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

#define PSKD_JSCAN_DEPTH	64

struct pskd_jscan {
	const unsigned char *start, *p, *end;
	const char	*err;		/* NULL while well-formed */
	size_t		 errat;		/* offset of the error */
	int		 depth;
	unsigned char	 first[PSKD_JSCAN_DEPTH];	/* no member read yet */
	unsigned char	 kind[PSKD_JSCAN_DEPTH];	/* '{' or '[' */
	int		 simd;		/* pskd_simd(): pskd_jscan_pass's way */
};

/* The kinds of value, as pskd_jscan_peek() gives them. */
#define PSKD_J_OBJECT	'{'
#define PSKD_J_ARRAY	'['
#define PSKD_J_STRING	'"'
#define PSKD_J_NUMBER	'0'
#define PSKD_J_TRUE	't'
#define PSKD_J_FALSE	'f'
#define PSKD_J_NULL	'n'

void	pskd_jscan_init(struct pskd_jscan *j, const unsigned char *p,
	    size_t n);
/* The kind of the next value, or 0 (malformed, or nothing there). */
int	pskd_jscan_peek(struct pskd_jscan *j);
/* Enter an object: 1, or 0 if the next value is not one. */
int	pskd_jscan_object(struct pskd_jscan *j);
/*
 * The next member's name into key (decoded, NUL-terminated), its ':'
 * read: 1; 0 at the end of the object (its '}' read) or on an error.
 */
int	pskd_jscan_member(struct pskd_jscan *j, struct pskd_buf *key);
/*
 * The same in steps, for a reader that takes some names its own way:
 * member_at is 1 with j->p where the next name starts, 0 at the end of
 * the object or on an error; name reads the name into key and the ':',
 * colon the ':' alone (after a name read otherwise).
 */
int	pskd_jscan_member_at(struct pskd_jscan *j);
int	pskd_jscan_name(struct pskd_jscan *j, struct pskd_buf *key);
int	pskd_jscan_colon(struct pskd_jscan *j);
/* Enter an array: 1, or 0 if the next value is not one. */
int	pskd_jscan_array(struct pskd_jscan *j);
/* 1 when another element follows; 0 at the end (its ']' read) or error. */
int	pskd_jscan_next(struct pskd_jscan *j);
/*
 * A string's text, decoded (escapes resolved, \u surrogate pairs joined;
 * lone surrogates refused), into out (replacing its contents, a NUL after
 * it not counted): 1, or 0 if the next value is not a string.
 */
int	pskd_jscan_string(struct pskd_jscan *j, struct pskd_buf *out);
/*
 * The same without a copy where the string has no escape: *s, *n its
 * text in the document, else decoded into scratch (no NUL after it).
 */
int	pskd_jscan_str(struct pskd_jscan *j, const unsigned char **s,
	    size_t *n, struct pskd_buf *scratch);
/*
 * The end of the bytes from p that a string may hold as they are (no
 * quote, backslash or control character), their UTF-8 checked; NULL at
 * one ill-formed: for a reader that takes a string its own way, at SIMD
 * level simd (a walk's j->simd).
 */
const unsigned char *pskd_jscan_plain(const unsigned char *p,
	    const unsigned char *end, int simd);
/* A whole number in [min, max]: 1, or 0 (not one, or out of range). */
int	pskd_jscan_int(struct pskd_jscan *j, int64_t min, int64_t max,
	    int64_t *v);
/* true or false: 1 with *v, or 0. */
int	pskd_jscan_bool(struct pskd_jscan *j, int *v);
/* null: 1, or 0 (and nothing read) if the next value is not null. */
int	pskd_jscan_null(struct pskd_jscan *j);
/*
 * Skip the next value, whatever it is: 1, or 0 on an error (its strings
 * are not decoded nor checked: what is read is).
 */
int	pskd_jscan_skip(struct pskd_jscan *j);
/*
 * Pass over the next value, an object or an array, by its brackets alone
 * (else pskd_jscan_skip): for a value walked again later, which checks
 * it.  Where the value is JSON, it ends where pskd_jscan_skip would; 1,
 * or 0 (no close: pskd_jscan_skip's error).
 */
int	pskd_jscan_pass(struct pskd_jscan *j);
/* After the document: only white space may follow.  1, or 0. */
int	pskd_jscan_end(struct pskd_jscan *j);
/* Record an error of the caller's (the value is not what it must be). */
int	pskd_jscan_fail(struct pskd_jscan *j, const char *why);
/* The line (from 1) and column (bytes, from 0) of the error. */
void	pskd_jscan_where(const struct pskd_jscan *j, uint64_t *line,
	    size_t *col);

#endif
