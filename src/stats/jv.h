/*
 * jv.h - a JSON text as a tree, for the one kind of document the
 * statistics family reads back whole: its own objects.  Numbers stay
 * text, so that whole numbers up to 2^64-1 read exactly.
 *
 * Why not lib's json.c: that one takes named members out of one line
 * (at most 32, by path) and gives their raw text; an object of pskd-stats
 * holds arrays of arrays (histograms, up to 2^21 id counts) and objects
 * whose members are not known in advance (the verdicts by name, the
 * languages), which have to be walked.  Where named members are all that
 * is needed (the manifest's counts in report.c), json.c is used.
 */
#ifndef PSKD_JV_H
#define PSKD_JV_H

#include <stddef.h>
#include <stdint.h>

enum jv_type {
	JV_NULL,
	JV_FALSE,
	JV_TRUE,
	JV_NUMBER,
	JV_STRING,
	JV_ARRAY,
	JV_OBJECT
};

struct jv {
	enum jv_type	 type;
	size_t		 n;		/* elements or members */
	struct jv	*items;		/* array elements, member values */
	char		**keys;		/* member names */
	char		*str;		/* a string, unescaped; a number's text */
	size_t		 len;
};

#define JV_MAXDEPTH	64

/*
 * Parse p[0..n), one JSON value with blanks around it.  0, or -1 with a
 * message in err and the byte offset of the problem in *erroff.
 */
int	jv_parse(struct jv *v, const unsigned char *p, size_t n, char *err,
	    size_t errsize, size_t *erroff);
void	jv_free(struct jv *v);
/* The member key of an object (the last of duplicates), or NULL. */
const struct jv *jv_member(const struct jv *v, const char *key);
/* A whole number 0 .. 2^64-1: 0, or -1 when v is anything else. */
int	jv_u64(const struct jv *v, uint64_t *out);

#endif /* PSKD_JV_H */
