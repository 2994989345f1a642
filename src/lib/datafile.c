/*
 * datafile.c - the data files pskd installs or make deps fetches
 * (vocabularies, tokenizer.json files, fastText models), found by name the
 * same way by every program that reads one.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "datadir.h"		/* PSKD_DATA_DIR, from make's DATADIR */

/* dir/name+suffix into a new string. */
static char *
join(const char *dir, const char *name, const char *suffix)
{
	size_t k = strlen(dir) + strlen(name) + strlen(suffix) + 2;
	char *p = pskd_xmalloc(k);

	snprintf(p, k, "%s/%s%s", dir, name, suffix);
	return p;
}

char *
pskd_data_find(const char *name, const char *suffix, char **tried)
{
	char exe[PATH_MAX], *dirs[4], *path = NULL, *slash, *t;
	const char *env = getenv("PSKD_VOCAB_DIR");
	size_t i, n = 0, k;
	ssize_t len;

	if (env != NULL && *env != '\0')
		dirs[n++] = pskd_xstrdup(env);
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			dirs[n++] = join(exe, "..", "/vocab");
			dirs[n++] = join(exe, "..", "/share/pskd");
		}
	}
	dirs[n++] = pskd_xstrdup(PSKD_DATA_DIR);
	*tried = NULL;
	for (i = 0; i < n && path == NULL; i++) {
		path = join(dirs[i], name, suffix);
		if (access(path, R_OK) == 0)
			break;
		free(path);
		path = NULL;
		k = (*tried ? strlen(*tried) : 0) + strlen(dirs[i]) + 3;
		t = pskd_xmalloc(k);
		snprintf(t, k, "%s%s%s", *tried ? *tried : "",
		    *tried ? ", " : "", dirs[i]);
		free(*tried);
		*tried = t;
	}
	while (n > 0)
		free(dirs[--n]);
	return path;
}
