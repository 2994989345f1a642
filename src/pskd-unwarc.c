/*
 * pskd-unwarc - WARC and WET files (plain, a gzip member or zstd frame per
 * record, or one for all) to JSON Lines documents: WET conversion records
 * as they are, HTML responses decoded and their main text extracted
 * (src/warc).  A document goes out only once the record it came from is
 * whole and its member or frame checked; --split and --range cut a file
 * at record boundaries for separate jobs, as pskd-unzst does at pieces.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pskd.h"
#include "warc/warc.h"

static const char usage_text[] =
    "pskd-unwarc [-aPq] [-m size] [-o file] [-t types]\n"
    "           [--favour-precision | --favour-recall] [--rejects file] [file ...]\n"
    "       pskd-unwarc [-aPq] [-m size] [-o file] [-t types] -r range file\n"
    "       pskd-unwarc -s n file";

enum { OPT_PRECISION = 256, OPT_RECALL, OPT_REJECTS, OPT_HELP,
    OPT_VERSION };

static struct {
	uint64_t	 max;		/* -m */
	const char	*output;	/* -o */
	int		 range;		/* -r given */
	uint64_t	 from, to;
	uint64_t	 split;		/* -s */
	const char	*rejects;	/* --rejects */
	int		 quiet;		/* -q */
	struct pskd_mode mode;		/* --favour-precision, --favour-recall */
} opt = {
	.max = 64 << 20,
};

static struct doc d;
static struct pskd_output out;
static struct pskd_writer w;
static struct pskd_rejects rej;
static uint64_t nrecords, ntooshort;

/*
 * Lines not yet written: they wait for the member or frame that holds the
 * end of their record to be checked.  ends[i] is where line i's record
 * ends (decoded offset) and cuts[i] where the line ends in held.
 */
static struct pskd_buf held;
static uint64_t *ends;
static size_t *cuts, nheld, heldcap;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -a, --all               every record a line; those that are "
	    "no document\n"
	    "                          without text, with a \"skip\" member\n"
	    "  -m, --max-record SIZE   the longest block read (default 64M)\n"
	    "  -o, --output FILE       write to FILE, complete or not at all\n"
	    "  -P, --progress          progress on stderr even when it is no "
	    "terminal\n"
	    "  -q, --quiet             no progress and no summary\n"
	    "  -r, --range FROM-TO     the records that start in bytes "
	    "FROM-TO\n"
	    "  -s, --split N           print N ranges for -r, cut between "
	    "records\n"
	    "  -t, --type TYPES        WARC-Types made documents (default\n"
	    "                          response,resource,conversion)\n"
	    "      --favour-precision  less text, less boilerplate\n"
	    "      --favour-recall     more text, more boilerplate\n"
	    "      --rejects FILE      bad records to FILE (TSV); go on\n"
	    "      --help              this text\n"
	    "      --version           the version\n");
	exit(0);
}

static void
parse_types(char *s)
{
	char *t, *last;

	d.ntypes = 0;
	for (t = strtok_r(s, ",", &last); t != NULL;
	    t = strtok_r(NULL, ",", &last)) {
		if (d.ntypes == DOC_MAXTYPES) {
			pskd_warnx("-t: more than %d types", DOC_MAXTYPES);
			pskd_usage_error(NULL);
		}
		d.types[d.ntypes++] = t;
	}
	if (d.ntypes == 0) {
		pskd_warnx("-t: no type");
		pskd_usage_error(NULL);
	}
}

/* The held lines whose records are checked, out. */
static void
release(uint64_t checked)
{
	size_t k = 0;

	while (k < nheld && ends[k] <= checked)
		k++;
	if (k == 0)
		return;
	pskd_writer_write(&w, held.p, cuts[k - 1]);
	memmove(held.p, held.p + cuts[k - 1], held.len - cuts[k - 1]);
	held.len -= cuts[k - 1];
	for (size_t i = k; i < nheld; i++) {
		ends[i - k] = ends[i];
		cuts[i - k] = cuts[i] - cuts[k - 1];
	}
	nheld -= k;
}

static void
hold(uint64_t end)
{
	if (nheld == heldcap) {
		heldcap = heldcap ? 2 * heldcap : 64;
		ends = pskd_xreallocarray(ends, heldcap, sizeof(*ends));
		cuts = pskd_xreallocarray(cuts, heldcap, sizeof(*cuts));
	}
	ends[nheld] = end;
	cuts[nheld++] = held.len;
}

/*
 * A bad record: "FILE: record N at byte OFF: why" and exit 1, or with
 * --rejects a line there.  Returns whether the file can go on.
 */
static int
bad_record(struct wi *in, const struct warc_rec *rec, const char *why,
    int fatal)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "record %llu at byte %llu: %s",
	    (unsigned long long)rec->no, (unsigned long long)rec->off, why);
	if (opt.rejects == NULL) {
		if (!out.file)		/* what was checked stays */
			(void)pskd_writer_flush(&w);
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", in->name, msg);
	}
	pskd_rejects_add(&rej, in->name, rec->no, msg);
	return !fatal;
}

static int
wanted(const struct warc_rec *rec)
{
	const char *type = warc_get(rec, "WARC-Type", NULL);

	return type != NULL && doc_type_wanted(&d, type);
}

/* One record, its header read: its line held, or the reason it is bad. */
static int
one(struct wi *in, struct warc_rec *rec)
{
	const unsigned char *p = NULL;
	char why[256];
	size_t at = held.len;
	int r;

	if (wanted(rec) && warc_block(in, rec, (size_t)opt.max, &p) == -1) {
		/* Too long: skipped whole; cut short: the file ends. */
		if (rec->length > opt.max) {
			if (!bad_record(in, rec, rec->why, 0) ||
			    warc_finish(in, rec) == -1)
				return bad_record(in, rec, rec->why, 1);
			return 1;
		}
		return bad_record(in, rec, rec->why, 1);
	}
	why[0] = '\0';
	r = doc_record(&d, rec, p, rec->loaded ? (size_t)rec->length : 0,
	    &held, why, sizeof(why));
	if (r == -1) {
		held.len = at;
		if (!bad_record(in, rec, why, 0))
			return 0;
	}
	if (warc_finish(in, rec) == -1)
		return bad_record(in, rec, rec->why, 1);
	ntooshort += rec->too_short;
	if (held.len > at)
		hold(in->dpos);
	return 1;
}

static void
progress(const char *name)
{
	if ((nrecords & 1023) == 0)
		pskd_progress(0, "%s: %llu records, %llu documents", name,
		    (unsigned long long)nrecords, (unsigned long long)d.docs);
}

static void
unwarc(const char *path)
{
	struct wi in;
	struct warc_rec rec = { 0 };
	int r;

	if (wi_open(&in, path) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", in.name ? in.name : path,
		    in.why);
	if (opt.range && wi_seek(&in, opt.from) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: --range: byte %llu: %s",
		    in.name, (unsigned long long)opt.from, in.why);
	for (;;) {
		r = warc_next(&in, &rec);
		if (r == 0)
			break;
		if (r == 1 && opt.range && rec.off >= opt.to)
			break;
		if (r == 1 && opt.range && rec.no == 1 && opt.from > 0 &&
		    rec.off != opt.from)
			pskd_errx(PSKD_EXIT_DATA, "%s: --range: byte %llu is not "
			    "the start of a record", in.name,
			    (unsigned long long)opt.from);
		release(in.checked);
		if (r == -1) {
			bad_record(&in, &rec, rec.why, 1);
			break;
		}
		nrecords++;
		progress(in.name);
		if (!one(&in, &rec))
			break;
	}
	/* The end: what is held was checked, or the file failed. */
	if (r == 0)
		release(UINT64_MAX);
	else if (r == 1 && nheld > 0) {
		/* A range's end: its last record's piece checked. */
		if (wi_check(&in, ends[nheld - 1]) == -1)
			bad_record(&in, &rec, in.why, 1);
		release(in.checked);
	}
	if (nheld > 0) {
		held.len = 0;
		nheld = 0;
	}
	warc_rec_free(&rec);
	wi_close(&in);
}

/*
 * -s N: the record starts that are piece starts, then N ranges of about
 * one size between them (pskd-unzst -s's rule), the last to the file's
 * end.
 */
static void
split(const char *path)
{
	struct wi in;
	struct warc_rec rec = { 0 };
	struct stat st;
	uint64_t *cut = NULL, size, from = 0, to, want;
	size_t ncut = 0, cap = 0, i, k = 0;
	int r, first;

	if (wi_open(&in, path) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", in.name ? in.name : path,
		    in.why);
	if (fstat(in.r.fd, &st) == -1 || !S_ISREG(st.st_mode))
		pskd_errx(PSKD_EXIT_DATA, "%s: --split needs a regular file",
		    in.name);
	size = (uint64_t)st.st_size;
	while ((r = warc_next(&in, &rec)) == 1) {
		(void)wi_file_offset(&in, rec.d, &first);
		if (first && rec.off > 0) {
			if (ncut == cap) {
				cap = cap ? 2 * cap : 256;
				cut = pskd_xreallocarray(cut, cap, sizeof(*cut));
			}
			cut[ncut++] = rec.off;
		}
		if (warc_finish(&in, &rec) == -1) {
			r = -1;
			break;
		}
	}
	if (r == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: record %llu at byte %llu: %s",
		    in.name, (unsigned long long)rec.no,
		    (unsigned long long)rec.off, rec.why);
	for (i = 1; i <= opt.split; i++) {
		want = size / opt.split * i + size % opt.split * i / opt.split;
		while (k < ncut && cut[k] <= from)
			k++;
		while (k + 1 < ncut && cut[k + 1] <= want)
			k++;
		if (k + 1 < ncut && cut[k] < want &&
		    want - cut[k] > cut[k + 1] - want)
			k++;
		to = k < ncut && cut[k] > from ? cut[k] : from;
		if (i == opt.split || to < from)
			to = size;
		printf("%llu-%llu\n", (unsigned long long)from,
		    (unsigned long long)to);
		from = to;
	}
	free(cut);
	warc_rec_free(&rec);
	wi_close(&in);
	if (fflush(stdout) == EOF || ferror(stdout))
		pskd_err(PSKD_EXIT_DATA, "<stdout>");
}

static void
summary(void)
{
	char line[1024];
	size_t n, i;

	if (opt.quiet)
		return;
	n = (size_t)snprintf(line, sizeof(line), "%llu records, %llu documents",
	    (unsigned long long)nrecords, (unsigned long long)d.docs);
	for (i = 0; i < DOC_NSKIP; i++)
		if (d.skipped[i] > 0 && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    "%s %llu %s", n > 0 && strchr(line, ';') ? "," :
			    ";", (unsigned long long)d.skipped[i],
			    doc_skip_names[i]);
	if (d.ninvalid > 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n,
		    "; %llu bad bytes replaced",
		    (unsigned long long)d.ninvalid);
	if (ntooshort > 0 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n,
		    "; %llu blocks longer than their Content-Length",
		    (unsigned long long)ntooshort);
	if (d.cut > 0 && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "; %llu pages cut at a "
		    "bound", (unsigned long long)d.cut);
	pskd_warnx("%s", line);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "max-record", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "range", required_argument, NULL, 'r' },
		{ "split", required_argument, NULL, 's' },
		{ "type", required_argument, NULL, 't' },
		{ "favour-precision", no_argument, NULL, OPT_PRECISION },
		{ "favour-recall", no_argument, NULL, OPT_RECALL },
		{ "favor-precision", no_argument, NULL, OPT_PRECISION },
		{ "favor-recall", no_argument, NULL, OPT_RECALL },
		{ "rejects", required_argument, NULL, OPT_REJECTS },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static char deftypes[] = "response,resource,conversion";
	int c, i;

	pskd_init(argv, usage_text);
	parse_types(deftypes);
	while ((c = getopt_long(argc, argv, "am:o:Pqr:s:t:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a': d.all = 1; break;
		case 'm':
			opt.max = pskd_optnum("-m", optarg, 1, (uint64_t)1 << 40,
			    PSKD_NUM_SIZE);
			break;
		case 'o': opt.output = optarg; break;
		case 'P': pskd_progress_mode = 1; break;
		case 'q': opt.quiet = 1; pskd_progress_mode = -1; break;
		case 'r':
			pskd_optrange("--range", optarg, &opt.from, &opt.to);
			opt.range = 1;
			break;
		case 's':
			opt.split = pskd_optnum("-s", optarg, 1, 1000000, 0);
			break;
		case 't': parse_types(optarg); break;
		case OPT_PRECISION:
			pskd_mode_set(&opt.mode, EXTRACT_PRECISION,
			    "--favour-precision");
			break;
		case OPT_RECALL:
			pskd_mode_set(&opt.mode, EXTRACT_RECALL,
			    "--favour-recall");
			break;
		case OPT_REJECTS: opt.rejects = optarg; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if ((opt.range || opt.split) && argc != 1) {
		pskd_warnx("%s takes one file", opt.range ? "-r" : "-s");
		pskd_usage_error(NULL);
	}
	if (opt.split && (opt.range || opt.output)) {
		pskd_warnx("-s prints ranges: no -r or -o with it");
		pskd_usage_error(NULL);
	}
	if (opt.split) {
		split(argv[0]);
		return 0;
	}
	d.max = (size_t)opt.max;
	d.x.mode = (enum extract_mode)opt.mode.mode;
	pskd_output_writer(&out, &w, opt.output, 0);
	if (opt.rejects != NULL)
		pskd_rejects_open(&rej, opt.rejects);
	if (argc == 0)
		unwarc(NULL);
	for (i = 0; i < argc; i++)
		unwarc(argv[i]);
	pskd_output_close(&out, &w);
	pskd_progress(1, "%llu records, %llu documents",
	    (unsigned long long)nrecords, (unsigned long long)d.docs);
	summary();
	if (opt.rejects != NULL)
		pskd_rejects_close(&rej);
	doc_free(&d);
	pskd_buf_free(&held);
	free(ends);
	free(cuts);
	coding_free();
	charset_free();
	convert_free();
	return 0;
}
