/*
 * params.h - the one text form of a signature stream's parameters and the
 * banding of pskd-lsh, as the index manifest and the map-reduce document
 * lists carry them (pskd-lsh(1)):
 *
 *	unit U n N norm M shingle_seed S k K family F minhash_seed S
 *	bands B rows R
 *
 * nine "key value" pairs in that order, decimal, each pair separated from
 * the next by one separator (a space in a document list, a newline in the
 * manifest); and the two values of a parameter that differs, for
 * messages.
 */
#ifndef PSKD_PARAMS_H
#define PSKD_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "frame.h"

struct pskd_lsh_params {
	struct pskd_frame_params fp;	/* kind PSKD_FRAME_SIGNATURES */
	uint32_t	 b, r;		/* bands, rows */
};

/* Write the nine pairs, sep between them, nothing after the last. */
void	pskd_lsh_params_write(struct pskd_writer *w,
	    const struct pskd_lsh_params *p, int sep);
/*
 * Parse the nine pairs at the start of s[0..n), separated by sep.  Returns
 * the bytes they take (up to the end of the last value), or 0 if s does not
 * start with them: a key out of order, a value that is not a number or too
 * large (seeds take 64 bits, the others 32).
 */
size_t	pskd_lsh_params_parse(const unsigned char *s, size_t n, int sep,
	    struct pskd_lsh_params *p);

/*
 * Where a's parameters differ from b's (pskd_frame_params_differ()), and
 * in text the two values, "5 words, not 3 words"; NULL if nowhere.
 */
const char *pskd_frame_params_mismatch(const struct pskd_frame_params *a,
	    const struct pskd_frame_params *b, char *text, size_t n);

#endif /* PSKD_PARAMS_H */
