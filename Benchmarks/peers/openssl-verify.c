/*
 * openssl-verify: the OpenSSL peer of tack-bench's end-to-end benchmarks (e2e-*).
 *
 * Built by tack-bench (cc -O2 ... -lcrypto) when the libssl-dev headers are present;
 * allowed only here, inside Benchmarks/: Tack itself never links a C library.
 *
 *   openssl-verify MODE BUNDLE.pem ROOT.der HOST TIME MIN_SECONDS PINS CERT.der...
 *
 * Loads BUNDLE.pem plus ROOT.der into one X509_STORE (the anchors, outside the timed
 * loop), reads the served chain CERT.der... (leaf first), then repeats one verification
 * until MIN_SECONDS have passed and prints "<verifications per second> <allocations per
 * verification>" (OpenSSL's own allocations, counted through CRYPTO_set_mem_functions).
 * Timed by CLOCK_MONOTONIC, or by CPU time when TACK_BENCH_CPU_TIME is set.
 *
 * One verification, as a TLS client does it after the handshake delivers the chain:
 *   der        d2i_X509 of every served certificate (the rest become the untrusted
 *              stack), X509_STORE_CTX_new + init, the time (X509_VERIFY_PARAM_set_time),
 *              purpose sslserver, X509_verify_cert, X509_check_host, then the pin check
 *              that tack-bench's policy does: find the host's rule among a few dozen
 *              domains and compare the SHA-256 of each verified CA's SubjectPublicKeyInfo
 *              (i2d_X509_PUBKEY) with its pins; free everything.
 *   preparsed  the same with the certificates parsed once, before the loop.
 *   stapled    `der` plus a stapled OCSP response for the leaf (tack-bench's
 *              e2e-*-stapled): then the first CERT argument is the response's DER
 *              (OCSP.der CERT.der...). After the chain verifies: d2i_OCSP_RESPONSE,
 *              OCSP_response_status, OCSP_response_get1_basic, OCSP_basic_verify with
 *              the served certificates trusted as signers (OCSP_TRUSTOTHER | OCSP_NOCHAIN:
 *              no second chain is built; the response is the issuer's), OCSP_cert_to_id
 *              (leaf, its verified issuer) + OCSP_resp_find_status, and
 *              thisUpdate <= TIME <= nextUpdate with a 300 s allowance (Tack's default
 *              soft-fail check of the same staple).
 *
 * PINS is a comma-separated list of Base64 SPKI SHA-256 pins for HOST's CA identities.
 * Exit status 1 if the chain does not verify (nothing is timed then).
 */
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ocsp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ocsp-good.h"

static unsigned long allocations;

static void *count_malloc(size_t n, const char *file, int line) {
    (void)file; (void)line;
    allocations++;
    return malloc(n);
}
static void *count_realloc(void *p, size_t n, const char *file, int line) {
    (void)file; (void)line;
    allocations++;
    return realloc(p, n);
}
static void count_free(void *p, const char *file, int line) {
    (void)file; (void)line;
    free(p);
}

/* Wall time, or this process's CPU time when TACK_BENCH_CPU_TIME is set (tack-bench
 * --cpu-time), so both sides ignore time spent descheduled on a busy machine. */
static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned char *read_file(const char *path, long *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buffer = malloc((size_t)*len);
    if (fread(buffer, 1, (size_t)*len, f) != (size_t)*len) { perror(path); exit(2); }
    fclose(f);
    return buffer;
}

/* The policy's domains: as tack-bench's, 35 others and the host's, which is last. */
#define DOMAINS 36
static char domains[DOMAINS][64];
static unsigned char pins[8][32];
static int pin_count;

/* The host's rule: exact match, or one label deeper (ATS NSIncludesSubdomains). */
static int find_rule(const char *host) {
    size_t host_len = strlen(host);
    for (int i = 0; i < DOMAINS; i++) {
        size_t len = strlen(domains[i]);
        if (strcasecmp(host, domains[i]) == 0) return i;
        if (host_len > len + 1 && host[host_len - len - 1] == '.' && strcasecmp(host + host_len - len, domains[i]) == 0
            && memchr(host, '.', host_len - len - 1) == NULL)
            return i;
    }
    return -1;
}

/* Whether a CA of the verified chain (positions 1...) has one of the pins. */
static int pins_hold(STACK_OF(X509) *chain) {
    for (int i = 1; i < sk_X509_num(chain); i++) {
        unsigned char *spki = NULL, digest[32];
        int len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(sk_X509_value(chain, i)), &spki);
        if (len <= 0) return 0;
        SHA256(spki, (size_t)len, digest);
        OPENSSL_free(spki);
        for (int p = 0; p < pin_count; p++)
            if (memcmp(digest, pins[p], 32) == 0) return 1;
    }
    return 0;
}

typedef struct { unsigned char *der; long len; } item;

int main(int argc, char **argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: %s der|preparsed|stapled BUNDLE.pem ROOT.der HOST TIME MIN_SECONDS PINS [OCSP.der] CERT.der...\n", argv[0]);
        return 2;
    }
    CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free);
    if (getenv("TACK_BENCH_CPU_TIME")) clock_id = CLOCK_PROCESS_CPUTIME_ID;
    const char *mode = argv[1], *host = argv[4];
    time_t at = (time_t)atoll(argv[5]);
    double minimum = atof(argv[6]);
    int preparsed = strcmp(mode, "preparsed") == 0, stapled = strcmp(mode, "stapled") == 0;
    if (!preparsed && !stapled && strcmp(mode, "der") != 0) { fprintf(stderr, "unknown mode %s\n", mode); return 2; }
    long staple_len = 0;
    unsigned char *staple = NULL;
    if (stapled) {
        if (argc < 10) { fprintf(stderr, "stapled: OCSP.der and the chain needed\n"); return 2; }
        staple = read_file(argv[8], &staple_len);
    }

    for (int i = 0; i < DOMAINS - 1; i++) snprintf(domains[i], sizeof domains[i], "service-%02d.example.net", i);
    snprintf(domains[DOMAINS - 1], sizeof domains[DOMAINS - 1], "%s", host);
    char *list = strdup(argv[7]);
    for (char *pin = strtok(list, ","); pin && pin_count < 8; pin = strtok(NULL, ",")) {
        unsigned char decoded[48];
        if (EVP_DecodeBlock(decoded, (const unsigned char *)pin, (int)strlen(pin)) < 32) { fprintf(stderr, "bad pin\n"); return 2; }
        memcpy(pins[pin_count++], decoded, 32);
    }
    free(list);

    X509_STORE *store = X509_STORE_new();
    FILE *f = fopen(argv[2], "r");
    if (!f) { perror(argv[2]); return 2; }
    X509 *x;
    while ((x = PEM_read_X509(f, NULL, NULL, NULL)) != NULL) { X509_STORE_add_cert(store, x); X509_free(x); }
    fclose(f);
    ERR_clear_error();
    long root_len;
    unsigned char *root_der = read_file(argv[3], &root_len);
    const unsigned char *p = root_der;
    X509 *root = d2i_X509(NULL, &p, root_len);
    if (!root || !X509_STORE_add_cert(store, root)) { fprintf(stderr, "bad root\n"); return 2; }
    X509_free(root);

    int first = 8 + stapled, served_count = argc - first;
    item *served = calloc((size_t)served_count, sizeof(item));
    X509 **parsed = calloc((size_t)served_count, sizeof(X509 *));
    for (int i = 0; i < served_count; i++) {
        served[i].der = read_file(argv[first + i], &served[i].len);
        p = served[i].der;
        parsed[i] = d2i_X509(NULL, &p, served[i].len);
        if (!parsed[i]) { fprintf(stderr, "%s does not parse\n", argv[first + i]); return 2; }
    }

    unsigned long done = 0, ok = 0, counted = 0;
    double start = now(), elapsed = 0;
    allocations = 0;
    do {
        X509 *chain[16];
        STACK_OF(X509) *untrusted = sk_X509_new_null();
        for (int i = 0; i < served_count && i < 16; i++) {
            if (preparsed) {
                chain[i] = parsed[i];
            } else {
                p = served[i].der;
                chain[i] = d2i_X509(NULL, &p, served[i].len);
            }
            if (i > 0 && chain[i]) sk_X509_push(untrusted, chain[i]);
        }
        X509_STORE_CTX *ctx = X509_STORE_CTX_new();
        int verified = 0;
        if (chain[0] && X509_STORE_CTX_init(ctx, store, chain[0], untrusted)) {
            X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(ctx), at);
            X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER);
            verified = X509_verify_cert(ctx) == 1 && X509_check_host(chain[0], host, 0, 0, NULL) == 1;
            if (verified && find_rule(host) >= 0) verified = pins_hold(X509_STORE_CTX_get0_chain(ctx));
            if (verified && stapled) verified = sk_X509_num(X509_STORE_CTX_get0_chain(ctx)) >= 2 &&
                ocsp_says_good(staple, staple_len, sk_X509_value(X509_STORE_CTX_get0_chain(ctx), 0),
                               sk_X509_value(X509_STORE_CTX_get0_chain(ctx), 1), untrusted, store, at);
        }
        ok += verified;
        X509_STORE_CTX_free(ctx);
        sk_X509_free(untrusted);
        if (!preparsed)
            for (int i = 0; i < served_count && i < 16; i++) X509_free(chain[i]);
        done++;
        if (done == 1 && !ok) {
            fprintf(stderr, "the chain does not verify, or its pins fail\n");
            return 1;
        }
        if ((done & 15) == 0) elapsed = now() - start;
    } while (elapsed < minimum);
    counted = allocations;
    elapsed = now() - start;
    printf("%.1f %.1f\n", done / elapsed, (double)counted / (double)done);
    return ok == done ? 0 : 1;
}
