// Chain verdicts and pin policies (TackTrust): the chains of Vectors/chains (all
// but the 500-decoy cases), leaf-CA cases of Vectors/certs validated past 2038,
// 2106 and at 9999-12-31, pin policies over a verified path, and stapled OCSP
// responses (Vectors/ocsp) under each revocation policy.

#if !CORE_ONLY
import TackDER
import TackTrust
import TackX509

/// The certificate, signature, integer-width, chain, pin and CT groups, in the order the
/// hosted program (Main.swift) and the bare-metal known-answer image
/// (Tests/BareMetal/KnownAnswers/Main.swift) both run them.
func checkCertificateGroups(_ tally: inout Tally) {
    checkCertificates(&tally)
    tally.endGroup("certificates")
    checkSignatures(&tally)
    tally.endGroup("signatures")
    checkIntegerWidths(&tally)
    tally.endGroup("integers")
    checkChains(&tally)
    tally.endGroup("chains")
    checkPins(&tally)
    tally.endGroup("pins")
    checkCertificateTransparency(&tally)
    tally.endGroup("ct")
}

func checkChains(_ tally: inout Tally) {
    let files = chainFiles.map { bytes($0.1) }
    for (name, anchorIndices, chainIndices, crlIndices, time, hostKind, host, client, expected) in chainCases {
        do throws(X509Error) {
            var anchors: [Certificate] = []
            for index in anchorIndices { anchors.append(try Certificate(derEncoded: files[index])) }
            var crls: [CertificateRevocationList] = []
            for index in crlIndices { crls.append(try CertificateRevocationList(derEncoded: files[index])) }
            let chain = chainIndices.map { files[$0] }
            let options = TrustOptions(purpose: client ? .clientAuthentication : .serverAuthentication, revocationLists: crls)
            let store = AnchorStore(anchors)
            let result = TrustEvaluator(anchors: store, options: options).evaluate(servedChain: chain, host: peerHost(hostKind, host), at: time)
            let actual = result.code
            tally.check(expected.contains { $0.description == actual }, "chain \(name): \(actual), expected \(joined(expected))")
            let details = result.details
            tally.check(details.signatureChecks <= options.budget.signatureChecks && details.buildSteps <= options.budget.buildSteps,
                        "chain \(name): over budget")
            if case .trusted(let path, _) = result {
                // A trusted path starts at the leaf that was sent and ends in an anchor.
                let leaf = try Certificate(derEncoded: chain[0])
                tally.check(path.leaf == leaf && path.anchor.map { anchors.contains($0) } == true,
                            "chain \(name): the trusted path does not run from the leaf to an anchor")
            }
        } catch {
            tally.check(false, "chain \(name): \(error)")
        }
    }
}

func checkPins(_ tally: inout Tally) {
    let files = chainFiles.map { bytes($0.1) }
    for (name, anchorIndices, chainIndices, host, domain, caPins, leafPins, expected, success) in pinCases {
        do throws(X509Error) {
            var anchors: [Certificate] = []
            for index in anchorIndices { anchors.append(try Certificate(derEncoded: files[index])) }
            var chain: [Certificate] = []
            for index in chainIndices { chain.append(try Certificate(derEncoded: files[index])) }
            var ca: [SPKIPin] = []
            var leaf: [SPKIPin] = []
            for text in caPins { if let pin = try? SPKIPin(text.description) { ca.append(pin) } }
            for text in leafPins { if let pin = try? SPKIPin(text.description) { leaf.append(pin) } }
            tally.check(ca.count == caPins.count && leaf.count == leafPins.count, "pins \(name): a pin does not parse")
            let policy = PinPolicy(rules: [PinRule(domain: domain.description, caIdentities: ca, leafIdentities: leaf)])
            let result = TrustEvaluator(anchors: AnchorStore(anchors))
                .evaluate(servedChain: chain, host: try? PeerHost(host.description), at: 1748736000, pinning: policy)
            let actual = result.details.pins.outcome.code
            tally.check(expected.description == actual, "pins \(name): \(actual), expected \(expected)")
            tally.check(result.isTrusted == success, "pins \(name): success \(result.isTrusted), expected \(success)")
        } catch {
            tally.check(false, "pins \(name): \(error)")
        }
    }
}

/// Every case of Vectors/ocsp/manifest.txt: OCSP responses parsed, matched and
/// verified under the case's revocation policy, to the manifest's decision code.
func checkOCSP(_ tally: inout Tally) {
    let files = ocspFiles.map { bytes($0.1) }
    for (name, anchorIndices, chainIndices, responseIndices, crlIndices, time, policyName, expected) in ocspCases {
        do throws(X509Error) {
            var anchors: [Certificate] = []
            for index in anchorIndices { anchors.append(try Certificate(derEncoded: files[index])) }
            var responses: [OCSPResponse] = []
            for index in responseIndices { responses.append(try OCSPResponse(derEncoded: files[index])) }
            var crls: [CertificateRevocationList] = []
            for index in crlIndices { crls.append(try CertificateRevocationList(derEncoded: files[index])) }
            let policy: RevocationPolicy
            if same(policyName, "none") {
                policy = RevocationPolicy.none
            } else if same(policyName, "hard") {
                policy = .hardFail
            } else {
                policy = .softFail
            }
            let options = TrustOptions(revocationLists: crls, stapledResponses: responses, revocationPolicy: policy)
            let result = TrustEvaluator(anchors: AnchorStore(anchors), options: options)
                .evaluate(servedChain: chainIndices.map { files[$0] }, host: try? PeerHost("example.com"), at: time)
            tally.check(expected.description == result.code, "ocsp \(name): \(result.code), expected \(expected)")
        } catch {
            tally.check(false, "ocsp \(name): \(error)")
        }
    }
}

func peerHost(_ kind: HostKind, _ host: StaticString) -> PeerHost? {
    switch kind {
    case .dns: return try? PeerHost(host.description)
    case .ip: return try? PeerHost(ipAddress: bytes(host))
    case .none: return nil
    }
}

/// The alternatives of a case, `a|b`.
func joined(_ names: [StaticString]) -> String {
    var text = ""
    for name in names { text += (text.isEmpty ? "" : "|") + name.description }
    return text
}

/// Whether two StaticStrings hold the same bytes.
func same(_ a: StaticString, _ b: StaticString) -> Bool {
    a.withUTF8Buffer { x in b.withUTF8Buffer { y in x.elementsEqual(y) } }
}

#endif
