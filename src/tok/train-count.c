/*
 * traincut.c - counting the pre-tokens of text that arrives in chunks
 * (pskd-tok --train -r): where a chunk may end so that its pieces are
 * those of the whole text.
 */
#define _GNU_SOURCE
#include <string.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "train.h"

/* Unicode White_Space, the \s of the patterns. */
static int
is_space(uint32_t c)
{
	return (c >= 9 && c <= 13) || c == 32 || c == 0x85 || c == 0xa0 ||
	    c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
	    c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/*
 * After a line break followed by a character that is not white space,
 * every pattern ends a piece (no alternative takes a line break and then
 * more, and the white-space alternatives stop before a non-space), and the
 * pieces before depend on nothing after that character.
 */
size_t
pskd_train_cut(const unsigned char *p, size_t n, size_t *look)
{
	const unsigned char *nl;
	size_t end = n ? n - 1 : 0, i, k;
	uint32_t c;

	while (end > 0 && (nl = memrchr(p, '\n', end)) != NULL) {
		i = (size_t)(nl - p) + 1;
		k = pskd_utf8_decode(p + i, n - i, &c);
		if (k > 0 && !is_space(c)) {
			*look = k;
			return i;
		}
		end = i - 1;
	}
	return 0;
}

size_t
pskd_wordcount_text(struct pskd_wordcount *wc, int pattern,
    const unsigned char *p, size_t n, size_t limit)
{
	size_t pos, end;

	for (pos = 0; pos < limit; pos = end) {
		end = pskd_pretok_next(pattern, p, n, pos);
		if (end > limit)
			break;
		pskd_wordcount_add(wc, p + pos, end - pos);
	}
	return pos;
}
