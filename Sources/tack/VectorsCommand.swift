// `tack vectors`: runs published test-vector suites through Tack. Each suite is a
// subcommand in a file of its own: `wycheproof` (WycheproofCommand.swift) and
// `limbo` (LimboCommand.swift).

enum VectorsCommand {
    static let help = """
        USAGE: tack vectors wycheproof [--verbose] FILE...
               tack vectors limbo [OPTIONS] [FILE|-]   (see tack vectors limbo --help)

        Runs Wycheproof files through Tack and compares each outcome with the file's
        `result`. Schemas (any curve, key size or hash):
          ecdsa_verify_schema_v1          ECDSA, DER signatures
          ecdsa_p1363_verify_schema_v1    ECDSA, r||s signatures
          eddsa_verify_schema_v1          Ed25519
          rsassa_pkcs1_verify_schema_v1   RSA PKCS#1 v1.5
          rsassa_pss_verify_schema_v1     RSASSA-PSS
          ind_cpa_test_schema_v1          AES-CBC with PKCS#5/#7 padding
          mac_test_schema_v1              HMAC (tags truncated to the group's tagSize)
          pbkdf_test_schema               PBKDF2
          pbe_test_schema                 PBES2: PBKDF2 then AES-CBC
          aead_test_schema_v1             AES-GCM and ChaCha20-Poly1305 (128-bit tags; open, and seal for valid vectors)
          ecdh_ecpoint_test_schema_v1     ECDH on P-256/P-384, peer key as a SEC 1 point
          xdh_comp_schema_v1              X25519
          hkdf_test_schema_v1             HKDF
        (and the older schemas of the same names without _v1).

        A `valid` vector must verify (decrypt to the file's plaintext, match its tag or
        derived key) and an `invalid` one must not; either is counted as agreeing or
        disagreeing. An `acceptable` vector (legal but discouraged) counts neither way: it
        is reported with Tack's verdict, except where Tack has a stated stance on its flag,
        which the verdict must then match: `MissingNull` (a PKCS#1 DigestInfo without its
        NULL) must be rejected, so that a signature has one valid encoding, and
        `CompressedPublic` (an ECDH peer key as a compressed point) accepted, and
        `ZeroSharedSecret` (X25519 with a small-order peer key) rejected, as RFC 8446
        §7.4.2 requires. Groups Tack cannot run are skipped with the reason, counted and never passed: hashes other
        than SHA-224/256/384/512 and SHA-512/224, SHA-512/256 (HMAC, PBKDF2 and PBES2
        also SHA-1, which signatures refuse), curves other than P-256/P-384/P-521 (ECDH:
        P-256/P-384), AEADs other than AES-GCM and ChaCha20-Poly1305, Ed448, X448,
        RSA keys outside 1024-8192 bits or with an exponent above 33 bits, masks other
        than MGF1. PBKDF2 runs up to 2^24 iterations; a vector asking for more is refused.

        Per file it prints the schema, the counts, the acceptable verdicts by flag, the
        skipped groups by reason, and every disagreement (tcId, expected result, Tack's
        verdict, comment). The last line is always `N passed, N failed`: N passed counts
        the agreeing vectors, N failed the disagreeing ones.

        OPTIONS:
          --verbose   also list each acceptable vector and each skipped group

        EXAMPLES (the shared vectors beside the checkout, see README.md):
          tack vectors wycheproof ../shared/vectors/wycheproof-primitives/hmac_sha256_test.json
          tack vectors wycheproof --verbose ../shared/vectors/wycheproof-primitives/aes_cbc_pkcs5_test.json

        Exit status: 0 if every vector agrees, 1 on any disagreement or a file that cannot
        be read, is not JSON, or has an unknown schema (as for every command's inputs),
        2 on a usage error.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        var arguments = arguments
        guard let suite = arguments.first else { throw .usage("tack vectors needs a suite: tack vectors wycheproof FILE...") }
        arguments.removeFirst()
        switch suite {
        case "--help", "-h", "help":
            io.emit(help)
            return .success
        case "wycheproof":
            return try WycheproofCommand.run(arguments, io: io)
        case "limbo":
            return try LimboCommand.run(arguments, io: io)
        default:
            throw .usage("unknown vector suite \(suite) (wycheproof, limbo); see tack vectors --help")
        }
    }
}
