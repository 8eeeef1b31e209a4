/*
 * rsa-modexp: how fast compiled C does what Tack's RSA verification spends its time on,
 * beside OpenSSL's assembly, on the same machine (issue 12's RSA targets).
 *
 *   cc -O3 -march=native Benchmarks/peers/rsa-modexp.c -o /tmp/rsa-modexp -lcrypto
 *   /tmp/rsa-modexp 2048     (or 4096)
 *
 * Computes s^65537 mod n for a fixed odd modulus of BITS bits (top bit set) and a base
 * below it, two ways, and prints the best of 15 rounds of each:
 *   - portable C: Montgomery multiplication in the CIOS form on 64-bit limbs with
 *     unsigned __int128 products, the algorithm of Sources/TackSignature/RSAMontgomery.swift
 *     (into the Montgomery domain, 16 squarings, one multiplication, out again);
 *   - OpenSSL: BN_mod_exp_mont with a prepared BN_MONT_CTX, which on x86-64 runs
 *     OpenSSL's hand-written assembly (bn_mul_mont / bn_sqr8x_mont with MULX, ADCX, ADOX:
 *     two carry chains at once, which no compiler emits from C or Swift).
 * and checks that both give the same result. Not part of tack-bench: nothing here is
 * Tack. Tack's own figure for the same operation is tack-bench's verify-rsa2048 /
 * verify-rsa4096 (the whole verification, for which this is almost all of the time).
 */
#include <openssl/bn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;
enum { MAX_LIMBS = 64 };

/* r = a*b/R mod n; t has k + 2 limbs. */
static void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *n, uint64_t n0, int k, uint64_t *t) {
    memset(t, 0, (size_t)(k + 2) * 8);
    for (int i = 0; i < k; i++) {
        uint64_t c = 0;
        u128 p;
        for (int j = 0; j < k; j++) { p = (u128)a[j] * b[i] + t[j] + c; t[j] = (uint64_t)p; c = (uint64_t)(p >> 64); }
        p = (u128)t[k] + c; t[k] = (uint64_t)p; t[k + 1] = (uint64_t)(p >> 64);
        uint64_t m = t[0] * n0;
        p = (u128)m * n[0] + t[0]; c = (uint64_t)(p >> 64);
        for (int j = 1; j < k; j++) { p = (u128)m * n[j] + t[j] + c; t[j - 1] = (uint64_t)p; c = (uint64_t)(p >> 64); }
        p = (u128)t[k] + c; t[k - 1] = (uint64_t)p; t[k] = t[k + 1] + (uint64_t)(p >> 64);
    }
    int ge = t[k] != 0;
    if (!ge) {
        ge = 1;
        for (int i = k - 1; i >= 0; i--) if (t[i] != n[i]) { ge = t[i] > n[i]; break; }
    }
    if (ge) {
        uint64_t borrow = 0;
        for (int i = 0; i < k; i++) { u128 d = (u128)t[i] - n[i] - borrow; t[i] = (uint64_t)d; borrow = (uint64_t)(d >> 64) & 1; }
    }
    memcpy(r, t, (size_t)k * 8);
}

static uint64_t seed = 0x1234567890abcdefULL;
static uint64_t next(void) { /* SplitMix64: a fixed, seeded modulus and base */
    uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (double)t.tv_sec + (double)t.tv_nsec * 1e-9; }

static BIGNUM *to_bn(const uint64_t *limbs, int k) {
    unsigned char be[8 * MAX_LIMBS];
    for (int i = 0; i < k; i++)
        for (int j = 0; j < 8; j++) be[8 * (k - 1 - i) + (7 - j)] = (unsigned char)(limbs[i] >> (8 * j));
    return BN_bin2bn(be, 8 * k, NULL);
}

int main(int argc, char **argv) {
    int bits = argc > 1 ? atoi(argv[1]) : 2048;
    int k = bits / 64;
    if (k < 2 || k > MAX_LIMBS || bits % 64) { fprintf(stderr, "usage: %s 2048|3072|4096\n", argv[0]); return 2; }
    uint64_t n[MAX_LIMBS], a[MAX_LIMBS], r2[MAX_LIMBS], x[MAX_LIMBS], am[MAX_LIMBS], one[MAX_LIMBS], t[MAX_LIMBS + 2];
    for (int i = 0; i < k; i++) { n[i] = next(); a[i] = next(); }
    n[0] |= 1; n[k - 1] |= 1ULL << 63; a[k - 1] &= ~(1ULL << 63);
    uint64_t inverse = n[0];
    for (int i = 0; i < 5; i++) inverse *= 2 - n[0] * inverse;
    uint64_t n0 = 0 - inverse;

    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *N = to_bn(n, k), *A = to_bn(a, k), *E = BN_new(), *Y = BN_new(), *R2 = BN_new();
    BN_set_word(E, 65537);
    BN_set_bit(R2, 2 * 64 * k);
    BN_mod(R2, R2, N, ctx); /* R^2 mod n: setup, outside the timing */
    memset(r2, 0, sizeof r2);
    BN_bn2lebinpad(R2, (unsigned char *)r2, 8 * k);
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    BN_MONT_CTX_set(mont, N, ctx);
    memset(one, 0, sizeof one);
    one[0] = 1;

    int iterations = 1000 * 2048 / bits * 2048 / bits;
    double best_c = 1e9, best_openssl = 1e9;
    for (int round = 0; round < 15; round++) {
        double t0 = now();
        for (int i = 0; i < iterations; i++) {
            mont_mul(am, a, r2, n, n0, k, t);
            memcpy(x, am, (size_t)k * 8);
            for (int b = 0; b < 16; b++) mont_mul(x, x, x, n, n0, k, t);
            mont_mul(x, x, am, n, n0, k, t);
            mont_mul(x, x, one, n, n0, k, t);
        }
        double t1 = now();
        for (int i = 0; i < iterations; i++) BN_mod_exp_mont(Y, A, E, N, ctx, mont);
        double t2 = now();
        if ((t1 - t0) / iterations < best_c) best_c = (t1 - t0) / iterations;
        if ((t2 - t1) / iterations < best_openssl) best_openssl = (t2 - t1) / iterations;
    }
    unsigned char y[8 * MAX_LIMBS];
    BN_bn2lebinpad(Y, y, 8 * k);
    int equal = memcmp(y, x, (size_t)k * 8) == 0;
    printf("RSA-%d s^65537 mod n: portable C (CIOS, __int128) %.1f us; OpenSSL BN_mod_exp_mont %.1f us; same result: %s\n",
           bits, best_c * 1e6, best_openssl * 1e6, equal ? "yes" : "NO");
    return equal ? 0 : 1;
}
