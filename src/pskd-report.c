/*
 * pskd-report - a build on one page: the manifests and a folder of
 * pskd-stats objects to a self-contained HTML page with SVG charts and a
 * table, and the same numbers as JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/report.h"

static const char usage_text[] =
    "pskd-report [-j file] [-o file] [-t title] [-w file] manifest ... dir";

enum { OPT_HELP = 256, OPT_VERSION };

static struct {
	const char	*json;		/* -j */
	const char	*html;		/* -o */
	const char	*title;		/* -t */
	const char	*window;	/* -w */
} opt = {
	.title = "pskd build report",
};

static void
usage(void)
{
	printf("usage: %s\n", usage_text);
	printf("  -j, --json FILE     write the numbers as JSON to FILE\n"
	    "                      (default: the -o file with .json for "
	    ".html)\n"
	    "  -o, --output FILE   write the page to FILE (default: the "
	    "standard output)\n"
	    "  -t, --title TEXT    the page's title\n"
	    "  -w, --window FILE   the decoded window to show, as text\n"
	    "      --help          this text\n"
	    "      --version       the version\n");
	exit(0);
}

/* FILE.html -> FILE.json; anything else gets .json added. */
static char *
json_name(const char *html)
{
	size_t len = strlen(html);
	char *s = pskd_xmalloc(len + 6);

	memcpy(s, html, len + 1);
	if (len > 5 && strcmp(html + len - 5, ".html") == 0)
		len -= 5;
	memcpy(s + len, ".json", 6);
	return s;
}

/* Open path (NULL: standard output) and write all of b there. */
static void
write_out(struct pskd_output *o, struct pskd_writer *w, const char *path,
    const struct pskd_buf *b)
{
	pskd_output_writer(o, w, path, 0);
	pskd_writer_write(w, b->p, b->len);
	if (pskd_writer_flush(w) == -1) {
		errno = w->error;
		pskd_err(PSKD_EXIT_DATA, "%s", o->name);
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "window", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct pskd_buf html = { NULL, 0, 0 }, json = { NULL, 0, 0 };
	struct pskd_output jo, ho;
	struct pskd_writer jw, hw;
	struct report rp;
	char *jpath = NULL;
	int c;

	pskd_init(argv, usage_text);
	while ((c = getopt_long(argc, argv, "j:o:t:w:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'j': opt.json = optarg; break;
		case 'o': opt.html = optarg; break;
		case 't': opt.title = optarg; break;
		case 'w': opt.window = optarg; break;
		case OPT_HELP: usage(); break;
		case OPT_VERSION: pskd_version();
		default: pskd_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		pskd_usage_error(NULL);

	memset(&rp, 0, sizeof(rp));
	rp.title = opt.title;
	for (c = 0; c < argc - 1; c++)
		report_load_manifest(&rp, argv[c]);
	report_load_dir(&rp, argv[argc - 1]);
	if (opt.window != NULL)
		report_load_window(&rp, opt.window);
	report_merge_all(&rp);
	report_html(&html, &rp);
	report_json(&json, &rp);

	if (opt.json != NULL)
		jpath = pskd_xstrdup(opt.json);
	else if (opt.html != NULL)
		jpath = json_name(opt.html);
	/* Both written before either is renamed into place. */
	if (jpath != NULL)
		write_out(&jo, &jw, jpath, &json);
	write_out(&ho, &hw, opt.html, &html);
	if (jpath != NULL)
		pskd_output_close(&jo, &jw);
	pskd_output_close(&ho, &hw);
	free(jpath);
	return 0;
}
