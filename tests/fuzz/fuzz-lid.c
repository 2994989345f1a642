/*
 * fuzz-lid.c - pskd-lid's document path on arbitrary bytes: JSON Lines
 * documents read, their text turned into a fastText model's rows (the
 * token cache and fastText's getLine must give the same predictions),
 * and the members written into the line (src/lid/members.c): the line
 * that comes out is JSON whose members read back as the values written,
 * and whose bytes before the first member written are the input's.  The
 * model is built here: a small supervised one with words, character
 * n-grams and word bigrams, hierarchical softmax (input's first byte
 * even) or softmax (odd).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "lid/lid.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define DIM	4
#define BUCKET	64

static const char *const words[] = { "</s>", "the", "a", "der", "\xc3\xa9",
    "cat" };
static const char *const labels[] = { "__label__en", "__label__de",
    "__label__x\"y" };

static void
put32(struct pskd_buf *b, uint32_t v)
{
	unsigned char p[4];

	pskd_put_le32(p, v);
	pskd_buf_add(b, p, 4);
}

static void
put64(struct pskd_buf *b, uint64_t v)
{
	unsigned char p[8];

	pskd_put_le64(p, v);
	pskd_buf_add(b, p, 8);
}

static void
putf(struct pskd_buf *b, float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	put32(b, u);
}

static void
entry(struct pskd_buf *b, const char *s, uint64_t count, unsigned char type)
{
	pskd_buf_add(b, s, strlen(s) + 1);
	put64(b, count);
	pskd_buf_addc(b, type);
}

/* A fastText model file (format version 12), as FastText::saveModel. */
static void
build(struct pskd_buf *b, uint32_t loss)
{
	const uint32_t args[12] = { DIM, 5, 5, 1, 5, 2, loss, 3, BUCKET, 2,
	    4, 100 };
	double t = 1e-4;
	uint64_t tb;
	size_t i, nw = sizeof(words) / sizeof(words[0]);
	size_t nl = sizeof(labels) / sizeof(labels[0]);

	put32(b, 793712314);
	put32(b, 12);
	for (i = 0; i < 12; i++)
		put32(b, args[i]);
	memcpy(&tb, &t, 8);
	put64(b, tb);
	put32(b, (uint32_t)(nw + nl));
	put32(b, (uint32_t)nw);
	put32(b, (uint32_t)nl);
	put64(b, 1000);
	put64(b, (uint64_t)-1);		/* not pruned */
	for (i = 0; i < nw; i++)
		entry(b, words[i], 100 - i, 0);
	for (i = 0; i < nl; i++)
		entry(b, labels[i], 50 - 10 * i, 1);
	pskd_buf_addc(b, 0);		/* dense input */
	put64(b, nw + BUCKET);
	put64(b, DIM);
	for (i = 0; i < (nw + BUCKET) * DIM; i++)
		putf(b, (float)sin((double)i * 0.7));
	pskd_buf_addc(b, 0);		/* dense output */
	put64(b, nl);
	put64(b, DIM);
	for (i = 0; i < nl * DIM; i++)
		putf(b, (float)cos((double)i * 1.3));
}

static struct {
	struct lid_model m;
	struct lid_text cached, direct;
} model[2];

static void
load(int which, uint32_t loss)
{
	struct pskd_buf b = { 0 };
	struct pskd_error e;
	char path[] = "/tmp/fuzz-lid.XXXXXX";
	int fd = mkstemp(path);

	build(&b, loss);
	if (fd == -1 || pskd_write_all(fd, b.p, b.len) == -1 || close(fd))
		abort();
	if (lid_model_open(&model[which].m, path, &e) == -1) {
		fprintf(stderr, "%s\n", e.msg);
		abort();
	}
	unlink(path);
	pskd_buf_free(&b);
	lid_text_init(&model[which].cached, &model[which].m);
	setenv("PSKD_LID_CACHE", "0", 1);
	lid_text_init(&model[which].direct, &model[which].m);
	unsetenv("PSKD_LID_CACHE");
}

static struct pskd_doc doc;
static struct lid_members mm;
static const char *const names[] = { "language", "language_score" };

/* The line's members read back: the label and the score written. */
static void
check(const struct lid_model *m, const struct lid_pred *p)
{
	struct pskd_json_field f[2] = {
		{ "language", 0, { 0 }, NULL, 0 },
		{ "language_score", 0, { 0 }, NULL, 0 },
	};
	char err[128];
	size_t off;

	if (pskd_json_fields(mm.line.p, mm.line.len, f, 2, err, sizeof(err),
	    &off) != 0)
		abort();
	if (f[0].kind != PSKD_JSON_STRING ||
	    f[0].value.len != m->labellen[p->label] ||
	    memcmp(f[0].value.p, m->label[p->label], f[0].value.len) != 0)
		abort();
	if (f[1].kind != PSKD_JSON_NUMBER || f[1].rawlen != mm.value[1].len ||
	    memcmp(f[1].raw, mm.value[1].p, f[1].rawlen) != 0 ||
	    strtod((const char *)f[1].raw, NULL) != (double)p->prob)
		abort();
	pskd_buf_free(&f[0].value);
	pskd_buf_free(&f[1].value);
}

static void
document(int which, const unsigned char *line, size_t len)
{
	struct lid_text *a = &model[which].cached, *b = &model[which].direct;
	const struct lid_model *m = &model[which].m;
	struct pskd_error e;
	size_t i, keep;

	if (pskd_doc_parse(&doc, line, len) == -1)
		return;
	if (lid_text_set(a, doc.text, doc.textlen, &e) == -1 ||
	    lid_text_set(b, doc.text, doc.textlen, &e) == -1 ||
	    lid_text_predict(a, 2, 0.0f, &e) == -1 ||
	    lid_text_predict(b, 2, 0.0f, &e) == -1 || a->npred != b->npred)
		abort();
	for (i = 0; i < a->npred; i++)
		if (a->pred[i].label != b->pred[i].label ||
		    memcmp(&a->pred[i].prob, &b->pred[i].prob, 4) != 0)
			abort();
	if (a->npred == 0)
		return;
	mm.value[0].len = mm.value[1].len = 0;
	pskd_json_quote(&mm.value[0],
	    (const unsigned char *)m->label[a->pred[0].label],
	    m->labellen[a->pred[0].label]);
	lid_score_json(&mm.value[1], a->pred[0].prob);
	lid_members_apply(&mm, &doc, line, len);
	check(m, &a->pred[0]);
	/*
	 * The bytes before the first value replaced, or the closing brace
	 * when none was, are the input's.
	 */
	for (keep = len; keep > 0 && line[keep - 1] != '}'; keep--)
		;
	keep = keep > 0 ? keep - 1 : 0;
	for (i = 0; i < 2; i++)
		if (doc.f[mm.field[i]].raw != NULL &&
		    (size_t)(doc.f[mm.field[i]].raw - line) < keep)
			keep = (size_t)(doc.f[mm.field[i]].raw - line);
	if (mm.line.len < keep || memcmp(mm.line.p, line, keep) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct pskd_error e;
	const unsigned char *p, *nl;
	int which;

	if (!ready) {
		load(0, 1);		/* hierarchical softmax */
		load(1, 3);		/* softmax */
		if (pskd_doc_init(&doc, "text", "id", &e) == -1 ||
		    lid_members_init(&mm, &doc, names, 2) == -1)
			abort();
		ready = 1;
	}
	if (size == 0)
		return 0;
	which = data[0] & 1;
	for (p = data + 1; p < data + size; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(data + size - p));
		if (nl == NULL)
			nl = data + size;
		document(which, p, (size_t)(nl - p));
	}
	return 0;
}
