/*
 * pskd-shuffle - the samples of a .psk.d file in the order of a keyed
 * permutation of (seed, epoch), as a .psk.d stream: optionally one rank's
 * slice, resumed at a position, grouped into batches, cut after n.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pskd.h"
#include "batch/perm.h"

static const char usage_text[] =
    "pskd-shuffle [-i] [-B batch] [-e epoch] [-n count] [-o file] [-s seed]\n"
    "                    [--rank rank --world world] [--start pos] file";

enum { OPT_RANK = 256, OPT_WORLD, OPT_START, OPT_HELP, OPT_VERSION };

static struct {
	uint64_t	 batch;		/* -B; 0: no batches */
	uint64_t	 epoch;		/* -e */
	int		 indices;	/* -i */
	uint64_t	 take;		/* -n */
	int		 take_set;
	const char	*output;	/* -o */
	uint64_t	 seed;		/* -s */
	uint64_t	 rank;		/* --rank */
	uint64_t	 world;		/* --world */
	uint64_t	 start;		/* --start */
} opt = {
	.batch = 0,
	.epoch = 1,
	.indices = 0,
	.take = 0,
	.take_set = 0,
	.output = NULL,
	.seed = 0,
	.rank = 0,
	.world = 1,
	.start = 0,
};

static uint64_t
num(const char *name, const char *s, uint64_t min)
{
	return pskd_optnum(name, s, min, UINT64_MAX, 0);
}

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -B, --batch B        group B samples into one batch sample\n"
	    "  -e, --epoch E        the epoch, from 1 (default 1)\n"
	    "  -i, --indices        print the sample indices as text\n"
	    "  -n, --take N         stop after N samples (batches with -B)\n"
	    "  -o, --output FILE    write FILE atomically (default stdout)\n"
	    "  -s, --seed S         the seed, 0 to 2^64-1 (default 0)\n"
	    "      --rank R         this rank's slice, 0 to W-1 (default 0)\n"
	    "      --world W        the number of ranks (default 1)\n"
	    "      --start POS      resume at position POS of the slice\n"
	    "      --help           this text\n"
	    "      --version        the version\n");
	exit(0);
}

/*
 * The samples of this rank's slice from --start on: position j of the slice
 * is position rank + world*j of the epoch's order.  Computed in blocks.
 */
static struct {
	const struct pskd_perm *p;
	uint64_t	 next;		/* slice position of buf[len] */
	uint64_t	 buf[4096];
	size_t		 pos, len;
} order;

static uint64_t
next_sample(void)
{
	if (order.pos == order.len) {
		order.len = sizeof(order.buf) / sizeof(order.buf[0]);
		if (order.p->n / opt.world - order.next < order.len)
			order.len = (size_t)(order.p->n / opt.world -
			    order.next);
		pskd_perm_range(order.p, opt.rank + opt.world * order.next,
		    opt.world, order.len, order.buf);
		order.next += order.len;
		order.pos = 0;
	}
	return order.buf[order.pos++];
}

static void
print_indices(struct pskd_output *o, uint64_t nout, uint64_t per)
{
	struct pskd_writer w;
	uint64_t k, b;

	pskd_writer_init(&w, o->fd, o->name);
	for (k = 0; k < nout && !w.error; k++)
		for (b = 0; b < per; b++) {
			pskd_writer_u64(&w, next_sample());
			pskd_writer_putc(&w, b + 1 < per ? ' ' : '\n');
		}
	pskd_output_close(o, &w);
}

/*
 * Append len bytes at offset off of the file to the output: spliced into
 * a pipe (see splice_out), else with pread(2) straight into the writer's
 * buffer.  The samples are read, not copied
 * from the map: in random order, faulting the map's pages in costs more
 * than a system call per sample (2 GiB of 8 KiB samples: 2.4 s with
 * pread, 3.7 s copying from the map, 2.5 to 6.5 s with writev(2) from the
 * map, which also holds the pipe's lock while it copies).
 */
static int splice_ok = 1;	/* stdout is a pipe that takes splice(2) */

/*
 * Into a pipe, splice(2) moves the file's page-cache pages into the pipe
 * without copying them through this process.  Returns 0 when all len bytes
 * went, -1 when splice cannot be used here (then nothing went).
 */
static int
splice_out(struct pskd_writer *w, int fd, const char *name, uint64_t off,
    uint64_t len)
{
	loff_t at = (loff_t)off;
	ssize_t got;

	if (w->len > 0 && pskd_writer_flush(w) == -1)
		return 0;
	while (len > 0) {
		got = splice(fd, &at, w->fd, NULL, (size_t)len, SPLICE_F_MORE);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1 && (errno == EINVAL || errno == ENOSYS) &&
		    (uint64_t)at == off) {
			splice_ok = 0;
			return -1;
		}
		if (got == -1) {
			w->error = errno;
			return 0;
		}
		if (got == 0)
			pskd_errx(PSKD_EXIT_DATA, "%s: E%d: truncated while "
			    "reading (the file changed)", name, PSKD_E_TRUNC);
		len -= (uint64_t)got;
		w->total += (uint64_t)got;
	}
	return 0;
}

/* Read len bytes at offset off of the file into dst. */
static void
read_at(int fd, const char *name, unsigned char *dst, size_t len,
    uint64_t off)
{
	ssize_t got;

	while (len > 0) {
		got = pread(fd, dst, len, (off_t)off);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			pskd_err(PSKD_EXIT_DATA, "%s", name);
		if (got == 0)
			pskd_errx(PSKD_EXIT_DATA, "%s: E%d: truncated while "
			    "reading (the file changed)", name, PSKD_E_TRUNC);
		dst += got;
		len -= (size_t)got;
		off += (uint64_t)got;
	}
}

static void
copy_out(struct pskd_writer *w, int fd, const char *name, uint64_t off,
    uint64_t len)
{
	size_t n;

	if (splice_ok && splice_out(w, fd, name, off, len) == 0)
		return;
	while (len > 0 && !w->error) {
		if (w->len == w->cap && pskd_writer_flush(w) == -1)
			return;
		n = w->cap - w->len;
		if (len < n)
			n = (size_t)len;
		read_at(fd, name, w->buf + w->len, n, off);
		w->len += n;
		w->total += n;
		off += n;
		len -= n;
	}
}

/*
 * Every sample that goes out is checked against its type's bounds (E9004):
 * the file may come from anywhere.  The bytes checked are the bytes sent:
 * sample i at p, just read into a buffer (hot in the cache, where checking
 * through the map in the permutation's order took longer than the copy).
 */
static void
check_sample(const struct pskd_file *f, const unsigned char *p, uint64_t i)
{
	struct pskd_error e;
	uint64_t bad;

	if (pskd_samples_check(&f->h.type, p, 1, &bad, &e) == 0)
		return;
	pskd_error_prefix(&e, "sample %llu", (unsigned long long)i);
	pskd_errx(PSKD_EXIT_DATA, "%s: %s", f->name, e.msg);
}

/*
 * Sample j into the writer's buffer, checked there; with nothing to check
 * (no index leaf narrower than its width), straight from the file (splice
 * to a pipe).
 */
static void
send_sample(struct pskd_writer *w, const struct pskd_file *f, int fd,
    uint64_t j, int check)
{
	uint64_t ss = f->h.type.sample_size, off = f->h.size + j * ss;

	if (check && ss > w->cap - w->len && pskd_writer_flush(w) == -1)
		return;
	if (!check || ss > w->cap) {
		if (check)
			check_sample(f, pskd_file_sample(f, j), j);
		copy_out(w, fd, f->name, off, ss);
		return;
	}
	read_at(fd, f->name, w->buf + w->len, (size_t)ss, off);
	check_sample(f, w->buf + w->len, j);
	w->len += (size_t)ss;
	w->total += ss;
}

static void
write_samples(struct pskd_output *o, const struct pskd_file *f, uint64_t nout,
    uint64_t per)
{
	const struct pskd_type *t = &f->h.type;
	struct pskd_type bt;
	struct pskd_error perr;
	struct pskd_sink out;
	uint64_t k, b, *idx, ss = t->sample_size, data = f->h.size;
	unsigned char *batch = NULL;
	struct stat st;
	size_t i;
	char *text, *list;
	int fd, check = pskd_type_bounded(t);

	if ((fd = open(f->name, O_RDONLY | O_CLOEXEC)) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", f->name);
	if (fstat(o->fd, &st) == -1 || !S_ISFIFO(st.st_mode))
		splice_ok = 0;

	if (opt.batch == 0) {
		pskd_sink_init(&out, o->fd, o->name, t, nout);
		for (k = 0; k < nout && !out.w.error; k++) {
			send_sample(&out.w, f, fd, next_sample(), check);
			out.count++;
		}
	} else {
		text = pskd_type_format(t, "batch", opt.batch);
		if (pskd_type_parse(&bt, text, strlen(text), &perr) == -1)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s", f->name, perr.msg);
		list = pskd_type_encodings(t);
		if (*list != '\0' &&
		    pskd_type_set_encodings(&bt, list, &perr) == -1)
			pskd_errx(PSKD_EXIT_DATA, "%s: %s", f->name, perr.msg);
		free(list);
		free(text);
		pskd_sink_init(&out, o->fd, o->name, &bt, nout);
		idx = nout == 0 ? NULL :
		    pskd_xreallocarray(NULL, (size_t)per, sizeof(*idx));
		/*
		 * Whole samples in one read each, when a batch fits: for a
		 * tuple, or to check them where they are read.
		 */
		if (nout > 0 && (t->nleaves > 1 || check) &&
		    per <= (64u << 20) / ss)
			batch = pskd_xmalloc((size_t)(per * ss));
		for (k = 0; k < nout && !out.w.error; k++) {
			for (b = 0; b < per; b++) {
				idx[b] = next_sample();
				if (batch != NULL) {
					read_at(fd, f->name, batch + b * ss,
					    (size_t)ss, data + idx[b] * ss);
					if (check)
						check_sample(f, batch + b * ss,
						    idx[b]);
				} else if (check)
					check_sample(f, pskd_file_sample(f,
					    idx[b]), idx[b]);
			}
			/* Leaf by leaf: the B inputs, then the B targets. */
			for (i = 0; i < t->nleaves; i++)
				for (b = 0; b < per; b++)
					if (batch != NULL)
						pskd_writer_write(&out.w, batch +
						    b * ss + t->leaves[i].offset,
						    (size_t)t->leaves[i].size);
					else
						copy_out(&out.w, fd, f->name,
						    data + idx[b] * ss +
						    t->leaves[i].offset,
						    t->leaves[i].size);
			out.count++;
		}
		free(batch);
		free(idx);
		pskd_type_free(&bt);
	}
	close(fd);
	if (pskd_sink_finish(&out) == -1)
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
	pskd_output_close(o, &out.w);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "batch", required_argument, NULL, 'B' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "indices", no_argument, NULL, 'i' },
		{ "take", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "rank", required_argument, NULL, OPT_RANK },
		{ "world", required_argument, NULL, OPT_WORLD },
		{ "start", required_argument, NULL, OPT_START },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_output o;
	struct pskd_file f;
	struct pskd_error perr;
	struct pskd_perm p;
	uint64_t m, avail, nout, per, rest = 0;
	int c;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "B:e:in:o:s:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'B': opt.batch = num("-B", optarg, 1); break;
		case 'e': opt.epoch = num("-e", optarg, 1); break;
		case 'i': opt.indices = 1; break;
		case 'n':
			opt.take = num("-n", optarg, 0);
			opt.take_set = 1;
			break;
		case 'o': opt.output = optarg; break;
		case 's': opt.seed = num("-s", optarg, 0); break;
		case OPT_RANK: opt.rank = num("--rank", optarg, 0); break;
		case OPT_WORLD: opt.world = num("--world", optarg, 1); break;
		case OPT_START: opt.start = num("--start", optarg, 0); break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		pskd_usage_error(NULL);
	if (opt.rank >= opt.world) {
		pskd_warnx("--rank %llu: must be less than --world %llu",
		    (unsigned long long)opt.rank,
		    (unsigned long long)opt.world);
		pskd_usage_error(NULL);
	}
	if (strcmp(argv[0], "-") == 0)
		pskd_errx(PSKD_EXIT_USAGE, "-: the order needs random access: "
		    "give a file, not standard input (pskd-pack -o FILE "
		    "makes one)");

	if (pskd_file_open(&f, argv[0], &perr) == -1)
		pskd_errx(PSKD_EXIT_DATA, "%s: %s", argv[0], perr.msg);
	if (f.h.type.params)
		pskd_errx(PSKD_EXIT_DATA, "%s: E%d: type not closed: a params "
		    "type has no layout to shuffle", argv[0], PSKD_E_TYPE);
	m = f.h.count / opt.world;
	if (opt.start > m)
		pskd_errx(PSKD_EXIT_DATA, "%s: --start %llu is past the end of "
		    "rank %llu's %llu samples", argv[0],
		    (unsigned long long)opt.start,
		    (unsigned long long)opt.rank, (unsigned long long)m);
	avail = m - opt.start;
	per = opt.batch ? opt.batch : 1;
	nout = avail / per;
	if (opt.batch)
		rest = avail % per;
	if (opt.take_set && opt.take <= nout) {
		nout = opt.take;
		rest = 0;
	}

	pskd_output_open(&o, opt.output, !opt.indices);
	pskd_perm_init(&p, f.h.count, opt.seed, opt.epoch);
	order.p = &p;
	order.next = opt.start;
	if (opt.indices)
		print_indices(&o, nout, per);
	else
		write_samples(&o, &f, nout, per);
	if (rest > 0)
		pskd_warnx("%s: dropped the short last batch (%llu of %llu "
		    "samples)", argv[0], (unsigned long long)rest,
		    (unsigned long long)per);
	pskd_file_close(&f);
	return 0;
}
