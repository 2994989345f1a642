/*
 * test-manifest - src/get/manifest.c and sha256.c: safe names, the exact
 * bytes of a manifest, extra members kept and set, locks, checkpoints; and
 * the sha256s a server announces, as curl.c parses them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pskd.h"
#include "check.h"
#include "get/curl.h"
#include "get/manifest.h"
#include "get/sha256.h"


static int
parse(struct pskd_manifest *m, const char *text)
{
	char err[256];
	uint64_t line;

	pskd_manifest_init(m);
	return pskd_manifest_parse(m, (const unsigned char *)text,
	    strlen(text), err, sizeof(err), &line);
}

/* A save cut between its two renames, finished by the folder's next run. */
static void
recover_cases(void)
{
	struct pskd_manifest m;
	struct pskd_shard *s;
	struct pskd_buf man = { NULL, 0, 0 }, lock = { NULL, 0, 0 };
	char dir[] = "/tmp/test-manifest.XXXXXX", path[512], hex[65];
	char want[65], err[128];
	FILE *f;

	if (mkdtemp(dir) == NULL) {
		check(0, "mkdtemp");
		return;
	}
	pskd_manifest_init(&m);
	s = pskd_manifest_add(&m);
	s->url = pskd_xstrdup("http://h/a");
	s->file = pskd_xstrdup("a");
	check(pskd_manifest_save(&m, dir) == 0, "a manifest saved");
	/* The next save's manifest renamed, its lock still a temporary. */
	s->bytes = 1;
	pskd_manifest_encode(&m, &man);
	pskd_manifest_lock_encode(man.p, man.len, &lock);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	f = fopen(path, "wb");
	fwrite(man.p, 1, man.len, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/.manifest.json.lock.tmp.7", dir);
	f = fopen(path, "wb");
	fwrite(lock.p, 1, lock.len, f);
	fclose(f);
	/* A stale temporary that vouches for something else is not used. */
	snprintf(path, sizeof(path), "%s/.manifest.json.lock.tmp.6", dir);
	f = fopen(path, "wb");
	fputs("{\"manifest_sha256\": \"0000000000000000000000000000000000000"
	    "000000000000000000000000000\"}\n", f);
	fclose(f);
	check(pskd_manifest_recover(dir) == 1, "recovered");
	snprintf(path, sizeof(path), "%s/manifest.json.lock", dir);
	lock.len = 0;
	pskd_sha256_hex(man.p, man.len, hex);
	check(pskd_slurp(path, 0, &lock) == 0 &&
	    pskd_manifest_lock_parse(lock.p, lock.len, want, err,
	    sizeof(err)) == 0 && strcmp(want, hex) == 0,
	    "the lock now vouches for the manifest in place");
	check(pskd_manifest_recover(dir) == 0, "nothing more to recover");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	check(system(path) == 0, "cleaned up");
	pskd_manifest_free(&m);
	pskd_buf_free(&man);
	pskd_buf_free(&lock);
}

/* A response's headers as curl dumps them, parsed. */
static void
feed(struct pskd_http *h, const char *text)
{
	pskd_http_init(h);
	(void)pskd_http_feed(h, text, strlen(text));
}

static void
announced_cases(void)
{
	static const char abc[] = "ba7816bf8f01cfea414140de5dae2223b00361a3961"
	    "77a9cb410ff61f20015ad";
	struct pskd_http h;

	feed(&h, "HTTP/1.1 302 Found\r\nLocation: /x\r\nX-Linked-Etag: \""
	    "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"
	    "\"\r\nX-Linked-Size: 3\r\n\r\n");
	check(h.final && h.status == 302 && h.has_location &&
	    strcmp(h.linked_sha, abc) == 0 && h.linked_size_known &&
	    h.linked_size == 3, "X-Linked-Etag of a sha256: lowercase hex; "
	    "X-Linked-Size; a 302 is the response (pskd-get follows it)");
	pskd_http_free(&h);
	feed(&h, "HTTP/1.1 302 Found\r\nX-Linked-Etag: W/\"" "ba7816bf8f01"
	    "cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\"\r\n\r\n");
	check(h.linked_sha[0] == '\0' && h.linked_etag != NULL,
	    "a weak X-Linked-Etag names no bytes");
	pskd_http_free(&h);
	/* sha256("abc") in base64, as RFC 9530 and RFC 3230 write it. */
	feed(&h, "HTTP/1.1 200 OK\r\nRepr-Digest: sha-512=:AAAA:, sha-256="
	    ":ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=:\r\n\r\n");
	check(strcmp(h.repr_sha, abc) == 0, "Repr-Digest: the sha-256 member");
	pskd_http_free(&h);
	feed(&h, "HTTP/1.1 200 OK\r\nDigest: MD5=kAFQmDzST7DWlj99KOF/cg==, "
	    "SHA-256=ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\r\n\r\n");
	check(strcmp(h.digest_sha, abc) == 0, "Digest: the SHA-256 member");
	pskd_http_free(&h);
	feed(&h, "HTTP/1.1 200 OK\r\nRepr-Digest: sha-256=:ungWv48Bz+pBQUDeXa4"
	    "iI7ADYaOWF3qctBD/YfIAFa0:\r\nDigest: SHA-256=!!\r\n\r\n");
	check(h.repr_sha[0] == '\0' && h.digest_sha[0] == '\0',
	    "malformed digests announce nothing");
	pskd_http_free(&h);
}

int
main(void)
{
	static const char one[] =
	    "{\"version\": 1, \"shards\": [\n"
	    "{\"url\": \"http://h/a.zst\", \"file\": \"a.zst\", \"bytes\": 3, "
	    "\"sha256\": \"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\", "
	    "\"etag\": \"\\\"x\\\"\", \"status\": \"complete\", \"documents\": 7}\n"
	    "]}\n";
	static const char *const bad[] = {
		"{\"version\": 1, \"shards\": []}\n",
		"{\"version\": 1, \"shards\": [\n]}",
		"{\"version\": 2, \"shards\": [\n]}\n",
		"{\"version\": 1, \"shards\": [\n]}\n\n",
	};
	struct pskd_manifest m;
	struct pskd_buf b = { NULL, 0, 0 }, lock = { NULL, 0, 0 };
	struct pskd_checkpoint c, d;
	char hex[PSKD_SHA256_HEX], err[256];
	size_t i;

	pskd_sha256_hex("abc", 3, hex);
	check(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb"
	    "410ff61f20015ad") == 0, "sha256(\"abc\") is the FIPS 180-2 value");

	check(pskd_shard_name_ok("c4-00.json.zst") &&
	    pskd_shard_name_ok("a+b_c") && !pskd_shard_name_ok("") &&
	    !pskd_shard_name_ok(".hidden") && !pskd_shard_name_ok("a/b") &&
	    !pskd_shard_name_ok("..") && !pskd_shard_name_ok("manifest.json") &&
	    !pskd_shard_name_ok("manifest.json.lock") &&
	    !pskd_shard_name_ok("x.partial") &&
	    !pskd_shard_name_ok("x.partial.json") &&
	    !pskd_shard_name_ok("a b"), "safe names");

	check(parse(&m, one) == 0 && m.n == 1 && m.shards[0].bytes == 3 &&
	    strcmp(m.shards[0].etag, "\"x\"") == 0 &&
	    m.shards[0].status == PSKD_SHARD_COMPLETE,
	    "a manifest with an extra member parses");
	pskd_manifest_encode(&m, &b);
	check(b.len == strlen(one) && memcmp(b.p, one, b.len) == 0,
	    "it encodes back to the same bytes, extra member kept");
	check(pskd_shard_set(&m.shards[0], "documents", "9") == 0 &&
	    pskd_shard_set(&m.shards[0], "unique_documents", "5") == 0 &&
	    pskd_shard_set(&m.shards[0], "sha256", "1") == -1 &&
	    pskd_shard_set(&m.shards[0], "x", "nope") == -3,
	    "pskd_shard_set: replace, add, refuse known keys and bad JSON");
	check(pskd_shard_set(&m.shards[0], "x", "1, \"status\": \"failed\"")
	    == -3 && pskd_shard_set(&m.shards[0], "x", "[1,\n2]") == -3 &&
	    pskd_shard_set(&m.shards[0], "x", " 1") == -3 &&
	    pskd_shard_set(&m.shards[0], "x", "1 ") == -3 &&
	    pskd_shard_set(&m.shards[0], "x", "\"\xff\"") == -3 &&
	    pskd_shard_set(&m.shards[0], "x", "") == -3 &&
	    pskd_shard_set(&m.shards[0], "a\nb", "1") == -2 &&
	    pskd_shard_set(&m.shards[0], "\xc3", "1") == -2 &&
	    pskd_shard_set(&m.shards[0], "", "1") == -2,
	    "pskd_shard_set: one JSON value on one line, all of the text; "
	    "keys of UTF-8 text");
	b.len = 0;
	pskd_manifest_encode(&m, &b);
	pskd_buf_addc(&b, '\0');
	check(strstr((char *)b.p, "\"status\": \"complete\", \"documents\": 9, "
	    "\"unique_documents\": 5}\n") != NULL, "the members, in order");
	pskd_manifest_free(&m);
	check(parse(&m, (char *)b.p) == 0, "and it parses again");
	pskd_manifest_free(&m);

	check(parse(&m, "{\"version\": 1, \"shards\": [\n{\"url\": \"u\", "
	    "\"file\": \"a\", \"bytes\": 3, \"sha256\": \"ba7816bf8f01cfea41"
	    "4140de5dae2223b00361a396177a9cb410ff61f20015ad\", \"etag\": null, "
	    "\"status\": \"complete\", \"sha256_from\": \"X-Linked-Etag\", "
	    "\"n\": 1}\n]}\n") == 0 && m.n == 1 && m.shards[0].sha256_from &&
	    strcmp(m.shards[0].sha256_from, "X-Linked-Etag") == 0 &&
	    pskd_shard_set(&m.shards[0], "sha256_from", "\"list\"") == -1,
	    "sha256_from parses after status, and is pskd-get's own");
	pskd_manifest_free(&m);
	check(parse(&m, "{\"version\": 1, \"shards\": [\n{\"url\": \"u\", "
	    "\"file\": \"a\", \"bytes\": 0, \"sha256\": null, \"etag\": null, "
	    "\"status\": \"failed\", \"sha256_from\": \"a friend\"}\n]}\n") == -1,
	    "an unknown sha256_from is refused");
	pskd_manifest_free(&m);

	/* Under UBSan: empty strings have no buffer (issue 14, item 16). */
	check(parse(&m, "{\"version\": 1, \"shards\": [\n{\"url\": \"\", "
	    "\"file\": \"a\", \"bytes\": 0, \"sha256\": null, \"etag\": \"\", "
	    "\"status\": \"pending\"}\n]}\n") == 0 && m.n == 1 &&
	    strcmp(m.shards[0].url, "") == 0 && strcmp(m.shards[0].etag,
	    "") == 0, "empty strings parse (no NULL to memchr)");
	{
		struct pskd_shard copy;

		memset(&copy, 0, sizeof(copy));
		pskd_shard_copy(&copy, &m.shards[0]);
		check(copy.extra.len == 0 && strcmp(copy.url, "") == 0,
		    "a shard without extra members copies (no NULL to memcpy)");
		pskd_shard_clear(&copy);
	}
	pskd_manifest_free(&m);
	check(parse(&m, "{\"version\": 1, \"shards\": [\n{\"url\": \"u\", "
	    "\"file\": \"a\", \"bytes\": 0, \"sha256\": null, \"etag\": null, "
	    "\"status\": \"failed\", \"n\": 1, \"status\": \"complete\"}\n]}\n")
	    == -1, "a member pskd-get keeps may not come twice (the last "
	    "would win)");
	pskd_manifest_free(&m);

	/* Many shards: found by name; a file twice is refused. */
	b.len = 0;
	pskd_buf_add(&b, "{\"version\": 1, \"shards\": [\n", 27);
	for (i = 0; i < 3000; i++) {
		char rec[160];

		snprintf(rec, sizeof(rec), "{\"url\": \"u\", \"file\": "
		    "\"s%zu\", \"bytes\": %zu, \"sha256\": null, \"etag\": "
		    "null, \"status\": \"failed\"}%s\n", i, i,
		    i + 1 < 3000 ? "," : "");
		pskd_buf_add(&b, rec, strlen(rec));
	}
	pskd_buf_add(&b, "]}\n", 3);
	pskd_buf_addc(&b, '\0');
	check(parse(&m, (char *)b.p) == 0 && m.n == 3000 &&
	    pskd_manifest_find(&m, "s0")->bytes == 0 &&
	    pskd_manifest_find(&m, "s2999")->bytes == 2999 &&
	    pskd_manifest_find(&m, "s1234")->bytes == 1234 &&
	    pskd_manifest_find(&m, "s3000") == NULL &&
	    pskd_manifest_find(&m, "s") == NULL, "3000 shards found by name");
	check(pskd_shard_equal(&m.shards[5], &m.shards[5]) &&
	    !pskd_shard_equal(&m.shards[5], &m.shards[6]),
	    "pskd_shard_equal");
	pskd_manifest_free(&m);
	memcpy(strstr((char *)b.p, "\"s2999\""), "\"s1000\"", 7);
	check(parse(&m, (char *)b.p) == -1, "a file listed twice is refused");
	pskd_manifest_free(&m);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		check(parse(&m, bad[i]) == -1, "a manifest out of layout is "
		    "refused");
		pskd_manifest_free(&m);
	}

	b.len = 0;
	pskd_manifest_init(&m);
	pskd_manifest_encode(&m, &b);
	pskd_manifest_lock_encode(b.p, b.len, &lock);
	pskd_buf_addc(&lock, '\0');
	check(strncmp((char *)lock.p, "{\"manifest_sha256\": \"", 21) == 0 &&
	    lock.len == 21 + 64 + 3 + 1, "a lock is one line");
	pskd_sha256_hex(b.p, b.len, err);
	check(pskd_manifest_lock_parse(lock.p, lock.len - 1, hex, err + 100,
	    sizeof(err) - 100) == 0 && strncmp(hex, err, 64) == 0,
	    "the lock holds the manifest's sha256");

	memset(&c, 0, sizeof(c));
	c.url = "file:///x";
	c.verified = 5;
	c.expected = 10;
	c.expected_known = 1;
	memcpy(c.sha256, hex, sizeof(hex));
	c.etag = "\"e\"";
	b.len = 0;
	pskd_checkpoint_encode(&c, &b);
	check(pskd_checkpoint_parse(&d, b.p, b.len, err, sizeof(err)) == 0 &&
	    d.verified == 5 && d.expected == 10 && d.expected_known &&
	    strcmp(d.etag, "\"e\"") == 0 && d.last_modified == NULL,
	    "a checkpoint round trip");
	pskd_checkpoint_clear(&d);
	c.verified = 11;
	b.len = 0;
	pskd_checkpoint_encode(&c, &b);
	check(pskd_checkpoint_parse(&d, b.p, b.len, err, sizeof(err)) == -1,
	    "a checkpoint vouching for more than expected is refused");

	recover_cases();
	announced_cases();
	pskd_manifest_free(&m);
	pskd_buf_free(&b);
	pskd_buf_free(&lock);
	return check_status();
}
