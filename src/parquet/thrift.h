/*
 * thrift.h - a reader of the Thrift compact protocol, as much of it as
 * Parquet's footer and page headers use.  It never trusts a length: every
 * count and size is checked against the bytes left, nesting is limited,
 * and the first error sticks (later calls return zeros) so a caller may
 * read a whole struct and look at tc->err once.
 */
#ifndef PARQUET_THRIFT_H
#define PARQUET_THRIFT_H

#include <stddef.h>
#include <stdint.h>

/* Compact protocol type codes. */
enum {
	TC_STOP = 0, TC_TRUE = 1, TC_FALSE = 2, TC_I8 = 3, TC_I16 = 4,
	TC_I32 = 5, TC_I64 = 6, TC_DOUBLE = 7, TC_BINARY = 8, TC_LIST = 9,
	TC_SET = 10, TC_MAP = 11, TC_STRUCT = 12
};

#define TC_MAXDEPTH	32

struct tc {
	const unsigned char *p;
	const unsigned char *end;
	const char	*err;		/* NULL, or what went wrong first */
	int		 depth;
	/* The struct being read: the previous field id, one per depth. */
	int16_t		 last[TC_MAXDEPTH];
	int		 bool_value;	/* of the TC_TRUE/TC_FALSE field read */
};

void	tc_init(struct tc *t, const void *p, size_t n);
/* Enter a struct (the top one too) / leave it after its stop field. */
void	tc_struct_begin(struct tc *t);
void	tc_struct_end(struct tc *t);
/*
 * The next field of the current struct: 1 with its id and type, or 0 at
 * its stop field (or on an error).
 */
int	tc_field(struct tc *t, int16_t *id, int *type);
/* A field's value by type: reads it, or fails if the type is not right. */
int32_t	tc_i32(struct tc *t, int type);
int64_t	tc_i64(struct tc *t, int type);
int	tc_bool(struct tc *t, int type);
/* A binary or string: its bytes stay in the buffer. */
const unsigned char *tc_binary(struct tc *t, int type, size_t *len);
/* A list or set header: the element type and count (checked). */
size_t	tc_list(struct tc *t, int type, int *elem);
/* Skip a value of any type. */
void	tc_skip(struct tc *t, int type);
void	tc_fail(struct tc *t, const char *why);

#endif
