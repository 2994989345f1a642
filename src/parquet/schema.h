/*
 * schema.h - a Parquet schema as a tree: each node's definition and
 * repetition levels, how a leaf's values print as JSON, how a group prints
 * (object, array for LIST, object for MAP), and which parts -c chose.
 */
#ifndef PARQUET_SCHEMA_H
#define PARQUET_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "parquet/meta.h"

/* How a leaf's values print. */
enum pq_kind {
	PQ_K_BOOL, PQ_K_INT32, PQ_K_UINT32, PQ_K_INT64, PQ_K_UINT64,
	PQ_K_FLOAT, PQ_K_DOUBLE, PQ_K_FLOAT16, PQ_K_STRING, PQ_K_BINARY,
	PQ_K_DATE, PQ_K_TIME, PQ_K_TIMESTAMP, PQ_K_INT96, PQ_K_DECIMAL,
	PQ_K_UUID, PQ_K_INTERVAL
};

enum pq_shape { PQ_S_VALUE, PQ_S_STRUCT, PQ_S_LIST, PQ_S_MAP };

struct pq_node {
	const struct pq_element *e;
	size_t		 id;		/* index in pq_schema.nodes */
	char		*name;		/* NUL-terminated, as in the file */
	size_t		 namelen;
	struct pq_node	*parent;
	struct pq_node	**child;
	size_t		 nchild;
	int		 rep;		/* enum pq_repetition */
	int		 def_level;	/* counting this node */
	int		 rep_level;
	int		 depth;
	/* Leaves. */
	int		 leaf;		/* column index, or -1 for a group */
	int		 leaf_lo, leaf_hi;	/* the leaves under it */
	enum pq_type	 type;
	int32_t		 width;		/* FIXED_LEN_BYTE_ARRAY */
	enum pq_kind	 kind;
	int		 scale;		/* DECIMAL */
	enum pq_unit	 unit;		/* TIME, TIMESTAMP */
	int		 utc;		/* TIMESTAMP: ends with Z */
	/* Groups. */
	enum pq_shape	 shape;
	struct pq_node	*list_rep;	/* LIST, MAP: the repeated child */
	struct pq_node	*list_elem;	/* LIST: its element, or NULL: list_rep */
	struct pq_node	*map_key, *map_value;	/* MAP */
	/* Selection (-c): the children chosen, in output order. */
	struct pq_node	**sel;
	size_t		 nsel;
	int		 whole;		/* all of it (sel unused) */
	int		 chosen;	/* on the output */
	int		 first_leaf;	/* a chosen leaf under it */
};

struct pq_schema {
	struct pq_node	*root;
	struct pq_node	**nodes;	/* every node, in schema order */
	size_t		 nnodes;
	struct pq_node	**leaves;	/* by column index */
	size_t		 nleaves;
};

/* Build the tree; 0, or -1 with a reason in *err. */
int	pq_schema_build(struct pq_schema *s, const struct pq_meta *m,
	    const char **err);
void	pq_schema_free(struct pq_schema *s);

/*
 * Choose a column by its dotted path (or a top-level name that has dots);
 * the order of the calls is the output order.  0, or -1 with a reason.
 */
int	pq_schema_choose(struct pq_schema *s, const char *path,
	    const char **err);
/* Everything, when nothing was chosen; then first_leaf of each node. */
void	pq_schema_finish(struct pq_schema *s);

/* The schema in the message syntax of the Parquet tools, to w. */
struct pskd_writer;
void	pq_schema_print(const struct pq_schema *s, struct pskd_writer *w);
/* "a.b.c" of a node, for messages (a static buffer). */
const char *pq_node_path(const struct pq_node *n);

#endif
