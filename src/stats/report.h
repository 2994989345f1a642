/*
 * report.h - pskd-report's model of a build: the shards of the manifest,
 * each with the statistics objects labelled with it, the objects labelled
 * with nothing in the manifest, the decoded window; and the page and the
 * JSON written from it.
 */
#ifndef PSKD_REPORT_H
#define PSKD_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "stats/stats.h"

#define REPORT_NONE	UINT64_MAX	/* a number that is not known */

struct report_shard {
	char		*name;		/* the file up to its first dot */
	char		*file;
	const char	*status;
	uint64_t	 bytes;
	uint64_t	 mdocs;		/* the manifest's "documents" */
	uint64_t	 muniq;		/* and "unique_documents" */
	struct stats	 obj[STATS_NKINDS];
	int		 has[STATS_NKINDS];
	/*
	 * The verdicts of the document stages before deduplication, the
	 * objects labelled SHARD.STAGE, merged: their drops add up (each
	 * document is dropped once), their keeps do not.
	 */
	struct stats	 stages;
	int		 has_stages;
};

/* Objects labelled with no shard, one per label and kind. */
struct report_other {
	char		*label;
	struct stats	 s;
};

struct report {
	const char	*title;
	struct report_shard *shards;
	size_t		 nshards;
	struct report_other *others;
	size_t		 nothers;
	/* Per kind: the shards' objects merged, or else the others'. */
	struct stats	 all[STATS_NKINDS];
	int		 has_all[STATS_NKINDS];
	struct pskd_buf	 window;
	int		 has_window;
};

/* A shard's numbers, REPORT_NONE where unknown. */
struct report_row {
	uint64_t	 documents, kept, neardup, empty, rejected;
	uint64_t	 tokens, windows;
	uint64_t	 dropped;	/* by the stages before dedup */
	/* kept by pskd-exact with units cut: documents, bytes removed */
	uint64_t	 trimmed, trim_bytes;
};

/* These exit 1 with a message on a bad input. */
void	report_load_manifest(struct report *rp, const char *path);
void	report_load_dir(struct report *rp, const char *dir);
void	report_load_window(struct report *rp, const char *path);
void	report_merge_all(struct report *rp);

void	report_row(const struct report_shard *sh, struct report_row *r);
/* The sum of the known numbers of every shard (REPORT_NONE: none). */
void	report_totals(const struct report *rp, struct report_row *r);
/*
 * The documents a shard's verdicts dropped, by verdict, every stage's:
 * near_duplicate and rejected among the others.  Into t (empty).
 */
void	report_drops(const struct report_shard *sh, struct stats_tally *t);
/* Whether any shard has verdicts of a stage, or drops other than dedup's. */
int	report_has_drops(const struct report *rp);
/* Whether a stage of any shard trimmed documents (pskd-exact). */
int	report_has_trimmed(const struct report *rp);
void	report_html(struct pskd_buf *b, const struct report *rp);
void	report_json(struct pskd_buf *b, const struct report *rp);

#endif /* PSKD_REPORT_H */
