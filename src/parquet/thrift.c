/*
 * thrift.c - the Thrift compact protocol, read: varints (ULEB128),
 * zigzag integers, field headers as a delta from the previous id or an
 * explicit id, lists with the count in the header's high nibble or after
 * it, maps, structs nested up to TC_MAXDEPTH.
 */
#include <string.h>

#include "parquet/thrift.h"

void
tc_init(struct tc *t, const void *p, size_t n)
{
	memset(t, 0, sizeof(*t));
	t->p = p;
	t->end = t->p + n;
	t->depth = -1;
}

void
tc_fail(struct tc *t, const char *why)
{
	if (t->err == NULL)
		t->err = why;
	t->p = t->end;
}

static uint64_t
varint(struct tc *t)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (t->p >= t->end) {
			tc_fail(t, "truncated");
			return 0;
		}
		if (shift > 63) {
			tc_fail(t, "varint too long");
			return 0;
		}
		b = *t->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

static int64_t
zigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

void
tc_struct_begin(struct tc *t)
{
	if (t->depth + 1 >= TC_MAXDEPTH) {
		tc_fail(t, "nested too deeply");
		return;
	}
	t->last[++t->depth] = 0;
}

void
tc_struct_end(struct tc *t)
{
	if (t->depth >= 0)
		t->depth--;
}

int
tc_field(struct tc *t, int16_t *id, int *type)
{
	unsigned char b;
	int64_t v;

	if (t->err != NULL || t->depth < 0)
		return 0;
	if (t->p >= t->end) {
		tc_fail(t, "truncated");
		return 0;
	}
	b = *t->p++;
	*type = b & 0x0f;
	if (*type == TC_STOP)
		return 0;
	if (b >> 4)
		v = t->last[t->depth] + (b >> 4);
	else
		v = zigzag(varint(t));
	if (v < INT16_MIN || v > INT16_MAX) {
		tc_fail(t, "field id out of range");
		return 0;
	}
	*id = (int16_t)v;
	t->last[t->depth] = *id;
	if (*type == TC_TRUE || *type == TC_FALSE)
		t->bool_value = *type == TC_TRUE;
	return t->err == NULL;
}

int64_t
tc_i64(struct tc *t, int type)
{
	switch (type) {
	case TC_I8:
		if (t->p >= t->end) {
			tc_fail(t, "truncated");
			return 0;
		}
		return (int8_t)*t->p++;
	case TC_I16:
	case TC_I32:
	case TC_I64:
		return zigzag(varint(t));
	default:
		tc_fail(t, "an integer field of another type");
		return 0;
	}
}

int32_t
tc_i32(struct tc *t, int type)
{
	int64_t v = tc_i64(t, type);

	if (v < INT32_MIN || v > INT32_MAX) {
		tc_fail(t, "32-bit integer out of range");
		return 0;
	}
	return (int32_t)v;
}

int
tc_bool(struct tc *t, int type)
{
	if (type != TC_TRUE && type != TC_FALSE) {
		tc_fail(t, "a boolean field of another type");
		return 0;
	}
	return type == TC_TRUE;
}

const unsigned char *
tc_binary(struct tc *t, int type, size_t *len)
{
	const unsigned char *s;
	uint64_t n;

	*len = 0;
	if (type != TC_BINARY) {
		tc_fail(t, "a string field of another type");
		return NULL;
	}
	n = varint(t);
	if (n > (uint64_t)(t->end - t->p)) {
		tc_fail(t, "string longer than the bytes left");
		return NULL;
	}
	s = t->p;
	t->p += n;
	*len = (size_t)n;
	return s;
}

/* Bytes an element of a list takes at least (0 for a bool: 1 in lists). */
static size_t
min_size(int type)
{
	return type == TC_DOUBLE ? 8 : 1;
}

size_t
tc_list(struct tc *t, int type, int *elem)
{
	unsigned char b;
	uint64_t n;

	*elem = TC_STOP;
	if (type != TC_LIST && type != TC_SET) {
		tc_fail(t, "a list field of another type");
		return 0;
	}
	if (t->p >= t->end) {
		tc_fail(t, "truncated");
		return 0;
	}
	b = *t->p++;
	*elem = b & 0x0f;
	n = b >> 4;
	if (n == 15)
		n = varint(t);
	/* Every element takes a byte or more: a count is never past them. */
	if (*elem == TC_STOP || n > (uint64_t)(t->end - t->p) /
	    min_size(*elem)) {
		tc_fail(t, "list count larger than the bytes left");
		return 0;
	}
	return (size_t)n;
}

void
tc_skip(struct tc *t, int type)
{
	int16_t id;
	int ft, kt, vt;
	size_t n, i;
	uint64_t m;

	if (t->err != NULL)
		return;
	switch (type) {
	case TC_TRUE:
	case TC_FALSE:
		break;
	case TC_I8:
	case TC_I16:
	case TC_I32:
	case TC_I64:
		(void)tc_i64(t, type);
		break;
	case TC_DOUBLE:
		if (t->end - t->p < 8)
			tc_fail(t, "truncated");
		else
			t->p += 8;
		break;
	case TC_BINARY:
		(void)tc_binary(t, type, &n);
		break;
	case TC_LIST:
	case TC_SET:
		n = tc_list(t, type, &ft);
		if (t->depth + 1 >= TC_MAXDEPTH) {
			tc_fail(t, "nested too deeply");
			break;
		}
		t->depth++;	/* lists count toward the nesting limit */
		t->last[t->depth] = 0;
		for (i = 0; i < n && t->err == NULL; i++) {
			if (ft == TC_TRUE || ft == TC_FALSE) {
				if (t->p >= t->end)
					tc_fail(t, "truncated");
				else
					t->p++;
			} else
				tc_skip(t, ft);
		}
		t->depth--;
		break;
	case TC_MAP:
		m = varint(t);
		if (m == 0)
			break;
		if (t->p >= t->end || m > (uint64_t)(t->end - t->p)) {
			tc_fail(t, "map count larger than the bytes left");
			break;
		}
		kt = *t->p >> 4;
		vt = *t->p++ & 0x0f;
		if (t->depth + 1 >= TC_MAXDEPTH) {
			tc_fail(t, "nested too deeply");
			break;
		}
		t->depth++;
		for (; m > 0 && t->err == NULL; m--) {
			tc_skip(t, kt == TC_TRUE || kt == TC_FALSE ? TC_I8 : kt);
			tc_skip(t, vt == TC_TRUE || vt == TC_FALSE ? TC_I8 : vt);
		}
		t->depth--;
		break;
	case TC_STRUCT:
		tc_struct_begin(t);
		while (tc_field(t, &id, &ft))
			tc_skip(t, ft);
		tc_struct_end(t);
		break;
	default:
		tc_fail(t, "unknown field type");
		break;
	}
}
