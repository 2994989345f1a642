/*
 * schema.c - the schema tree from FileMetaData's flat list of elements
 * (depth first, each group followed by its num_children children), the
 * printing rules of each leaf, the shape of each group (the LIST and MAP
 * rules of the format's LogicalTypes.md, with its backward-compatibility
 * rules for lists written by older tools), and the selection of -c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "parquet/schema.h"

#define MAXDEPTH 64

static enum pq_kind
leaf_kind(const struct pq_element *e)
{
	int c = e->converted;
	enum pq_logical l = e->logical;

	if (l == PQ_L_DECIMAL || (l == PQ_L_NONE && c == PQ_C_DECIMAL))
		return e->type == PQ_BOOLEAN || e->type == PQ_FLOAT ||
		    e->type == PQ_DOUBLE || e->type == PQ_INT96 ?
		    PQ_K_BINARY : PQ_K_DECIMAL;
	switch (e->type) {
	case PQ_BOOLEAN:
		return PQ_K_BOOL;
	case PQ_INT32:
		if (l == PQ_L_DATE || (l == PQ_L_NONE && c == PQ_C_DATE))
			return PQ_K_DATE;
		if ((l == PQ_L_TIME && e->unit == PQ_MILLIS) ||
		    (l == PQ_L_NONE && c == PQ_C_TIME_MILLIS))
			return PQ_K_TIME;
		if ((l == PQ_L_INTEGER && !e->is_signed) || (l == PQ_L_NONE &&
		    (c == PQ_C_UINT_8 || c == PQ_C_UINT_16 || c == PQ_C_UINT_32)))
			return PQ_K_UINT32;
		return PQ_K_INT32;
	case PQ_INT64:
		if (l == PQ_L_TIMESTAMP || (l == PQ_L_NONE &&
		    (c == PQ_C_TIMESTAMP_MILLIS || c == PQ_C_TIMESTAMP_MICROS)))
			return PQ_K_TIMESTAMP;
		if ((l == PQ_L_TIME && e->unit != PQ_MILLIS) ||
		    (l == PQ_L_NONE && c == PQ_C_TIME_MICROS))
			return PQ_K_TIME;
		if ((l == PQ_L_INTEGER && !e->is_signed) ||
		    (l == PQ_L_NONE && c == PQ_C_UINT_64))
			return PQ_K_UINT64;
		return PQ_K_INT64;
	case PQ_INT96:
		return PQ_K_INT96;
	case PQ_FLOAT:
		return PQ_K_FLOAT;
	case PQ_DOUBLE:
		return PQ_K_DOUBLE;
	case PQ_BYTE_ARRAY:
		if (l == PQ_L_STRING || l == PQ_L_ENUM || l == PQ_L_JSON ||
		    (l == PQ_L_NONE && (c == PQ_C_UTF8 || c == PQ_C_ENUM ||
		    c == PQ_C_JSON)))
			return PQ_K_STRING;
		return PQ_K_BINARY;
	case PQ_FLBA:
		if (l == PQ_L_UUID && e->type_length == 16)
			return PQ_K_UUID;
		if (l == PQ_L_FLOAT16 && e->type_length == 2)
			return PQ_K_FLOAT16;
		if (l == PQ_L_NONE && c == PQ_C_INTERVAL &&
		    e->type_length == 12)
			return PQ_K_INTERVAL;
		return PQ_K_BINARY;
	}
	return PQ_K_BINARY;
}

/* The unit of a TIME or TIMESTAMP, from either annotation. */
static void
time_unit(struct pq_node *n, const struct pq_element *e)
{
	if (e->logical == PQ_L_TIME || e->logical == PQ_L_TIMESTAMP) {
		n->unit = e->unit;
		n->utc = e->utc;
		return;
	}
	/* The converted types mean UTC, says LogicalTypes.md. */
	n->utc = 1;
	switch (e->converted) {
	case PQ_C_TIME_MILLIS:
	case PQ_C_TIMESTAMP_MILLIS:
		n->unit = PQ_MILLIS;
		break;
	default:
		n->unit = PQ_MICROS;
		break;
	}
}

static int
name_is(const struct pq_node *n, const char *s)
{
	return strcmp(n->name, s) == 0;
}

/* LIST and MAP groups: which child is repeated, what is the element. */
static void
group_shape(struct pq_node *g)
{
	const struct pq_element *e = g->e;
	struct pq_node *r;
	char tuple[512];

	g->shape = PQ_S_STRUCT;
	if (g->nchild != 1 || g->child[0]->rep != PQ_REPEATED)
		return;
	r = g->child[0];
	if (e->logical == PQ_L_LIST || (e->logical == PQ_L_NONE &&
	    e->converted == PQ_C_LIST)) {
		g->shape = PQ_S_LIST;
		g->list_rep = r;
		snprintf(tuple, sizeof(tuple), "%s_tuple", g->name);
		if (r->leaf >= 0 || r->nchild > 1 || name_is(r, "array") ||
		    name_is(r, tuple))
			g->list_elem = NULL;	/* the repeated node itself */
		else
			g->list_elem = r->child[0];
	} else if ((e->logical == PQ_L_MAP || (e->logical == PQ_L_NONE &&
	    (e->converted == PQ_C_MAP || e->converted == PQ_C_MAP_KEY_VALUE)))
	    && r->leaf < 0 && r->nchild >= 1 && r->nchild <= 2 &&
	    r->child[0]->rep != PQ_REPEATED && r->child[0]->leaf >= 0) {
		/*
		 * The format wants a required key, but Hive, Presto, Trino
		 * and Athena write an optional one: read as a map all the
		 * same (a key that is null is an error), as DuckDB and
		 * arrow-rs read it.  A map without values is the list of
		 * its keys, as arrow-rs reads it.
		 */
		g->list_rep = r;
		if (r->nchild == 1) {
			g->shape = PQ_S_LIST;
			g->list_elem = r->child[0];
			return;
		}
		g->shape = PQ_S_MAP;
		g->map_key = r->child[0];
		g->map_value = r->child[1];
	}
}

static struct pq_node *
build(struct pq_schema *s, const struct pq_meta *m, size_t *i,
    struct pq_node *parent, const char **err)
{
	const struct pq_element *e = &m->schema[*i];
	struct pq_node *n;
	size_t k;

	n = pskd_xcalloc(1, sizeof(*n));
	n->id = s->nnodes;
	s->nodes[s->nnodes++] = n;
	n->e = e;
	n->name = pskd_xstrndup((const char *)e->name, e->namelen);
	n->namelen = strlen(n->name);
	n->parent = parent;
	n->leaf = -1;
	(*i)++;
	if (parent == NULL) {
		n->rep = PQ_REQUIRED;
	} else {
		if (e->repetition < PQ_REQUIRED || e->repetition > PQ_REPEATED) {
			*err = "schema element without a repetition";
			return NULL;
		}
		n->rep = e->repetition;
		n->depth = parent->depth + 1;
		n->def_level = parent->def_level + (n->rep != PQ_REQUIRED);
		n->rep_level = parent->rep_level + (n->rep == PQ_REPEATED);
	}
	if (n->depth > MAXDEPTH) {
		*err = "schema nested too deeply";
		return NULL;
	}
	if (e->has_type && parent != NULL) {
		if (e->num_children > 0) {
			*err = "schema element with a type and children";
			return NULL;
		}
		if ((unsigned)e->type > PQ_FLBA) {
			*err = "unknown physical type";
			return NULL;
		}
		if (e->type == PQ_FLBA && (e->type_length < 1 ||
		    e->type_length > (1 << 20))) {
			*err = "bad FIXED_LEN_BYTE_ARRAY length";
			return NULL;
		}
		n->type = e->type;
		n->width = e->type_length;
		n->kind = leaf_kind(e);
		time_unit(n, e);
		n->scale = e->scale;
		if (n->kind == PQ_K_DECIMAL && (e->scale < 0 || e->scale > 1000)) {
			*err = "DECIMAL scale out of range";
			return NULL;
		}
		n->leaf = (int)s->nleaves;
		n->leaf_lo = n->leaf_hi = n->leaf;
		s->leaves[s->nleaves++] = n;
		return n;
	}
	if (e->num_children < 1 ||
	    (size_t)e->num_children > m->nschema - *i) {
		*err = "schema group with a bad number of children";
		return NULL;
	}
	n->nchild = (size_t)e->num_children;
	n->child = pskd_xcalloc(n->nchild, sizeof(*n->child));
	n->leaf_lo = (int)s->nleaves;
	for (k = 0; k < n->nchild; k++) {
		if (*i >= m->nschema) {
			*err = "schema group with a bad number of children";
			return NULL;
		}
		if ((n->child[k] = build(s, m, i, n, err)) == NULL)
			return NULL;
	}
	n->leaf_hi = (int)s->nleaves - 1;
	group_shape(n);
	return n;
}

int
pq_schema_build(struct pq_schema *s, const struct pq_meta *m,
    const char **err)
{
	size_t i = 0;

	memset(s, 0, sizeof(*s));
	s->nodes = pskd_xcalloc(m->nschema, sizeof(*s->nodes));
	s->leaves = pskd_xcalloc(m->nschema, sizeof(*s->leaves));
	if (m->nschema == 0 || (s->root = build(s, m, &i, NULL, err)) ==
	    NULL) {
		if (m->nschema == 0)
			*err = "empty schema";
		pq_schema_free(s);
		return -1;
	}
	if (i != m->nschema) {
		*err = "schema elements after the root's children";
		pq_schema_free(s);
		return -1;
	}
	return 0;
}

void
pq_schema_free(struct pq_schema *s)
{
	size_t i;

	for (i = 0; i < s->nnodes; i++) {
		free(s->nodes[i]->name);
		free(s->nodes[i]->child);
		free(s->nodes[i]->sel);
		free(s->nodes[i]);
	}
	free(s->nodes);
	free(s->leaves);
	memset(s, 0, sizeof(*s));
}

static struct pq_node *
find_child(const struct pq_node *g, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < g->nchild; i++)
		if (g->child[i]->namelen == len &&
		    memcmp(g->child[i]->name, name, len) == 0)
			return g->child[i];
	return NULL;
}

static void
add_sel(struct pq_node *g, struct pq_node *c)
{
	size_t i;

	for (i = 0; i < g->nsel; i++)
		if (g->sel[i] == c)
			return;
	g->sel = pskd_xreallocarray(g->sel, g->nsel + 1, sizeof(*g->sel));
	g->sel[g->nsel++] = c;
}

int
pq_schema_choose(struct pq_schema *s, const char *path, const char **err)
{
	struct pq_node *g = s->root, *c, *chain[MAXDEPTH + 1];
	const char *p = path, *dot;
	size_t n = 0, i;

	/* A top-level name with dots in it wins over a path. */
	if ((c = find_child(g, path, strlen(path))) != NULL) {
		chain[n++] = c;
	} else {
		for (;;) {
			dot = strchr(p, '.');
			c = find_child(g, p, dot ? (size_t)(dot - p) : strlen(p));
			if (c == NULL) {
				*err = "no such column";
				return -1;
			}
			chain[n++] = c;
			if (dot == NULL)
				break;
			if (c->leaf >= 0 || c->shape != PQ_S_STRUCT ||
			    c->rep == PQ_REPEATED || n > MAXDEPTH) {
				*err = "a path into a list, a map or a value";
				return -1;
			}
			g = c;
			p = dot + 1;
		}
	}
	for (i = 0; i < n; i++)
		if (chain[i]->whole || (i == n - 1 && chain[i]->nsel > 0)) {
			*err = "chosen twice";
			return -1;
		}
	add_sel(s->root, chain[0]);
	for (i = 1; i < n; i++)
		add_sel(chain[i - 1], chain[i]);
	chain[n - 1]->whole = 1;
	return 0;
}

/* Mark what goes out; returns a chosen leaf under n, or -1. */
static int
mark(struct pq_node *n, int whole)
{
	size_t i;
	int l;

	if (whole)
		n->whole = 1;
	n->chosen = 1;
	n->first_leaf = -1;
	if (n->leaf >= 0)
		return n->first_leaf = n->leaf;
	if (n->whole) {
		for (i = 0; i < n->nchild; i++)
			if ((l = mark(n->child[i], 1)) >= 0 && n->first_leaf < 0)
				n->first_leaf = l;
	} else {
		for (i = 0; i < n->nsel; i++)
			if ((l = mark(n->sel[i], 0)) >= 0 && n->first_leaf < 0)
				n->first_leaf = l;
	}
	return n->first_leaf;
}

void
pq_schema_finish(struct pq_schema *s)
{
	mark(s->root, s->root->nsel == 0);
}

const char *
pq_node_path(const struct pq_node *n)
{
	static char buf[1024];
	const struct pq_node *chain[MAXDEPTH + 1];
	size_t k = 0, len = 0;

	for (; n != NULL && n->parent != NULL && k <= MAXDEPTH; n = n->parent)
		chain[k++] = n;
	buf[0] = '\0';
	while (k-- > 0)
		len += (size_t)snprintf(buf + (len < sizeof(buf) ? len :
		    sizeof(buf) - 1), len < sizeof(buf) ? sizeof(buf) - len : 1,
		    "%s%s", len ? "." : "", chain[k]->name);
	return buf;
}

static const char *const unit_names[] = { "?", "MILLIS", "MICROS", "NANOS" };

/* The annotation in parentheses after a name, or nothing. */
static void
annotation(const struct pq_element *e, struct pskd_writer *w)
{
	static const char *const logical[] = {
		NULL, "STRING", "MAP", "LIST", "ENUM", NULL, "DATE", NULL, NULL,
		NULL, NULL, "UNKNOWN", "JSON", "BSON", "UUID", "FLOAT16",
		"VARIANT", "GEOMETRY", "GEOGRAPHY"
	};
	static const char *const converted[] = {
		"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", NULL, "DATE",
		"TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS",
		"TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64",
		"INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL"
	};
	enum pq_unit u = e->unit <= PQ_NANOS ? e->unit : 0;

	switch (e->logical) {
	case PQ_L_NONE:
		if (e->converted == PQ_C_DECIMAL)
			pskd_writer_printf(w, " (DECIMAL(%d,%d))", (int)e->precision,
			    (int)e->scale);
		else if (e->converted >= 0 && e->converted <= PQ_C_INTERVAL)
			pskd_writer_printf(w, " (%s)", converted[e->converted]);
		return;
	case PQ_L_DECIMAL:
		pskd_writer_printf(w, " (DECIMAL(%d,%d))", (int)e->precision,
		    (int)e->scale);
		return;
	case PQ_L_TIME:
	case PQ_L_TIMESTAMP:
		pskd_writer_printf(w, " (%s(%s,%s))", e->logical == PQ_L_TIME ?
		    "TIME" : "TIMESTAMP", unit_names[u], e->utc ? "true" :
		    "false");
		return;
	case PQ_L_INTEGER:
		pskd_writer_printf(w, " (INTEGER(%d,%s))", e->bits,
		    e->is_signed ? "true" : "false");
		return;
	case PQ_L_OTHER:
		pskd_writer_puts(w, " (?)");
		return;
	default:
		pskd_writer_printf(w, " (%s)", logical[e->logical]);
		return;
	}
}

static void
print_node(const struct pq_node *n, struct pskd_writer *w, int indent)
{
	static const char *const reps[] = { "required", "optional", "repeated" };
	static const char *const types[] = {
		"boolean", "int32", "int64", "int96", "float", "double",
		"binary", "fixed_len_byte_array"
	};
	size_t i;

	pskd_writer_printf(w, "%*s%s ", indent, "", reps[n->rep]);
	if (n->leaf >= 0) {
		pskd_writer_puts(w, types[n->type]);
		if (n->type == PQ_FLBA)
			pskd_writer_printf(w, "(%d)", (int)n->width);
	} else
		pskd_writer_puts(w, "group");
	pskd_writer_printf(w, " %s", n->name);
	annotation(n->e, w);
	if (n->leaf >= 0) {
		pskd_writer_puts(w, ";\n");
		return;
	}
	pskd_writer_puts(w, " {\n");
	for (i = 0; i < n->nchild; i++)
		print_node(n->child[i], w, indent + 2);
	pskd_writer_printf(w, "%*s}\n", indent, "");
}

void
pq_schema_print(const struct pq_schema *s, struct pskd_writer *w)
{
	size_t i;

	pskd_writer_printf(w, "message %s {\n", s->root->name);
	for (i = 0; i < s->root->nchild; i++)
		print_node(s->root->child[i], w, 2);
	pskd_writer_puts(w, "}\n");
}
