/*
 * sha256.c - SHA-256 through OpenSSL's libcrypto (SHA-NI where the
 * processor has it), as lowercase hex: the one wrapper of it, for the
 * digests pskd-get checks and pskd-export reports.
 */
#include <string.h>

#include <openssl/evp.h>

#include "pskd.h"

static void
die(void)
{
	pskd_errx(PSKD_EXIT_DATA, "libcrypto: SHA-256 failed");
}

void
pskd_sha256_init(struct pskd_sha256 *h)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	if (c == NULL || EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1)
		die();
	h->ctx = c;
}

void
pskd_sha256_update(struct pskd_sha256 *h, const void *p, size_t n)
{
	if (n > 0 && EVP_DigestUpdate(h->ctx, p, n) != 1)
		die();
}

static void
tohex(const unsigned char *md, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
}

void
pskd_sha256_peek(const struct pskd_sha256 *h, char hex[PSKD_SHA256_HEX])
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n;

	if (c == NULL || EVP_MD_CTX_copy_ex(c, h->ctx) != 1 ||
	    EVP_DigestFinal_ex(c, md, &n) != 1 || n != 32)
		die();
	EVP_MD_CTX_free(c);
	tohex(md, hex);
}

void
pskd_sha256_free(struct pskd_sha256 *h)
{
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
}

void
pskd_sha256_hex(const void *p, size_t n, char hex[PSKD_SHA256_HEX])
{
	struct pskd_sha256 h;

	pskd_sha256_init(&h);
	pskd_sha256_update(&h, p, n);
	pskd_sha256_peek(&h, hex);
	pskd_sha256_free(&h);
}

int
pskd_sha256_valid(const char *s, size_t len)
{
	size_t i;

	if (len != 64)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f') ||
		    (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}
