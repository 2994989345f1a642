/*
 * fuzz-lid-model.c - fastText model files (src/lid/check.c) on arbitrary
 * bytes.  Whatever the check accepts, fastText's own loader must load
 * (the check knows every way the library refuses a file), and a
 * prediction from it must run and come out the same through the token
 * cache as through fastText's getLine; nothing may crash or hang.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pskd.h"
#include "lid/lid.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const texts[] = {
	"", "the cat sat on the mat", "click here</s> buy now",
	"__label__hq ünïcödé wörds\ttab\rcr", "a b a b a b a b",
};

/* The predictions of both ways to the rows must be the same. */
static void
predict(struct lid_model *m)
{
	struct lid_text a, b;
	struct pskd_error e;
	size_t i, k;
	int ra, rb;

	lid_text_init(&a, m);
	setenv("PSKD_LID_CACHE", "0", 1);
	lid_text_init(&b, m);
	unsetenv("PSKD_LID_CACHE");
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t n = strlen(texts[i]);

		if (lid_text_set(&a, (const unsigned char *)texts[i], n,
		    &e) == -1 || lid_text_set(&b,
		    (const unsigned char *)texts[i], n, &e) == -1)
			abort();
		ra = lid_text_predict(&a, -1, 0.0f, &e);
		rb = lid_text_predict(&b, -1, 0.0f, &e);
		if (ra != rb || (ra == 0 && a.npred != b.npred))
			abort();
		for (k = 0; ra == 0 && k < a.npred; k++)
			if (a.pred[k].label != b.pred[k].label ||
			    memcmp(&a.pred[k].prob, &b.pred[k].prob,
			    sizeof(float)) != 0)
				abort();
	}
	lid_text_free(&a);
	lid_text_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lid_model m;
	struct pskd_error e;
	int fd;

	if ((fd = memfd_create("model", 0)) == -1)
		abort();
	if (pskd_write_all(fd, data, size) == -1 || lseek(fd, 0, SEEK_SET))
		abort();
	memset(&m, 0, sizeof(m));
	if (lid_model_check(fd, "model", &m.info, &e) == 0) {
		if (lseek(fd, 0, SEEK_SET) != 0)
			abort();
		/* Accepted by the check: fastText must load it. */
		if ((m.ft = lid_ft_load(fd, &e)) == NULL)
			abort();
		m.nlabels = lid_ft_nlabels(m.ft);
		if (m.nlabels != m.info.nlabels)
			abort();
		predict(&m);
		lid_ft_free(m.ft);
	}
	close(fd);
	return 0;
}
