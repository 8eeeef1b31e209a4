/* The stapled-OCSP check both OpenSSL peers time (openssl-ocsp.c alone,
 * openssl-verify.c after a chain verdict), written once: the response is
 * successful, its signature verifies (OCSP_basic_verify with the served
 * certificates, trusting the store's), it has a good status for leaf as issued
 * by issuer, and `when` lies within thisUpdate..nextUpdate with Tack's default
 * allowance of 300 seconds. Returns 1 when all hold, else 0. */
#ifndef TACK_PEERS_OCSP_GOOD_H
#define TACK_PEERS_OCSP_GOOD_H

#include <openssl/ocsp.h>
#include <openssl/x509.h>
#include <time.h>

static int ocsp_says_good(const unsigned char *der, long length, X509 *leaf, X509 *issuer,
                          STACK_OF(X509) *served, X509_STORE *store, time_t when) {
    const unsigned char *p = der;
    OCSP_RESPONSE *response = d2i_OCSP_RESPONSE(NULL, &p, length);
    if (!response) return 0;
    int good = 0, status = -1, reason = -1;
    OCSP_BASICRESP *basic = NULL;
    OCSP_CERTID *id = NULL;
    ASN1_GENERALIZEDTIME *revoked = NULL, *this_update = NULL, *next_update = NULL;
    if (!leaf || !issuer || OCSP_response_status(response) != OCSP_RESPONSE_STATUS_SUCCESSFUL) goto done;
    basic = OCSP_response_get1_basic(response);
    if (!basic || OCSP_basic_verify(basic, served, store, OCSP_TRUSTOTHER | OCSP_NOCHAIN) != 1) goto done;
    id = OCSP_cert_to_id(NULL, leaf, issuer);
    if (!id || !OCSP_resp_find_status(basic, id, &status, &reason, &revoked, &this_update, &next_update)) goto done;
    if (status != V_OCSP_CERTSTATUS_GOOD) goto done;
    if (ASN1_TIME_cmp_time_t(this_update, when + 300) > 0) goto done;
    if (next_update && ASN1_TIME_cmp_time_t(next_update, when - 300) < 0) goto done;
    good = 1;
done:
    OCSP_CERTID_free(id);
    OCSP_BASICRESP_free(basic);
    OCSP_RESPONSE_free(response);
    return good;
}

#endif
