/*
 * openssl-ocsp: the OpenSSL peer of tack-bench's ocsp-verify benchmark.
 *
 * Built by tack-bench (cc -O2 ... -lcrypto) when the libssl-dev headers are present;
 * allowed only here, inside Benchmarks/: Tack itself never links a C library.
 *
 *   openssl-ocsp RESPONSE.der LEAF.der ISSUER.der TIME MIN_SECONDS
 *
 * Parses LEAF and ISSUER once (the client has the chain already), then repeats one
 * stapled-response check until MIN_SECONDS have passed and prints "<checks per second>".
 * Timed by CLOCK_MONOTONIC, or by CPU time when TACK_BENCH_CPU_TIME is set.
 *
 * One check: d2i_OCSP_RESPONSE of the response's DER, OCSP_response_status,
 * OCSP_response_get1_basic, OCSP_basic_verify against the issuer (given in the
 * certificate stack and trusted directly: OCSP_TRUSTOTHER | OCSP_NOCHAIN, so no chain is
 * built, as Tack checks only the issuer's signature), OCSP_cert_to_id (SHA-1 CertID) and
 * OCSP_resp_find_status for the leaf, and thisUpdate <= TIME <= nextUpdate (with the
 * 300 s allowance of Tack's default) by ASN1_TIME_cmp_time_t, since OCSP_check_validity
 * reads the clock; free everything.
 *
 * Exit status 1 if the response is not a good, valid answer for the leaf (nothing is
 * timed then).
 */
#include <openssl/ocsp.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ocsp-good.h"

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec t;
    clock_gettime(clock_id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static unsigned char *read_file(const char *path, long *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *length = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*length);
    if (bytes && fread(bytes, 1, (size_t)*length, f) != (size_t)*length) { free(bytes); bytes = NULL; }
    fclose(f);
    return bytes;
}

static X509 *read_certificate(const char *path) {
    long length = 0;
    unsigned char *bytes = read_file(path, &length);
    if (!bytes) return NULL;
    const unsigned char *p = bytes;
    X509 *certificate = d2i_X509(NULL, &p, length);
    free(bytes);
    return certificate;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: openssl-ocsp RESPONSE.der LEAF.der ISSUER.der TIME MIN_SECONDS\n");
        return 2;
    }
    if (getenv("TACK_BENCH_CPU_TIME")) clock_id = CLOCK_PROCESS_CPUTIME_ID;
    long length = 0;
    unsigned char *der = read_file(argv[1], &length);
    X509 *leaf = read_certificate(argv[2]);
    X509 *issuer = read_certificate(argv[3]);
    time_t when = (time_t)atoll(argv[4]);
    double seconds = atof(argv[5]);
    if (!der || !leaf || !issuer) { fprintf(stderr, "openssl-ocsp: unreadable input\n"); return 1; }
    STACK_OF(X509) *certs = sk_X509_new_null();
    sk_X509_push(certs, issuer);
    X509_STORE *store = X509_STORE_new();
    if (!ocsp_says_good(der, length, leaf, issuer, certs, store, when)) {
        fprintf(stderr, "openssl-ocsp: the response is not a good, valid answer for the leaf\n");
        return 1;
    }
    long count = 0;
    double start = now(), elapsed = 0;
    do {
        for (int i = 0; i < 100; i++) count += ocsp_says_good(der, length, leaf, issuer, certs, store, when);
        elapsed = now() - start;
    } while (elapsed < seconds);
    printf("%.1f\n", (double)count / elapsed);
    return 0;
}
