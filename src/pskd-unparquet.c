/*
 * pskd-unparquet - Parquet files to JSON Lines, one object a row, reading
 * only the chosen columns' chunks, a page at a time (src/parquet).
 * --row-groups picks a part of a file, so one big file splits across jobs.
 */
#define _GNU_SOURCE		/* O_TMPFILE, mkostemp */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pskd.h"
#include "parquet/codec.h"
#include "parquet/file.h"
#include "parquet/jsonout.h"
#include "parquet/rows.h"

static const char usage_text[] =
    "pskd-unparquet [-b] [-c columns] [-g groups] [-n rows] [-o file] "
    "[file ...]\n"
    "       pskd-unparquet --schema [file ...]";

enum { OPT_SCHEMA = 256, OPT_HELP, OPT_VERSION };

static struct {
	int		 bytes;		/* -b */
	const char	*columns;	/* -c */
	const char	*groups;	/* -g */
	uint64_t	 rows;		/* -n */
	const char	*output;	/* -o */
	int		 schema;	/* --schema */
} opt = {
	.rows = UINT64_MAX,
};

/* -o: the lib's route (w for --schema); the rows go out through out. */
static struct pskd_output output;
static struct pskd_writer w;
static struct pq_out out;
static uint64_t written;		/* rows, over all the files */

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -b, --bytes           invalid UTF-8 in a string column as "
	    "\\udcXX escapes\n"
	    "  -c, --columns A,B.C   only these columns (a.b: a member of a "
	    "struct)\n"
	    "  -g, --row-groups G    row groups A-B, A, A- (from 0), or part "
	    "I/N\n"
	    "  -n, --rows N          stop after N rows\n"
	    "  -o, --output FILE     write to FILE, complete or not at all\n"
	    "      --schema          print the schema and the row groups\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

/* Write the complete rows, then die with the cause. */
static _Noreturn void
die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static _Noreturn void
die(const char *fmt, ...)
{
	va_list ap;

	if (pq_out_flush(&out) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", out.name);
	va_start(ap, fmt);
	pskd_vwarnx(fmt, ap);
	va_end(ap);
	exit(PSKD_EXIT_DATA);
}

/* Row groups [*from, *to) of n, as -g says. */
static void
group_range(uint64_t n, uint64_t *from, uint64_t *to)
{
	const char *s = opt.groups, *sep;
	char *a;
	uint64_t i, parts;

	*from = 0;
	*to = n;
	if (s == NULL)
		return;
	if ((sep = strchr(s, '/')) != NULL) {
		a = pskd_xstrndup(s, (size_t)(sep - s));
		parts = pskd_optnum("--row-groups", sep + 1, 1, 1000000, 0);
		i = pskd_optnum("--row-groups", a, 0, parts - 1, 0);
		free(a);
		/* Part i of parts: n*i/parts without overflow. */
		*from = n / parts * i + n % parts * i / parts;
		*to = n / parts * (i + 1) + n % parts * (i + 1) / parts;
		return;
	}
	sep = strchr(s, '-');
	a = pskd_xstrndup(s, sep ? (size_t)(sep - s) : strlen(s));
	*from = pskd_optnum("--row-groups", a, 0, UINT64_MAX - 1, 0);
	free(a);
	if (sep == NULL)
		*to = *from + 1;
	else if (sep[1] != '\0')
		*to = pskd_optnum("--row-groups", sep + 1, *from, UINT64_MAX - 1,
		    0) + 1;
	if (*to > n)
		*to = n;
	if (*from > *to)
		*from = *to;
}

/* A pipe is copied to an unlinked temporary: the footer is at the end. */
static int
spool(int in, const char *name, uint64_t *size)
{
	const char *dir = getenv("TMPDIR");
	unsigned char *buf;
	char *path;
	ssize_t got;
	int fd = -1;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
#endif
	if (fd == -1) {
		path = pskd_xmalloc(strlen(dir) + 32);
		sprintf(path, "%s/.pskd-unparquet.XXXXXX", dir);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd != -1)
			unlink(path);
		free(path);
	}
	if (fd == -1)
		die("temporary file in %s: %s", dir, strerror(errno));
	buf = pskd_xmalloc(PSKD_BUFSIZE);
	*size = 0;
	while ((got = pskd_read_full(in, buf, PSKD_BUFSIZE)) > 0) {
		if (pskd_write_all(fd, buf, (size_t)got) == -1)
			die("temporary file in %s: %s", dir, strerror(errno));
		*size += (uint64_t)got;
	}
	if (got < 0)
		die("%s: %s", name, strerror(errno));
	free(buf);
	return fd;
}

static int
open_input(const char *path, const char **name, uint64_t *size)
{
	struct stat st;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0) {
		fd = 0;
		*name = "<stdin>";
	} else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		die("%s: %s", path, strerror(errno));
	else
		*name = path;
	if (fstat(fd, &st) == -1)
		die("%s: %s", *name, strerror(errno));
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return fd;
	}
	return spool(fd, *name, size);
}

/* -c: each path chosen in its turn. */
static void
choose(struct pq_file *f)
{
	char *list, *p, *next;
	const char *err;

	if (opt.columns == NULL)
		return;
	list = pskd_xstrdup(opt.columns);
	for (p = list; p != NULL; p = next) {
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		if (pq_schema_choose(&f->schema, p, &err) == -1)
			die("%s: -c %s: %s", f->name, p, err);
	}
	free(list);
}

static void
schema(struct pq_file *f)
{
	size_t g;

	pq_schema_print(&f->schema, &w);
	pskd_writer_printf(&w, "# %zu row groups, %lld rows:",
	    f->meta.ngroups, (long long)f->meta.num_rows);
	for (g = 0; g < f->meta.ngroups; g++)
		pskd_writer_printf(&w, " %lld",
		    (long long)f->meta.groups[g].num_rows);
	pskd_writer_putc(&w, '\n');
	if (pskd_writer_flush(&w) == -1) {
		errno = w.error;
		pskd_err(PSKD_EXIT_DATA, "%s", out.name);
	}
}

static void
unparquet(const char *path)
{
	struct pq_file f;
	struct pq_rows r;
	const char *name;
	uint64_t size, from, to, g, first = 0, done;
	int fd, ret;

	fd = open_input(path, &name, &size);
	if (pq_file_open(&f, fd, size, name) == -1)
		die("%s: %s", name, f.err);
	if (opt.schema) {
		schema(&f);
	} else {
		choose(&f);
		pq_schema_finish(&f.schema);
		pq_rows_init(&r, &f, &out, opt.bytes);
		group_range(f.meta.ngroups, &from, &to);
		for (g = 0; g < from; g++)
			first += (uint64_t)f.meta.groups[g].num_rows;
		for (g = from; g < to && written < opt.rows; g++) {
			ret = pq_rows_group(&r, g, first, opt.rows - written,
			    &done);
			written += done;
			if (ret == -2)
				pskd_err(PSKD_EXIT_DATA, "%s", out.name);
			if (ret == -1)
				die("%s", r.err);
			first += (uint64_t)f.meta.groups[g].num_rows;
		}
		pq_rows_free(&r);
	}
	pq_file_close(&f);
	if (fd != 0)
		close(fd);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bytes", no_argument, NULL, 'b' },
		{ "columns", required_argument, NULL, 'c' },
		{ "row-groups", required_argument, NULL, 'g' },
		{ "rows", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "schema", no_argument, NULL, OPT_SCHEMA },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t from, to;
	int c, i;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "bc:g:n:o:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'b': opt.bytes = 1; break;
		case 'c': opt.columns = optarg; break;
		case 'g': opt.groups = optarg; break;
		case 'n':
			opt.rows = pskd_optnum("-n", optarg, 0, UINT64_MAX, 0);
			break;
		case 'o': opt.output = optarg; break;
		case OPT_SCHEMA: opt.schema = 1; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (opt.columns != NULL && (opt.columns[0] == '\0' ||
	    strstr(opt.columns, ",,") != NULL || opt.columns[0] == ',' ||
	    opt.columns[strlen(opt.columns) - 1] == ',')) {
		pskd_warnx("-c: '%s' has an empty column name", opt.columns);
		pskd_usage_error(NULL);
	}
	if (opt.groups != NULL)
		group_range(0, &from, &to);	/* its syntax, now */
	if (opt.schema && (opt.columns || opt.groups || opt.output ||
	    opt.bytes || opt.rows != UINT64_MAX)) {
		pskd_warnx("--schema takes no other option");
		pskd_usage_error(NULL);
	}

	pskd_output_writer(&output, &w, opt.output, 0);
	pq_out_init(&out, output.fd, output.name);
	if (argc == 0)
		unparquet(NULL);
	for (i = 0; i < argc && written < opt.rows; i++)
		unparquet(argv[i]);
	if (pq_out_flush(&out) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", out.name);
	pskd_output_close(&output, &w);
	pq_out_free(&out);
	pq_codec_free();
	return 0;
}
