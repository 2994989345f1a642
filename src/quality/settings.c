/*
 * settings.c - every threshold and switch of the rule sets by name
 * (--set NAME=VALUE), with datatrove's defaults: GopherQualityFilter,
 * GopherRepetitionFilter, C4QualityFilter and FineWebQualityFilter for
 * pskd-filter, PIIFormatter for pskd-redact.  A threshold is a number or
 * "off"; a switch 1 or 0 (true, false); a list of words is comma-separated.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quality/quality.h"

enum kind { K_REAL, K_COUNT, K_BOOL, K_WORDS, K_CHARS };

struct setting {
	const char	*name;
	enum kind	 kind;
	size_t		 off;
	int		 which;
};

#define F(field)	offsetof(struct q_settings, field)
#define QF	Q_SET_FILTER
#define QR	Q_SET_REDACT

static const struct setting table[] = {
	{ "gopher.min_doc_words", K_COUNT, F(min_doc_words), QF },
	{ "gopher.max_doc_words", K_COUNT, F(max_doc_words), QF },
	{ "gopher.min_avg_word_length", K_REAL, F(min_avg_word_length), QF },
	{ "gopher.max_avg_word_length", K_REAL, F(max_avg_word_length), QF },
	{ "gopher.max_symbol_word_ratio", K_REAL, F(max_symbol_word_ratio), QF },
	{ "gopher.max_bullet_lines_ratio", K_REAL, F(max_bullet_lines_ratio),
	    QF },
	{ "gopher.max_ellipsis_lines_ratio", K_REAL,
	    F(max_ellipsis_lines_ratio), QF },
	{ "gopher.max_non_alpha_words_ratio", K_REAL,
	    F(max_non_alpha_words_ratio), QF },
	{ "gopher.min_stop_words", K_COUNT, F(min_stop_words), QF },
	{ "gopher.stop_words", K_WORDS, F(stop_words), QF },
	{ "repetition.dup_line_frac", K_REAL, F(dup_line_frac), QF },
	{ "repetition.dup_para_frac", K_REAL, F(dup_para_frac), QF },
	{ "repetition.dup_line_char_frac", K_REAL, F(dup_line_char_frac), QF },
	{ "repetition.dup_para_char_frac", K_REAL, F(dup_para_char_frac), QF },
	/* repetition.top_N_gram and .duplicated_N_n_grams: see ngram_name */
	{ "c4.split_paragraph", K_BOOL, F(split_paragraph), QF },
	{ "c4.remove_citations", K_BOOL, F(remove_citations), QF },
	{ "c4.filter_no_terminal_punct", K_BOOL, F(filter_no_terminal_punct),
	    QF },
	{ "c4.min_num_sentences", K_COUNT, F(min_num_sentences), QF },
	{ "c4.min_words_per_line", K_COUNT, F(min_words_per_line), QF },
	{ "c4.max_word_length", K_COUNT, F(max_word_length), QF },
	{ "c4.filter_lorem_ipsum", K_BOOL, F(filter_lorem_ipsum), QF },
	{ "c4.filter_javascript", K_BOOL, F(filter_javascript), QF },
	{ "c4.filter_curly_bracket", K_BOOL, F(filter_curly_bracket), QF },
	{ "c4.filter_policy", K_BOOL, F(filter_policy), QF },
	{ "fineweb.line_punct_thr", K_REAL, F(line_punct_thr), QF },
	{ "fineweb.line_punct_exclude_zero", K_BOOL,
	    F(line_punct_exclude_zero), QF },
	{ "fineweb.stop_chars", K_CHARS, 0, QF },
	{ "fineweb.short_line_thr", K_REAL, F(short_line_thr), QF },
	{ "fineweb.short_line_length", K_COUNT, F(short_line_length), QF },
	{ "fineweb.char_duplicates_ratio", K_REAL, F(char_duplicates_ratio),
	    QF },
	{ "fineweb.new_line_ratio", K_REAL, F(new_line_ratio), QF },
	{ "remove_emails", K_BOOL, F(remove_emails), QR },
	{ "remove_ips", K_BOOL, F(remove_ips), QR },
	{ "only_remove_public_ips", K_BOOL, F(only_remove_public_ips), QR },
	{ "email_replacement", K_WORDS, F(email_replacement), QR },
	{ "ip_replacement", K_WORDS, F(ip_replacement), QR },
};

static const char default_stop_words[] = "the,be,to,of,and,that,have,with";
static const char default_emails[] =
    "email@example.com,firstname.lastname@example.org";
/* Random addresses that did not answer a ping when datatrove chose them. */
static const char default_ips[] = "22.214.171.124,126.96.36.199,"
    "188.8.131.52,184.108.40.206,220.127.116.11,18.104.22.168";

/* A comma-separated list into w; -1 for invalid UTF-8. */
static int
words_set(struct q_words *w, const char *list)
{
	size_t n = 1, len = strlen(list), i;
	char *p;

	if (pskd_utf8_check((const unsigned char *)list, len) != len)
		return -1;
	free(w->v);
	free(w->mem);
	w->mem = pskd_xstrdup(list);
	for (i = 0; i < len; i++)
		n += list[i] == ',';
	w->v = pskd_xcalloc(n, sizeof(*w->v));
	w->n = 0;
	if (len == 0)
		return 0;
	for (p = w->mem; ; p++) {
		w->v[w->n++] = p;
		if ((p = strchr(p, ',')) == NULL)
			break;
		*p = '\0';
	}
	return 0;
}

/* No empty word; an empty list only where it may be (stop words). */
static int
words_ok(const struct q_words *w, int may_be_empty)
{
	size_t k;

	if (w->n == 0)
		return may_be_empty;
	for (k = 0; k < w->n; k++)
		if (w->v[k][0] == '\0')
			return 0;
	return 1;
}

void
q_settings_default(struct q_settings *s)
{
	int n;

	memset(s, 0, sizeof(*s));
	s->min_doc_words = 50;
	s->max_doc_words = 100000;
	s->min_avg_word_length = 3;
	s->max_avg_word_length = 10;
	s->max_symbol_word_ratio = 0.1;
	s->max_bullet_lines_ratio = 0.9;
	s->max_ellipsis_lines_ratio = 0.3;
	s->max_non_alpha_words_ratio = 0.8;
	s->min_stop_words = 2;
	words_set(&s->stop_words, default_stop_words);
	s->dup_line_frac = 0.3;
	s->dup_para_frac = 0.3;
	s->dup_line_char_frac = 0.2;
	s->dup_para_char_frac = 0.2;
	for (n = 0; n <= Q_NGRAM_MAX; n++)
		s->top_ngram[n] = s->dup_ngram[n] = -1;
	s->top_ngram[2] = 0.2;
	s->top_ngram[3] = 0.18;
	s->top_ngram[4] = 0.16;
	s->dup_ngram[5] = 0.15;
	s->dup_ngram[6] = 0.14;
	s->dup_ngram[7] = 0.13;
	s->dup_ngram[8] = 0.12;
	s->dup_ngram[9] = 0.11;
	s->dup_ngram[10] = 0.10;
	s->split_paragraph = 1;
	s->remove_citations = 1;
	s->filter_no_terminal_punct = 1;
	s->min_num_sentences = 5;
	s->min_words_per_line = 3;
	s->max_word_length = 1000;
	s->filter_lorem_ipsum = 1;
	s->filter_javascript = 1;
	s->filter_curly_bracket = 1;
	s->filter_policy = 1;
	s->line_punct_thr = 0.12;
	s->line_punct_exclude_zero = 0;
	s->short_line_thr = 0.67;
	s->short_line_length = 30;
	s->char_duplicates_ratio = 0.01;
	s->new_line_ratio = 0.3;
	s->remove_emails = 1;
	s->remove_ips = 1;
	s->only_remove_public_ips = 1;
	words_set(&s->email_replacement, default_emails);
	words_set(&s->ip_replacement, default_ips);
}

void
q_settings_free(struct q_settings *s)
{
	struct q_words *w[] = { &s->stop_words, &s->email_replacement,
	    &s->ip_replacement };
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		free(w[i]->v);
		free(w[i]->mem);
	}
	free(s->stop_chars);
	memset(s, 0, sizeof(*s));
}

/* A number >= 0 (whole for counts) or "off" (-1); -1 if neither. */
static int
number(const char *v, int whole, double *out)
{
	char *end;
	double d;

	if (strcmp(v, "off") == 0) {
		*out = -1;
		return 0;
	}
	if (!((*v >= '0' && *v <= '9') || *v == '.'))
		return -1;
	errno = 0;
	d = strtod(v, &end);
	if (*end != '\0' || errno != 0 || !isfinite(d) || d < 0 ||
	    (whole && (d != floor(d) || d > 1e15)))
		return -1;
	*out = d;
	return 0;
}

static int
boolean(const char *v, int *out)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
		*out = 1;
	else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

/* "terminal" (datatrove's TERMINAL_PUNCTUATION), or the characters. */
static int
chars_set(struct q_settings *s, const char *v)
{
	size_t len = strlen(v), i, k;
	uint32_t c;

	free(s->stop_chars);
	s->stop_chars = NULL;
	s->nstop_chars = 0;
	if (strcmp(v, "terminal") == 0)
		return 0;
	if (pskd_utf8_check((const unsigned char *)v, len) != len || len == 0)
		return -1;
	s->stop_chars = pskd_xcalloc(len, sizeof(*s->stop_chars));
	for (i = 0; i < len; i += k) {
		k = pskd_utf8_decode((const unsigned char *)v + i, len - i, &c);
		s->stop_chars[s->nstop_chars++] = c;
	}
	return 0;
}

/* repetition.top_N_gram, repetition.duplicated_N_n_grams: the slot. */
static double *
ngram_setting(struct q_settings *s, const char *name, size_t len)
{
	char buf[64];
	int n;

	for (n = 1; n <= Q_NGRAM_MAX; n++) {
		snprintf(buf, sizeof(buf), "repetition.top_%d_gram", n);
		if (strlen(buf) == len && memcmp(buf, name, len) == 0)
			return &s->top_ngram[n];
		snprintf(buf, sizeof(buf), "repetition.duplicated_%d_n_grams", n);
		if (strlen(buf) == len && memcmp(buf, name, len) == 0)
			return &s->dup_ngram[n];
	}
	return NULL;
}

int
q_settings_set(struct q_settings *s, int which, const char *arg,
    struct pskd_error *e)
{
	const char *eq = strchr(arg, '='), *v;
	const struct setting *t = NULL;
	size_t len, i;
	double *ng = NULL;
	char *base = (char *)s;
	int rc = 0;

	if (eq == NULL) {
		pskd_error_set(e, 0, "'%s' is not NAME=VALUE", arg);
		return -1;
	}
	len = (size_t)(eq - arg);
	v = eq + 1;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if ((table[i].which & which) && strlen(table[i].name) == len &&
		    memcmp(table[i].name, arg, len) == 0)
			t = &table[i];
	if (t == NULL && (which & Q_SET_FILTER))
		ng = ngram_setting(s, arg, len);
	if (t == NULL && ng == NULL) {
		pskd_error_set(e, 0, "unknown setting '%.*s'", (int)len, arg);
		return -1;
	}
	if (ng != NULL) {
		if (number(v, 0, ng) == -1)
			goto bad;
		return 0;
	}
	switch (t->kind) {
	case K_REAL:
	case K_COUNT:
		rc = number(v, t->kind == K_COUNT, (double *)(base + t->off));
		break;
	case K_BOOL:
		rc = boolean(v, (int *)(base + t->off));
		break;
	case K_WORDS:
		rc = words_set((struct q_words *)(base + t->off), v);
		if (rc == 0 && !words_ok((struct q_words *)(base + t->off),
		    t->off == F(stop_words)))
			rc = -1;
		break;
	case K_CHARS:
		rc = chars_set(s, v);
		break;
	}
	if (rc == 0)
		return 0;
bad:
	pskd_error_set(e, 0, "%.*s: '%s' is not %s", (int)len, arg, v,
	    ng || t->kind == K_REAL ? "a number or off" :
	    t->kind == K_COUNT ? "a whole number or off" :
	    t->kind == K_BOOL ? "1, 0, true or false" :
	    t->kind == K_CHARS ? "\"terminal\" or characters" :
	    t->off == F(stop_words) ? "a list of words" :
	    "a list of replacements");
	return -1;
}

static void
print_number(struct pskd_writer *w, const char *lang, const char *name,
    double d)
{
	char buf[40];

	if (d < 0)
		snprintf(buf, sizeof(buf), "off");
	else
		q_format_number(buf, sizeof(buf), d);
	pskd_writer_printf(w, "%s%s%s=%s\n", lang ? lang : "", lang ? ":" : "",
	    name, buf);
}

void
q_settings_print(const struct q_settings *s, int which, struct pskd_writer *w,
    const char *lang)
{
	const char *base = (const char *)s;
	const struct q_words *ws;
	unsigned char u[4];
	size_t i, k;
	char name[64];
	int n;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct setting *t = &table[i];

		if (!(t->which & which))
			continue;
		if (lang && t->kind != K_REAL && t->kind != K_COUNT)
			pskd_writer_printf(w, "%s:", lang);
		switch (t->kind) {
		case K_REAL:
		case K_COUNT:
			print_number(w, lang, t->name,
			    *(const double *)(base + t->off));
			break;
		case K_BOOL:
			pskd_writer_printf(w, "%s=%d\n", t->name,
			    *(const int *)(base + t->off));
			break;
		case K_WORDS:
			ws = (const struct q_words *)(base + t->off);
			pskd_writer_printf(w, "%s=", t->name);
			for (k = 0; k < ws->n; k++)
				pskd_writer_printf(w, "%s%s", k ? "," : "",
				    ws->v[k]);
			pskd_writer_putc(w, '\n');
			break;
		case K_CHARS:
			pskd_writer_printf(w, "%s=", t->name);
			if (s->stop_chars == NULL)
				pskd_writer_puts(w, "terminal");
			for (k = 0; k < s->nstop_chars; k++)
				pskd_writer_write(w, u,
				    pskd_utf8_encode(s->stop_chars[k], u));
			pskd_writer_putc(w, '\n');
			break;
		}
		if (strcmp(t->name, "repetition.dup_para_char_frac") != 0)
			continue;
		for (n = 1; n <= Q_NGRAM_MAX; n++)
			if (s->top_ngram[n] >= 0) {
				snprintf(name, sizeof(name),
				    "repetition.top_%d_gram", n);
				print_number(w, lang, name, s->top_ngram[n]);
			}
		for (n = 1; n <= Q_NGRAM_MAX; n++)
			if (s->dup_ngram[n] >= 0) {
				snprintf(name, sizeof(name),
				    "repetition.duplicated_%d_n_grams", n);
				print_number(w, lang, name, s->dup_ngram[n]);
			}
	}
}
