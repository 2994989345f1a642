/*
 * meta.h - what pskd-unparquet needs of a Parquet file's footer
 * (FileMetaData) and of its page headers, decoded from Thrift.  Field
 * numbers are those of parquet.thrift in apache/parquet-format.
 */
#ifndef PARQUET_META_H
#define PARQUET_META_H

#include <stddef.h>
#include <stdint.h>

/* Physical types. */
enum pq_type {
	PQ_BOOLEAN = 0, PQ_INT32 = 1, PQ_INT64 = 2, PQ_INT96 = 3,
	PQ_FLOAT = 4, PQ_DOUBLE = 5, PQ_BYTE_ARRAY = 6, PQ_FLBA = 7
};

enum pq_repetition { PQ_REQUIRED = 0, PQ_OPTIONAL = 1, PQ_REPEATED = 2 };

/* The logical types (LogicalType's union member ids) we look at. */
enum pq_logical {
	PQ_L_NONE = 0, PQ_L_STRING = 1, PQ_L_MAP = 2, PQ_L_LIST = 3,
	PQ_L_ENUM = 4, PQ_L_DECIMAL = 5, PQ_L_DATE = 6, PQ_L_TIME = 7,
	PQ_L_TIMESTAMP = 8, PQ_L_INTEGER = 10, PQ_L_UNKNOWN = 11,
	PQ_L_JSON = 12, PQ_L_BSON = 13, PQ_L_UUID = 14, PQ_L_FLOAT16 = 15,
	PQ_L_VARIANT = 16, PQ_L_GEOMETRY = 17, PQ_L_GEOGRAPHY = 18,
	PQ_L_OTHER = 99
};

/* Time units of TIME and TIMESTAMP. */
enum pq_unit { PQ_MILLIS = 1, PQ_MICROS = 2, PQ_NANOS = 3 };

/* Converted types (the older annotations), as numbered in the format. */
enum pq_converted {
	PQ_C_NONE = -1, PQ_C_UTF8 = 0, PQ_C_MAP = 1, PQ_C_MAP_KEY_VALUE = 2,
	PQ_C_LIST = 3, PQ_C_ENUM = 4, PQ_C_DECIMAL = 5, PQ_C_DATE = 6,
	PQ_C_TIME_MILLIS = 7, PQ_C_TIME_MICROS = 8, PQ_C_TIMESTAMP_MILLIS = 9,
	PQ_C_TIMESTAMP_MICROS = 10, PQ_C_UINT_8 = 11, PQ_C_UINT_16 = 12,
	PQ_C_UINT_32 = 13, PQ_C_UINT_64 = 14, PQ_C_INT_8 = 15,
	PQ_C_INT_16 = 16, PQ_C_INT_32 = 17, PQ_C_INT_64 = 18, PQ_C_JSON = 19,
	PQ_C_BSON = 20, PQ_C_INTERVAL = 21
};

struct pq_element {
	const unsigned char *name;	/* in the footer buffer */
	size_t		 namelen;
	int		 has_type;	/* a leaf */
	enum pq_type	 type;
	int32_t		 type_length;
	int		 repetition;	/* -1 when absent (the root) */
	int32_t		 num_children;
	int		 converted;	/* enum pq_converted */
	int32_t		 scale, precision;
	enum pq_logical	 logical;
	int		 utc;		/* TIME, TIMESTAMP: isAdjustedToUTC */
	enum pq_unit	 unit;		/* TIME, TIMESTAMP */
	int		 bits;		/* INTEGER: bit width */
	int		 is_signed;	/* INTEGER */
};

enum pq_codec {
	PQ_UNCOMPRESSED = 0, PQ_SNAPPY = 1, PQ_GZIP = 2, PQ_LZO = 3,
	PQ_BROTLI = 4, PQ_LZ4 = 5, PQ_ZSTD = 6, PQ_LZ4_RAW = 7
};

struct pq_chunk {
	int		 has_meta;
	enum pq_type	 type;
	int		 codec;
	int64_t		 num_values;
	int64_t		 total_compressed_size;
	int64_t		 data_page_offset;
	int64_t		 dictionary_page_offset;	/* 0: none */
	int		 external;	/* file_path set: in another file */
	int		 encrypted;	/* a column of an encrypted file */
};

struct pq_rowgroup {
	struct pq_chunk	*chunks;
	size_t		 nchunks;
	int64_t		 num_rows;
};

struct pq_meta {
	struct pq_element *schema;
	size_t		 nschema;
	struct pq_rowgroup *groups;
	size_t		 ngroups;
	int64_t		 num_rows;
};

/*
 * Decode FileMetaData from p[0..n); names point into p, which must outlive
 * m.  0, or -1 with a reason in *err.
 */
int	pq_meta_parse(struct pq_meta *m, const unsigned char *p, size_t n,
	    const char **err);
void	pq_meta_free(struct pq_meta *m);

enum pq_page_type {
	PQ_DATA_PAGE = 0, PQ_INDEX_PAGE = 1, PQ_DICTIONARY_PAGE = 2,
	PQ_DATA_PAGE_V2 = 3
};

/* Encodings. */
enum pq_encoding {
	PQ_PLAIN = 0, PQ_PLAIN_DICTIONARY = 2, PQ_RLE = 3, PQ_BIT_PACKED = 4,
	PQ_DELTA_BINARY_PACKED = 5, PQ_DELTA_LENGTH_BYTE_ARRAY = 6,
	PQ_DELTA_BYTE_ARRAY = 7, PQ_RLE_DICTIONARY = 8,
	PQ_BYTE_STREAM_SPLIT = 9
};

struct pq_page {
	int		 type;		/* enum pq_page_type, or other */
	int32_t		 uncompressed_size;
	int32_t		 compressed_size;
	int32_t		 num_values;
	int		 encoding;
	int		 def_encoding;	/* v1 */
	int		 rep_encoding;	/* v1 */
	int32_t		 num_nulls;	/* v2 */
	int32_t		 num_rows;	/* v2 */
	int32_t		 def_length;	/* v2 */
	int32_t		 rep_length;	/* v2 */
	int		 is_compressed;	/* v2, default 1 */
};

/*
 * Decode a PageHeader from the start of p[0..n): the bytes it took, or -1
 * (reason in *err) - which more bytes may cure when n was not all there is.
 */
long	pq_page_parse(struct pq_page *h, const unsigned char *p, size_t n,
	    const char **err);

#endif
