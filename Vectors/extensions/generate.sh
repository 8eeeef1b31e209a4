#!/bin/sh
# Regenerates the certificates of Vectors/extensions with openssl (3.0 or later).
# Each certificate carries the extensions named in its file name, configured
# below; Tests/TackX509Tests/ExtensionVectorTests.swift checks the decoded values
# against this configuration. Keys are throwaway P-256 keys, not kept.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/openssl.cnf" <<'CNF'
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
C = US
ST = California
L = San Francisco
O = Tack Test "Vectors", Inc.
OU = Extensions + Names
CN = #all.example

[ ca_all ]
basicConstraints = critical, CA:TRUE, pathlen:2
keyUsage = critical, keyCertSign, cRLSign, digitalSignature
extendedKeyUsage = serverAuth, clientAuth, codeSigning, emailProtection, timeStamping, OCSPSigning, 1.2.3.4.5
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always, issuer:always
subjectAltName = @san
issuerAltName = email:issuer@example.com, URI:https://issuer.example/
nameConstraints = critical, @nc
certificatePolicies = 2.23.140.1.2.1, @policy
policyMappings = 1.2.3.1:1.2.3.2, 1.2.3.3:1.2.3.4
policyConstraints = requireExplicitPolicy:1, inhibitPolicyMapping:3
inhibitAnyPolicy = 5
crlDistributionPoints = crl_section
authorityInfoAccess = OCSP;URI:http://ocsp.example/, caIssuers;URI:http://ca.example/ca.der
# A synthetic SCT list (one SCT: version 0, log ID AA..AA, timestamp 0x17F00000000).
1.3.6.1.4.1.11129.2.4.2 = DER:04350033003100AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA0000017F000000000000040300023000

[ san ]
DNS.1 = all.example
DNS.2 = *.wild.example
IP.1 = 192.0.2.1
IP.2 = 2001:db8::1
email.1 = admin@example.com
URI.1 = https://all.example/path
RID.1 = 1.2.3.4.5.6
dirName.1 = dir_sect
otherName.1 = 1.3.6.1.4.1.311.20.2.3;UTF8:upn@example.com

[ dir_sect ]
C = DE
O = Directory Org
CN = Dir Name

[ nc ]
permitted;DNS.1 = .example
permitted;IP.1 = 192.0.2.0/255.255.255.0
permitted;IP.2 = 2001:db8::/ffff:ffff::
permitted;email.1 = example.com
excluded;DNS.1 = bad.example
excluded;dirName.1 = dir_sect

[ policy ]
policyIdentifier = 1.3.6.1.4.1.99999.1
CPS.1 = "https://cps.example/cps"
userNotice.1 = @notice

[ notice ]
explicitText = "Explicit notice text"
organization = "Notice Org"
noticeNumbers = 1, 2, 3

[ crl_section ]
fullname = URI:http://crl.example/ca.crl
reasons = keyCompromise, CACompromise

[ leaf_min ]
basicConstraints = CA:FALSE
keyUsage = digitalSignature
subjectAltName = DNS:min.example
CNF

openssl ecparam -name prime256v1 -genkey -noout -out "$work/key.pem"
openssl req -new -x509 -key "$work/key.pem" -config "$work/openssl.cnf" -extensions ca_all \
    -days 3650 -set_serial 0x1001 -subj "/C=US/ST=California/L=San Francisco/O=Tack Test \"Vectors\", Inc./OU=Extensions \\+ Names/CN=#all.example+UID=all " \
    -outform DER -out all-extensions.der
openssl req -new -x509 -key "$work/key.pem" -config "$work/openssl.cnf" -extensions leaf_min \
    -days 3650 -set_serial 0x1002 -subj "/CN=min.example" -outform DER -out minimal-leaf.der
# The human-readable twins.
for name in all-extensions minimal-leaf; do
    openssl x509 -inform DER -in "$name.der" -noout -text -nameopt RFC2253 > "$name.txt"
done
