/*
 * pskd-get - resumable, verified shard downloads through the curl program.
 *
 * main parses the options and runs one of four modes: fetch the shards of
 * URL lists into a folder, fetch one URL (-u) into it or to stdout, check
 * the folder against its manifest (--verify), or add members to a shard's
 * record (--annotate).  The engine is in src/get (get.h says what is
 * where).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pskd.h"
#include "get/get.h"

static const char usage_text[] =
    "pskd-get [-Pq] [-d dir] [-H header] [-j jobs] "
    "[--checkpoint-interval s]\n"
    "                [--curl-config file] [--force] [--header-file file]\n"
    "                [--netrc | --netrc-file file] [--resume-only] "
    "[--retries n]\n"
    "                [--retry-wait s] [--stall-timeout s] "
    "[--token-hosts hosts]\n"
    "                [list ...]\n"
    "       pskd-get [-Pq] [-d dir] [-H header] [-s sha256] "
    "[--curl-config file]\n"
    "                [--force] [--header-file file] "
    "[--netrc | --netrc-file file]\n"
    "                [--token-hosts hosts] -u url\n"
    "       pskd-get --verify [-d dir]\n"
    "       pskd-get [-d dir] --annotate file key=json ...";

/* Where HF_TOKEN goes by default: the Hugging Face Hub and its CDNs. */
#define TOKEN_HOSTS	"huggingface.co,.huggingface.co,hf.co,.hf.co"

enum mode { MODE_LIST, MODE_URL, MODE_VERIFY, MODE_ANNOTATE };

enum {
	OPT_CKPT = 256, OPT_CURLCFG, OPT_FORCE, OPT_HFILE, OPT_NETRC,
	OPT_NETRCF, OPT_RESUME, OPT_RETRIES, OPT_WAIT, OPT_STALL, OPT_HOSTS,
	OPT_VERIFY, OPT_ANNOTATE, OPT_HELP, OPT_VERSION
};

static void
help(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -P, --progress              progress even when stderr is not "
	    "a terminal\n"
	    "  -q, --quiet                 no progress\n"
	    "  -d, --cache-dir DIR         the shard folder (default .)\n"
	    "  -H, --header 'NAME: VALUE'  a request header (repeatable)\n"
	    "  -j, --jobs N                shards at once (default 1)\n"
	    "      --checkpoint-interval S seconds between checkpoints "
	    "(default 2)\n"
	    "      --curl-config FILE      more curl settings (proxies, "
	    "certificates, --aws-sigv4)\n"
	    "      --force                 replace files pskd-get did not "
	    "make; rebuild a\n"
	    "                              manifest its lock does not vouch "
	    "for\n"
	    "      --header-file FILE      request headers, one a line\n"
	    "      --netrc                 credentials from ~/.netrc\n"
	    "      --netrc-file FILE       credentials from FILE\n"
	    "      --resume-only           never start a shard from byte 0\n"
	    "      --retries N             transient faults in a row before "
	    "a shard fails (default 5)\n"
	    "      --retry-wait S          first backoff (default 1)\n"
	    "      --stall-timeout S       seconds without data that count "
	    "as a fault (default 60)\n"
	    "      --token-hosts HOSTS     where HF_TOKEN may go (default "
	    TOKEN_HOSTS ")\n"
	    "  -s, --sha256 HEX            the expected sha256 of -u's URL\n"
	    "  -u, --url URL               fetch one URL\n"
	    "      --verify                check the folder against its "
	    "manifest\n"
	    "      --annotate FILE         add key=json members to FILE's "
	    "shard record\n"
	    "      --help                  this text\n"
	    "      --version               the version\n");
	exit(0);
}


/* What the options and operands of a mode must be, said when they are not. */
static void
check_usage(enum mode mode, int argc, const struct pskd_get_opt *opt,
    const char *sha, const char *url)
{
	const char *why = NULL;

	if (mode == MODE_VERIFY && argc > 0)
		why = "--verify checks the folder's manifest and takes no list";
	else if (mode == MODE_VERIFY && (opt->resume_only || opt->force))
		why = "--verify does not download: no --resume-only or --force";
	else if (mode == MODE_URL && argc > 0)
		why = "-u fetches one URL and takes no list";
	else if (sha && mode != MODE_URL)
		why = "-s is the sha256 of -u's URL";
	else if (mode == MODE_ANNOTATE && argc == 0)
		why = "--annotate needs key=json members";
	else if (mode == MODE_ANNOTATE && (opt->resume_only || opt->force))
		why = "--annotate does not download: no --resume-only or "
		    "--force";
	if (why != NULL) {
		pskd_warnx("%s", why);
		pskd_usage_error(NULL);
	}
	if (sha && !pskd_sha256_valid(sha, strlen(sha))) {
		pskd_warnx("-s: '%s' is not a sha256 (64 hex digits)", sha);
		pskd_usage_error(NULL);
	}
	if (url && (!pskd_get_scheme_ok(url) || !pskd_record_text_ok(url))) {
		pskd_warnx("-u: '%s' is not an http, https or file URL", url);
		pskd_usage_error(NULL);
	}
	if (url && pskd_get_url_has_userinfo(url)) {
		pskd_warnx("-u: a URL with credentials in it would be "
		    "recorded; use -H or --netrc");
		pskd_usage_error(NULL);
	}
}

/* The URL lists (none: stdin) into the folder. */
static int
get_lists(struct pskd_get *g, int argc, char **argv)
{
	int i;

	pskd_get_fd_limit(g->opt->jobs);
	if (argc == 0)
		pskd_get_read_list(g, NULL);
	for (i = 0; i < argc; i++)
		pskd_get_read_list(g, argv[i]);
	pskd_get_open_folder(g);
	return pskd_get_run(g);
}

/* -u: one URL, to stdout or (with -d) into the folder. */
static int
get_url(struct pskd_get *g, struct pskd_get_opt *opt, const char *url,
    const char *sha)
{
	if (opt->stream) {
		pskd_refuse_tty(1, "<stdout>");
		pskd_get_plan_stream(g, url, sha);
		opt->jobs = 1;
		opt->resume_only = 0;
	} else {
		pskd_get_fd_limit(opt->jobs);
		pskd_get_open_folder(g);
		pskd_get_plan_one(g, url, sha);
	}
	return pskd_get_run(g);
}

/*
 * A header's value may be a secret, and the argument vector is for any
 * user to read (/proc/PID/cmdline, ps): once copied, it is blanked there,
 * its name left.  --header-file leaves it no moment there at all.
 */
static void
blank_value(char *h)
{
	char *v = strchr(h, ':');

	if (v != NULL)
		memset(v + 1, ' ', strlen(v + 1));
}

/* "shards/" names files "shards/x", not "shards//x". */
static const char *
folder(const char *dir)
{
	char *d = pskd_xstrdup(dir);
	size_t n = strlen(d);

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	return d;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "progress", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "cache-dir", required_argument, NULL, 'd' },
		{ "header", required_argument, NULL, 'H' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "checkpoint-interval", required_argument, NULL, OPT_CKPT },
		{ "curl-config", required_argument, NULL, OPT_CURLCFG },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "header-file", required_argument, NULL, OPT_HFILE },
		{ "netrc", no_argument, NULL, OPT_NETRC },
		{ "netrc-file", required_argument, NULL, OPT_NETRCF },
		{ "resume-only", no_argument, NULL, OPT_RESUME },
		{ "retries", required_argument, NULL, OPT_RETRIES },
		{ "retry-wait", required_argument, NULL, OPT_WAIT },
		{ "stall-timeout", required_argument, NULL, OPT_STALL },
		{ "token-hosts", required_argument, NULL, OPT_HOSTS },
		{ "sha256", required_argument, NULL, 's' },
		{ "url", required_argument, NULL, 'u' },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "annotate", required_argument, NULL, OPT_ANNOTATE },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	static struct pskd_get_opt opt = {
		.dir = NULL,
		.jobs = 1,
		.retries = 5,
		.retry_wait = 1.0,
		.stall = 60.0,
		.ckpt_every = 2.0,
	};
	struct pskd_get g;
	const char *url = NULL, *sha = NULL, *annotated = NULL, *token;
	struct pskd_mode mode = { MODE_LIST, NULL };
	struct timespec ts;
	int c, creds = 0;

	pskd_init(argv, usage_text);
	pskd_get_auth_init(&opt.auth);
	(void)pskd_get_auth_token_hosts(&opt.auth, TOKEN_HOSTS);
	while ((c = getopt_long(argc, argv, "Pqd:H:j:s:u:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'P': pskd_progress_mode = 1; break;
		case 'q': pskd_progress_mode = -1; break;
		case 'd': opt.dir = optarg; break;
		case 'H':
			/* The value may be a secret: not in the message. */
			if (pskd_get_auth_header(&opt.auth, optarg) == -1) {
				pskd_warnx("-H: not a header pskd-get may send "
				    "(Name: value)");
				pskd_usage_error(NULL);
			}
			blank_value(optarg);
			creds = 1;
			break;
		case 'j':
			opt.jobs = (unsigned)pskd_optnum("-j", optarg, 1, 256,
			    0);
			break;
		case OPT_CKPT:
			opt.ckpt_every = pskd_optreal("--checkpoint-interval",
			    optarg, 0, 3600);
			break;
		case OPT_CURLCFG:
			pskd_get_auth_curl_config(&opt.auth, optarg);
			creds = 1;
			break;
		case OPT_FORCE: opt.force = 1; break;
		case OPT_HFILE:
			pskd_get_auth_header_file(&opt.auth, optarg);
			creds = 1;
			break;
		case OPT_NETRC: opt.auth.netrc = 1; creds = 1; break;
		case OPT_NETRCF: opt.auth.netrc_file = optarg; creds = 1; break;
		case OPT_RESUME: opt.resume_only = 1; break;
		case OPT_RETRIES:
			opt.retries = (unsigned)pskd_optnum("--retries", optarg,
			    0, 1000, 0);
			break;
		case OPT_WAIT:
			opt.retry_wait = pskd_optreal("--retry-wait", optarg, 0,
			    600);
			break;
		case OPT_STALL:
			opt.stall = pskd_optreal("--stall-timeout", optarg, 0,
			    86400);
			if (opt.stall < 0.01)
				opt.stall = 0.01;
			break;
		case OPT_HOSTS:
			if (pskd_get_auth_token_hosts(&opt.auth,
			    optarg) == -1) {
				pskd_warnx("--token-hosts: '%s' is not a list "
				    "of host names", optarg);
				pskd_usage_error(NULL);
			}
			break;
		case 's': sha = optarg; break;
		case 'u':
			url = optarg;
			pskd_mode_set(&mode, MODE_URL, "-u");
			break;
		case OPT_VERIFY:
			pskd_mode_set(&mode, MODE_VERIFY, "--verify");
			break;
		case OPT_ANNOTATE:
			annotated = optarg;
			pskd_mode_set(&mode, MODE_ANNOTATE, "--annotate");
			break;
		case OPT_HELP: help(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	check_usage((enum mode)mode.mode, argc, &opt, sha, url);
	if (creds && (mode.mode == MODE_VERIFY || mode.mode == MODE_ANNOTATE)) {
		pskd_warnx("%s does not download: no -H, --header-file, "
		    "--netrc or --curl-config", mode.flag);
		pskd_usage_error(NULL);
	}
	/* Only for downloads: a stray HF_TOKEN must not stop --verify. */
	if ((mode.mode == MODE_LIST || mode.mode == MODE_URL) &&
	    (token = getenv("HF_TOKEN")) != NULL && *token != '\0' &&
	    pskd_get_auth_token(&opt.auth, token) == -1) {
		pskd_warnx("HF_TOKEN: not a token pskd-get may send");
		pskd_usage_error(NULL);
	}
	opt.stream = url != NULL && opt.dir == NULL;
	opt.dir = opt.dir ? folder(opt.dir) : ".";
	clock_gettime(CLOCK_REALTIME, &ts);
	srandom((unsigned)(ts.tv_nsec ^ getpid()));
	pskd_get_init(&g, &opt);
	switch (mode.mode) {
	case MODE_LIST: return get_lists(&g, argc, argv);
	case MODE_URL: return get_url(&g, &opt, url, sha);
	case MODE_VERIFY: return pskd_get_verify(opt.dir);
	case MODE_ANNOTATE:
		return pskd_get_annotate(opt.dir, annotated, argc, argv);
	}
	return PSKD_EXIT_USAGE;
}
