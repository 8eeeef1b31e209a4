/*
 * openssl-ct: the OpenSSL peer of tack-bench's ct-verify benchmark.
 *
 * Built by tack-bench (cc -O2 ... -lcrypto) when the libssl-dev headers are present;
 * allowed only here, inside Benchmarks/: Tack itself never links a C library.
 *
 *   openssl-ct LEAF.der ISSUER.der TIME_MS MIN_SECONDS LOGKEY_BASE64...
 *
 * Parses LEAF and ISSUER once (the client has the chain already) and loads each log's
 * key (base64 DER SubjectPublicKeyInfo) into a CTLOG_STORE once, as a client loads its
 * log list (CTLOG_STORE_load_file of a temporary file in OpenSSL's CT log list
 * format, the store's only public way in); then repeats one check until MIN_SECONDS have passed and prints
 * "<checks per second>". Timed by CLOCK_MONOTONIC, or by CPU time when
 * TACK_BENCH_CPU_TIME is set.
 *
 * One check: X509_get_ext_d2i of the leaf's embedded SCT list (NID_ct_precert_scts),
 * SCT_LIST_validate under a CT_POLICY_EVAL_CTX holding the leaf, the issuer, the store
 * and TIME_MS (each SCT: the log looked up, the precertificate TBS rebuilt without the
 * SCT extension, the issuer key hash, the signature verified), every SCT's status
 * SCT_VALIDATION_STATUS_VALID; free the list.
 *
 * Exit status 1 if an SCT does not validate (nothing is timed then).
 */
#include <openssl/ct.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec t;
    clock_gettime(clock_id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static X509 *read_certificate(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    X509 *certificate = d2i_X509_fp(f, NULL);
    fclose(f);
    return certificate;
}

/* 1 when the leaf's embedded SCTs are all valid, else 0. */
static int scts_valid(X509 *leaf, CT_POLICY_EVAL_CTX *context) {
    STACK_OF(SCT) *scts = X509_get_ext_d2i(leaf, NID_ct_precert_scts, NULL, NULL);
    if (!scts) return 0;
    int valid = SCT_LIST_validate(scts, context) == 1 && sk_SCT_num(scts) > 0;
    for (int i = 0; valid && i < sk_SCT_num(scts); i++) {
        valid = SCT_get_validation_status(sk_SCT_value(scts, i)) == SCT_VALIDATION_STATUS_VALID;
    }
    SCT_LIST_free(scts);
    return valid;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: openssl-ct LEAF.der ISSUER.der TIME_MS MIN_SECONDS LOGKEY_BASE64...\n");
        return 2;
    }
    if (getenv("TACK_BENCH_CPU_TIME")) clock_id = CLOCK_PROCESS_CPUTIME_ID;
    X509 *leaf = read_certificate(argv[1]);
    X509 *issuer = read_certificate(argv[2]);
    uint64_t when = strtoull(argv[3], NULL, 10);
    double seconds = atof(argv[4]);
    if (!leaf || !issuer) { fprintf(stderr, "openssl-ct: unreadable input\n"); return 1; }
    char path[] = "/tmp/openssl-ct-logs-XXXXXX";
    int descriptor = mkstemp(path);
    FILE *list = descriptor >= 0 ? fdopen(descriptor, "w") : NULL;
    if (!list) { fprintf(stderr, "openssl-ct: no temporary file\n"); return 1; }
    fprintf(list, "enabled_logs = ");
    for (int i = 5; i < argc; i++) fprintf(list, "%slog%d", i > 5 ? "," : "", i);
    fprintf(list, "\n");
    for (int i = 5; i < argc; i++) fprintf(list, "[log%d]\ndescription = log %d\nkey = %s\n", i, i, argv[i]);
    fclose(list);
    CTLOG_STORE *store = CTLOG_STORE_new();
    int loaded = store && CTLOG_STORE_load_file(store, path) == 1;
    unlink(path);
    if (!loaded) { fprintf(stderr, "openssl-ct: the log keys do not load\n"); return 1; }
    CT_POLICY_EVAL_CTX *context = CT_POLICY_EVAL_CTX_new();
    if (!context || !CT_POLICY_EVAL_CTX_set1_cert(context, leaf) || !CT_POLICY_EVAL_CTX_set1_issuer(context, issuer)) return 1;
    CT_POLICY_EVAL_CTX_set_shared_CTLOG_STORE(context, store);
    CT_POLICY_EVAL_CTX_set_time(context, when);
    if (!scts_valid(leaf, context)) {
        fprintf(stderr, "openssl-ct: an embedded SCT does not validate\n");
        return 1;
    }
    long count = 0;
    double start = now(), elapsed = 0;
    do {
        for (int i = 0; i < 100; i++) count += scts_valid(leaf, context);
        elapsed = now() - start;
    } while (elapsed < seconds);
    printf("%.1f\n", (double)count / elapsed);
    return 0;
}
