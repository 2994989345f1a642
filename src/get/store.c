/*
 * store.c - manifest.json and its lock on disk: each written to a
 * temporary, fsync'd and renamed into place, the manifest first; a save
 * cut between the two renames is finished by the folder's next run; the
 * names pskd-get keeps are never written through a link.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "manifest.h"

int
pskd_manifest_save(const struct pskd_manifest *m, const char *dir)
{
	struct pskd_buf b = { NULL, 0, 0 };
	int r, saved;

	pskd_manifest_encode(m, &b);
	r = pskd_manifest_write(&b, dir);
	saved = errno;
	pskd_buf_free(&b);
	errno = saved;
	return r;
}

int
pskd_manifest_write(const struct pskd_buf *man, const char *dir)
{
	struct pskd_buf lock = { NULL, 0, 0 };
	struct pskd_outfile o;
	char mpath[PATH_MAX], lpath[PATH_MAX], ltmp[PATH_MAX];
	int fd = -1, r = -1, saved;

	snprintf(mpath, sizeof(mpath), "%s/%s", dir, PSKD_MANIFEST);
	snprintf(lpath, sizeof(lpath), "%s/%s", dir, PSKD_MANIFEST_LOCK);
	snprintf(ltmp, sizeof(ltmp), "%s/.%s.tmp.%ld", dir, PSKD_MANIFEST_LOCK,
	    (long)getpid());
	pskd_manifest_lock_encode(man->p, man->len, &lock);
	/* pskd-get's own names are never written through a link. */
	if (pskd_unlink_odd(mpath) == -1 || pskd_unlink_odd(lpath) == -1)
		goto out;
	/*
	 * The new lock is on disk before the new manifest is renamed into
	 * place, and not a temporary the signal handlers remove: a crash or
	 * a signal between the two renames leaves it for
	 * pskd_manifest_recover() to finish.  A save of this run that failed
	 * after its manifest went into place left one that vouches for that
	 * manifest: it goes into place first (the sweep would remove it).
	 */
	if (access(ltmp, F_OK) == 0)
		(void)pskd_manifest_recover(dir);
	pskd_tmp_sweep(lpath);
	fd = open(ltmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0666);
	if (fd == -1 || pskd_write_all(fd, lock.p, lock.len) == -1 ||
	    fsync(fd) == -1)
		goto fail;
	if (pskd_outfile_open(&o, mpath) == -1)
		goto fail;
	if (pskd_write_all(o.fd, man->p, man->len) == -1) {
		saved = errno;
		pskd_outfile_abort(&o);
		errno = saved;
		goto fail;
	}
	/*
	 * From here a failure may leave the new manifest in place (a rename
	 * done, the folder's fsync failed): the lock's temporary stays, for
	 * pskd_manifest_recover(), which uses it only if it vouches for the
	 * manifest it finds.
	 */
	if (pskd_outfile_commit(&o) == -1 || rename(ltmp, lpath) == -1 ||
	    pskd_fsync_dir(lpath) == -1)
		goto out;
	r = 0;
	goto out;
fail:
	saved = errno;
	(void)unlink(ltmp);
	errno = saved;
out:
	saved = errno;
	if (fd != -1)
		close(fd);
	pskd_buf_free(&lock);
	errno = saved;
	return r;
}

int
pskd_manifest_recover(const char *dir)
{
	struct pskd_buf man = { NULL, 0, 0 }, t = { NULL, 0, 0 };
	char mpath[PATH_MAX], lpath[PATH_MAX], tpath[PATH_MAX];
	char hex[PSKD_SHA256_HEX], want[PSKD_SHA256_HEX], err[128];
	const size_t prefix = strlen("." PSKD_MANIFEST_LOCK ".tmp.");
	struct dirent *e;
	DIR *d;
	int r = 0;

	snprintf(mpath, sizeof(mpath), "%s/%s", dir, PSKD_MANIFEST);
	snprintf(lpath, sizeof(lpath), "%s/%s", dir, PSKD_MANIFEST_LOCK);
	if (pskd_slurp(mpath, 0, &man) == -1 || (d = opendir(dir)) == NULL) {
		pskd_buf_free(&man);
		return 0;
	}
	pskd_sha256_hex(man.p, man.len, hex);
	while (r == 0 && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "." PSKD_MANIFEST_LOCK ".tmp.",
		    prefix) != 0 || e->d_name[prefix] == '\0' ||
		    e->d_name[prefix + strspn(e->d_name + prefix,
		    "0123456789")] != '\0')
			continue;
		snprintf(tpath, sizeof(tpath), "%s/%s", dir, e->d_name);
		t.len = 0;
		if (pskd_slurp(tpath, PSKD_LOCK_MAX, &t) == 0 &&
		    pskd_manifest_lock_parse(t.p, t.len, want, err,
		    sizeof(err)) == 0 && strcmp(want, hex) == 0 &&
		    rename(tpath, lpath) == 0 && pskd_fsync_dir(lpath) == 0)
			r = 1;
	}
	closedir(d);
	pskd_buf_free(&man);
	pskd_buf_free(&t);
	return r;
}

int
pskd_unlink_odd(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	return unlink(path);
}

