/*
 * pskd-unzst - zstd, gzip, xz or bzip2 input (sniffed by its magic bytes)
 * to plain bytes, like zstdcat: streamed as they decode, or with --hold
 * only once their unit ended whole and checked (src/unzst/out.c), so that
 * whatever the input, the output is a prefix of whole checked units.
 * --split cuts one file into byte ranges that start and end between
 * pieces (frames, members, streams); --range decodes one of them, keeping
 * the lines that start inside it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pskd.h"
#include "unzst/unzst.h"

static const char usage_text[] =
    "pskd-unzst [-f] [-H [-m size]] [-o file] [file ...]\n"
    "       pskd-unzst [-f] [-H [-m size]] [-o file] -r range file\n"
    "       pskd-unzst [-f] -s n file";

enum { OPT_HELP = 256, OPT_VERSION };

static struct {
	int		 force;		/* -f */
	int		 hold;		/* -H */
	uint64_t	 memory;	/* -m, 0 if not given */
	const char	*output;	/* -o */
	int		 range;		/* -r given */
	uint64_t	 from, to;	/* -r FROM-TO */
	uint64_t	 split;		/* -s, 0 if not given */
} opt;

static struct unz_out out;

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -f, --force           copy input in no known format unchanged\n"
	    "  -H, --hold            write each frame, member or block only\n"
	    "                        once it ended whole and checked\n"
	    "  -m, --memory SIZE     with -H, bytes held in memory before\n"
	    "                        they spill to TMPDIR (default 1M)\n"
	    "  -o, --output FILE     write to FILE, complete or not at all\n"
	    "  -r, --range FROM-TO   the lines that start in bytes FROM-TO\n"
	    "  -s, --split N         print N ranges for -r, cut between pieces\n"
	    "      --help            this text\n"
	    "      --version         the version\n");
	exit(0);
}

/* Move in to file offset to: a seek when the file allows it. */
static void
seek_to(struct unz_in *in, uint64_t to)
{
	struct pskd_reader *r = &in->r;
	const unsigned char *p;
	ssize_t got;

	if (to - unz_offset(in) > r->end - r->pos &&
	    lseek(r->fd, (off_t)to, SEEK_SET) != -1) {
		r->pos = r->end = 0;
		in->base = to - r->offset;
		return;
	}
	while (unz_offset(in) < to) {
		got = pskd_reader_peek(r, 1, &p);
		if (got < 0)
			unz_fail(&out, "%s: %s", r->name, strerror(errno));
		if (got == 0)
			break;
		pskd_reader_skip(r, to - unz_offset(in) < (uint64_t)got ?
		    (size_t)(to - unz_offset(in)) : (size_t)got);
	}
}

/* Open path and find its format from its first bytes. */
static enum unz_format
open_input(struct unz_in *in, const char *path)
{
	const unsigned char *p;
	ssize_t got;

	memset(in, 0, sizeof(*in));
	if (pskd_reader_open(&in->r, path) == -1)
		unz_fail(&out, "%s: %s", path, strerror(errno));
	out.inname = in->r.name;
	got = pskd_reader_peek(&in->r, 6, &p);
	if (got < 0)
		unz_fail(&out, "%s: %s", in->r.name, strerror(errno));
	return unz_sniff(p, (size_t)got, opt.force);
}

static void
decode(struct unz_in *in, enum unz_format f)
{
	switch (f) {
	case UNZ_EMPTY:
		break;
	case UNZ_ZSTD:
		unz_zstd(in, &out);
		break;
	case UNZ_GZIP:
		unz_gzip(in, &out);
		break;
	case UNZ_XZ:
		unz_xz(in, &out);
		break;
	case UNZ_BZIP2:
		unz_bzip2(in, &out);
		break;
	case UNZ_OTHER:
		if (!opt.force)
			unz_fail(&out, "%s: not in zstd, gzip, xz or bzip2 "
			    "format", in->r.name);
		unz_copy(in, &out);
		break;
	}
}

static void
unzst(const char *path)
{
	struct unz_in in;
	enum unz_format f;

	f = open_input(&in, path);
	if (opt.range) {
		seek_to(&in, opt.from);
		/* The format of the piece there, once past the file's start. */
		if (opt.from > 0 && f != UNZ_OTHER && f != UNZ_EMPTY) {
			const unsigned char *p;
			ssize_t got = pskd_reader_peek(&in.r, 6, &p);

			if (got < 0)
				unz_fail(&out, "%s: %s", in.r.name,
				    strerror(errno));
			if (got > 0 && unz_sniff(p, (size_t)got, 1) != f)
				unz_fail(&out, "%s: --range: byte %llu is not "
				    "the start of a %s piece", in.r.name,
				    (unsigned long long)opt.from,
				    unz_format_name(f));
		}
	}
	decode(&in, f);
	pskd_reader_close(&in.r);
}

/*
 * -s N: the piece ends of the file, then N ranges of about equal size,
 * each from one piece end to another (any byte for a plain file): range i
 * ends at the piece end nearest to i/N of the file, so N pieces of about
 * one size give N ranges of one piece each.
 */
static void
split(const char *path)
{
	struct unz_in in;
	struct stat st;
	enum unz_format f;
	uint64_t size, from = 0, to, want;
	size_t i, k = 0;

	f = open_input(&in, path);
	if (fstat(in.r.fd, &st) == -1 || !S_ISREG(st.st_mode))
		unz_fail(&out, "%s: --split needs a regular file",
		    in.r.name);
	size = (uint64_t)st.st_size;
	out.pieces = pskd_xreallocarray(NULL, 64, sizeof(*out.pieces));
	out.piecescap = 64;
	if (f == UNZ_ZSTD)
		unz_zstd_pieces(in.r.fd, in.r.name, &out);
	else if (f == UNZ_XZ)
		unz_xz_pieces(in.r.fd, in.r.name, size, &out);
	else if (f != UNZ_OTHER || !opt.force)
		decode(&in, f);
	pskd_reader_close(&in.r);
	for (i = 1; i <= opt.split; i++) {
		/* i/N of the way: size/N*i + size%N*i/N does not overflow. */
		want = size / opt.split * i + size % opt.split * i / opt.split;
		if (f == UNZ_OTHER)
			to = want;
		else {
			/* The piece end nearest to want, past from. */
			while (k < out.npieces && out.pieces[k] <= from)
				k++;
			while (k + 1 < out.npieces && out.pieces[k + 1] <= want)
				k++;
			if (k + 1 < out.npieces && out.pieces[k] < want &&
			    want - out.pieces[k] > out.pieces[k + 1] - want)
				k++;
			to = k < out.npieces ? out.pieces[k] : size;
		}
		if (i == opt.split)
			to = size;
		printf("%llu-%llu\n", (unsigned long long)from,
		    (unsigned long long)to);
		from = to;
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		pskd_err(PSKD_EXIT_DATA, "<stdout>");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, 'f' },
		{ "hold", no_argument, NULL, 'H' },
		{ "memory", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "range", required_argument, NULL, 'r' },
		{ "split", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_output output;
	struct pskd_writer w;
	int c, i;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "fHm:o:r:s:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'f': opt.force = 1; break;
		case 'H': opt.hold = 1; break;
		case 'm':
			opt.memory = pskd_optnum("-m", optarg, 1, SIZE_MAX / 2,
			    PSKD_NUM_SIZE);
			break;
		case 'o': opt.output = optarg; break;
		case 'r':
			pskd_optrange("--range", optarg, &opt.from, &opt.to);
			opt.range = 1;
			break;
		case 's':
			opt.split = pskd_optnum("-s", optarg, 1, 1000000, 0);
			break;
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
	if (opt.split && (opt.range || opt.output || opt.hold)) {
		pskd_warnx("-s prints ranges: no -r, -o or -H with it");
		pskd_usage_error(NULL);
	}
	if (opt.memory && !opt.hold) {
		pskd_warnx("-m is what -H holds in memory: give -H too");
		pskd_usage_error(NULL);
	}

	if (opt.split) {
		unz_out_init(&out, -1, "<stdout>", PSKD_BUFSIZE);
		split(argv[0]);
		unz_out_free(&out);
		return 0;
	}
	/* A file appears only when all decoded: nothing to hold for it. */
	pskd_output_open(&output, opt.output, 0);
	unz_out_init(&out, output.fd, output.name, opt.memory ?
	    (size_t)opt.memory : (size_t)1 << 20);
	out.held = opt.hold && !output.file;
	pskd_pipe_grow(out.fd);
	if (opt.range) {
		out.end = opt.to;
		out.phase = opt.from == opt.to ? UNZ_DONE :
		    opt.from == 0 ? UNZ_BODY : UNZ_SKIP;
	}
	if (argc == 0)
		unzst(NULL);
	for (i = 0; i < argc; i++)
		unzst(argv[i]);
	unz_commit(&out, 0);
	/* The bytes went out through out: a writer with nothing in it. */
	memset(&w, 0, sizeof(w));
	w.fd = output.fd;
	w.name = output.name;
	pskd_output_close(&output, &w);
	unz_out_free(&out);
	unz_zstd_free();
	unz_gzip_free();
	unz_xz_free();
	unz_bzip2_free();
	return 0;
}
