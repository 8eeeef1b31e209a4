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
 *   scan-json        what `tack scan` writes per certificate: d2i_X509, subject and
 *                    issuer in RFC 2253 form, serial in hex, validity as RFC 3339, key
 *                    type and bits, SPKI pin (SHA-256, Base64), certificate SHA-256 in
 *                    hex, SAN DNS names; formatted into one JSON line in memory (no
 *                    JSON escaping: a small advantage to OpenSSL)
 */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
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

/* One tack-scan-like JSON line for `c` into `out` (at least 16 KiB); returns its length. */
static size_t scan_json(X509 *c, char *out, size_t cap) {
    char subject[4096] = "", issuer[4096] = "", serial[256] = "", nb[32] = "", na[32] = "";
    char pin[64] = "", fp[65] = "", names[4096] = "";
    BIO *bio = BIO_new(BIO_s_mem());
    X509_NAME_print_ex(bio, X509_get_subject_name(c), 0, XN_FLAG_RFC2253);
    int n = BIO_read(bio, subject, sizeof subject - 1); subject[n > 0 ? n : 0] = 0;
    BIO_free(bio);
    bio = BIO_new(BIO_s_mem());
    X509_NAME_print_ex(bio, X509_get_issuer_name(c), 0, XN_FLAG_RFC2253);
    n = BIO_read(bio, issuer, sizeof issuer - 1); issuer[n > 0 ? n : 0] = 0;
    BIO_free(bio);
    BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(c), NULL);
    char *hex = BN_bn2hex(bn);
    snprintf(serial, sizeof serial, "%s", hex);
    OPENSSL_free(hex); BN_free(bn);
    struct tm tm;
    if (ASN1_TIME_to_tm(X509_get0_notBefore(c), &tm)) strftime(nb, sizeof nb, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (ASN1_TIME_to_tm(X509_get0_notAfter(c), &tm)) strftime(na, sizeof na, "%Y-%m-%dT%H:%M:%SZ", &tm);
    EVP_PKEY *pkey = X509_get0_pubkey(c);
    const char *type = pkey ? OBJ_nid2sn(EVP_PKEY_base_id(pkey)) : "unknown";
    int bits = pkey ? EVP_PKEY_bits(pkey) : 0;
    unsigned char digest[32], *spki = NULL;
    int len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(c), &spki);
    SHA256(spki, (size_t)len, digest);
    OPENSSL_free(spki);
    EVP_EncodeBlock((unsigned char *)pin, digest, 32);
    unsigned int dlen = 0;
    X509_digest(c, EVP_sha256(), digest, &dlen);
    for (unsigned i = 0; i < 32; i++) sprintf(fp + 2 * i, "%02x", digest[i]);
    GENERAL_NAMES *sans = X509_get_ext_d2i(c, NID_subject_alt_name, NULL, NULL);
    size_t used = 0;
    for (int i = 0; sans && i < sk_GENERAL_NAME_num(sans); i++) {
        GENERAL_NAME *g = sk_GENERAL_NAME_value(sans, i);
        if (g->type != GEN_DNS) continue;
        used += snprintf(names + used, sizeof names - used, "%s\"%s\"", used ? ", " : "",
                         (const char *)ASN1_STRING_get0_data(g->d.dNSName));
        if (used >= sizeof names) break;
    }
    GENERAL_NAMES_free(sans);
    return (size_t)snprintf(out, cap,
        "{\"subject\": \"%s\", \"issuer\": \"%s\", \"serial\": \"%s\", \"not_before\": \"%s\", "
        "\"not_after\": \"%s\", \"key_type\": \"%s\", \"key_bits\": %d, \"spki_sha256\": \"%s\", "
        "\"sha256\": \"%s\", \"dns_names\": [%s]}\n",
        subject, issuer, serial, nb, na, type, bits, pin, fp, names);
}

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
        } else if (strcmp(mode, "scan-json") == 0) {
            static char line[16384];
            for (size_t i = 0; i < count; i++) {
                const unsigned char *p = items[i].der;
                X509 *c = d2i_X509(NULL, &p, items[i].len);
                if (c) sink += scan_json(c, line, sizeof line);
                X509_free(c);
            }
            done += count;
        } else {
            fprintf(stderr, "unknown mode %s\n", mode);
            return 2;
        }
        elapsed = now() - start;
    } while (elapsed < minimum);
    printf("%.1f\n", done / elapsed);
    return 0;
}
