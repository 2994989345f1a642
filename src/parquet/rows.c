/*
 * rows.c - rows as JSON objects.  A nested value is printed from its
 * leaves' (repetition, definition) levels, the record assembly of the
 * Dremel paper: for a node, the entries of each leaf under it that belong
 * to one instance of it form a slice; the node is null when its first
 * entry's definition level is below the node's; a repeated node's
 * instances start at entries whose repetition level is at most its own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parquet/rows.h"

static int
fail(struct pq_rows *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct pq_rows *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof(r->err), "%s: ", r->f->name);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

void
pq_rows_init(struct pq_rows *r, struct pq_file *f, struct pq_out *o, int lax)
{
	struct pq_schema *s = &f->schema;
	struct pq_out tmp;
	size_t i, n = s->nleaves;

	memset(r, 0, sizeof(*r));
	r->f = f;
	r->out = o;
	r->lax = lax;
	if (s->root->whole) {
		r->top = s->root->child;
		r->ntop = s->root->nchild;
	} else {
		r->top = s->root->sel;
		r->ntop = s->root->nsel;
	}
	/* Each member's "name": once. */
	r->keys = pskd_xcalloc(s->nnodes, sizeof(*r->keys));
	pq_out_init(&tmp, -1, NULL);
	for (i = 0; i < s->nnodes; i++) {
		size_t bad;

		tmp.b.len = 0;
		(void)pq_out_string(&tmp, (const unsigned char *)
		    s->nodes[i]->name, s->nodes[i]->namelen, 1, &bad);
		pq_out_c(&tmp, ':');
		pskd_buf_add(&r->keys[i], tmp.b.p, tmp.b.len);
	}
	pq_out_free(&tmp);
	r->cols = pskd_xcalloc(n ? n : 1, sizeof(*r->cols));
	r->ent = pskd_xcalloc(n ? n : 1, sizeof(*r->ent));
	r->nent = pskd_xcalloc(n ? n : 1, sizeof(*r->nent));
	r->entcap = pskd_xcalloc(n ? n : 1, sizeof(*r->entcap));
	r->rowv = pskd_xcalloc(n ? n : 1, sizeof(*r->rowv));
	r->rowbytes = pskd_xcalloc(n ? n : 1, sizeof(*r->rowbytes));
	r->beg = pskd_xcalloc(n ? n : 1, sizeof(*r->beg));
	r->end = pskd_xcalloc(n ? n : 1, sizeof(*r->end));
	r->save = pskd_xcalloc(80, sizeof(*r->save));
	for (i = 0; i < n; i++)
		pq_vals_init(&r->rowv[i], s->leaves[i]->type);
}

void
pq_rows_free(struct pq_rows *r)
{
	size_t i, n = r->f->schema.nleaves;

	for (i = 0; i < r->f->schema.nnodes; i++)
		pskd_buf_free(&r->keys[i]);
	for (i = 0; i < n; i++) {
		free(r->ent[i]);
		pq_vals_free(&r->rowv[i]);
		pskd_buf_free(&r->rowbytes[i]);
	}
	for (i = 0; i < 80; i++)
		free(r->save[i]);
	for (i = 0; i < n; i++)
		pq_column_close(&r->cols[i]);
	free(r->keys);
	free(r->cols);
	free(r->ent);
	free(r->nent);
	free(r->entcap);
	free(r->rowv);
	free(r->rowbytes);
	free(r->beg);
	free(r->end);
	free(r->save);
	memset(r, 0, sizeof(*r));
}

static int
value(struct pq_rows *r, const struct pq_node *leaf, const struct pq_vals *v,
    size_t i)
{
	const char *err;
	size_t bad;

	if (pq_out_value(r->out, leaf, v, i, r->lax, &bad, &err) == 0)
		return 0;
	if (leaf->kind == PQ_K_STRING)
		return fail(r, "row %llu, column %s: invalid UTF-8 at byte "
		    "%zu (-b passes such bytes as escapes)",
		    (unsigned long long)r->row, pq_node_path(leaf), bad);
	return fail(r, "row %llu, column %s: %s", (unsigned long long)r->row,
	    pq_node_path(leaf), err);
}

static int
column_error(struct pq_rows *r, size_t g, const struct pq_node *leaf,
    int ret)
{
	if (ret == 0)
		return fail(r, "row group %zu, column %s: fewer values than "
		    "rows", g, pq_node_path(leaf));
	return fail(r, "row group %zu, column %s: %s", g, pq_node_path(leaf),
	    r->cols[leaf->leaf].err);
}

/* ---- a flat column: one entry a row ---------------------------------- */

static int
flat(struct pq_rows *r, size_t g, const struct pq_node *leaf)
{
	struct pq_column *c = &r->cols[leaf->leaf];
	int ret;

	if ((ret = pq_column_ready(c)) <= 0)
		return column_error(r, g, leaf, ret);
	if (c->defb[c->ib++] != c->max_def) {
		pq_out_add(r->out, "null", 4);
		return 0;
	}
	return value(r, leaf, &c->vals, c->iv++);
}

/* ---- a nested column: the row's entries of each leaf, then printed ---- */

/* Append the value at c's batch position to the row's values of leaf l. */
static void
keep_value(struct pq_rows *r, int l, struct pq_column *c)
{
	struct pq_vals *rv = &r->rowv[l];
	const struct pq_bytes *b;

	pq_vals_reserve(rv, rv->n + 1);
	if (rv->size > 0) {
		memcpy(rv->fixed + rv->n * rv->size, c->vals.fixed + c->iv *
		    rv->size, rv->size);
	} else {
		b = &c->vals.ba[c->iv];
		/* An offset for now: the bytes may move as they grow. */
		rv->ba[rv->n].p = (const unsigned char *)(uintptr_t)
		    r->rowbytes[l].len;
		rv->ba[rv->n].len = b->len;
		pskd_buf_add(&r->rowbytes[l], b->p, b->len);
	}
	rv->n++;
	c->iv++;
}

static int
collect(struct pq_rows *r, size_t g, const struct pq_node *leaf)
{
	int l = leaf->leaf, ret;
	struct pq_column *c = &r->cols[l];
	struct pq_entry *e;
	size_t i;

	r->nent[l] = 0;
	r->rowv[l].n = 0;
	r->rowbytes[l].len = 0;
	if ((ret = pq_column_ready(c)) <= 0)
		return column_error(r, g, leaf, ret);
	if (c->repb[c->ib] != 0)
		return fail(r, "row group %zu, column %s: a row that does not "
		    "start at repetition level 0", g, pq_node_path(leaf));
	do {
		if (r->nent[l] == r->entcap[l]) {
			r->entcap[l] = r->entcap[l] ? 2 * r->entcap[l] : 64;
			r->ent[l] = pskd_xreallocarray(r->ent[l], r->entcap[l],
			    sizeof(*r->ent[l]));
		}
		e = &r->ent[l][r->nent[l]++];
		e->rep = c->repb[c->ib];
		e->def = c->defb[c->ib];
		e->v = (uint32_t)r->rowv[l].n;
		if (r->rowv[l].n == UINT32_MAX)
			return fail(r, "row %llu: too many values",
			    (unsigned long long)r->row);
		c->ib++;
		if (e->def == c->max_def)
			keep_value(r, l, c);
		if ((ret = pq_column_ready(c)) < 0)
			return column_error(r, g, leaf, ret);
	} while (ret > 0 && c->repb[c->ib] != 0);
	if (r->rowv[l].size == 0)
		for (i = 0; i < r->rowv[l].n; i++)
			r->rowv[l].ba[i].p = r->rowbytes[l].p +
			    (size_t)(uintptr_t)r->rowv[l].ba[i].p;
	return 0;
}

static int render_field(struct pq_rows *, const struct pq_node *);
static int render_present(struct pq_rows *, const struct pq_node *);

static int
chosen(const struct pq_rows *r, int l)
{
	return r->f->schema.leaves[l]->chosen;
}

/* The first entry of n's slice (n's first chosen leaf). */
static const struct pq_entry *
first_entry(const struct pq_rows *r, const struct pq_node *n)
{
	return &r->ent[n->first_leaf][r->beg[n->first_leaf]];
}

/*
 * Each instance of the repeated node rn in the current slices, printed
 * by elem (NULL: rn itself) or as a map entry, between open and close.
 */
static int
render_repeated(struct pq_rows *r, const struct pq_node *rn,
    const struct pq_node *elem, const struct pq_node *map, char open,
    char close)
{
	size_t n = r->f->schema.nleaves, *sv, s, e, start;
	int l, l0 = rn->first_leaf, first = 1;

	pq_out_c(r->out, (unsigned char)open);
	if (first_entry(r, rn)->def < rn->def_level) {
		pq_out_c(r->out, (unsigned char)close);
		return 0;
	}
	if (r->save[rn->depth] == NULL)
		r->save[rn->depth] = pskd_xreallocarray(NULL, 3 * n,
		    sizeof(size_t));
	sv = r->save[rn->depth];
	for (l = rn->leaf_lo; l <= rn->leaf_hi; l++)
		if (chosen(r, l)) {
			sv[l] = r->beg[l];
			sv[n + l] = r->end[l];
			sv[2 * n + l] = r->beg[l];	/* the cursor */
		}
	while (sv[2 * n + l0] < sv[n + l0]) {
		for (l = rn->leaf_lo; l <= rn->leaf_hi; l++) {
			if (!chosen(r, l))
				continue;
			s = sv[2 * n + l];
			if (s >= sv[n + l])
				return fail(r, "row %llu, column %s: its leaves' "
				    "levels disagree", (unsigned long long)r->row,
				    pq_node_path(rn));
			for (e = s + 1; e < sv[n + l] &&
			    r->ent[l][e].rep > rn->rep_level; e++)
				;
			r->beg[l] = s;
			r->end[l] = e;
			sv[2 * n + l] = e;
		}
		if (!first)
			pq_out_c(r->out, ',');
		first = 0;
		if (map != NULL) {
			/* The key as a string (quoted if it printed bare). */
			if (first_entry(r, map->map_key)->def <
			    map->map_key->def_level)
				return fail(r, "row %llu, column %s: a map key "
				    "that is null", (unsigned long long)r->row,
				    pq_node_path(map->map_key));
			start = r->out->b.len;
			if (render_field(r, map->map_key) == -1)
				return -1;
			if (r->out->b.p[start] != '"') {
				pq_out_c(r->out, '"');
				memmove(r->out->b.p + start + 1, r->out->b.p + start,
				    r->out->b.len - start - 1);
				r->out->b.p[start] = '"';
				pq_out_c(r->out, '"');
			}
			pq_out_c(r->out, ':');
			if (render_field(r, map->map_value) == -1)
				return -1;
		} else if ((elem ? render_field(r, elem) :
		    render_present(r, rn)) == -1)
			return -1;
	}
	for (l = rn->leaf_lo; l <= rn->leaf_hi; l++)
		if (chosen(r, l)) {
			if (sv[2 * n + l] != sv[n + l])
				return fail(r, "row %llu, column %s: its leaves' "
				    "levels disagree", (unsigned long long)r->row,
				    pq_node_path(rn));
			r->beg[l] = sv[l];
			r->end[l] = sv[n + l];
		}
	pq_out_c(r->out, (unsigned char)close);
	return 0;
}

/* n, known to be there: a value, an object, an array, a map. */
static int
render_present(struct pq_rows *r, const struct pq_node *n)
{
	const struct pq_entry *e;
	struct pq_node *const *kids;
	size_t i, nk;

	if (n->leaf >= 0) {
		e = first_entry(r, n);
		if (e->def != n->def_level) {
			pq_out_add(r->out, "null", 4);
			return 0;
		}
		return value(r, n, &r->rowv[n->leaf], e->v);
	}
	switch (n->shape) {
	case PQ_S_LIST:
		return render_repeated(r, n->list_rep, n->list_elem, NULL, '[',
		    ']');
	case PQ_S_MAP:
		return render_repeated(r, n->list_rep, NULL, n, '{', '}');
	default:
		kids = n->whole ? n->child : n->sel;
		nk = n->whole ? n->nchild : n->nsel;
		pq_out_c(r->out, '{');
		for (i = 0; i < nk; i++) {
			if (i > 0)
				pq_out_c(r->out, ',');
			pq_out_add(r->out, r->keys[kids[i]->id].p,
			    r->keys[kids[i]->id].len);
			if (render_field(r, kids[i]) == -1)
				return -1;
		}
		pq_out_c(r->out, '}');
		return 0;
	}
}

/* n as a member's value: null, an array of its instances, or it. */
static int
render_field(struct pq_rows *r, const struct pq_node *n)
{
	if (n->rep == PQ_REPEATED)
		return render_repeated(r, n, NULL, NULL, '[', ']');
	if (first_entry(r, n)->def < n->def_level) {
		pq_out_add(r->out, "null", 4);
		return 0;
	}
	return render_present(r, n);
}

static int
nested(struct pq_rows *r, size_t g, const struct pq_node *top)
{
	int l;

	for (l = top->leaf_lo; l <= top->leaf_hi; l++) {
		if (!chosen(r, l))
			continue;
		if (collect(r, g, r->f->schema.leaves[l]) == -1)
			return -1;
		r->beg[l] = 0;
		r->end[l] = r->nent[l];
	}
	return render_field(r, top);
}

/* ---- a row group ----------------------------------------------------------- */

static int
open_columns(struct pq_rows *r, size_t g)
{
	struct pq_schema *s = &r->f->schema;
	const struct pq_node *leaf;
	size_t l;

	for (l = 0; l < s->nleaves; l++) {
		leaf = s->leaves[l];
		if (!leaf->chosen)
			continue;
		if (pq_column_open(&r->cols[l], r->f->fd, r->f->size,
		    &r->f->meta.groups[g].chunks[l], (int)leaf->type,
		    (size_t)leaf->width, leaf->def_level, leaf->rep_level) == -1)
			return column_error(r, g, leaf, -1);
	}
	return 0;
}

static void
release_columns(struct pq_rows *r)
{
	size_t l;

	for (l = 0; l < r->f->schema.nleaves; l++)
		if (r->f->schema.leaves[l]->chosen)
			pq_column_release(&r->cols[l]);
}

static int
one_row(struct pq_rows *r, size_t g)
{
	const struct pq_node *t;
	size_t i;
	int ret;

	pq_out_c(r->out, '{');
	for (i = 0; i < r->ntop; i++) {
		t = r->top[i];
		if (i > 0)
			pq_out_c(r->out, ',');
		pq_out_add(r->out, r->keys[t->id].p, r->keys[t->id].len);
		if (t->leaf >= 0 && t->rep != PQ_REPEATED)
			ret = flat(r, g, t);
		else
			ret = nested(r, g, t);
		if (ret == -1)
			return -1;
	}
	pq_out_add(r->out, "}\n", 2);
	return 0;
}

int
pq_rows_group(struct pq_rows *r, size_t g, uint64_t first, uint64_t max,
    uint64_t *done)
{
	uint64_t nrows = (uint64_t)r->f->meta.groups[g].num_rows, i, limit;
	size_t start, l;
	int ret = 0;

	*done = 0;
	limit = nrows < max ? nrows : max;
	if (limit == 0)
		return 0;
	if (open_columns(r, g) == -1) {
		release_columns(r);
		return -1;
	}
	for (i = 0; i < limit && ret == 0; i++) {
		r->row = first + i + 1;
		start = r->out->b.len;
		if ((ret = one_row(r, g)) == -1) {
			r->out->b.len = start;	/* no half row */
			break;
		}
		(*done)++;
		if (r->out->b.len >= PSKD_BUFSIZE && pq_out_flush(r->out) == -1)
			ret = -2;
	}
	/* All its rows read: every column must be at its end. */
	for (l = 0; ret == 0 && limit == nrows && l < r->f->schema.nleaves;
	    l++)
		if (r->f->schema.leaves[l]->chosen &&
		    (ret = pq_column_ready(&r->cols[l])) != 0) {
			if (ret > 0)
				ret = fail(r, "row group %zu, column %s: more "
				    "values than rows", g,
				    pq_node_path(r->f->schema.leaves[l]));
			else
				ret = column_error(r, g, r->f->schema.leaves[l],
				    ret);
		}
	release_columns(r);
	return ret;
}
