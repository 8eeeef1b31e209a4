/*
 * openssl-pkcs12: OpenSSL's PKCS12_parse, for tack-bench's pkcs12-import (issue 21).
 * tack-bench compiles and runs it:
 *
 *   openssl-pkcs12 FILE.p12 PASSPHRASE SECONDS
 *
 * Reads FILE.p12 once (outside the timed loop), then repeatedly for at least SECONDS
 * decodes it from memory (d2i_PKCS12) and imports it (PKCS12_parse: MAC check,
 * decryption of every bag, the key, the certificate and the other certificates), and
 * prints imports per second. Times by wall clock, or by this thread's CPU time when
 * TACK_BENCH_CPU_TIME is set (tack-bench --cpu-time), as tack-bench times itself.
 */
#include <openssl/err.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(int cpu) {
    struct timespec t;
    clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s FILE.p12 PASSPHRASE SECONDS\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) { perror(argv[1]); return 1; }
    static unsigned char data[1 << 20];
    size_t length = fread(data, 1, sizeof data, f);
    fclose(f);
    double seconds = atof(argv[3]);
    int cpu = getenv("TACK_BENCH_CPU_TIME") != NULL;
    unsigned sink = 0;
    long count = 0;
    double start = now(cpu), elapsed = 0;
    do {
        const unsigned char *cursor = data;
        PKCS12 *p12 = d2i_PKCS12(NULL, &cursor, (long)length);
        EVP_PKEY *key = NULL;
        X509 *certificate = NULL;
        STACK_OF(X509) *others = NULL;
        if (p12 == NULL || !PKCS12_parse(p12, argv[2], &key, &certificate, &others) || key == NULL || certificate == NULL) {
            ERR_print_errors_fp(stderr);
            return 1;
        }
        sink += (unsigned)sk_X509_num(others);
        EVP_PKEY_free(key);
        X509_free(certificate);
        sk_X509_pop_free(others, X509_free);
        PKCS12_free(p12);
        count++;
        elapsed = now(cpu) - start;
    } while (elapsed < seconds);
    printf("%f\n", (double)count / elapsed);
    return sink == 0xffffffffu; /* keeps the work observable */
}
