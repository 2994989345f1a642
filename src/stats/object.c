/*
 * object.c - one object of statistics: its kinds, merging two of them into
 * the object of the two streams one after the other, and its JSON form,
 * written and read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pskd.h"
#include "stats/stats.h"
#include "tok/tokinfo.h"

static const char *const kind_names[STATS_NKINDS] = {
	"documents", "verdicts", "shingles", "signatures", "tokens",
	"windows", "samples"
};

const char *
stats_kind_name(enum stats_kind k)
{
	return kind_names[k];
}

int
stats_kind_parse(const char *name, enum stats_kind *k)
{
	unsigned i;

	for (i = 0; i < STATS_NKINDS; i++)
		if (strcmp(name, kind_names[i]) == 0) {
			*k = (enum stats_kind)i;
			return 0;
		}
	return -1;
}

uint64_t
stats_default_eot(uint64_t vocab)
{
	struct pskd_tokinfo ti;
	uint64_t eot;

	/* pskd-tok's rule, from its family: by V alone. */
	pskd_tokinfo_of_size(&ti, vocab);
	eot = ti.eot;
	pskd_tokinfo_free(&ti);
	return eot;
}

void
stats_init(struct stats *s, enum stats_kind kind)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	stats_dist_init(&s->text_bytes, STATS_LOG);
	stats_dist_init(&s->text_chars, STATS_LOG);
	stats_dist_init(&s->lscore, STATS_PERCENT);
	stats_dist_init(&s->est, STATS_PERCENT);
	stats_dist_init(&s->line_bytes, STATS_LOG);
	stats_dist_init(&s->values, STATS_LOG);
	stats_dist_init(&s->inner, STATS_LOG);
	stats_dist_init(&s->eot_per_window, STATS_LOG);
	stats_dist_init(&s->segments, STATS_LOG);
}

void
stats_free(struct stats *s)
{
	free(s->label);
	free(s->ids);
	free(s->type);
	stats_tally_free(&s->langs);
	stats_tally_free(&s->drops);
	s->label = NULL;
	s->ids = NULL;
	s->type = NULL;
}

void
stats_copy(struct stats *to, const struct stats *from)
{
	*to = *from;
	to->label = NULL;
	to->type = from->type ? pskd_xstrdup(from->type) : NULL;
	if (from->ids != NULL) {
		to->ids = pskd_xreallocarray(NULL, (size_t)from->vocab,
		    sizeof(*to->ids));
		memcpy(to->ids, from->ids, (size_t)from->vocab *
		    sizeof(*to->ids));
	}
	stats_tally_copy(&to->langs, &from->langs);
	stats_tally_copy(&to->drops, &from->drops);
}

int
stats_verdict_word(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '_' || s[i] == '.'))
			return 0;
	return n > 0;
}

void
stats_set_label(struct stats *s, const char *label)
{
	free(s->label);
	s->label = label ? pskd_xstrdup(label) : NULL;
}

void
stats_want_ids(struct stats *s)
{
	if (s->vocab <= STATS_MAX_COUNTED && s->ids == NULL)
		s->ids = pskd_xcalloc(s->vocab ? (size_t)s->vocab : 1,
		    sizeof(*s->ids));
}

void
stats_token_docs(const struct stats *s, struct stats_dist *out)
{
	*out = s->inner;
	if (s->neot > 0 || s->head > 0)
		stats_dist_add(out, s->head);
	if (s->neot > 0 && s->tail > 0)
		stats_dist_add(out, s->tail);
}

static int
differ(char *err, size_t errsize, const char *what, uint64_t a, uint64_t b)
{
	snprintf(err, errsize, "cannot merge: %s %llu differs from %llu",
	    what, (unsigned long long)b, (unsigned long long)a);
	return -1;
}

static int
names(char *err, size_t errsize, const char *what)
{
	snprintf(err, errsize, "cannot merge: more than %d %s, or a count "
	    "past 2^64-1", STATS_NAMES_MAX, what);
	return -1;
}

/* a += b; nonzero when it overflows. */
static int
add(uint64_t *a, uint64_t b)
{
	return __builtin_add_overflow(*a, b, a);
}

/* The documents of b's token stream after a's: a tail meets a head. */
static int
merge_token_docs(struct stats *a, const struct stats *b)
{
	uint64_t joined = a->tail;
	int over = 0;

	if (a->neot == 0) {
		over |= add(&a->head, b->head);
		a->tail = b->tail;
		a->inner = b->inner;
	} else if (b->neot == 0) {
		over |= add(&a->tail, b->head);
	} else {
		over |= add(&joined, b->head);
		stats_dist_add(&a->inner, joined);
		over |= a->inner.count == 0 || a->inner.sum < joined;
		over |= stats_dist_merge(&a->inner, &b->inner);
		a->tail = b->tail;
	}
	return over | add(&a->neot, b->neot);
}

int
stats_merge(struct stats *a, const struct stats *b, char *err, size_t errsize)
{
	size_t i;
	int over = 0;

	if (a->kind != b->kind) {
		snprintf(err, errsize, "cannot merge %s into %s",
		    kind_names[b->kind], kind_names[a->kind]);
		return -1;
	}
	switch (a->kind) {
	case STATS_DOCUMENTS:
		over |= stats_dist_merge(&a->text_bytes, &b->text_bytes);
		over |= stats_dist_merge(&a->text_chars, &b->text_chars);
		over |= stats_dist_merge(&a->lscore, &b->lscore);
		if (stats_tally_merge(&a->langs, &b->langs) == -1)
			return names(err, errsize, "languages");
		break;
	case STATS_VERDICTS:
		over |= add(&a->keep, b->keep);
		over |= add(&a->empty, b->empty);
		over |= add(&a->neardup, b->neardup);
		over |= add(&a->rejected, b->rejected);
		over |= add(&a->trimmed, b->trimmed);
		over |= add(&a->trim_bytes, b->trim_bytes);
		over |= add(&a->trim_units, b->trim_units);
		over |= stats_dist_merge(&a->est, &b->est);
		if (stats_tally_merge(&a->drops, &b->drops) == -1)
			return names(err, errsize, "verdicts");
		break;
	case STATS_SHINGLES:
	case STATS_SIGNATURES:
		if (a->unit != b->unit || a->width != b->width ||
		    a->norm != b->norm || a->k != b->k ||
		    a->family != b->family ||
		    a->shingle_seed != b->shingle_seed ||
		    a->minhash_seed != b->minhash_seed) {
			snprintf(err, errsize, "cannot merge: the frame "
			    "streams' parameters differ");
			return -1;
		}
		over |= stats_dist_merge(&a->line_bytes, &b->line_bytes);
		over |= stats_dist_merge(&a->values, &b->values);
		break;
	case STATS_TOKENS:
		if (a->vocab != b->vocab)
			return differ(err, errsize, "vocabulary", a->vocab,
			    b->vocab);
		if (a->eot != b->eot)
			return differ(err, errsize, "end-of-text id", a->eot,
			    b->eot);
		if (stats_eff_merge(&a->eff, &b->eff, a->n, b->n, err,
		    errsize) == -1)
			return -1;
		over |= merge_token_docs(a, b);
		if (a->ids != NULL && b->ids != NULL)
			for (i = 0; i < a->vocab; i++)
				over |= add(&a->ids[i], b->ids[i]);
		break;
	case STATS_WINDOWS:
	case STATS_SAMPLES:
		if (strcmp(a->type, b->type) != 0) {
			snprintf(err, errsize, "cannot merge: type %s differs "
			    "from %s", b->type, a->type);
			return -1;
		}
		if (a->eot != b->eot)
			return differ(err, errsize, "end-of-text id", a->eot,
			    b->eot);
		over |= add(&a->samples, b->samples);
		over |= add(&a->shifted, b->shifted);
		over |= stats_dist_merge(&a->eot_per_window,
		    &b->eot_per_window);
		over |= add(&a->padded, b->padded);
		over |= stats_dist_merge(&a->segments, &b->segments);
		break;
	default:
		break;
	}
	over |= add(&a->n, b->n);
	over |= add(&a->bytes, b->bytes);
	if (over) {
		snprintf(err, errsize, "cannot merge: a count would pass "
		    "2^64-1");
		return -1;
	}
	return 0;
}

/* ---- JSON out ------------------------------------------------------------ */

static void
adds(struct pskd_buf *b, const char *s)
{
	pskd_buf_add(b, s, strlen(s));
}

static void
addu(struct pskd_buf *b, const char *key, uint64_t v)
{
	char t[96];
	int n;

	n = snprintf(t, sizeof(t), ",\"%s\":%llu", key, (unsigned long long)v);
	pskd_buf_add(b, t, (size_t)n);
}

static void
addstr(struct pskd_buf *b, const char *key, const char *s)
{
	pskd_buf_addc(b, ',');
	pskd_json_quote(b, (const unsigned char *)key, strlen(key));
	pskd_buf_addc(b, ':');
	if (s == NULL)
		adds(b, "null");
	else
		pskd_json_quote(b, (const unsigned char *)s, strlen(s));
}

static void
adddist(struct pskd_buf *b, const char *key, const struct stats_dist *d)
{
	pskd_buf_addc(b, ',');
	pskd_json_quote(b, (const unsigned char *)key, strlen(key));
	pskd_buf_addc(b, ':');
	stats_dist_json(b, d);
}

static void
addpair(struct pskd_buf *b, int first, uint64_t id, uint64_t n)
{
	char t[64];
	int len;

	len = snprintf(t, sizeof(t), "%s[%llu,%llu]", first ? "" : ",",
	    (unsigned long long)id, (unsigned long long)n);
	pskd_buf_add(b, t, (size_t)len);
}

/* Is id i before id j in the top list: more frequent, or as frequent and smaller. */
static int
before(const uint64_t *ids, uint32_t i, uint32_t j)
{
	return ids[i] > ids[j] || (ids[i] == ids[j] && i < j);
}

static const uint64_t *sort_ids;

static int
by_count(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;

	return before(sort_ids, i, j) ? -1 : i != j;
}

/*
 * The first k ids of the top list into order[], in order; returns how
 * many.  A short list (the default 20) in one pass, each id put in place
 * among those kept so far, most going past the last; a long one sorted.
 */
static size_t
top_ids(const uint64_t *ids, uint64_t vocab, uint32_t *order, size_t k)
{
	size_t n = 0, j;
	uint32_t i;

	if (k > 64) {
		for (i = 0; i < vocab; i++)
			if (ids[i] != 0)
				order[n++] = i;
		sort_ids = ids;
		qsort(order, n, sizeof(*order), by_count);
		return n < k ? n : k;
	}
	for (i = 0; i < vocab && k > 0; i++) {
		if (ids[i] == 0 || (n == k && !before(ids, i, order[n - 1])))
			continue;
		j = n < k ? n++ : n - 1;
		for (; j > 0 && before(ids, i, order[j - 1]); j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	return n;
}

static void
add_ids(struct pskd_buf *b, const struct stats *s, uint64_t top)
{
	uint32_t *order;
	size_t i, n, k;

	if (s->ids == NULL) {
		adds(b, ",\"top\":null,\"id_counts\":null");
		return;
	}
	k = top < s->vocab ? (size_t)top : (size_t)s->vocab;
	order = pskd_xreallocarray(NULL, k > 64 ? (size_t)s->vocab : k ? k : 1,
	    sizeof(*order));
	n = top_ids(s->ids, s->vocab, order, k);
	adds(b, ",\"top\":[");
	for (i = 0; i < n; i++)
		addpair(b, i == 0, order[i], s->ids[order[i]]);
	adds(b, "],\"id_counts\":[");
	for (i = 0, n = 0; i < s->vocab; i++)
		if (s->ids[i] != 0)
			addpair(b, n++ == 0, i, s->ids[i]);
	adds(b, "]");
	free(order);
}

static void
add_min_max(struct pskd_buf *b, const struct stats_dist *d)
{
	if (d->count == 0) {
		adds(b, ",\"inner_min\":null,\"inner_max\":null");
		return;
	}
	addu(b, "inner_min", d->min);
	addu(b, "inner_max", d->max);
}

static const char *
family_name(uint32_t f)
{
	return f == 1 ? "classic" : f == 2 ? "oph" : "none";
}

void
stats_json(struct pskd_buf *b, const struct stats *s, uint64_t top)
{
	struct stats_dist docs;

	adds(b, "{\"pskd_stats\":1");
	addstr(b, "kind", kind_names[s->kind]);
	addstr(b, "label", s->label);
	switch (s->kind) {
	case STATS_DOCUMENTS:
		addu(b, "documents", s->n);
		addu(b, "bytes", s->bytes);
		adddist(b, "text_bytes", &s->text_bytes);
		adddist(b, "text_chars", &s->text_chars);
		adds(b, ",\"languages\":");
		stats_tally_json(b, &s->langs);
		adddist(b, "language_score", &s->lscore);
		break;
	case STATS_VERDICTS:
		addu(b, "verdicts", s->n);
		addu(b, "bytes", s->bytes);
		addu(b, "keep", s->keep);
		addu(b, "empty", s->empty);
		addu(b, "near_duplicate", s->neardup);
		addu(b, "rejected", s->rejected);
		adddist(b, "estimates", &s->est);
		adds(b, ",\"drops\":");
		stats_tally_json(b, &s->drops);
		if (s->trimmed > 0) {
			addu(b, "trimmed", s->trimmed);
			addu(b, "trimmed_bytes", s->trim_bytes);
			addu(b, "trimmed_units", s->trim_units);
		}
		break;
	case STATS_SHINGLES:
	case STATS_SIGNATURES:
		addu(b, "documents", s->n);
		addu(b, "bytes", s->bytes);
		addstr(b, "unit", s->unit ? "characters" : "words");
		addu(b, "width", s->width);
		addu(b, "norm", s->norm);
		addu(b, "shingle_seed", s->shingle_seed);
		addu(b, "k", s->k);
		addstr(b, "family", family_name(s->family));
		addu(b, "minhash_seed", s->minhash_seed);
		adddist(b, "line_bytes", &s->line_bytes);
		adddist(b, "values", &s->values);
		break;
	case STATS_TOKENS:
		addu(b, "tokens", s->n);
		addu(b, "bytes", s->bytes);
		addu(b, "vocabulary", s->vocab);
		addu(b, "eot", s->eot);
		stats_token_docs(s, &docs);
		adddist(b, "documents", &docs);
		addu(b, "eots", s->neot);
		addu(b, "head", s->head);
		addu(b, "tail", s->tail);
		add_min_max(b, &s->inner);
		add_ids(b, s, top);
		stats_eff_json(b, &s->eff);
		break;
	case STATS_WINDOWS:
		addu(b, "windows", s->n);
		addu(b, "samples", s->samples);
		addu(b, "bytes", s->bytes);
		addstr(b, "type", s->type);
		addu(b, "vocabulary", s->vocab);
		addu(b, "seq", s->seq);
		addu(b, "eot", s->eot);
		addu(b, "tokens", s->n * s->seq);
		adddist(b, "eot_per_window", &s->eot_per_window);
		addu(b, "shifted", s->shifted);
		if (s->segs) {
			addu(b, "padded", s->padded);
			adddist(b, "segments", &s->segments);
		}
		break;
	case STATS_SAMPLES:
		addu(b, "samples", s->n);
		addu(b, "bytes", s->bytes);
		addstr(b, "type", s->type);
		addu(b, "sample_size", s->sample_size);
		break;
	default:
		break;
	}
	adds(b, "}\n");
}

/* ---- JSON in ------------------------------------------------------------- */

struct in {
	const struct jv	*v;
	char		*err;
	size_t		 errsize;
	int		 bad;
};

static uint64_t
getu(struct in *in, const char *key)
{
	uint64_t x = 0;

	if (!in->bad && jv_u64(jv_member(in->v, key), &x) == -1) {
		snprintf(in->err, in->errsize, "no whole number \"%s\"", key);
		in->bad = 1;
	}
	return x;
}

static uint32_t
getu32(struct in *in, const char *key)
{
	uint64_t x = getu(in, key);

	if (!in->bad && x > UINT32_MAX) {
		snprintf(in->err, in->errsize, "\"%s\" out of range", key);
		in->bad = 1;
	}
	return (uint32_t)x;
}

static const char *
gets(struct in *in, const char *key)
{
	const struct jv *m = jv_member(in->v, key);

	if (!in->bad && (m == NULL || m->type != JV_STRING)) {
		snprintf(in->err, in->errsize, "no string \"%s\"", key);
		in->bad = 1;
	}
	return in->bad ? "" : m->str;
}

static void
getdist(struct in *in, const char *key, struct stats_dist *d)
{
	char msg[200];

	if (!in->bad && stats_dist_parse(d, jv_member(in->v, key), d->scale,
	    msg, sizeof(msg)) == -1) {
		snprintf(in->err, in->errsize, "\"%s\": %s", key, msg);
		in->bad = 1;
	}
}

/* An optional member of counts by name (absent: none). */
static void
gettally(struct in *in, const char *key, struct stats_tally *t,
    int (*ok)(const char *, size_t))
{
	char msg[200];

	if (!in->bad && stats_tally_parse(t, jv_member(in->v, key), ok, msg,
	    sizeof(msg)) == -1) {
		snprintf(in->err, in->errsize, "\"%s\": %s", key, msg);
		in->bad = 1;
	}
}

static int
any_name(const char *s, size_t n)
{
	(void)s;
	(void)n;
	return 1;
}

static int
fail(struct in *in, const char *msg)
{
	if (!in->bad)
		snprintf(in->err, in->errsize, "%s", msg);
	in->bad = 1;
	return -1;
}

static int
get_ids(struct in *in, struct stats *s)
{
	const struct jv *c = jv_member(in->v, "id_counts"), *e;
	uint64_t id, n, total = 0, prev = 0;
	size_t i;

	if (c != NULL && c->type == JV_NULL && s->vocab > STATS_MAX_COUNTED)
		return 0;
	if (c == NULL || c->type != JV_ARRAY || s->vocab > STATS_MAX_COUNTED)
		return fail(in, "\"id_counts\" is not the counts of the "
		    "vocabulary");
	stats_want_ids(s);
	for (i = 0; i < c->n; i++) {
		e = &c->items[i];
		if (e->type != JV_ARRAY || e->n != 2 ||
		    jv_u64(&e->items[0], &id) == -1 ||
		    jv_u64(&e->items[1], &n) == -1 || n == 0 ||
		    id >= s->vocab || (i > 0 && id <= prev) ||
		    n > UINT64_MAX - total)
			return fail(in, "\"id_counts\" is not [id, count] "
			    "pairs of ascending ids");
		s->ids[id] = n;
		total += n;
		prev = id;
	}
	if (total != s->n || (s->eot < s->vocab && s->ids[s->eot] != s->neot))
		return fail(in, "\"id_counts\" do not add up to the tokens");
	return 0;
}

/* The inner documents of a token stream from those it shows. */
static int
get_token_docs(struct in *in, struct stats *s)
{
	struct stats_dist *d = &s->inner;
	const struct jv *lo = jv_member(in->v, "inner_min");
	const struct jv *hi = jv_member(in->v, "inner_max");
	uint64_t edges[2], total;
	unsigned k, ne = 0;

	getdist(in, "documents", d);
	s->neot = getu(in, "eots");
	s->head = getu(in, "head");
	s->tail = getu(in, "tail");
	if (in->bad)
		return -1;
	if (s->neot > 0 || s->head > 0)
		edges[ne++] = s->head;
	if (s->neot > 0 && s->tail > 0)
		edges[ne++] = s->tail;
	if (s->neot == 0 && s->tail != 0)
		return fail(in, "a tail without an end-of-text id");
	for (k = 0; k < ne; k++) {
		if (d->count == 0 || d->bin[stats_bin(STATS_LOG, edges[k])] ==
		    0 || d->sum < edges[k])
			return fail(in, "\"documents\" do not hold the head "
			    "and the tail");
		stats_dist_remove(d, edges[k]);
	}
	if (d->count != (s->neot > 0 ? s->neot - 1 : 0))
		return fail(in, "\"documents\" are not one more than \"eots\"");
	total = d->sum;
	if (add(&total, s->head) | add(&total, s->tail) |
	    add(&total, s->neot) || total != s->n || s->eot >= s->vocab)
		return fail(in, "\"documents\" do not add up to the tokens");
	if (d->count == 0)
		return lo && hi && lo->type == JV_NULL &&
		    hi->type == JV_NULL ? 0 : fail(in, "inner_min or "
		    "inner_max is not null");
	if (jv_u64(lo, &d->min) == -1 || jv_u64(hi, &d->max) == -1 ||
	    stats_dist_check(d) == -1)
		return fail(in, "inner_min or inner_max does not fit the "
		    "documents");
	return 0;
}

int
stats_parse(struct stats *s, const struct jv *v, char *err, size_t errsize)
{
	struct in in = { v, err, errsize, 0 };
	const struct jv *label;
	enum stats_kind kind;

	stats_init(s, STATS_DOCUMENTS);
	if (v->type != JV_OBJECT || getu(&in, "pskd_stats") != 1)
		return fail(&in, "not a pskd-stats object of version 1");
	if (stats_kind_parse(gets(&in, "kind"), &kind) == -1)
		return fail(&in, "unknown kind");
	s->kind = kind;
	label = jv_member(v, "label");
	if (label == NULL || (label->type != JV_NULL &&
	    label->type != JV_STRING))
		return fail(&in, "no label");
	if (label->type == JV_STRING)
		stats_set_label(s, label->str);
	s->bytes = getu(&in, "bytes");
	switch (kind) {
	case STATS_DOCUMENTS:
		s->n = getu(&in, "documents");
		getdist(&in, "text_bytes", &s->text_bytes);
		getdist(&in, "text_chars", &s->text_chars);
		if (!in.bad && (s->text_bytes.count != s->n ||
		    s->text_chars.count != s->n))
			return fail(&in, "distributions that do not count "
			    "the documents");
		if (jv_member(v, "language_score") != NULL)
			getdist(&in, "language_score", &s->lscore);
		gettally(&in, "languages", &s->langs, any_name);
		if (!in.bad && (stats_tally_sum(&s->langs) > s->n ||
		    s->lscore.count > s->n))
			return fail(&in, "languages or scores that are more "
			    "than the documents");
		break;
	case STATS_VERDICTS:
		s->n = getu(&in, "verdicts");
		s->keep = getu(&in, "keep");
		s->empty = getu(&in, "empty");
		s->neardup = getu(&in, "near_duplicate");
		s->rejected = getu(&in, "rejected");
		getdist(&in, "estimates", &s->est);
		gettally(&in, "drops", &s->drops, stats_verdict_word);
		if (jv_member(v, "trimmed") != NULL) {
			s->trimmed = getu(&in, "trimmed");
			s->trim_bytes = getu(&in, "trimmed_bytes");
			s->trim_units = getu(&in, "trimmed_units");
			if (!in.bad && (s->trimmed == 0 ||
			    s->trim_units < s->trimmed))
				return fail(&in, "trimmed documents without "
				    "the units cut");
		}
		if (!in.bad && (s->keep + s->empty + s->trimmed + s->neardup +
		    s->rejected + stats_tally_sum(&s->drops) != s->n ||
		    s->est.count != s->neardup))
			return fail(&in, "verdicts that do not add up");
		break;
	case STATS_SHINGLES:
	case STATS_SIGNATURES:
		s->n = getu(&in, "documents");
		s->unit = strcmp(gets(&in, "unit"), "characters") == 0;
		if (!s->unit && strcmp(gets(&in, "unit"), "words") != 0)
			return fail(&in, "unit is not words or characters");
		s->width = getu32(&in, "width");
		s->norm = getu32(&in, "norm");
		s->shingle_seed = getu(&in, "shingle_seed");
		s->k = getu32(&in, "k");
		s->family = strcmp(gets(&in, "family"), "classic") == 0 ? 1 :
		    strcmp(gets(&in, "family"), "oph") == 0 ? 2 : 0;
		if (s->family == 0 && strcmp(gets(&in, "family"), "none") != 0)
			return fail(&in, "family is not none, classic or oph");
		s->minhash_seed = getu(&in, "minhash_seed");
		getdist(&in, "line_bytes", &s->line_bytes);
		getdist(&in, "values", &s->values);
		if (!in.bad && (s->line_bytes.count != s->n ||
		    s->values.count != s->n))
			return fail(&in, "distributions that do not count "
			    "the documents");
		break;
	case STATS_TOKENS:
		s->n = getu(&in, "tokens");
		s->vocab = getu(&in, "vocabulary");
		s->eot = getu(&in, "eot");
		if (in.bad || get_token_docs(&in, s) == -1 ||
		    get_ids(&in, s) == -1 ||
		    stats_eff_parse(&s->eff, v, s->n, err, errsize) == -1)
			return -1;
		break;
	case STATS_WINDOWS:
		s->n = getu(&in, "windows");
		s->samples = getu(&in, "samples");
		s->type = pskd_xstrdup(gets(&in, "type"));
		s->vocab = getu(&in, "vocabulary");
		s->seq = getu(&in, "seq");
		s->eot = getu(&in, "eot");
		s->shifted = getu(&in, "shifted");
		getdist(&in, "eot_per_window", &s->eot_per_window);
		if ((s->segs = jv_member(v, "segments") != NULL)) {
			s->padded = getu(&in, "padded");
			getdist(&in, "segments", &s->segments);
		}
		if (!in.bad && (s->eot_per_window.count != s->n ||
		    s->shifted > s->n || (s->segs &&
		    s->segments.count != s->n)))
			return fail(&in, "windows that do not add up");
		break;
	case STATS_SAMPLES:
		s->n = getu(&in, "samples");
		s->type = pskd_xstrdup(gets(&in, "type"));
		s->sample_size = getu(&in, "sample_size");
		break;
	default:
		break;
	}
	return in.bad ? -1 : 0;
}

int
stats_read(struct stats *s, const unsigned char *line, size_t len, char *err,
    size_t errsize)
{
	struct jv v;
	char msg[200];
	size_t off;
	int rc;

	if (jv_parse(&v, line, len, msg, sizeof(msg), &off) == -1) {
		stats_init(s, STATS_DOCUMENTS);
		snprintf(err, errsize, "%s at byte %zu", msg, off);
		return -1;
	}
	rc = stats_parse(s, &v, err, errsize);
	jv_free(&v);
	return rc;
}
