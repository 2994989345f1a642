/*
 * hf-bytelevel.c - the ByteLevel alphabet of tokenizer.json (GPT-2's): a
 * character for each byte, so that any bytes are printable text.
 */
#include <stdint.h>

#include "pskd.h"
#include "hf.h"
/*
 * GPT-2's: the printable bytes ! to ~, ¡ to ¬ and ® to ÿ stand for
 * themselves; the other 68, in order, for U+0100 onwards.
 */
static int
printable(unsigned b)
{
	return (b >= '!' && b <= '~') || (b >= 0xa1 && b <= 0xac) ||
	    (b >= 0xae && b <= 0xff);
}

uint32_t
pskd_hf_byte_char(unsigned b)
{
	unsigned i, k = 0;

	if (printable(b))
		return b;
	for (i = 0; i < b; i++)
		if (!printable(i))
			k++;
	return 0x100 + k;
}

const int16_t *
pskd_hf_char_bytes(void)
{
	static int16_t back[PSKD_HF_ALPHABET_END];
	static int ready;
	unsigned b;

	if (!ready) {
		for (b = 0; b < PSKD_HF_ALPHABET_END; b++)
			back[b] = -1;
		for (b = 0; b < 256; b++)
			back[pskd_hf_byte_char(b)] = (int16_t)b;
		ready = 1;
	}
	return back;
}

int
pskd_hf_char_byte(uint32_t cp)
{
	return cp < PSKD_HF_ALPHABET_END ? pskd_hf_char_bytes()[cp] : -1;
}
