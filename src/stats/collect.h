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
	uint64_t	 eot;		/* -e */
	int		 eot_set;
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

/* Progress on the standard error, every buffer or so. */
void	collect_progress(const struct pskd_reader *r);

#endif /* PSKD_COLLECT_H */
