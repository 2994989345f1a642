/*
 * verify.c - the folder against its manifest: --verify checks the lock and
 * every shard's status, size and sha256; --annotate adds members to one
 * shard's record of a manifest that still matches its lock.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "get.h"

/* Does the lock vouch for these manifest bytes?  0, or -1 said why. */
static int
lock_matches(const char *mpath, const char *lpath,
    const struct pskd_buf *man)
{
	struct pskd_buf lock = { NULL, 0, 0 };
	char err[256], want[PSKD_SHA256_HEX], hex[PSKD_SHA256_HEX];
	int r = -1;

	if (pskd_slurp(lpath, PSKD_LOCK_MAX, &lock) == -1) {
		pskd_warn("%s", lpath);
	} else if (pskd_manifest_lock_parse(lock.p, lock.len, want, err,
	    sizeof(err)) == -1) {
		pskd_warnx("%s: %s", lpath, err);
	} else {
		pskd_sha256_hex(man->p, man->len, hex);
		if (strcmp(hex, want) != 0)
			pskd_warnx("%s: sha256 %s, %s says %s", mpath, hex,
			    PSKD_MANIFEST_LOCK, want);
		else
			r = 0;
	}
	pskd_buf_free(&lock);
	return r;
}

/* One shard of the manifest on disk: 0 as recorded, -1 said why not. */
static int
shard_ok(const char *dir, const struct pskd_shard *s)
{
	char *path = pskd_get_asprintf("%s/%s", dir, s->file);
	char hex[PSKD_SHA256_HEX];
	struct pskd_sha256 h;
	struct stat st;
	int bad = 1, fd = -1;
	int64_t n;

	if (s->status != PSKD_SHARD_COMPLETE) {
		pskd_warnx("%s: not downloaded (%s)", path,
		    pskd_shard_status_name(s->status));
	} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		pskd_warn("%s", path);
	} else if ((uint64_t)st.st_size != s->bytes) {
		pskd_warnx("%s: %llu bytes, the manifest says %llu", path,
		    (unsigned long long)st.st_size,
		    (unsigned long long)s->bytes);
	} else {
		pskd_sha256_init(&h);
		n = pskd_sha256_fd(&h, fd, s->bytes);
		pskd_sha256_peek(&h, hex);
		pskd_sha256_free(&h);
		if (n < 0)
			pskd_warn("%s", path);
		else if (strcmp(hex, s->sha256) != 0)
			pskd_warnx("%s: sha256 %s, the manifest says %s",
			    path, hex, s->sha256);
		else
			bad = 0;
	}
	if (fd != -1)
		close(fd);
	free(path);
	return bad ? -1 : 0;
}

int
pskd_get_verify(const char *dir)
{
	struct pskd_buf man = { NULL, 0, 0 };
	struct pskd_manifest m;
	char *mpath = pskd_get_asprintf("%s/%s", dir, PSKD_MANIFEST);
	char *lpath = pskd_get_asprintf("%s/%s", dir, PSKD_MANIFEST_LOCK);
	char err[256];
	uint64_t line;
	size_t i;
	int bad = 0;

	if (pskd_slurp(mpath, 0, &man) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", mpath);
	if (lock_matches(mpath, lpath, &man) == -1)
		bad = 1;
	pskd_manifest_init(&m);
	if (pskd_manifest_parse(&m, man.p, man.len, err, sizeof(err),
	    &line) == -1)
		pskd_fail_at(mpath, line, "%s", err);
	for (i = 0; i < m.n; i++)
		if (shard_ok(dir, &m.shards[i]) == -1)
			bad = 1;
	pskd_manifest_free(&m);
	pskd_buf_free(&man);
	free(mpath);
	free(lpath);
	return bad ? PSKD_EXIT_DATA : 0;
}

/*
 * Per-shard counts of a later stage: under the folder's lock, only to a
 * manifest that still matches its lock, rewriting both atomically.
 */
int
pskd_get_annotate(const char *dir, const char *file, int argc, char **argv)
{
	struct pskd_buf man = { NULL, 0, 0 }, lock = { NULL, 0, 0 };
	struct pskd_manifest m;
	struct pskd_shard *sh;
	char *mpath = pskd_get_asprintf("%s/%s", dir, PSKD_MANIFEST);
	char *lpath = pskd_get_asprintf("%s/%s", dir, PSKD_MANIFEST_LOCK);
	char err[256], want[PSKD_SHA256_HEX], hex[PSKD_SHA256_HEX];
	uint64_t line;
	int i, fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", dir);
	/* Wait for another pskd-get: parallel annotations take turns. */
	while (flock(fd, LOCK_EX) == -1)
		if (errno != EINTR)
			pskd_err(PSKD_EXIT_DATA, "%s: flock", dir);
	(void)pskd_manifest_recover(dir);
	if (pskd_slurp(mpath, 0, &man) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", mpath);
	if (pskd_slurp(lpath, PSKD_LOCK_MAX, &lock) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", lpath);
	if (pskd_manifest_lock_parse(lock.p, lock.len, want, err,
	    sizeof(err)) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", lpath, err);
	pskd_sha256_hex(man.p, man.len, hex);
	if (strcmp(hex, want) != 0)
		pskd_errx(PSKD_EXIT_DATA, "%s: does not match %s (run "
		    "pskd-get --verify)", mpath, PSKD_MANIFEST_LOCK);
	pskd_manifest_init(&m);
	if (pskd_manifest_parse(&m, man.p, man.len, err, sizeof(err),
	    &line) == -1)
		pskd_fail_at(mpath, line, "%s", err);
	if ((sh = pskd_manifest_find(&m, file)) == NULL)
		pskd_errx(PSKD_EXIT_DATA, "%s: no shard %s", mpath, file);
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (eq == NULL || eq == argv[i]) {
			pskd_warnx("--annotate: '%s' is not key=json", argv[i]);
			pskd_usage_error(NULL);
		}
		*eq = '\0';
		switch (pskd_shard_set(sh, argv[i], eq + 1)) {
		case 0:
			break;
		case -1:
			pskd_warnx("--annotate: %s: a member pskd-get keeps",
			    argv[i]);
			pskd_usage_error(NULL);
		case -2:
			pskd_warnx("--annotate: a key must be UTF-8 without "
			    "control characters");
			pskd_usage_error(NULL);
		default:
			pskd_warnx("--annotate: %s: '%s' is not one JSON value "
			    "on one line", argv[i], eq + 1);
			pskd_usage_error(NULL);
		}
	}
	if (pskd_manifest_save(&m, dir) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", mpath);
	pskd_manifest_free(&m);
	pskd_buf_free(&man);
	pskd_buf_free(&lock);
	free(mpath);
	free(lpath);
	close(fd);
	return 0;
}
