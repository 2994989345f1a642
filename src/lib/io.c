/* io.c - whole reads and writes, pipe sizing, atomic output files. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"

ssize_t
pskd_read_full(int fd, void *p, size_t n)
{
	unsigned char *q = p;
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = read(fd, q + got, n - got);
		if (r == 0)
			break;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int
pskd_write_all(int fd, const void *p, size_t n)
{
	const unsigned char *q = p;
	ssize_t r;

	while (n > 0) {
		r = write(fd, q, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0) {
			errno = EIO;
			return -1;
		}
		q += r;
		n -= (size_t)r;
	}
	return 0;
}

static size_t bufsize = PSKD_BUFSIZE;

void
pskd_set_bufsize(size_t n)
{
	bufsize = n;
}

size_t
pskd_bufsize(void)
{
	return bufsize;
}

void
pskd_pipe_grow(int fd)
{
#ifdef F_SETPIPE_SZ
	static const int sizes[] = { 1 << 20, 1 << 18, 1 << 16 };
	struct stat st;
	size_t i;

	if (fstat(fd, &st) == -1 || !S_ISFIFO(st.st_mode))
		return;
	/* The largest size the system allows an unprivileged process. */
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (fcntl(fd, F_SETPIPE_SZ, sizes[i]) != -1)
			return;
#else
	(void)fd;
#endif
}

void
pskd_refuse_tty(int fd, const char *name)
{
	if (isatty(fd))
		pskd_errx(PSKD_EXIT_USAGE,
		    "%s: refusing to write binary data to a terminal", name);
}

/*
 * Temporaries still to be removed if the program dies: a fixed table, so
 * the signal handler only reads memory that is never freed under it.
 */
#define NSLOTS 256
static char *tmpslot[NSLOTS];
static int cleanup_installed;

/* Take slot i for tmp if it is free; threads may race for it. */
static int
claim(int i, char *tmp)
{
	char *expect = NULL;

	return __atomic_compare_exchange_n(&tmpslot[i], &expect, tmp, 0,
	    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static void
remove_temporaries(void)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (tmpslot[i] != NULL)
			(void)unlink(tmpslot[i]);
}

static void
on_signal(int sig)
{
	static const char bus[] =
	    ": a file read through a mapping shrank under it (SIGBUS)\n";

	remove_temporaries();
	if (sig == SIGBUS) {
		(void)!write(2, pskd_progname, strlen(pskd_progname));
		(void)!write(2, bus, sizeof(bus) - 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void
pskd_signals_init(void)
{
	struct sigaction sa, old;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	if (cleanup_installed)
		return;
	cleanup_installed = 1;
	atexit(remove_temporaries);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* A mapped input that shrinks; unless the program handles it itself. */
	if (sigaction(SIGBUS, NULL, &old) == 0 && old.sa_handler == SIG_DFL &&
	    !(old.sa_flags & SA_SIGINFO))
		sigaction(SIGBUS, &sa, NULL);
}

int
pskd_fsync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd, r;

	if (slash == NULL)
		dir = pskd_xstrdup(".");
	else if (slash == path)
		dir = pskd_xstrdup("/");
	else
		dir = pskd_xstrndup(path, (size_t)(slash - path));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd == -1)
		return -1;
	r = fsync(fd);
	/* Some file systems cannot fsync a directory; that is not a failure. */
	if (r == -1 && (errno == EINVAL || errno == EBADF))
		r = 0;
	close(fd);
	return r;
}

/*
 * Remove ".BASE.tmp.PID" files in dir whose PID is no longer running: what a
 * killed run of any pskd program left of an output named BASE.
 */
void
pskd_tmp_sweep(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t blen = strlen(base), dirlen = (size_t)(base - path);
	struct dirent *e;
	char *dir, *victim;
	const char *p;
	long pid;
	DIR *d;

	dir = dirlen ? pskd_xstrndup(path, dirlen) : pskd_xstrdup(".");
	d = opendir(dir);
	if (d == NULL) {
		free(dir);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.' || strncmp(e->d_name + 1, base, blen) != 0 ||
		    strncmp(e->d_name + 1 + blen, ".tmp.", 5) != 0)
			continue;
		p = e->d_name + 1 + blen + 5;
		if (*p < '1' || *p > '9' || p[strspn(p, "0123456789")] != '\0')
			continue;
		pid = strtol(p, NULL, 10);
		if (pid == (long)getpid() ||
		    (kill((pid_t)pid, 0) == -1 && errno == ESRCH)) {
			victim = pskd_xmalloc(strlen(dir) + strlen(e->d_name) + 2);
			sprintf(victim, "%s/%s", dir, e->d_name);
			(void)unlink(victim);
			free(victim);
		}
	}
	closedir(d);
	free(dir);
}

/*
 * The descriptor a name of an open descriptor stands for (/dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N), or -1.  Such a name is a
 * symlink to whatever the descriptor holds, often a regular file: renamed
 * over, it would stop being that descriptor for every later program.
 */
static int
fd_name(const char *path)
{
	const char *p = NULL;
	char *end;
	long n;

	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		p = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		p = path + 14;
	if (p == NULL || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	n = strtol(p, &end, 10);
	if (*end != '\0' || errno != 0 || n > INT_MAX)
		return -1;
	return (int)n;
}

int
pskd_outfile_open(struct pskd_outfile *o, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = (size_t)(base - path);
	sigset_t sigs, old;
	struct stat st;
	size_t n;
	int i, saved;

	pskd_signals_init();
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->slot = -1;
	if ((i = fd_name(path)) >= 0) {
		/* Written to that descriptor, as the shell's >&N. */
		o->fd = fcntl(i, F_DUPFD_CLOEXEC, 3);
		return o->fd == -1 ? -1 : 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or a FIFO: no rename possible, write it directly. */
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		return o->fd == -1 ? -1 : 0;
	}
	pskd_tmp_sweep(path);
	o->path = pskd_xstrdup(path);
	n = strlen(path) + 32;
	o->tmp = pskd_xmalloc(n);
	snprintf(o->tmp, n, "%.*s.%s.tmp.%ld", (int)dirlen, path, base,
	    (long)getpid());
	/*
	 * Never through a symlink or into a file someone else made.  The
	 * signals that remove temporaries wait until this one is recorded
	 * for them (the open of a busy disk can take long enough for a
	 * Ctrl-C to fall between the two).
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0666);
	if (o->fd != -1)
		for (i = 0; i < NSLOTS && o->slot < 0; i++)
			if (claim(i, o->tmp))
				o->slot = i;
	saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (o->fd == -1) {
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		errno = saved;
		return -1;
	}
	return 0;
}

static void
release(struct pskd_outfile *o)
{
	if (o->slot >= 0)
		__atomic_store_n(&tmpslot[o->slot], NULL, __ATOMIC_SEQ_CST);
	o->slot = -1;
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

int
pskd_outfile_commit(struct pskd_outfile *o)
{
	int saved;

	if (o->tmp == NULL) {		/* written in place */
		saved = close(o->fd);
		o->fd = -1;
		return saved;
	}
	if (fsync(o->fd) == -1 && errno != EINVAL)
		goto fail;
	if (close(o->fd) == -1) {
		o->fd = -1;
		goto fail;
	}
	o->fd = -1;
	if (rename(o->tmp, o->path) == -1)
		goto fail;
	if (o->slot >= 0)
		__atomic_store_n(&tmpslot[o->slot], NULL, __ATOMIC_SEQ_CST);
	o->slot = -1;
	if (pskd_fsync_dir(o->path) == -1)
		goto fail;
	release(o);
	return 0;
fail:
	saved = errno;
	pskd_outfile_abort(o);
	errno = saved;
	return -1;
}

void
pskd_outfile_abort(struct pskd_outfile *o)
{
	if (o->fd != -1)
		close(o->fd);
	o->fd = -1;
	if (o->tmp != NULL)
		(void)unlink(o->tmp);
	release(o);
}

/*
 * The outputs a program has open: two of them naming one file would each
 * write a temporary and the second rename would win over the first, so the
 * second is refused.  A file is its directory (device, inode) and its name
 * there; standard output is dev 0, ino 0, name "-".  Devices and FIFOs
 * (/dev/null) are written in place and may be named twice.
 */
#define NOUTPUTS 64
static struct named {
	dev_t	 dev;
	ino_t	 ino;
	char	*base;
} named[NOUTPUTS];

/* The slot of path's identity, or -1 when it has none to record. */
static int
identify(const char *path, struct named *id)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	char *dir;
	int r;

	memset(id, 0, sizeof(*id));
	if (strcmp(path, "-") == 0) {
		id->base = (char *)"-";
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return -1;
	if (slash == NULL)
		dir = pskd_xstrdup(".");
	else if (slash == path)
		dir = pskd_xstrdup("/");
	else
		dir = pskd_xstrndup(path, (size_t)(slash - path));
	r = stat(dir, &st);
	free(dir);
	if (r == -1)
		return -1;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->base = (char *)(slash ? slash + 1 : path);
	return 0;
}

static void
name_output(struct pskd_output *o, const char *path)
{
	struct named id;
	int i, free_slot = -1;

	o->slot = -1;
	if (identify(path, &id) == -1)
		return;
	for (i = 0; i < NOUTPUTS; i++) {
		if (named[i].base == NULL) {
			if (free_slot < 0)
				free_slot = i;
			continue;
		}
		if (named[i].dev == id.dev && named[i].ino == id.ino &&
		    strcmp(named[i].base, id.base) == 0) {
			pskd_warnx("%s: given for two outputs", strcmp(path,
			    "-") == 0 ? "<stdout>" : path);
			pskd_usage_error(NULL);
		}
	}
	if (free_slot < 0)
		return;
	named[free_slot] = id;
	named[free_slot].base = pskd_xstrdup(id.base);
	o->slot = free_slot;
}

static void
unname_output(struct pskd_output *o)
{
	if (o->slot < 0)
		return;
	free(named[o->slot].base);
	named[o->slot].base = NULL;
	o->slot = -1;
}

void
pskd_output_open(struct pskd_output *o, const char *path, int binary)
{
	memset(o, 0, sizeof(*o));
	name_output(o, path == NULL ? "-" : path);
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fd = 1;
		o->name = "<stdout>";
		if (binary)
			pskd_refuse_tty(1, o->name);
		return;
	}
	if (pskd_outfile_open(&o->of, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	o->fd = o->of.fd;
	o->name = path;
	o->file = 1;
}

void
pskd_output_writer(struct pskd_output *o, struct pskd_writer *w,
    const char *path, int binary)
{
	pskd_output_open(o, path, binary);
	pskd_writer_init(w, o->fd, o->name);
}

void
pskd_output_close(struct pskd_output *o, struct pskd_writer *w)
{
	unname_output(o);
	if (!o->file) {
		pskd_writer_finish(w);
		return;
	}
	if (pskd_writer_flush(w) == -1) {
		errno = w->error;
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
	}
	free(w->buf);
	w->buf = NULL;
	if (pskd_outfile_commit(&o->of) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
}

/* The rest of fd, a regular file's size st (NULL: unknown), appended. */
static int
slurp_fd(int fd, const struct stat *st, size_t max, struct pskd_buf *b)
{
	size_t start = b->len, want;
	ssize_t got;

	/* A regular file's size, so its bytes come in one allocation. */
	if (st != NULL && S_ISREG(st->st_mode) && st->st_size > 0 &&
	    (max == 0 || (uint64_t)st->st_size <= max))
		pskd_buf_reserve(b, (size_t)st->st_size + 1);
	for (;;) {
		pskd_buf_reserve(b, 65536);
		want = b->cap - b->len;
		if (max != 0 && want > max - (b->len - start) + 1)
			want = max - (b->len - start) + 1;
		got = read(fd, b->p + b->len, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		b->len += (size_t)got;
		if (max != 0 && b->len - start > max) {
			got = -1;
			errno = EFBIG;
			break;
		}
	}
	return got < 0 ? -1 : 0;
}

int
pskd_slurp(const char *path, size_t max, struct pskd_buf *b)
{
	struct stat st;
	int fd, rc, saved;

	if (path == NULL || strcmp(path, "-") == 0)
		fd = 0;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	rc = slurp_fd(fd, fstat(fd, &st) == 0 ? &st : NULL, max, b);
	saved = errno;
	if (fd != 0)
		close(fd);
	errno = saved;
	return rc;
}

/*
 * Mapping a 9 MB tokenizer.json instead of reading it saves its copy and
 * the faults of a buffer as large: 6 of pskd-tok's 66 ms start (Llama 3).
 * A file truncated while mapped would fault (SIGBUS), as a .psk.d does
 * for pskd_file_open; its readers take exactly len bytes.  Anything else
 * is read from the descriptor already open: a FIFO opened twice would
 * lose its writer between the two.
 */
int
pskd_whole_open(struct pskd_whole *w, const char *path, size_t max)
{
	struct stat st;
	void *m = MAP_FAILED;
	int fd, rc, saved, known;

	memset(w, 0, sizeof(*w));
	if (path == NULL || strcmp(path, "-") == 0)
		fd = 0;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	known = fstat(fd, &st) == 0;
	if (known && S_ISREG(st.st_mode) && st.st_size > 0) {
		if (max != 0 && (uint64_t)st.st_size > max) {
			if (fd != 0)
				close(fd);
			errno = EFBIG;
			return -1;
		}
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE |
		    MAP_POPULATE, fd, 0);
	}
	if (m != MAP_FAILED) {
		w->map = m;
		w->p = m;
		w->len = (size_t)st.st_size;
		rc = 0;
	} else if ((rc = slurp_fd(fd, known ? &st : NULL, max, &w->buf)) ==
	    0) {
		w->p = w->buf.p;
		w->len = w->buf.len;
	}
	saved = errno;
	if (fd != 0)
		close(fd);
	if (rc == -1)
		pskd_buf_free(&w->buf);
	errno = saved;
	return rc;
}

void
pskd_whole_close(struct pskd_whole *w)
{
	if (w->map != NULL)
		munmap(w->map, w->len);
	pskd_buf_free(&w->buf);
	memset(w, 0, sizeof(*w));
}
