/*
 * pskd.h - the one public header of libpskd, the code two or more pskd
 * programs share.  One concern per source file in src/lib; this header
 * groups the declarations by the file that defines them.
 *
 * Errors: library functions return -1 (or NULL) and say why through errno
 * or a struct pskd_error; they never exit.  The exceptions are named so: the
 * diagnostics of err.c that end a program (pskd_errx, pskd_err,
 * pskd_usage_error), the option parsers of num.c (pskd_optnum,
 * pskd_optreal: exit 2), pskd_refuse_tty, pskd_writer_finish and
 * pskd_output_open/close and pskd_rejects_* (exit 1),
 * and the pskd_x* allocators of mem.c (exit 1 when memory runs out) - each
 * meant for a program's main line, not for library code.
 *
 * A family's private code lives in its own folder (src/FAMILY: tok, dedup,
 * get, batch, unzst, parquet, warc, lid, quality, exact, export, stats)
 * behind its own headers, and may exit.
 */
#ifndef PSKD_H
#define PSKD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit statuses shared by every program (documented in each man page). */
#define PSKD_EXIT_OK	0
#define PSKD_EXIT_DATA	1	/* data, I/O or runtime error */
#define PSKD_EXIT_USAGE	2	/* bad option or operand */

/* ---- err.c: diagnostics, "pskd-NAME: [FILE[:LINE]: ]message" ---------- */

extern const char *pskd_progname;

/*
 * The error of a library call: a message, and for the .psk.d container its
 * code (PSKD_E_*, also the message's "E90xx: " prefix); 0 for others.
 */
struct pskd_error {
	int	code;		/* PSKD_E_*, or 0 */
	char	msg[512];	/* "E9003: truncated at sample 12" */
};

void	pskd_error_set(struct pskd_error *e, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Prefix the message of e (after its "E90xx: ") with text, e.g. "sample 3". */
void	pskd_error_prefix(struct pskd_error *e, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

void	pskd_setprogname(const char *argv0);
/*
 * A program's first call: its name (argv[0] is set to it, so getopt's
 * messages read "pskd-NAME: ..."), its usage text for pskd_usage_error(NULL)
 * and the number parsers, and the signal handlers of pskd_outfile.
 */
void	pskd_init(char **argv, const char *usage);
void	pskd_warnx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));
void	pskd_warn(const char *fmt, ...)		/* appends ": strerror" */
	    __attribute__((format(printf, 1, 2)));
void	pskd_vwarnx(const char *fmt, va_list ap)
	    __attribute__((format(printf, 1, 0)));
_Noreturn void pskd_errx(int status, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
_Noreturn void pskd_err(int status, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * "pskd-NAME: FILE:LINE: message" (line 0: "FILE: message") and exit 1: a
 * data error, said where it is.
 */
_Noreturn void pskd_fail_at(const char *name, uint64_t line,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Print "usage: USAGE" (NULL: the text given to pskd_init) and exit 2. */
_Noreturn void pskd_usage_error(const char *usage);

/* ---- opt.c: --version, modes that exclude each other ------------------ */

/* The suite's version, from the Makefile's VERSION (its one place). */
extern const char pskd_version_text[];
/* Print "pskd-NAME VERSION" (--version) and exit 0. */
_Noreturn void pskd_version(void);

/*
 * A program with several modes (pskd-lsh --map/--pairs, pskd-tok -d/--train)
 * keeps its mode here: pskd_mode_set with the option that asks for it; a
 * second option asking for another mode is "pskd-NAME: --apply and --pairs
 * exclude each other", the usage text and exit 2.  Zero it for the default.
 */
struct pskd_mode {
	int		 mode;
	const char	*flag;		/* the option that set it; NULL: none */
};

void	pskd_mode_set(struct pskd_mode *m, int mode, const char *flag);

/* ---- num.c: the one number parser ------------------------------------- */

#define PSKD_NUM_SIZE	1	/* a K, M, G or T suffix (powers of 1024) */
#define PSKD_NUM_HEX	2	/* 0x... as well as decimal */

/*
 * A whole number in min..max, all of s (no sign, no blanks).  0, or -1 with
 * errno EINVAL (not a number) or ERANGE (out of min..max).
 */
int	pskd_strtonum(const char *s, uint64_t min, uint64_t max, int flags,
	    uint64_t *out);
/*
 * The n bytes at p, all decimal digits (1 to 20 of them), as a number that
 * fits 64 bits: 0, or -1 for anything else.  For fields inside a line.
 */
int	pskd_decimal(const unsigned char *p, size_t n, uint64_t *v);
/*
 * The same for the value of option name ("-k", "--shard"); on failure,
 * "pskd-NAME: -k: 'x' is not a whole number from 1 to 1024", the usage
 * text, and exit 2.
 */
uint64_t pskd_optnum(const char *name, const char *s, uint64_t min,
	    uint64_t max, int flags);
/* A real number in min..max, the same way. */
double	pskd_optreal(const char *name, const char *s, double min, double max);
/*
 * A byte range FROM-TO (FROM <= TO) for option name (pskd-unwarc -r): a
 * bad one is "pskd-NAME: -r: '10-5' ends before it starts" and exit 2.
 */
void	pskd_optrange(const char *name, const char *s, uint64_t *from,
	    uint64_t *to);

/* ---- mem.c: allocation that dies cleanly (exit 1) on exhaustion -------- */

void	*pskd_xmalloc(size_t n);
void	*pskd_xcalloc(size_t n, size_t size);
void	*pskd_xrealloc(void *p, size_t n);
void	*pskd_xreallocarray(void *p, size_t n, size_t size);
char	*pskd_xstrdup(const char *s);
char	*pskd_xstrndup(const char *s, size_t n);
/* a followed by b, a new string: file names made of a prefix and a suffix. */
char	*pskd_xconcat(const char *a, const char *b);
/* Fault in the whole pages of p[0..n) now, before they are written. */
void	pskd_prefault(void *p, size_t n);

/* A growable byte buffer. */
struct pskd_buf {
	unsigned char	*p;
	size_t		 len;
	size_t		 cap;
};

void	pskd_buf_reserve(struct pskd_buf *b, size_t extra);
void	pskd_buf_add(struct pskd_buf *b, const void *p, size_t n);
void	pskd_buf_addc(struct pskd_buf *b, unsigned char c);
void	pskd_buf_free(struct pskd_buf *b);

/* ---- little-endian integers (inline, here) ---------------------------- */

static inline uint16_t
pskd_get_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t
pskd_get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
pskd_get_le64(const unsigned char *p)
{
	return (uint64_t)pskd_get_le32(p) | (uint64_t)pskd_get_le32(p + 4) << 32;
}

static inline void
pskd_put_le16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void
pskd_put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void
pskd_put_le64(unsigned char *p, uint64_t v)
{
	pskd_put_le32(p, (uint32_t)v);
	pskd_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* ---- simd.c: which vector code paths may run -------------------------- */

/*
 * The levels, each including those below it.  A vector path of a level
 * runs only when pskd_simd() is at least that level; what a path needs
 * beyond its level (AVX-512 VBMI2, say) it checks itself.
 */
enum pskd_simd_level {
	PSKD_SIMD_PORTABLE = 0,	/* the portable code only */
	PSKD_SIMD_SSE2,		/* SSE2: every x86-64 */
	PSKD_SIMD_AVX2,		/* AVX2, POPCNT, BMI1, BMI2 (Haswell, Zen) */
	PSKD_SIMD_AVX512	/* AVX-512 F, VL, DQ, BW (Skylake-SP, Zen 4) */
};

/*
 * The widest level the processor has, capped by the environment's
 * PSKD_SIMD: 0, off or portable; sse2; avx2; avx512 (unset: no cap).  So
 * pskd_simd() == 0 asks for the portable paths.
 */
int	pskd_simd(void);
/* The widest level the processor has, whatever PSKD_SIMD says. */
int	pskd_simd_cpu(void);
/* "portable", "sse2", "avx2", "avx512". */
const char *pskd_simd_name(int level);

/* ---- byteset.c: the bytes of a text in a set, 32 at a time ------------ */

struct pskd_byteset {
	unsigned char	 in[256];	/* 1: in the set */
	unsigned char	 lo[16], hi[16];	/* AVX2's tables (byteset.c) */
	int		 avx2;
};

/* The set of the bytes c with in[c] != 0, for the level pskd_simd(). */
void	pskd_byteset_init(struct pskd_byteset *b, const unsigned char in[256]);
/* Bit j: s[j] is in the set, for j < 32 and j < n. */
uint32_t pskd_byteset_mask(const struct pskd_byteset *b,
	    const unsigned char *s, size_t n);
/* The offset of the first byte of s[0..n) in the set, or n. */
size_t	pskd_byteset_find(const struct pskd_byteset *b, const unsigned char *s,
	    size_t n);

/* ---- io.c: whole reads and writes, pipes, atomic output files ---------- */

#define PSKD_BUFSIZE	(1u << 20)	/* 1 MiB: every buffered stream */
/*
 * For a program that works on every byte it reads (the dedup three): the
 * bytes a read brings in are still in a 1 MiB L2 cache when they are used.
 * Measured piped: 4 % less CPU than 1 MiB; alone, 3-7 %.  Programs that
 * mostly move bytes (pskd-window, pskd-pack) were 10 % slower with it.
 */
#define PSKD_WORK_BUFSIZE (256u << 10)

/*
 * A buffer grown for one long line, frame or document is kept up to this
 * size for the next one, and given back after it beyond: growing it
 * again faults its pages in again, each a zeroed page.  pskd-shingle on
 * make bench's multilingual text (4,206 documents up to 1.2 MB) had
 * 10,229 page faults when the reader, the relay and the shingler gave
 * back all they grew past 256 KiB / 4 MiB, 2,159 with this; its CPU time
 * 8 % less.
 */
#define PSKD_KEEP_GROWN (16u << 20)

/*
 * The buffer size of the readers and writers opened from now on
 * (PSKD_BUFSIZE until set), and what it is.
 */
void	pskd_set_bufsize(size_t n);
size_t	pskd_bufsize(void);

/* read(2) until n bytes or EOF; returns bytes read, -1 on error (errno). */
ssize_t	pskd_read_full(int fd, void *p, size_t n);
/* write(2) all n bytes, retrying short writes and EINTR; 0 or -1 (errno). */
int	pskd_write_all(int fd, const void *p, size_t n);
/*
 * The whole of a file (path NULL or "-": standard input), appended to b:
 * the one whole-file reader.  At most max bytes (0: no limit).  0, or -1
 * with errno (EFBIG: longer than max).
 */
int	pskd_slurp(const char *path, size_t max, struct pskd_buf *b);
/*
 * The same, without the copy where it can: a regular file is mapped
 * (read-only, its pages faulted in at once), anything else slurped.  p
 * and len are the bytes, valid until pskd_whole_close; exactly len of
 * them are readable.  0, or -1 with errno as pskd_slurp's.
 */
struct pskd_whole {
	const unsigned char *p;
	size_t		 len;
	void		*map;		/* NULL: read into buf */
	struct pskd_buf	 buf;
};
int	pskd_whole_open(struct pskd_whole *w, const char *path, size_t max);
void	pskd_whole_close(struct pskd_whole *w);
/* Enlarge fd's pipe buffer (F_SETPIPE_SZ) when fd is a pipe; else nothing. */
void	pskd_pipe_grow(int fd);
/* Exit 1 with "prog: <stdout>: refusing to write binary data to a terminal". */
void	pskd_refuse_tty(int fd, const char *name);

/*
 * An output file written to a temporary name in the same directory and
 * renamed into place only by pskd_outfile_commit(): a failed or interrupted
 * run (error exit, SIGINT, SIGTERM, SIGHUP) leaves no half-written file.
 */
struct pskd_outfile {
	char	*path;
	char	*tmp;
	int	 fd;
	int	 slot;
};

/*
 * Opens ".NAME.tmp.PID" beside path (O_EXCL, O_NOFOLLOW: never through a
 * symlink), after removing the temporaries of NAME that dead processes
 * left.  A path that exists and is not a regular file (/dev/null, a FIFO) is
 * written in place; a name of an open descriptor (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N) is written to that descriptor.  0, or -1
 * with errno.
 */
int	pskd_outfile_open(struct pskd_outfile *o, const char *path);
int	pskd_outfile_commit(struct pskd_outfile *o);	/* fsync, rename, fsync dir */
void	pskd_outfile_abort(struct pskd_outfile *o);
/*
 * A program's output: -o FILE through a pskd_outfile, or standard output
 * (path NULL or "-"; a binary stream refuses a terminal): the one route of
 * every -o, --verdicts, --dropped, --rejects.  Program helpers: both print
 * the error and exit 1 on failure; a file (or standard output) already open
 * as another output of the program is "pskd-NAME: X: given for two
 * outputs" and exit 2.  pskd_output_close flushes
 * the writer w over o->fd, frees its buffer and commits the file (or
 * closes standard output, checking it).
 */
struct pskd_writer;

struct pskd_output {
	struct pskd_outfile of;
	int		 fd;
	const char	*name;		/* the path or "<stdout>" */
	int		 file;
	int		 slot;		/* in the table of named outputs */
};

void	pskd_output_open(struct pskd_output *o, const char *path, int binary);
/* The same, and w initialised to write to it. */
void	pskd_output_writer(struct pskd_output *o, struct pskd_writer *w,
	    const char *path, int binary);
void	pskd_output_close(struct pskd_output *o, struct pskd_writer *w);
/* Remove the ".NAME.tmp.PID" temporaries of path whose PID is not running. */
void	pskd_tmp_sweep(const char *path);
/* fsync the directory holding path (after a rename). */
int	pskd_fsync_dir(const char *path);

/* ---- datafile.c: installed data files, found by name ------------------ */

/*
 * The file NAME+SUFFIX in $PSKD_VOCAB_DIR, the build tree's vocab/ (beside
 * the program's folder), the installed share/pskd (beside it too, so an
 * installation may move), then the DATADIR it was built for.  NULL if none
 * is readable; *tried the folders searched (for the message; free it).
 */
char	*pskd_data_find(const char *name, const char *suffix, char **tried);

/* ---- reader.c: buffered input with line splitting ----------------------- */

struct pskd_reader {
	int		 fd;
	int		 owned;		/* close fd in pskd_reader_close */
	const char	*name;		/* for messages: path or "<stdin>" */
	unsigned char	*buf;
	size_t		 cap;
	size_t		 pos;		/* first unconsumed byte */
	size_t		 end;		/* one past the last buffered byte */
	int		 eof;
	uint64_t	 lineno;	/* number of the line last returned */
	uint64_t	 offset;	/* stream offset of buf[pos] */
	int		 noeol;		/* last line returned had no '\n' */
	int		 faulted;	/* buf faulted in, at its first fill */
	/* Called before the buffer's bytes move or are overwritten. */
	void		(*refill)(void *);
	void		*refill_arg;
	/*
	 * The longest line pskd_reader_line returns whole (0: no limit): a
	 * longer one comes back as its first max bytes with cut set, and
	 * the rest of it is read past, never held.
	 */
	size_t		 max;
	int		 cut;
	int		 skip;		/* the rest of a cut line comes next */
	size_t		 base;		/* cap at open: back to it after a long line */
};

/* path NULL or "-" means stdin.  Returns 0, or -1 with errno set. */
int	pskd_reader_open(struct pskd_reader *r, const char *path);
void	pskd_reader_fdopen(struct pskd_reader *r, int fd, const char *name);
void	pskd_reader_close(struct pskd_reader *r);
/*
 * Next line, without its '\n' (a '\r' before it is kept).  The pointer is
 * valid until the next call.  Returns 1 for a line, 0 at end of input, -1 on
 * a read error (errno set).  A final line without '\n' is returned too, with
 * r->noeol set; a line longer than r->max is cut (r->cut).
 */
int	pskd_reader_line(struct pskd_reader *r, const unsigned char **line,
	    size_t *len);
/*
 * Make at least n bytes available at *p (fewer only at end of input).
 * Returns the number available (may exceed n), or -1 on error.  Consume
 * them with pskd_reader_skip().
 */
ssize_t	pskd_reader_peek(struct pskd_reader *r, size_t n,
	    const unsigned char **p);
void	pskd_reader_skip(struct pskd_reader *r, size_t n);
/* Copy up to n bytes into dst; returns bytes copied (< n only at EOF). */
ssize_t	pskd_reader_read(struct pskd_reader *r, void *dst, size_t n);

/* ---- writer.c: buffered output with a sticky error ---------------------- */

struct pskd_writer {
	int		 fd;
	const char	*name;		/* for messages: path or "<stdout>" */
	unsigned char	*buf;
	size_t		 cap;
	size_t		 len;
	int		 error;		/* first errno seen; sticky */
	uint64_t	 total;		/* bytes accepted so far */
};

void	pskd_writer_init(struct pskd_writer *w, int fd, const char *name);
void	pskd_writer_write(struct pskd_writer *w, const void *p, size_t n);
void	pskd_writer_putc(struct pskd_writer *w, int c);
void	pskd_writer_puts(struct pskd_writer *w, const char *s);
void	pskd_writer_printf(struct pskd_writer *w, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	pskd_writer_u64(struct pskd_writer *w, uint64_t v);	/* decimal */
/* Returns 0, or -1 with w->error set. */
int	pskd_writer_flush(struct pskd_writer *w);
/* Flush, free the buffer, and close(2) the fd (checking it).  0 or -1. */
int	pskd_writer_close(struct pskd_writer *w);
/* Flush and close; on failure print "prog: NAME: strerror" and exit 1. */
void	pskd_writer_finish(struct pskd_writer *w);

/* ---- tsv.c: one TSV field, escaped ------------------------------------- */

/* s[0..n) with \\ \t \n \r for backslash, tab, newline, CR; to w. */
void	pskd_tsv_field(struct pskd_writer *w, const unsigned char *s, size_t n);
/* The same, appended to b. */
void	pskd_tsv_escape(struct pskd_buf *b, const unsigned char *s, size_t n);
/*
 * The field s[0..n) read back, appended to b: \\ \t \n \r decoded, another
 * byte after a backslash kept as it is.
 */
void	pskd_tsv_unescape(struct pskd_buf *b, const unsigned char *s,
	    size_t n);

/*
 * Bad documents a program goes on past (--rejects FILE; NULL: only counted,
 * as pskd-shingle -s does): each a TSV line "NAME, LINE, reason" in FILE,
 * written through pskd_output (program helpers: exit 1 on failure).
 * pskd_rejects_close commits FILE and, if there were any, warns once:
 * "rejected (or skipped) N bad lines (first: NAME:LINE: reason)".
 */
struct pskd_rejects {
	struct pskd_output o;
	struct pskd_writer w;
	int		 file;
	uint64_t	 n;
	char		 first[512];
};

void	pskd_rejects_open(struct pskd_rejects *r, const char *path);
void	pskd_rejects_add(struct pskd_rejects *r, const char *name,
	    uint64_t line, const char *why);
void	pskd_rejects_close(struct pskd_rejects *r);

/* ---- utf8.c ------------------------------------------------------------- */

/*
 * Decode one code point from s[0..n).  Returns its length (1-4), or 0 if the
 * bytes there are not well-formed UTF-8 (overlong forms, surrogates, values
 * above U+10FFFF, truncated sequences and stray continuation bytes all are
 * not).  Inline: its callers decode every character that is not ASCII,
 * and the call across files was 3.3 % of pskd-tok's instructions on make
 * bench's text with Qwen 3 (cl100k_base: 1.2 %).
 */
static inline size_t
pskd_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c;
	unsigned char b0;

	*cp = 0;		/* when not: callers may read it all the same */
	if (n == 0)
		return 0;
	b0 = s[0];
	if (b0 < 0x80) {
		*cp = b0;
		return 1;
	}
	if (b0 < 0xC2)			/* continuation byte or overlong C0/C1 */
		return 0;
	if (b0 < 0xE0) {
		if (n < 2 || (s[1] & 0xC0) != 0x80)
			return 0;
		*cp = (uint32_t)(b0 & 0x1F) << 6 | (s[1] & 0x3F);
		return 2;
	}
	if (b0 < 0xF0) {
		if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		c = (uint32_t)(b0 & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 |
		    (s[2] & 0x3F);
		if (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))
			return 0;
		*cp = c;
		return 3;
	}
	if (b0 < 0xF5) {
		if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
		    (s[3] & 0xC0) != 0x80)
			return 0;
		c = (uint32_t)(b0 & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
		    (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
		if (c < 0x10000 || c > 0x10FFFF)
			return 0;
		*cp = c;
		return 4;
	}
	return 0;
}
/* Offset of the first ill-formed byte in s[0..n), or n if all is valid. */
size_t	pskd_utf8_check(const unsigned char *s, size_t n);
/* The same at a PSKD_SIMD level (AVX2 32 bytes a step; the tests'). */
size_t	pskd_utf8_check_at(const unsigned char *s, size_t n, int simd);
/* Offset of the first byte of s[0..n) that is not ASCII, or n (inline:
   callers run it between the characters they decode). */
static inline size_t
pskd_utf8_ascii(const unsigned char *s, size_t n)
{
	size_t i = 0;

	/* Eight bytes at a time, then the one that stopped them. */
	while (i + 8 <= n && (pskd_get_le64(s + i) &
	    0x8080808080808080ULL) == 0)
		i += 8;
	while (i < n && s[i] < 0x80)
		i++;
	return i;
}
/* Encode cp (<= 0x10FFFF) into out; returns the length 1-4. */
size_t	pskd_utf8_encode(uint32_t cp, unsigned char *out);

/* ---- json.c: JSON Lines field extraction -------------------------------- */

/*
 * Past JSON's blanks from p, for both readers (this one and hf-json.c's):
 * eight bytes a step through runs of spaces (a pretty-printed file's
 * indents: a byte loop through them was 17 % of the instructions of
 * pskd-tok's load of Qwen 3's tokenizer.json).
 */
static inline const unsigned char *
pskd_json_blanks(const unsigned char *p, const unsigned char *end)
{
	uint64_t w;

	if (p < end && *p > ' ')
		return p;	/* the usual: none */
	if (p < end && *p == '\n')
		p++;		/* a pretty-printer's, before its indent */
	while (end - p >= 8) {
		/* Little-endian: the first byte is the lowest. */
		if ((w = pskd_get_le64(p) ^ 0x2020202020202020ULL) == 0) {
			p += 8;
			continue;
		}
		p += __builtin_ctzll(w) / 8;	/* the first that is not ' ' */
		if (*p != '\n' && *p != '\r' && *p != '\t')
			return p;
		p++;
	}
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' ||
	    *p == '\t'))
		p++;
	return p;
}

enum pskd_json_kind {
	PSKD_JSON_MISSING = 0,
	PSKD_JSON_STRING,
	PSKD_JSON_NUMBER,
	PSKD_JSON_OTHER		/* object, array, true, false, null */
};

#define PSKD_JSON_MAXFIELDS 32

struct pskd_json_field {
	const char	*name;		/* in: the member's path: "text", "a.b" */
	enum pskd_json_kind kind;	/* out */
	struct pskd_buf	 value;		/* out: a string unescaped (UTF-8) */
	const unsigned char *raw;	/* out: the value's JSON text */
	size_t		 rawlen;
};

/*
 * Validate one JSON Lines line as a JSON object (RFC 8259, strings checked
 * as UTF-8) and extract the members named in f[0..n) (n <= 32): a name is a
 * path, its dots separating the members of nested objects ("meta.source"),
 * so a key that itself holds a dot or an escape is never matched.  The last
 * occurrence of a duplicated key wins.  Returns 0, or -1 with a message in
 * err (no newline) and the byte offset of the problem in *erroff.
 */
int	pskd_json_fields(const unsigned char *line, size_t len,
	    struct pskd_json_field *f, size_t n, char *err, size_t errsize,
	    size_t *erroff);
/*
 * line, a JSON object pskd_json_fields accepted, with members ("\"k\":v"
 * pairs joined by commas, no braces) added after its last member, into b:
 * every other byte as it was, the white space after the '}' too.
 */
void	pskd_json_append(struct pskd_buf *b, const unsigned char *line,
	    size_t len, const unsigned char *members, size_t n);
/* Member d (from 0) of a dotted path ("a.b"), its length in *len; or NULL. */
const char *pskd_json_segment(const char *path, size_t d, size_t *len);
/* Append s as a JSON string literal (quotes and escapes) to b. */
void	pskd_json_quote(struct pskd_buf *b, const unsigned char *s, size_t n);

/* ---- doc.c: a document's text and id (-f FIELD[,FIELD...], --id) ------ */

#define PSKD_DOC_MAXFIELDS 16
#define PSKD_DOC_MAXEXTRA 8

enum pskd_doc_why {
	PSKD_DOC_OK = 0,
	PSKD_DOC_JSON,		/* not a JSON object (or invalid UTF-8 in it) */
	PSKD_DOC_NOTEXT,	/* none of the text members, or all null */
	PSKD_DOC_NOTSTRING	/* a text member that is not a string */
};

struct pskd_doc {
	char		*spec;		/* the -f list, split at its commas */
	size_t		 nf;		/* text members */
	int		 hasid;
	size_t		 nextra;	/* members asked for by pskd_doc_extra */
	/* the text members, then the id, then the extra members */
	struct pskd_json_field f[PSKD_DOC_MAXFIELDS + 1 + PSKD_DOC_MAXEXTRA];
	struct pskd_buf	 joined;
	/* out, valid until the next pskd_doc_parse: */
	const unsigned char *text;	/* the members joined by "\n\n" */
	size_t		 textlen;
	const unsigned char *id;	/* a string or number id; NULL: none */
	size_t		 idlen;
	enum pskd_doc_why why;
	char		 err[256];	/* why, e.g. "no \"text\" member" */
};

/*
 * fields: "text", "title,text", "meta.body"; id: the id's path, or NULL
 * when the program wants none.  -1 with e set for a malformed list.
 */
int	pskd_doc_init(struct pskd_doc *d, const char *fields, const char *id,
	    struct pskd_error *e);
/*
 * The text and id of one line.  Members that are missing or null are left
 * out of the join; -1 (d->why, d->err) when the line is not a JSON object,
 * has none of the text members, or one that is not a string.
 */
int	pskd_doc_parse(struct pskd_doc *d, const unsigned char *line,
	    size_t len);
/*
 * One more member to extract from every line (pskd-filter's url, the
 * language pskd-lid wrote): its index in d->f, whose kind, value and raw
 * text pskd_doc_parse sets; -1 for a malformed path or too many.
 */
int	pskd_doc_extra(struct pskd_doc *d, const char *path);
void	pskd_doc_free(struct pskd_doc *d);

/* ---- verdict.c: one verdict a document, pskd-verdicts(5) -------------- */

/*
 * "ID\tVERDICT[\tWHAT\tAGAINST]\n" to --verdicts, and for a drop the same
 * fields and "\tLINE" to --dropped.  Program helpers (exit 1 on failure).
 */
struct pskd_verdicts {
	struct pskd_output vo, dro;
	struct pskd_writer vw, dw;
	int		 verdicts, dropped;	/* the files are open */
};

/* Either path may be NULL (no such file). */
void	pskd_verdicts_open(struct pskd_verdicts *v, const char *verdicts,
	    const char *dropped);
/*
 * The verdict of the document id; a NULL: no WHAT and AGAINST fields; line
 * NULL: nothing to --dropped (a keep).
 */
void	pskd_verdicts_put(struct pskd_verdicts *v, const unsigned char *id,
	    size_t idlen, const char *verdict, const unsigned char *a,
	    size_t alen, const unsigned char *b, size_t blen,
	    const unsigned char *line, size_t linelen);
void	pskd_verdicts_close(struct pskd_verdicts *v);

/* ---- stage.c: the document stages' contract -------------------------- */

/*
 * A JSON Lines -> JSON Lines stage (pskd-lid, pskd-filter, pskd-redact,
 * pskd-exact, pskd-decon): set the options, pskd_stage_open, then for each
 * document pskd_stage_next gives, exactly one of keep, keep_as, annotate or
 * drop; pskd_stage_close commits -o, --verdicts, --dropped and --rejects
 * (in that order) and returns the exit status.  A bad document stops the
 * program with "FILE:LINE: why", or with --rejects goes there, gets the
 * verdict "rejected" and the run goes on.  Program helpers: they exit on
 * failure.
 */
struct pskd_stage {
	/* options, before pskd_stage_open; NULL: the default */
	const char	*fields;	/* -f (text) */
	const char	*idfield;	/* --id (id) */
	const char	*output;	/* -o (standard output) */
	const char	*verdicts;	/* --verdicts */
	const char	*dropped;	/* --dropped */
	const char	*rejects;	/* --rejects */
	/*
	 * Optional: called as each input is opened (line NULL; s->source
	 * its name, s->input its place from 0) and with every line read
	 * from it, good or bad, before the line is parsed (pskd-exact's
	 * index knows its inputs by what they hold).
	 */
	void		(*seen)(struct pskd_stage *s, const unsigned char *line,
			    size_t len);
	/* the document pskd_stage_next returned, until the next call */
	struct pskd_doc	 doc;		/* its text: doc.text, doc.textlen */
	const unsigned char *line;	/* its whole line, without the '\n' */
	size_t		 len;
	const unsigned char *id;	/* its id, or SOURCE:LINE */
	size_t		 idlen;
	const char	*source;	/* the input's name, "<stdin>" */
	uint64_t	 lineno;
	int		 input;		/* its input's place, from 0 */
	uint64_t	 ndocs, nkept, ndropped;
	/* private */
	struct pskd_output out;
	struct pskd_writer w;
	struct pskd_verdicts v;
	struct pskd_rejects rej;
	struct pskd_reader r;
	char		**inputs;
	int		 ninputs, next, reading, decided;
	struct pskd_buf	 idbuf, annot;
};

/* Inputs argv[0..argc) (none: standard input); a bad -f is exit 2. */
void	pskd_stage_open(struct pskd_stage *s, int argc, char **argv);
/* 1: a document in s; 0: no more (or the output failed: see close). */
int	pskd_stage_next(struct pskd_stage *s);
/* Kept as it came, verdict "keep". */
void	pskd_stage_keep(struct pskd_stage *s);
/* Kept as line[0..len) (a stage that rewrites documents), "keep". */
void	pskd_stage_keep_as(struct pskd_stage *s, const unsigned char *line,
	    size_t len);
/*
 * Kept as line[0..len) (NULL: as it came) with another verdict than
 * "keep" and its two fields (what NULL: neither): pskd-exact's "trimmed",
 * a document kept with part of its text removed.
 */
void	pskd_stage_keep_verdict(struct pskd_stage *s, const unsigned char *line,
	    size_t len, const char *verdict, const char *what,
	    const char *against);
/* Kept with members appended (pskd_json_append), "keep". */
void	pskd_stage_annotate(struct pskd_stage *s, const unsigned char *members,
	    size_t n);
/*
 * Dropped with the verdict (a name without tabs), what it measured and
 * against what (what NULL: neither field); the line to --dropped.
 */
void	pskd_stage_drop(struct pskd_stage *s, const char *verdict,
	    const char *what, const char *against);
int	pskd_stage_close(struct pskd_stage *s);

/* ---- sha256.c: SHA-256 as hex, through libcrypto ----------------------- */

#define PSKD_SHA256_HEX	65	/* 64 hex digits and a NUL */

struct pskd_sha256 {
	void	*ctx;		/* EVP_MD_CTX */
};

/* Each exits 1 with a line if libcrypto fails. */
void	pskd_sha256_init(struct pskd_sha256 *h);
void	pskd_sha256_update(struct pskd_sha256 *h, const void *p, size_t n);
/* The digest so far, without ending the context (it can go on). */
void	pskd_sha256_peek(const struct pskd_sha256 *h, char hex[PSKD_SHA256_HEX]);
void	pskd_sha256_free(struct pskd_sha256 *h);
/* The digest of p[0..n). */
void	pskd_sha256_hex(const void *p, size_t n, char hex[PSKD_SHA256_HEX]);
/* 1 when s is 64 hex digits (either case). */
int	pskd_sha256_valid(const char *s, size_t len);

/* ---- progress.c: progress lines on a terminal --------------------------- */

/* -q / -P: 0 auto (stderr is a tty), 1 always, -1 never. */
extern int pskd_progress_mode;
int	pskd_progress_enabled(void);
/* Redraw "\r<text>" at most ~4 times a second; final=1 ends the line. */
void	pskd_progress(int final, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* ---- io.c, signals: remove pskd_outfile temporaries on SIGINT/TERM/HUP -- */
void	pskd_signals_init(void);

/* The .psk.d sample type, container and values: type.c, psk.c, value.c. */
#include "psk.h"

#endif /* PSKD_H */
