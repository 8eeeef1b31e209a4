/* The OpenSSL peer of `tack-bench tls13-handshake`: full TLS 1.3 handshakes between an
 * in-process OpenSSL client and server over a memory BIO pair (no socket, no kernel),
 * X25519, TLS_AES_128_GCM_SHA256, the RSA-2048 leaf and intermediate of Vectors/tls/pki,
 * the client verifying with the root as its only anchor (SSL_VERIFY_PEER, so
 * X509_verify_cert runs) and the host name checked (SSL_set1_host "localhost").
 * Each SSL_do_handshake call is timed on the side that makes it, so the client's cost is
 * measured apart from the server's (a single thread: the sides alternate).
 *
 * Usage: openssl-tls PKI_DIR SECONDS
 * Prints on standard output the client's handshakes per second (its time only), and on
 * standard error the client's and the server's microseconds per handshake and the count.
 * Timed by CPU time (CLOCK_PROCESS_CPUTIME_ID) when TACK_BENCH_CPU_TIME is set, as
 * tack-bench is; by the monotonic clock otherwise.
 * Build: cc -O2 -o .build/peers/openssl-tls Benchmarks/peers/openssl-tls.c -lssl -lcrypto
 * (tack-bench compiles it on first use).
 */
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void) {
    struct timespec t;
    clock_gettime(clock_id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    fprintf(stderr, "openssl-tls: %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 3) fail("usage: openssl-tls PKI_DIR SECONDS");
    char path[4096];
    double seconds = atof(argv[2]);
    if (getenv("TACK_BENCH_CPU_TIME")) clock_id = CLOCK_PROCESS_CPUTIME_ID;

    SSL_CTX *server = SSL_CTX_new(TLS_server_method());
    SSL_CTX *client = SSL_CTX_new(TLS_client_method());
    if (!server || !client) fail("SSL_CTX_new");
    SSL_CTX_set_min_proto_version(server, TLS1_3_VERSION);
    SSL_CTX_set_min_proto_version(client, TLS1_3_VERSION);
    SSL_CTX_set_ciphersuites(server, "TLS_AES_128_GCM_SHA256");
    SSL_CTX_set_ciphersuites(client, "TLS_AES_128_GCM_SHA256");
    SSL_CTX_set1_groups_list(server, "X25519");
    SSL_CTX_set1_groups_list(client, "X25519");
    /* No tickets, no session cache: every handshake is a full one. */
    SSL_CTX_set_options(server, SSL_OP_NO_TICKET);
    SSL_CTX_set_num_tickets(server, 0);
    SSL_CTX_set_session_cache_mode(server, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_session_cache_mode(client, SSL_SESS_CACHE_OFF);
    snprintf(path, sizeof path, "%s/chain-rsa.pem", argv[1]);
    if (SSL_CTX_use_certificate_chain_file(server, path) != 1) fail("server chain");
    snprintf(path, sizeof path, "%s/leaf-rsa.key", argv[1]);
    if (SSL_CTX_use_PrivateKey_file(server, path, SSL_FILETYPE_PEM) != 1) fail("server key");
    snprintf(path, sizeof path, "%s/root.pem", argv[1]);
    if (SSL_CTX_load_verify_locations(client, path, NULL) != 1) fail("client anchor");
    SSL_CTX_set_verify(client, SSL_VERIFY_PEER, NULL);

    double clientTime = 0, serverTime = 0;
    long count = 0;
    double end = now() + seconds;
    while (now() < end || count < 10) {
        SSL *c = SSL_new(client), *s = SSL_new(server);
        BIO *cb, *sb;
        if (!c || !s || BIO_new_bio_pair(&cb, 0, &sb, 0) != 1) fail("SSL_new / BIO pair");
        SSL_set_bio(c, cb, cb);
        SSL_set_bio(s, sb, sb);
        SSL_set_tlsext_host_name(c, "localhost");
        SSL_set1_host(c, "localhost");
        SSL_set_connect_state(c);
        SSL_set_accept_state(s);
        int clientDone = 0, serverDone = 0;
        for (int round = 0; round < 16 && !(clientDone && serverDone); round++) {
            if (!clientDone) {
                double t = now();
                int r = SSL_do_handshake(c);
                clientTime += now() - t;
                if (r == 1) clientDone = 1;
                else if (SSL_get_error(c, r) != SSL_ERROR_WANT_READ) fail("client handshake");
            }
            if (!serverDone) {
                double t = now();
                int r = SSL_do_handshake(s);
                serverTime += now() - t;
                if (r == 1) serverDone = 1;
                else if (SSL_get_error(s, r) != SSL_ERROR_WANT_READ) fail("server handshake");
            }
        }
        if (!clientDone || !serverDone) fail("handshake did not complete");
        if (SSL_get_verify_result(c) != X509_V_OK) fail("verification failed");
        SSL_free(c);
        SSL_free(s);
        count++;
    }
    printf("%.1f\n", count / clientTime);
    fprintf(stderr, "client %.1f us, server %.1f us per handshake, %ld handshakes\n",
            clientTime / count * 1e6, serverTime / count * 1e6, count);
    return 0;
}
