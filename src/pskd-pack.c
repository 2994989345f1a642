/*
 * pskd-pack - write a .psk.d file from a .psk.d stream or from samples as
 * text (JSON arrays nested like the type, one sample a line).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"

static const char usage_text[] =
    "pskd-pack [-e encodings] [-o file] [-t type] [file ...]";

enum { OPT_HELP = 256, OPT_VERSION };

static struct {
	const char	*encodings;	/* -e */
	const char	*output;	/* -o */
	const char	*type;		/* -t */
} opt = {
	.encodings = NULL,
	.output = NULL,
	.type = NULL,
};

static const char *inname;
static struct pskd_error perr;

/* The output failed (a full disk): say so, not that the input is short. */
static _Noreturn void
output_failed(const struct pskd_writer *w)
{
	errno = w->error;
	pskd_err(PSKD_EXIT_DATA, "%s", w->name);
}

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -e, --encodings LIST  f64, f32 or bf16 for each real leaf\n"
	    "  -o, --output FILE     write FILE atomically (default stdout)\n"
	    "  -t, --type TYPE       the sample type of text input\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

static void
parse_type(struct pskd_type *t, const char *text)
{
	if (pskd_type_parse(t, text, strlen(text), &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "-t: %s", perr.msg);
	if (t->params)
		pskd_errx(PSKD_EXIT_DATA, "-t: E%d: type not closed: a params "
		    "type has no layout to pack", PSKD_E_TYPE);
	if (opt.encodings != NULL &&
	    pskd_type_set_encodings(t, opt.encodings, &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "-e: %s", perr.msg);
}

/* A stream must hold samples of the output's type (named by whence). */
static void
same_type(const struct pskd_type *t, const struct pskd_type *to,
    const char *whence)
{
	char *a = pskd_type_format(t, NULL, 0);
	char *b = pskd_type_format(to, NULL, 0);

	if (strcmp(a, b) != 0) {
		snprintf(perr.msg, sizeof(perr.msg), "E%d: the stream's type "
		    "%s is not %s %s", PSKD_E_MISMATCH, a, whence, b);
		pskd_fail_at(inname, 0, "%s", perr.msg);
	}
	free(a);
	free(b);
}

/*
 * The output type of a stream: its own (or -t, which must be the same
 * type), with the stream's encodings unless -e gives others.
 */
static void
binary_type(struct pskd_header *h, struct pskd_type *to)
{
	const char *text = opt.type ? opt.type : h->type.text;
	char *list;

	if (pskd_type_parse(to, text, strlen(text), &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", opt.type ? "-t" : inname,
		    perr.msg);
	if (to->params)
		pskd_errx(PSKD_EXIT_DATA, "-t: E%d: type not closed: a params "
		    "type has no layout to pack", PSKD_E_TYPE);
	same_type(&h->type, to, "-t");
	list = pskd_type_encodings(&h->type);
	if (pskd_type_set_encodings(to, opt.encodings ? opt.encodings : list,
	    &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "-e: %s", perr.msg);
	free(list);
}

static void
open_input(struct pskd_reader *r, const char *path)
{
	if (pskd_reader_open(r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	inname = r->name;
}

static void
read_header(struct pskd_reader *r, struct pskd_header *h)
{
	if (pskd_header_read(h, r, &perr) == -1)
		pskd_fail_at(inname, 0, "%s", perr.msg);
	if (h->type.params)
		pskd_fail_at(inname, 0, "E9001: type not closed: a params "
		    "type has no layout to pack");
}

/* Text samples, one a line. */
static void
pack_text(struct pskd_reader *r, struct pskd_sink *out, struct pskd_type *t)
{
	const unsigned char *line;
	unsigned char *sample;
	uint64_t base = out->count;
	size_t len;
	int rc;

	sample = pskd_xmalloc((size_t)t->sample_size);
	while ((rc = pskd_reader_line(r, &line, &len)) == 1) {
		memset(sample, 0, (size_t)t->sample_size);
		if (pskd_sample_parse(t, line, len, sample, &perr) == -1) {
			pskd_error_prefix(&perr, "sample %llu",
			    (unsigned long long)(out->count - base));
			pskd_fail_at(inname, r->lineno, "%s", perr.msg);
		}
		pskd_sink_sample(out, sample, (size_t)t->sample_size);
		if (out->w.error)
			break;
	}
	if (rc == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", inname);
	free(sample);
}

/* Re-encode the real leaves of n samples from type `in` into `to`. */
static void
recode(const struct pskd_type *in, const struct pskd_type *to,
    const unsigned char *src, unsigned char *dst, uint64_t n, uint64_t first)
{
	uint64_t k, j, bits;
	size_t i;
	uint32_t f32;
	uint16_t b16;
	double d;

	for (k = 0; k < n; k++) {
		const unsigned char *s = src + k * in->sample_size;
		unsigned char *o = dst + k * to->sample_size;

		for (i = 0; i < in->nleaves; i++) {
			const struct pskd_leaf *a = &in->leaves[i];
			const struct pskd_leaf *b = &to->leaves[i];

			if (!a->real || a->enc == b->enc) {
				memcpy(o + b->offset, s + a->offset,
				    (size_t)a->size);
				continue;
			}
			for (j = 0; j < a->nelem; j++) {
				unsigned char *e = o + b->offset + j * b->width;

				d = pskd_leaf_real(a, s, j);
				if (b->enc == PSKD_ENC_F64) {
					/* A NaN re-encoded is the canonical one. */
					if (isnan(d))
						bits = UINT64_C(0x7FF8000000000000);
					else
						memcpy(&bits, &d, 8);
					pskd_put_le64(e, bits);
				} else if (b->enc == PSKD_ENC_F32 &&
				    pskd_f64_to_f32(d, &f32) == 0)
					pskd_put_le32(e, f32);
				else if (b->enc == PSKD_ENC_BF16 &&
				    pskd_f64_to_bf16(d, &b16) == 0)
					pskd_put_le16(e, b16);
				else {
					char num[40], msg[200];

					pskd_format_double(num, sizeof(num), d);
					snprintf(msg, sizeof(msg), "E%d: sample "
					    "%llu, leaf %zu, element %llu: %s "
					    "is not exactly representable in "
					    "%s", PSKD_E_VALUE,
					    (unsigned long long)(first + k), i,
					    (unsigned long long)j, num,
					    pskd_enc_name(b->enc));
					pskd_fail_at(inname, 0, "%s", msg);
				}
			}
		}
	}
}

/* A .psk.d stream: check every sample, copy (or re-encode) it. */
static void
pack_stream(struct pskd_reader *r, struct pskd_sink *out,
    struct pskd_header *h, const struct pskd_type *to)
{
	const struct pskd_type *t = &h->type;
	size_t ss = (size_t)t->sample_size, chunk;
	const unsigned char *p;
	unsigned char *conv = NULL;
	uint64_t n, bad, base = out->count;
	ssize_t got;
	size_t i;
	int same = 1;

	for (i = 0; i < t->nleaves; i++)
		same &= t->leaves[i].enc == to->leaves[i].enc;

	chunk = ss >= PSKD_BUFSIZE ? ss : PSKD_BUFSIZE / ss * ss;
	if (!same)
		conv = pskd_xmalloc(chunk / ss * (size_t)to->sample_size);
	for (;;) {
		got = pskd_reader_peek(r, chunk, &p);
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", inname);
		if (got == 0)
			break;
		n = (uint64_t)got / ss;
		if (n > chunk / ss)
			n = chunk / ss;
		if (n == 0) {
			snprintf(perr.msg, sizeof(perr.msg), "E%d: truncated "
			    "at sample %llu (%zd of %zu bytes)", PSKD_E_TRUNC,
			    (unsigned long long)(out->count - base), got, ss);
			pskd_fail_at(inname, 0, "%s", perr.msg);
		}
		if (h->count != PSKD_COUNT_STREAM &&
		    out->count - base + n > h->count) {
			snprintf(perr.msg, sizeof(perr.msg), "E%d: data after "
			    "the last of %llu samples", PSKD_E_MAGIC,
			    (unsigned long long)h->count);
			pskd_fail_at(inname, 0, "%s", perr.msg);
		}
		if (pskd_samples_check(t, p, n, &bad, &perr) == -1) {
			pskd_error_prefix(&perr, "sample %llu",
			    (unsigned long long)(out->count - base + bad));
			pskd_fail_at(inname, 0, "%s", perr.msg);
		}
		if (same)
			pskd_sink_samples(out, p, (size_t)n * ss, n);
		else {
			recode(t, to, p, conv, n, out->count - base);
			pskd_sink_samples(out, conv,
			    (size_t)(n * to->sample_size), n);
		}
		pskd_reader_skip(r, (size_t)n * ss);
		if (out->w.error)
			output_failed(&out->w);
	}
	if (h->count != PSKD_COUNT_STREAM && out->count - base < h->count) {
		snprintf(perr.msg, sizeof(perr.msg), "E%d: truncated at sample "
		    "%llu (%llu samples declared)", PSKD_E_TRUNC,
		    (unsigned long long)(out->count - base),
		    (unsigned long long)h->count);
		pskd_fail_at(inname, 0, "%s", perr.msg);
	}
	free(conv);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "encodings", required_argument, NULL, 'e' },
		{ "output", required_argument, NULL, 'o' },
		{ "type", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_reader r;
	struct pskd_output o;
	struct pskd_sink out;
	struct pskd_header h;
	struct pskd_type to;
	const unsigned char *p;
	ssize_t got;
	int c, i, binary;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "e:o:t:", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': opt.encodings = optarg; break;
		case 'o': opt.output = optarg; break;
		case 't': opt.type = optarg; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.output == NULL)
		pskd_refuse_tty(1, "<stdout>");

	open_input(&r, argc ? argv[0] : NULL);
	got = pskd_reader_peek(&r, 4, &p);
	if (got < 0)
		pskd_err(PSKD_EXIT_DATA, "%s", inname);
	binary = got >= 4 && memcmp(p, PSKD_MAGIC, 4) == 0;
	if (binary) {
		read_header(&r, &h);
		binary_type(&h, &to);
	} else {
		if (opt.type == NULL) {
			if (got == 0)
				pskd_fail_at(inname, 0, "E9002: empty input: "
				    "not a .psk.d stream, and no -t for text "
				    "samples");
			pskd_fail_at(inname, 0, "E9002: not a .psk.d stream "
			    "(give -t TYPE for text samples)");
		}
		parse_type(&to, opt.type);
	}

	pskd_output_open(&o, opt.output, 1);
	pskd_sink_init(&out, o.fd, o.name, &to, PSKD_COUNT_STREAM);
	for (i = 0;;) {
		if (binary) {
			pack_stream(&r, &out, &h, &to);
			pskd_header_free(&h);
		} else
			pack_text(&r, &out, &to);
		pskd_reader_close(&r);
		if (out.w.error)
			output_failed(&out.w);
		if (++i >= argc)
			break;
		/* The next operand: the same kind, the same type. */
		open_input(&r, argv[i]);
		got = pskd_reader_peek(&r, 4, &p);
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", inname);
		if (binary) {
			read_header(&r, &h);
			same_type(&h.type, &to, "the first input's");
		} else if (got >= 4 && memcmp(p, PSKD_MAGIC, 4) == 0)
			pskd_fail_at(inname, 0, "E9005: a .psk.d stream after "
			    "text samples");
	}
	if (pskd_sink_finish(&out) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", o.name);
	pskd_output_close(&o, &out.w);
	return 0;
}
