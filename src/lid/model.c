/*
 * model.c - the model of -m: found (a path, or a name installed with
 * pskd's data files), checked by check.c, loaded by fastText (ft.cc), and
 * its labels, without their prefix, kept for the output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pskd.h"
#include "lid/lid.h"

/* A path: it has a '/', a model's suffix, or names a file that is here. */
static int
is_path(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') != NULL || access(arg, F_OK) == 0 ||
	    (n > 4 && (strcmp(arg + n - 4, ".bin") == 0 ||
	    strcmp(arg + n - 4, ".ftz") == 0));
}

/* NAME.ftz, else NAME.bin, where pskd's data files are installed. */
static char *
find(const char *name, struct pskd_error *e)
{
	char *path, *tried = NULL, *tried2 = NULL;

	if ((path = pskd_data_find(name, ".ftz", &tried)) == NULL &&
	    (path = pskd_data_find(name, ".bin", &tried2)) == NULL)
		pskd_error_set(e, 0, "%s: no %s.ftz or %s.bin in %s (make deps "
		    "installs lid176; or give a file)", name, name, name,
		    tried ? tried : "");
	free(tried);
	free(tried2);
	return path;
}

static int
fail(struct lid_model *m, struct pskd_error *e, int fd)
{
	char why[sizeof(e->msg)];

	memcpy(why, e->msg, sizeof(why));
	pskd_error_set(e, 0, "%s: %s", m->path, why);
	if (fd != -1)
		close(fd);
	lid_model_close(m);
	return -1;
}

/* The labels without the prefix, each valid UTF-8 (they go into JSON). */
static int
labels(struct lid_model *m, struct pskd_error *e)
{
	const char *prefix = lid_ft_prefix(m->ft), *s;
	size_t n;
	int32_t i;

	m->prefixlen = strlen(prefix);
	m->nlabels = lid_ft_nlabels(m->ft);
	m->label = pskd_xcalloc((size_t)m->nlabels, sizeof(*m->label));
	m->labellen = pskd_xcalloc((size_t)m->nlabels, sizeof(*m->labellen));
	for (i = 0; i < m->nlabels; i++) {
		s = lid_ft_label(m->ft, i);
		n = strlen(s);
		if (n >= m->prefixlen && memcmp(s, prefix, m->prefixlen) == 0) {
			s += m->prefixlen;
			n -= m->prefixlen;
		}
		if (pskd_utf8_check((const unsigned char *)s, n) != n) {
			pskd_error_set(e, 0, "label %d is not valid UTF-8",
			    (int)i);
			return -1;
		}
		m->label[i] = s;
		m->labellen[i] = n;
	}
	return 0;
}

int
lid_model_open(struct lid_model *m, const char *arg, struct pskd_error *e)
{
	struct stat st;
	int fd;

	memset(m, 0, sizeof(*m));
	m->path = is_path(arg) ? pskd_xstrdup(arg) : find(arg, e);
	if (m->path == NULL)
		return -1;
	if ((fd = open(m->path, O_RDONLY)) == -1 || fstat(fd, &st) == -1) {
		pskd_error_set(e, 0, "%s", strerror(errno));
		return fail(m, e, fd);
	}
	if (!S_ISREG(st.st_mode)) {
		pskd_error_set(e, 0, "not a regular file");
		return fail(m, e, fd);
	}
	if (lid_model_check(fd, m->path, &m->info, e) == -1)
		return fail(m, e, fd);
	if (lseek(fd, 0, SEEK_SET) != 0) {
		pskd_error_set(e, 0, "%s", strerror(errno));
		return fail(m, e, fd);
	}
	if ((m->ft = lid_ft_load(fd, e)) == NULL || labels(m, e) == -1)
		return fail(m, e, fd);
	close(fd);
	return 0;
}

int32_t
lid_model_label(const struct lid_model *m, const char *s, size_t n)
{
	const char *prefix = lid_ft_prefix(m->ft);
	int32_t i;

	if (n > m->prefixlen && memcmp(s, prefix, m->prefixlen) == 0) {
		s += m->prefixlen;
		n -= m->prefixlen;
	}
	for (i = 0; i < m->nlabels; i++)
		if (m->labellen[i] == n && memcmp(m->label[i], s, n) == 0)
			return i;
	return -1;
}

void
lid_model_close(struct lid_model *m)
{
	lid_ft_free(m->ft);
	free(m->label);
	free(m->labellen);
	free(m->path);
	memset(m, 0, sizeof(*m));
}
