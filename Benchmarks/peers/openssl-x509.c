/*
 * openssl-x509: the OpenSSL peer of tack-bench's x509 benchmarks.
 *
 * Built by tack-bench (cc -O2 ... -lcrypto) when the libssl-dev headers are present;
 * allowed only here, inside Benchmarks/: Tack itself never links a C library.
 *
 *   openssl-x509 MODE BUNDLE.pem MIN_SECONDS
 *
 * Loads every certificate of BUNDLE.pem as DER (outside the timed region), then
 * repeats MODE over the whole corpus until MIN_SECONDS have passed and prints
 * "<certificates per second>" on one line. MODE is:
 *   parse            d2i_X509 + X509_free (what `x509-parse` is compared with)
 *   parse-pin        d2i_X509, i2d_X509_PUBKEY of its key, SHA-256 of that DER
 *   spki-rebuild-pin from each key's raw bytes (PKCS#1 RSAPublicKey, EC point,
 *                    Ed25519 raw key): build the EVP_PKEY, i2d_PUBKEY, SHA-256
 */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { unsigned char *der; long len; } item;
typedef struct { int type; int nid; unsigned char *raw; long len; } rawkey;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile unsigned long sink;

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s MODE BUNDLE MIN_SECONDS\n", argv[0]); return 2; }
    const char *mode = argv[1];
    double minimum = atof(argv[3]);
    FILE *f = fopen(argv[2], "r");
    if (!f) { perror(argv[2]); return 2; }
    item *items = NULL; size_t count = 0, cap = 0;
    rawkey *keys = NULL; size_t keycount = 0;
    X509 *x;
    while ((x = PEM_read_X509(f, NULL, NULL, NULL)) != NULL) {
        if (count == cap) { cap = cap ? cap * 2 : 256; items = realloc(items, cap * sizeof(item)); keys = realloc(keys, cap * sizeof(rawkey)); }
        items[count].der = NULL;
        items[count].len = i2d_X509(x, &items[count].der);
        EVP_PKEY *pkey = X509_get0_pubkey(x);
        if (pkey) {
            int type = EVP_PKEY_base_id(pkey);
            rawkey k = { type, 0, NULL, 0 };
            if (type == EVP_PKEY_RSA) {
                k.len = i2d_PublicKey(pkey, &k.raw);
            } else if (type == EVP_PKEY_EC) {
                const EC_KEY *ec = EVP_PKEY_get0_EC_KEY(pkey);
                k.nid = EC_GROUP_get_curve_name(EC_KEY_get0_group(ec));
                k.len = i2o_ECPublicKey(ec, &k.raw);
            } else if (type == EVP_PKEY_ED25519) {
                size_t n = 32; k.raw = malloc(32);
                EVP_PKEY_get_raw_public_key(pkey, k.raw, &n); k.len = (long)n;
            }
            if (k.raw && k.len > 0) keys[keycount++] = k;
        }
        X509_free(x);
        count++;
    }
    fclose(f);
    if (count == 0) { fprintf(stderr, "no certificates\n"); return 2; }

    unsigned long done = 0;
    double start = now(), elapsed = 0;
    unsigned char digest[32];
    do {
        if (strcmp(mode, "parse") == 0) {
            for (size_t i = 0; i < count; i++) {
                const unsigned char *p = items[i].der;
                X509 *c = d2i_X509(NULL, &p, items[i].len);
                sink += (c != NULL);
                X509_free(c);
            }
            done += count;
        } else if (strcmp(mode, "parse-pin") == 0) {
            for (size_t i = 0; i < count; i++) {
                const unsigned char *p = items[i].der;
                X509 *c = d2i_X509(NULL, &p, items[i].len);
                unsigned char *spki = NULL;
                int n = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(c), &spki);
                SHA256(spki, (size_t)n, digest);
                sink += digest[0];
                OPENSSL_free(spki);
                X509_free(c);
            }
            done += count;
        } else if (strcmp(mode, "spki-rebuild-pin") == 0) {
            for (size_t i = 0; i < keycount; i++) {
                EVP_PKEY *pkey = NULL;
                const unsigned char *p = keys[i].raw;
                if (keys[i].type == EVP_PKEY_RSA) {
                    pkey = d2i_PublicKey(EVP_PKEY_RSA, NULL, &p, keys[i].len);
                } else if (keys[i].type == EVP_PKEY_EC) {
                    EC_KEY *ec = EC_KEY_new_by_curve_name(keys[i].nid);
                    o2i_ECPublicKey(&ec, &p, keys[i].len);
                    pkey = EVP_PKEY_new();
                    EVP_PKEY_assign_EC_KEY(pkey, ec);
                } else {
                    pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, keys[i].raw, (size_t)keys[i].len);
                }
                unsigned char *spki = NULL;
                int n = i2d_PUBKEY(pkey, &spki);
                SHA256(spki, (size_t)n, digest);
                sink += digest[0];
                OPENSSL_free(spki);
                EVP_PKEY_free(pkey);
            }
            done += keycount;
        } else {
            fprintf(stderr, "unknown mode %s\n", mode);
            return 2;
        }
        elapsed = now() - start;
    } while (elapsed < minimum);
    printf("%.1f\n", done / elapsed);
    return 0;
}
