/*
 * collect.h - pskd-stats's readers: each reads one stream of its kind to
 * the end into an object of statistics, in memory that does not grow with
 * the stream, and exits 1 with "pskd-stats: NAME[:LINE]: message" when the
 * stream is not what it should be.
 */
#ifndef PSKD_COLLECT_H
#define PSKD_COLLECT_H

#include "pskd.h"
#include "stats/stats.h"

/* What the sniffer may find, and -t may force. */
enum collect_kind {
	COLLECT_SNIFF = 0,
	COLLECT_DOCUMENTS,	/* JSON Lines */
	COLLECT_LINES,		/* plain text, one document a line */
	COLLECT_VERDICTS,
	COLLECT_FRAMES,
	COLLECT_TOKENS,
	COLLECT_WINDOWS,
	COLLECT_SAMPLES,
	COLLECT_STATS,		/* pskd-stats objects, one a line */
	COLLECT_PSK		/* sniffed: a .psk.d, kind from its type */
};

struct collect_opts {
	enum collect_kind kind;		/* -t; COLLECT_SNIFF: look */
	const char	*field;		/* -f */
	const char	*lang;		/* --language */
	const char	*score;		/* --language-score */
	uint64_t	 eot;		/* -e */
	int		 eot_set;
	/* the windows of a token stream to count (--length ...) */
	enum stats_packing packing;
	uint64_t	 length, stride, buffer;
};

int	collect_kind_parse(const char *name, enum collect_kind *k);
/* The kind of the stream r starts with (r is left where it was). */
enum collect_kind collect_sniff(struct pskd_reader *r);

void	collect_documents(struct pskd_reader *r, struct stats *s,
	    const struct collect_opts *o, int plain);
void	collect_verdicts(struct pskd_reader *r, struct stats *s);
/* r is given over to the frame reader, which closes it. */
void	collect_frames(struct pskd_reader *r, struct stats *s);
/* tokens, windows or samples: want is what -t asked for, or SNIFF. */
void	collect_psk(struct pskd_reader *r, struct stats *s,
	    const struct collect_opts *o, enum collect_kind want);

/*
 * Lines of up to STATS_LINE_MAX bytes are read whole; a longer one passes
 * in pieces.  collect_line: 1 and the line, 0 at the end, -1 on a read
 * error, or 2 for a long line (counted in r->lineno), which is then read
 * with collect_piece, the next bytes of the line (*last: the line ends
 * with them), each consumed with collect_consume.
 */
#define STATS_LINE_MAX	(1u << 20)

int	collect_line(struct pskd_reader *r, const unsigned char **line,
	    size_t *len);
ssize_t	collect_piece(struct pskd_reader *r, const unsigned char **p,
	    int *last);
void	collect_consume(struct pskd_reader *r, size_t n, int last);

/* Progress on the standard error, every buffer or so. */
void	collect_progress(const struct pskd_reader *r);

#endif /* PSKD_COLLECT_H */
