/*
 * meta.c - FileMetaData and PageHeader from their Thrift compact bytes:
 * the fields pskd-unparquet uses are read, every other one skipped.
 */
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "parquet/meta.h"
#include "parquet/thrift.h"

/* TimeUnit: a union of empty structs, 1 MILLIS, 2 MICROS, 3 NANOS. */
static enum pq_unit
time_unit(struct tc *t)
{
	enum pq_unit u = 0;
	int16_t id;
	int ty;

	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		if (id >= 1 && id <= 3 && ty == TC_STRUCT)
			u = (enum pq_unit)id;
		tc_skip(t, ty);
	}
	tc_struct_end(t);
	if (u == 0)
		tc_fail(t, "time unit missing");
	return u;
}

/* The member of a LogicalType union that is set, with its fields. */
static void
logical_type(struct tc *t, struct pq_element *e)
{
	int16_t id, fid;
	int ty, fty;

	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		if (ty != TC_STRUCT) {
			tc_skip(t, ty);
			continue;
		}
		/* A field id is an i16: negative ones are no known member. */
		e->logical = id >= 1 && id <= PQ_L_GEOGRAPHY && id != 9 ?
		    (enum pq_logical)id : PQ_L_OTHER;
		tc_struct_begin(t);
		while (tc_field(t, &fid, &fty)) {
			if (id == PQ_L_DECIMAL && fid == 1)
				e->scale = tc_i32(t, fty);
			else if (id == PQ_L_DECIMAL && fid == 2)
				e->precision = tc_i32(t, fty);
			else if ((id == PQ_L_TIME || id == PQ_L_TIMESTAMP) &&
			    fid == 1)
				e->utc = tc_bool(t, fty);
			else if ((id == PQ_L_TIME || id == PQ_L_TIMESTAMP) &&
			    fid == 2 && fty == TC_STRUCT)
				e->unit = time_unit(t);
			else if (id == PQ_L_INTEGER && fid == 1)
				e->bits = tc_i32(t, fty);
			else if (id == PQ_L_INTEGER && fid == 2)
				e->is_signed = tc_bool(t, fty);
			else
				tc_skip(t, fty);
		}
		tc_struct_end(t);
	}
	tc_struct_end(t);
}

static void
schema_element(struct tc *t, struct pq_element *e)
{
	int16_t id;
	int ty;

	memset(e, 0, sizeof(*e));
	e->repetition = -1;
	e->converted = PQ_C_NONE;
	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		switch (id) {
		case 1:
			e->has_type = 1;
			e->type = (enum pq_type)tc_i32(t, ty);
			break;
		case 2: e->type_length = tc_i32(t, ty); break;
		case 3: e->repetition = tc_i32(t, ty); break;
		case 4: e->name = tc_binary(t, ty, &e->namelen); break;
		case 5: e->num_children = tc_i32(t, ty); break;
		case 6: e->converted = tc_i32(t, ty); break;
		case 7: e->scale = tc_i32(t, ty); break;
		case 8: e->precision = tc_i32(t, ty); break;
		case 10:
			if (ty == TC_STRUCT)
				logical_type(t, e);
			else
				tc_skip(t, ty);
			break;
		default: tc_skip(t, ty); break;
		}
	}
	tc_struct_end(t);
	if (e->name == NULL)
		tc_fail(t, "schema element without a name");
}

static void
column_meta(struct tc *t, struct pq_chunk *c)
{
	int16_t id;
	int ty;

	c->has_meta = 1;
	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		switch (id) {
		case 1: c->type = (enum pq_type)tc_i32(t, ty); break;
		case 4: c->codec = tc_i32(t, ty); break;
		case 5: c->num_values = tc_i64(t, ty); break;
		case 7: c->total_compressed_size = tc_i64(t, ty); break;
		case 9: c->data_page_offset = tc_i64(t, ty); break;
		case 11: c->dictionary_page_offset = tc_i64(t, ty); break;
		default: tc_skip(t, ty); break;
		}
	}
	tc_struct_end(t);
}

static void
column_chunk(struct tc *t, struct pq_chunk *c)
{
	int16_t id;
	int ty;

	memset(c, 0, sizeof(*c));
	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		if (id == 1 && ty == TC_BINARY) {
			c->external = 1;
			tc_skip(t, ty);
		} else if (id == 3 && ty == TC_STRUCT)
			column_meta(t, c);
		else {
			/* crypto_metadata, encrypted_column_metadata */
			if (id == 8 || id == 9)
				c->encrypted = 1;
			tc_skip(t, ty);
		}
	}
	tc_struct_end(t);
}

static void
row_group(struct tc *t, struct pq_rowgroup *g)
{
	int16_t id;
	int ty, et;
	size_t i, n;

	memset(g, 0, sizeof(*g));
	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		if (id == 1 && g->chunks == NULL) {
			n = tc_list(t, ty, &et);
			if (n > 0 && et != TC_STRUCT)
				tc_fail(t, "column chunks that are not structs");
			g->chunks = pskd_xcalloc(n ? n : 1, sizeof(*g->chunks));
			g->nchunks = n;
			for (i = 0; i < n && t->err == NULL; i++)
				column_chunk(t, &g->chunks[i]);
		} else if (id == 3)
			g->num_rows = tc_i64(t, ty);
		else
			tc_skip(t, ty);
	}
	tc_struct_end(t);
}

int
pq_meta_parse(struct pq_meta *m, const unsigned char *p, size_t n,
    const char **err)
{
	struct tc t;
	int16_t id;
	int ty, et;
	size_t i, k;

	memset(m, 0, sizeof(*m));
	tc_init(&t, p, n);
	tc_struct_begin(&t);
	while (tc_field(&t, &id, &ty)) {
		if (id == 2 && m->schema == NULL) {
			k = tc_list(&t, ty, &et);
			if (k > 0 && et != TC_STRUCT)
				tc_fail(&t, "schema elements that are not structs");
			m->schema = pskd_xcalloc(k ? k : 1, sizeof(*m->schema));
			m->nschema = k;
			for (i = 0; i < k && t.err == NULL; i++)
				schema_element(&t, &m->schema[i]);
		} else if (id == 3)
			m->num_rows = tc_i64(&t, ty);
		else if (id == 4 && m->groups == NULL) {
			k = tc_list(&t, ty, &et);
			if (k > 0 && et != TC_STRUCT)
				tc_fail(&t, "row groups that are not structs");
			m->groups = pskd_xcalloc(k ? k : 1, sizeof(*m->groups));
			m->ngroups = k;
			for (i = 0; i < k && t.err == NULL; i++)
				row_group(&t, &m->groups[i]);
		} else
			tc_skip(&t, ty);
	}
	if (t.err == NULL && m->schema == NULL)
		tc_fail(&t, "no schema");
	if (t.err != NULL) {
		*err = t.err;
		pq_meta_free(m);
		return -1;
	}
	return 0;
}

void
pq_meta_free(struct pq_meta *m)
{
	size_t i;

	for (i = 0; i < m->ngroups; i++)
		free(m->groups[i].chunks);
	free(m->groups);
	free(m->schema);
	memset(m, 0, sizeof(*m));
}

static void
data_page_header(struct tc *t, struct pq_page *h)
{
	int16_t id;
	int ty;

	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		switch (id) {
		case 1: h->num_values = tc_i32(t, ty); break;
		case 2: h->encoding = tc_i32(t, ty); break;
		case 3: h->def_encoding = tc_i32(t, ty); break;
		case 4: h->rep_encoding = tc_i32(t, ty); break;
		default: tc_skip(t, ty); break;
		}
	}
	tc_struct_end(t);
}

static void
dictionary_page_header(struct tc *t, struct pq_page *h)
{
	int16_t id;
	int ty;

	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		if (id == 1)
			h->num_values = tc_i32(t, ty);
		else if (id == 2)
			h->encoding = tc_i32(t, ty);
		else
			tc_skip(t, ty);
	}
	tc_struct_end(t);
}

static void
data_page_header_v2(struct tc *t, struct pq_page *h)
{
	int16_t id;
	int ty;

	tc_struct_begin(t);
	while (tc_field(t, &id, &ty)) {
		switch (id) {
		case 1: h->num_values = tc_i32(t, ty); break;
		case 2: h->num_nulls = tc_i32(t, ty); break;
		case 3: h->num_rows = tc_i32(t, ty); break;
		case 4: h->encoding = tc_i32(t, ty); break;
		case 5: h->def_length = tc_i32(t, ty); break;
		case 6: h->rep_length = tc_i32(t, ty); break;
		case 7: h->is_compressed = tc_bool(t, ty); break;
		default: tc_skip(t, ty); break;
		}
	}
	tc_struct_end(t);
}

long
pq_page_parse(struct pq_page *h, const unsigned char *p, size_t n,
    const char **err)
{
	struct tc t;
	int16_t id;
	int ty;

	memset(h, 0, sizeof(*h));
	h->type = -1;
	h->is_compressed = 1;
	tc_init(&t, p, n);
	tc_struct_begin(&t);
	while (tc_field(&t, &id, &ty)) {
		switch (id) {
		case 1: h->type = tc_i32(&t, ty); break;
		case 2: h->uncompressed_size = tc_i32(&t, ty); break;
		case 3: h->compressed_size = tc_i32(&t, ty); break;
		case 5:
		case 7:
		case 8:
			if (ty != TC_STRUCT) {
				tc_fail(&t, "page header of another type");
				break;
			}
			if (id == 5)
				data_page_header(&t, h);
			else if (id == 7)
				dictionary_page_header(&t, h);
			else
				data_page_header_v2(&t, h);
			break;
		default: tc_skip(&t, ty); break;
		}
	}
	if (t.err != NULL) {
		*err = t.err;
		return -1;
	}
	if (h->uncompressed_size < 0 || h->compressed_size < 0 ||
	    h->num_values < 0 || h->num_nulls < 0 || h->def_length < 0 ||
	    h->rep_length < 0) {
		*err = "negative size or count in a page header";
		return -1;
	}
	return (long)(t.p - p);
}
