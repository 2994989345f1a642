/*
 * train-write.c - a vocabulary learned by pskd-tok --train, written: as a
 * tiktoken ranks file and its companion VOCAB.special (train-special.h),
 * or as a Hugging Face tokenizer.json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "pskd.h"
#include "bpe-pretok.h"
#include "bpe-ranks.h"
#include "hf.h"
#include "train.h"
#include "train-special.h"

uint64_t
pskd_train_write_ranks(struct pskd_writer *w, const struct pskd_bpe_vocab *v,
    const char *const *special, size_t nspecial)
{
	struct pskd_buf b = { 0 };
	XXH3_state_t *h = XXH3_createState();
	uint64_t hash;
	size_t r;

	if (h == NULL || XXH3_64bits_reset(h) == XXH_ERROR)
		pskd_errx(PSKD_EXIT_DATA, "out of memory");

	for (r = 0; r < v->ntokens + nspecial; r++) {
		b.len = 0;
		if (r < v->ntokens)
			pskd_ranks_line(&b, v->bytes + v->off[r],
			    v->off[r + 1] - v->off[r], (uint32_t)r);
		else
			pskd_ranks_line(&b, special[r - v->ntokens],
			    strlen(special[r - v->ntokens]), (uint32_t)r);
		pskd_writer_write(w, b.p, b.len);
		(void)XXH3_64bits_update(h, b.p, b.len);
	}
	pskd_buf_free(&b);
	hash = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	return hash;
}

/* A token's bytes in the ByteLevel alphabet, as a JSON string, into b. */
static void
json_token(struct pskd_buf *b, struct pskd_buf *t, const unsigned char *s,
    size_t n)
{
	unsigned char u[4];
	size_t i;

	t->len = 0;
	for (i = 0; i < n; i++)
		pskd_buf_add(t, u, pskd_utf8_encode(pskd_hf_byte_char(s[i]),
		    u));
	pskd_json_quote(b, t->p, t->len);
}

static void
json_put(struct pskd_writer *w, struct pskd_buf *b)
{
	pskd_writer_write(w, b->p, b->len);
	b->len = 0;
}

/*
 * The vocabulary as an HF tokenizer.json: byte-level BPE, the tokens in
 * the ByteLevel alphabet with their ranks as ids, the merges in the order
 * learned, the pattern as a Split pre-tokenizer, the special tokens as
 * added tokens, the first of them after each text (as with the ranks).
 */
void
pskd_train_write_json(struct pskd_writer *w, const struct pskd_bpe_vocab *v,
    int pattern, const char *const *special, size_t nspecial)
{
	struct pskd_buf b = { 0 }, t = { 0 };
	const char *bl = "{\"type\": \"ByteLevel\", \"add_prefix_space\": "
	    "false, \"trim_offsets\": true, \"use_regex\": false}";
	const unsigned char *p;
	size_t i, r;

	pskd_writer_puts(w, "{\n  \"version\": \"1.0\",\n  \"truncation\": "
	    "null,\n  \"padding\": null,\n  \"added_tokens\": [");
	for (i = 0; i < nspecial; i++) {
		pskd_writer_printf(w, "%s\n    {\"id\": %zu, \"content\": ",
		    i ? "," : "", v->ntokens + i);
		pskd_json_quote(&b, (const unsigned char *)special[i],
		    strlen(special[i]));
		json_put(w, &b);
		pskd_writer_puts(w, ", \"single_word\": false, \"lstrip\": "
		    "false, \"rstrip\": false, \"normalized\": false, "
		    "\"special\": true}");
	}
	pskd_writer_puts(w, "\n  ],\n  \"normalizer\": null,\n  "
	    "\"pre_tokenizer\": {\"type\": \"Sequence\", \"pretokenizers\": "
	    "[{\"type\": \"Split\", \"pattern\": {\"Regex\": ");
	p = (const unsigned char *)pskd_pretok_regex(pattern);
	pskd_json_quote(&b, p, strlen((const char *)p));
	json_put(w, &b);
	pskd_writer_printf(w, "}, \"behavior\": \"Isolated\", \"invert\": "
	    "false}, %s]},\n  \"post_processor\": ", bl);
	if (nspecial > 0) {
		pskd_json_quote(&b, (const unsigned char *)special[0],
		    strlen(special[0]));
		pskd_buf_addc(&b, '\0');
		pskd_writer_printf(w, "{\"type\": \"TemplateProcessing\", "
		    "\"single\": [{\"Sequence\": {\"id\": \"A\", "
		    "\"type_id\": 0}}, {\"SpecialToken\": {\"id\": %s, "
		    "\"type_id\": 0}}], \"pair\": [], \"special_tokens\": "
		    "{%s: {\"id\": %s, \"ids\": [%zu], \"tokens\": [%s]}}}",
		    b.p, b.p, b.p, v->ntokens, b.p);
		b.len = 0;
	} else
		pskd_writer_puts(w, "null");
	pskd_writer_printf(w, ",\n  \"decoder\": %s,\n  \"model\": {"
	    "\"type\": \"BPE\", \"dropout\": null, \"unk_token\": null, "
	    "\"continuing_subword_prefix\": null, \"end_of_word_suffix\": "
	    "null, \"fuse_unk\": false, \"byte_fallback\": false, "
	    "\"ignore_merges\": false,\n    \"vocab\": {", bl);
	for (r = 0; r < v->ntokens; r++) {
		pskd_buf_add(&b, r ? ",\n      " : "\n      ", r ? 8 : 7);
		json_token(&b, &t, v->bytes + v->off[r], v->off[r + 1] -
		    v->off[r]);
		json_put(w, &b);
		pskd_writer_printf(w, ": %zu", r);
	}
	pskd_writer_puts(w, "\n    },\n    \"merges\": [");
	for (i = 0; i < v->nmerges; i++) {
		pskd_buf_add(&b, i ? ",\n      [" : "\n      [", i ? 9 : 8);
		r = v->merge[2 * i];
		json_token(&b, &t, v->bytes + v->off[r], v->off[r + 1] -
		    v->off[r]);
		pskd_buf_add(&b, ", ", 2);
		r = v->merge[2 * i + 1];
		json_token(&b, &t, v->bytes + v->off[r], v->off[r + 1] -
		    v->off[r]);
		pskd_buf_addc(&b, ']');
		json_put(w, &b);
	}
	pskd_writer_puts(w, "\n    ]\n  }\n}\n");
	pskd_buf_free(&b);
	pskd_buf_free(&t);
}

/*
 * The companion file: the section of the new ranks (the pattern, then the
 * special tokens' ranks), then old's, that of the ranks it replaces.
 */
void
pskd_train_write_special(struct pskd_writer *w,
    const struct pskd_bpe_vocab *v, int pattern, const char *const *special,
    size_t nspecial, uint64_t ranks, const struct pskd_companion *old)
{
	struct pskd_companion c = { NULL, 0, pattern, 1, ranks };
	size_t r;

	c.sp = pskd_xcalloc(nspecial ? nspecial : 1, sizeof(*c.sp));
	for (r = 0; r < nspecial; r++) {
		c.sp[r].text = (char *)special[r];
		c.sp[r].len = strlen(special[r]);
		c.sp[r].rank = (uint32_t)(v->ntokens + r);
	}
	c.n = nspecial;
	pskd_special_write(w, &c);
	free(c.sp);
	/* The same ranks again need one section. */
	if (old != NULL && old->ranks != ranks)
		pskd_special_write(w, old);
}

