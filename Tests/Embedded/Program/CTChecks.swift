// Certificate Transparency (issue 33): the generated log list of Vectors/ct read
// strictly, and every embedded-SCT case of Vectors/ct/manifest.txt evaluated as
// on the host: the precertificate TBS rebuilt, each SCT's P-256 signature checked
// against its log's key, each SCT's status, and the Apple and Chrome policies'
// verdicts (Generated/KnownAnswersCT.swift).

#if !CORE_ONLY
import TackTrust
import TackX509

func checkCertificateTransparency(_ tally: inout Tally) {
    let logList: CTLogList
    do throws(CTLogListError) {
        logList = try CTLogList(json: utf8(ctLogListJSON))
    } catch {
        tally.check(false, "ct: the log list does not read: \(error.description)")
        return
    }
    let issuer: Certificate
    do throws(X509Error) {
        issuer = try Certificate(derEncoded: bytes(ctIssuerDER))
    } catch {
        tally.check(false, "ct: the issuer does not parse: \(error.description)")
        return
    }
    for (name, leafHex, time, statuses, apple, chrome) in ctCases {
        let leaf: Certificate
        do throws(X509Error) {
            leaf = try Certificate(derEncoded: bytes(leafHex))
        } catch {
            tally.check(false, "ct \(text(name)): the leaf does not parse: \(error.description)")
            continue
        }
        // No key paths and no interpolated enums: Embedded Swift has neither.
        for (policy, policyName, expected) in [(CTPolicy.apple, "apple", apple), (CTPolicy.chrome, "chrome", chrome)] {
            let evaluation = CTEvaluation(
                leaf: leaf, issuer: issuer, stapledResponses: [],
                requirement: CTRequirement(logList: logList, policy: policy), at: time)
            let found = evaluation.scts.map { $0.status.rawValue }.joined(separator: " ")
            tally.check(found == text(statuses), "ct \(text(name)): statuses \(found), expected \(text(statuses))")
            let verdict = evaluation.failure?.code ?? "compliant"
            tally.check(verdict == text(expected), "ct \(text(name)) \(policyName): \(verdict), expected \(text(expected))")
        }
    }
}

/// A StaticString as a String.
private func text(_ value: StaticString) -> String {
    value.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
}
#endif
