/*
 * char.h - character vocabularies: one character a line, sorted or
 * not, token i being the character of line i (from 0).  A backslash,
 * newline, tab and carriage return are written \\ \n \t \r, other control
 * characters (below U+0020, and U+007F) \xHH; every other character as its
 * UTF-8.
 */
#ifndef PSKD_CHAR_H
#define PSKD_CHAR_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

struct pskd_charvocab {
	uint32_t	 n;		/* characters */
	uint32_t	*chars;		/* id -> code point */
	uint32_t	*id;		/* code point -> id + 1 (0: none) */
};

/*
 * Parse a whole vocabulary from p[0..n).  On error returns -1 with
 * "LINE: message" in err; the caller adds the file name.
 */
int	pskd_charvocab_parse(struct pskd_charvocab *v, const unsigned char *p,
	    size_t n, char *err, size_t errsize);
void	pskd_charvocab_free(struct pskd_charvocab *v);
/* Append the line of code point cp (escaped, with its newline) to b. */
void	pskd_charvocab_line(struct pskd_buf *b, uint32_t cp);

#endif
