/*
 * openssl-pbkdf2: OpenSSL's PKCS5_PBKDF2_HMAC with SHA-256, for tack-bench's
 * pbkdf2-sha256-N (issue 21). tack-bench compiles and runs it:
 *
 *   openssl-pbkdf2 ITERATIONS SECONDS
 *
 * Derives a 32-byte key from a fixed password and 16-byte salt with ITERATIONS
 * iterations, repeatedly for at least SECONDS, and prints derivations per second.
 * Times by wall clock, or by this thread's CPU time when TACK_BENCH_CPU_TIME is set
 * (tack-bench --cpu-time), as tack-bench times itself.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(int cpu) {
    struct timespec t;
    clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s ITERATIONS SECONDS\n", argv[0]); return 2; }
    int iterations = atoi(argv[1]);
    double seconds = atof(argv[2]);
    int cpu = getenv("TACK_BENCH_CPU_TIME") != NULL;
    static const char password[] = "correct horse battery staple";
    static const unsigned char salt[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    unsigned char key[32];
    unsigned sink = 0;
    long count = 0;
    double start = now(cpu), elapsed = 0;
    do {
        if (!PKCS5_PBKDF2_HMAC(password, sizeof password - 1, salt, sizeof salt, iterations, EVP_sha256(), sizeof key, key))
            return 1;
        sink += key[0];
        count++;
        elapsed = now(cpu) - start;
    } while (elapsed < seconds);
    printf("%f\n", (double)count / elapsed);
    return sink == 0xffffffffu;  /* keeps the work observable */
}
