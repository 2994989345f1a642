/*
 * manifest.h - the records pskd-get keeps on disk (pskd-manifest(5)): the
 * manifest of a shard folder, its lock (the manifest's sha256), and the
 * checkpoint of a partial download.  Other programs read the manifest
 * through this file and may add members to a shard (per-shard counts) with
 * pskd_shard_set(); pskd_manifest_save() then rewrites manifest and lock.
 */
#ifndef PSKD_MANIFEST_H
#define PSKD_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "pskd.h"
#include "names.h"
#include "sha256.h"

#define PSKD_MANIFEST		"manifest.json"
#define PSKD_MANIFEST_LOCK	"manifest.json.lock"
#define PSKD_PARTIAL		".partial"	/* NAME.partial: the bytes */
#define PSKD_CHECKPOINT		".partial.json"	/* NAME.partial.json */
#define PSKD_NAME_MAX		200
/*
 * The longest lock and checkpoint read (pskd_slurp's max): a lock is one
 * line of 87 bytes; a checkpoint holds a URL, which may be long.
 */
#define PSKD_LOCK_MAX		4096
#define PSKD_CHECKPOINT_MAX	(16u << 20)

enum pskd_shard_status {
	PSKD_SHARD_PENDING,
	PSKD_SHARD_COMPLETE,
	PSKD_SHARD_FAILED
};

struct pskd_shard {
	char		*url;
	char		*file;		/* a safe name inside the folder */
	uint64_t	 bytes;
	char		 sha256[PSKD_SHA256_HEX];	/* "" when unknown */
	char		*etag;		/* NULL when the server gave none */
	enum pskd_shard_status status;
	/*
	 * Where the sha256 the bytes were checked against came from: "list"
	 * (or -s), or the header a server announced it in; NULL when nothing
	 * was expected.  One of pskd_sha256_source()'s strings.
	 */
	const char	*sha256_from;
	/* Members after the known ones, as JSON text: ', "k": v, ...'. */
	struct pskd_buf	 extra;
};

struct pskd_manifest {
	struct pskd_shard *shards;
	size_t		 n;
	size_t		 cap;
	struct pskd_names files;	/* of a parsed manifest, for find */
};

void	pskd_manifest_init(struct pskd_manifest *m);
void	pskd_manifest_free(struct pskd_manifest *m);
/* Append a shard with every field empty; returns it. */
struct pskd_shard *pskd_manifest_add(struct pskd_manifest *m);
struct pskd_shard *pskd_manifest_find(const struct pskd_manifest *m,
	    const char *file);
void	pskd_shard_clear(struct pskd_shard *s);
/* The static string of a sha256_from value, or NULL if it is none. */
const char *pskd_sha256_source(const char *name);
/* 1 when the two records say the same (encode to the same bytes). */
int	pskd_shard_equal(const struct pskd_shard *a,
	    const struct pskd_shard *b);
/* Fill the empty shard `to` with a copy of `from`. */
void	pskd_shard_copy(struct pskd_shard *to, const struct pskd_shard *from);
const char *pskd_shard_status_name(enum pskd_shard_status st);

/*
 * Parse a manifest.  Returns 0, or -1 with a message in err and the line
 * (1-based) in *line.
 */
int	pskd_manifest_parse(struct pskd_manifest *m, const unsigned char *p,
	    size_t len, char *err, size_t errsize, uint64_t *line);
/* The manifest's exact bytes: the same manifest gives the same bytes. */
void	pskd_manifest_encode(const struct pskd_manifest *m, struct pskd_buf *b);
/*
 * Write DIR/manifest.json and DIR/manifest.json.lock, each to a temporary
 * name, fsync'd and renamed into place (the manifest first).  0 or -1
 * (errno).
 */
int	pskd_manifest_save(const struct pskd_manifest *m, const char *dir);
/* The same for a manifest already encoded. */
int	pskd_manifest_write(const struct pskd_buf *man, const char *dir);
/*
 * After a crash between the two renames of pskd_manifest_save, the lock's
 * temporary vouches for the manifest in place: rename it into place.  For
 * the holder of the folder's lock.  1 if it did, else 0.
 */
int	pskd_manifest_recover(const char *dir);
/*
 * Remove what is at path if it is a symlink, FIFO, socket or device (a
 * name pskd-get writes is never written through one); a directory is an
 * error (EISDIR).  0, or -1 with errno.
 */
int	pskd_unlink_odd(const char *path);
/* The lock's text for a manifest of these bytes. */
void	pskd_manifest_lock_encode(const unsigned char *manifest, size_t len,
	    struct pskd_buf *b);
/* Parse a lock: the manifest's sha256 into hex.  0 or -1 with err. */
int	pskd_manifest_lock_parse(const unsigned char *p, size_t len,
	    char hex[PSKD_SHA256_HEX], char *err, size_t errsize);
/*
 * Add the member key with the JSON value json to a shard, or replace its
 * value.  0; -1 when key is one of the known members; -2 when it is empty,
 * not UTF-8 or has control characters; -3 when json is not exactly one
 * JSON value on one line.
 */
int	pskd_shard_set(struct pskd_shard *s, const char *key, const char *json);
/*
 * A name pskd-get may create in its folder: 1 to 200 bytes of
 * [A-Za-z0-9._+-], no leading dot, and none of the names it keeps for
 * itself (the manifest, its lock, NAME.partial, NAME.partial.json).
 */
int	pskd_shard_name_ok(const char *name);
/*
 * Text pskd-get may record (a URL, an ETag, a member): valid UTF-8 without
 * control characters, so that it is valid JSON once quoted and keeps a
 * shard's record on one line.
 */
int	pskd_record_text_ok(const char *t);

/*
 * The whole number p[0..n), digits only (a JSON number of a record, an
 * HTTP header's), through pskd_strtonum.  0, or -1.
 */
int	pskd_get_u64(const void *p, size_t n, uint64_t *v);

/* The checkpoint NAME.partial.json of a partial download. */
struct pskd_checkpoint {
	char		*url;
	uint64_t	 verified;	/* bytes of the shard vouched for */
	uint64_t	 expected;	/* expected size ... */
	int		 expected_known;	/* ... when known */
	char		 sha256[PSKD_SHA256_HEX];	/* of the verified prefix */
	char		*etag;		/* validators, NULL when none */
	char		*last_modified;
};

void	pskd_checkpoint_clear(struct pskd_checkpoint *c);
int	pskd_checkpoint_parse(struct pskd_checkpoint *c, const unsigned char *p,
	    size_t len, char *err, size_t errsize);
void	pskd_checkpoint_encode(const struct pskd_checkpoint *c,
	    struct pskd_buf *b);

#endif
