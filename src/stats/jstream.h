/*
 * jstream.h - one JSON Lines document read as it passes, in pieces of any
 * size, for the documents too long to hold (pskd-stats reads a line of up
 * to 1 MiB whole, with lib's json.c; a longer one goes through here).  It
 * accepts and refuses exactly what pskd_json_fields does, with the same
 * message at the same byte, and gives of the members it is asked for what
 * pskd-stats needs: their kind; for a string the length of its unescaped
 * text in bytes and code points; and, for a member that asks for it, up
 * to cap bytes of its value (a string unescaped, else its JSON text).
 * fuzz-stats-docs holds the two readers to each other.
 */
#ifndef PSKD_JSTREAM_H
#define PSKD_JSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"

#define JS_MAXFIELDS	32
#define JS_MAXDEPTH	256	/* as json.c */
#define JS_KEYCAP	256	/* longer keys match no member asked for */

struct js_field {
	const char	*name;		/* in: the member's path, "a.b" */
	size_t		 cap;		/* in: bytes of the value to keep */
	enum pskd_json_kind kind;	/* out */
	int		 null;		/* out: the value is null */
	uint64_t	 bytes, chars;	/* out: a string's unescaped text */
	struct pskd_buf	 value;		/* out: its first cap bytes */
	int		 over;		/* out: the value has more */
};

struct js_level {
	unsigned char	 object;
	uint32_t	 active;	/* fields whose path goes on in here */
	uint32_t	 here;		/* fields whose value this container is */
};

struct jstream {
	struct js_field	*f;
	size_t		 nf;
	uint64_t	 at;		/* bytes of the line fed so far */
	int		 state, sub;
	int		 key;		/* the string is a member name */
	uint32_t	 here, deeper;	/* of the value being read */
	uint64_t	 start;		/* where the token began */
	uint64_t	 esc;		/* where the escape began */
	unsigned char	 hold[8];	/* an escape's or a character's bytes */
	size_t		 nhold, want;
	uint64_t	 holdat;	/* where hold[0] is */
	unsigned char	 keyb[JS_KEYCAP];
	size_t		 keylen;
	const char	*word;		/* the literal being read */
	size_t		 depth;
	struct js_level	 lv[JS_MAXDEPTH];
	char		 err[200];	/* the message, as json.c words it */
	uint64_t	 erroff;
};

void	js_begin(struct jstream *j, struct js_field *f, size_t nf);
/* The next n bytes of the line (no '\n'): 0, or -1 with err and erroff. */
int	js_feed(struct jstream *j, const unsigned char *p, size_t n);
/* The end of the line: 0, or -1 as js_feed. */
int	js_end(struct jstream *j);
void	js_free(struct js_field *f, size_t nf);

#endif /* PSKD_JSTREAM_H */
