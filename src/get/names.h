/*
 * names.h - a set of names (shard file names) found in O(1): the files of
 * a manifest, the names a run gives its shards.  The names are not
 * copied: each must outlive the set.
 */
#ifndef PSKD_GET_NAMES_H
#define PSKD_GET_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct pskd_names_entry {
	const char	*name;
	size_t		 value;
	uint64_t	 hash;
};

struct pskd_names {
	struct pskd_names_entry *e;	/* open addressing; name NULL: free */
	size_t		 n, cap;
};

#define PSKD_NAMES_NONE	SIZE_MAX

void	pskd_names_init(struct pskd_names *t);
void	pskd_names_free(struct pskd_names *t);
/*
 * Add name with its value, unless an equal name is there: then its
 * value, else PSKD_NAMES_NONE.
 */
size_t	pskd_names_add(struct pskd_names *t, const char *name, size_t value);
/* The value of name, or PSKD_NAMES_NONE. */
size_t	pskd_names_find(const struct pskd_names *t, const char *name);

#endif
