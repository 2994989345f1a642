/*
 * pskd-info - the header and the first samples of a .psk.d file or stream,
 * as text; the samples in exactly the form pskd-pack reads.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pskd.h"

static const char usage_text[] = "pskd-info [-s] [-n count | all] [file]";

enum { OPT_HELP = 256, OPT_VERSION };

static struct pskd_writer out;
static struct pskd_buf line;
static struct pskd_error perr;
static const char *inname;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -n, --samples N|all   samples to print (default 10)\n"
	    "  -s, --samples-only    print the samples alone, one a line\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

static const char *
width_name(const struct pskd_leaf *l)
{
	if (l->real)
		return pskd_enc_name(l->enc);
	switch (l->width) {
	case 1: return "u8";
	case 2: return "u16";
	case 4: return "u32";
	default: return "u64";
	}
}

static void
print_header(const struct pskd_header *h)
{
	const struct pskd_type *t = &h->type;
	char *enc;
	size_t i, d;

	pskd_writer_printf(&out, "version: %u\n", h->version);
	pskd_writer_printf(&out, "type: %s\n", t->text);
	if (h->count == PSKD_COUNT_STREAM)
		pskd_writer_puts(&out, "count: stream\n");
	else
		pskd_writer_printf(&out, "count: %llu\n",
		    (unsigned long long)h->count);
	if (t->params) {
		pskd_writer_puts(&out, "layout: not given by the type "
		    "(params)\n");
		return;
	}
	pskd_writer_printf(&out, "sample size: %llu bytes\n",
	    (unsigned long long)t->sample_size);
	enc = pskd_type_encodings(t);
	pskd_writer_printf(&out, "encodings: %s\n", *enc ? enc : "-");
	free(enc);
	for (i = 0; i < t->nleaves; i++) {
		const struct pskd_leaf *l = &t->leaves[i];

		pskd_writer_printf(&out, "leaf %zu: %s", i, l->real ? "ℝ" :
		    "idx");
		if (!l->real)
			pskd_writer_printf(&out, "[%llu]",
			    (unsigned long long)l->bound);
		for (d = 0; d < l->ndim; d++)
			pskd_writer_printf(&out, "[%llu]",
			    (unsigned long long)l->dim[d]);
		pskd_writer_printf(&out, " %s elements=%llu width=%u "
		    "offset=%llu\n", width_name(l),
		    (unsigned long long)l->nelem, l->width,
		    (unsigned long long)l->offset);
	}
}

/* Sample i, checked against its type's bounds (E9004) before it is shown. */
static void
print_sample(const struct pskd_type *t, const unsigned char *s, uint64_t i)
{
	uint64_t bad;

	if (pskd_samples_check(t, s, 1, &bad, &perr) == -1) {
		pskd_writer_flush(&out);
		pskd_error_prefix(&perr, "sample %llu", (unsigned long long)i);
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", inname, perr.msg);
	}
	line.len = 0;
	pskd_sample_format(&line, t, s);
	pskd_buf_addc(&line, '\n');
	pskd_writer_write(&out, line.p, line.len);
}

/* A regular file: mmap it, which also checks its size against the count. */
static void
info_file(const char *path, int samples_only, uint64_t n)
{
	struct pskd_file f;
	uint64_t i;

	inname = path;
	if (pskd_file_open(&f, path, &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", path, perr.msg);
	if (!samples_only)
		print_header(&f.h);
	if (f.h.type.params)
		return;
	if (n > f.h.count)
		n = f.h.count;
	if (!samples_only && n > 0)
		pskd_writer_puts(&out, "samples:\n");
	for (i = 0; i < n && !out.error; i++)
		print_sample(&f.h.type, pskd_file_sample(&f, i), i);
	pskd_file_close(&f);
}

/* A pipe: read the header and the first n samples. */
static void
info_stream(const char *path, int samples_only, uint64_t n)
{
	struct pskd_reader r;
	struct pskd_header h;
	const unsigned char *p;
	uint64_t i;
	ssize_t got;
	size_t ss;

	if (pskd_reader_open(&r, path) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", path);
	inname = r.name;
	if (pskd_header_read(&h, &r, &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", inname, perr.msg);
	if (!samples_only)
		print_header(&h);
	if (h.type.params)
		return;
	ss = (size_t)h.type.sample_size;
	if (n > h.count)
		n = h.count;
	for (i = 0; i < n && !out.error; i++) {
		got = pskd_reader_peek(&r, ss, &p);
		if (got < 0)
			pskd_err(PSKD_EXIT_DATA, "%s", inname);
		if (got == 0 && h.count == PSKD_COUNT_STREAM)
			break;
		if ((size_t)got < ss)
			pskd_errx(PSKD_EXIT_DATA, "%s: E%d: truncated at "
			    "sample %llu", inname, PSKD_E_TRUNC,
			    (unsigned long long)i);
		if (i == 0 && !samples_only)
			pskd_writer_puts(&out, "samples:\n");
		print_sample(&h.type, p, i);
		pskd_reader_skip(&r, ss);
	}
	pskd_header_free(&h);
	pskd_reader_close(&r);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "samples", required_argument, NULL, 'n' },
		{ "samples-only", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct stat st;
	uint64_t n = 10;
	int c, samples_only = 0;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "n:s", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (strcmp(optarg, "all") == 0) {
				n = UINT64_MAX;
				break;
			}
			n = pskd_optnum("-n", optarg, 0, UINT64_MAX, 0);
			break;
		case 's': samples_only = 1; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		pskd_usage_error(NULL);

	pskd_writer_init(&out, 1, "<stdout>");
	if (argc == 1 && strcmp(argv[0], "-") != 0 &&
	    stat(argv[0], &st) == 0 && S_ISREG(st.st_mode))
		info_file(argv[0], samples_only, n);
	else
		info_stream(argc ? argv[0] : NULL, samples_only, n);
	pskd_writer_finish(&out);
	return 0;
}
