// `tack plist`: the NSAppTransportSecurity → NSPinnedDomains XML for a chain, ready
// to paste into an Info.plist.

import TackFormats
import TackTrust
import TackX509

enum PlistCommand {
    static let help = """
        USAGE: tack plist CHAIN --domain DOMAIN [--domain DOMAIN]... [--include-subdomains]
                          [--backup-pin PIN]... [--leaf] [--allow-single-pin]

        Prints the NSAppTransportSecurity → NSPinnedDomains entry that pins DOMAIN to the
        chain's CA identities (every certificate above the leaf: NSPinnedCAIdentities), or
        with --leaf to the leaf's key (NSPinnedLeafIdentities). CHAIN is PEM with the leaf
        first, as `openssl s_client -showcerts` prints it. The output is the key and dict
        to paste inside the top-level <dict> of an Info.plist.

        A rule needs a backup pin: with a single pin, the day that key is replaced every
        installed copy of the app refuses the server until it is updated. tack plist
        refuses to print a rule with fewer than two pins unless --allow-single-pin is
        given. A backup pin is the pin of a key you hold in reserve (tack pin backup.pem,
        or tack pin --raw-key) or of another CA you may move to.

        OPTIONS:
          --domain DOMAIN        the host the rule is for (repeatable: one rule each)
          --include-subdomains   NSIncludesSubdomains: also one label deeper
          --backup-pin PIN       add a pin (Base64, sha256/Base64 or hex; repeatable)
          --leaf                 pin the leaf's key instead of the CA identities
          --allow-single-pin     print a rule with a single pin anyway

        EXAMPLES:
          tack plist Vectors/certs/chain-example.pem --domain example.com --include-subdomains
          tack plist Vectors/certs/chain-leaf.pem --leaf --domain api.example.com --backup-pin "$(tack pin Vectors/cli-inputs/p256-leaf.sec1.pem | cut -d' ' -f1)"

        Exit status: 0 on success, 1 if the chain cannot be read or the rule would have a
        single pin, 2 on a usage error.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--domain", "--backup-pin"],
                                 switches: ["--include-subdomains", "--leaf", "--allow-single-pin"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        guard args.operands.count == 1, let path = args.operands.first else {
            throw .usage(args.operands.isEmpty ? "tack plist needs a CHAIN file" : "tack plist takes one CHAIN file")
        }
        let domains = args.values("--domain")
        guard !domains.isEmpty else { throw .usage("tack plist needs --domain") }
        for domain in domains {
            guard case .dnsName(let name) = try parsePeer(domain, option: "--domain").kind, name == domain else {
                throw .usage("--domain \(domain) is not a host name as NSPinnedDomains keys are (lowercase letters, digits, '-', '.'; no address, no trailing dot; no wildcard: use --include-subdomains)", code: "domain_not_a_key")
            }
        }
        var backups: [SPKIPin] = []
        for text in args.values("--backup-pin") {
            do {
                backups.append(try SPKIPin(text))
            } catch {
                throw .usage("--backup-pin \(text): \(error)")
            }
        }

        let (certificates, failures) = readCertificates(InputSource.files([path]), io: io)
        if let failure = failures.first { throw failure }
        guard let leaf = certificates.first else { throw CLIError("\(inputName(path)): no certificate", code: "nothing_found") }
        let leafOnly = args.isSet("--leaf")
        let pinned = leafOnly ? [leaf.certificate] : certificates.dropFirst().map(\.certificate)
        guard !pinned.isEmpty else {
            throw CLIError("\(inputName(path)) holds only a leaf: give the whole chain (openssl s_client -showcerts), or pin the leaf with --leaf",
                           code: "only_a_leaf")
        }
        var pins: [SPKIPin] = []
        for pin in pinned.map(\.spkiPin) + backups where !pins.contains(pin) { pins.append(pin) }
        if pins.count < 2 && !args.isSet("--allow-single-pin") {
            throw CLIError("""
                refusing a rule with a single pin (\(pins[0].base64)): when that key is replaced, every \
                installed copy of the app refuses \(domains.joined(separator: ", ")) until it is updated. \
                Add --backup-pin with the pin of a key held in reserve (tack pin backup.pem), \
                or pass --allow-single-pin
                """, code: "single_pin")
        }

        let identities = PropertyListValue.array(pins.map { pin in
            var entry = PropertyListDictionary()
            entry["SPKI-SHA256-BASE64"] = .string(pin.base64)
            return .dictionary(entry)
        })
        var pinnedDomains = PropertyListDictionary()
        for domain in domains {
            var rule = PropertyListDictionary()
            if args.isSet("--include-subdomains") { rule["NSIncludesSubdomains"] = .boolean(true) }
            rule[leafOnly ? "NSPinnedLeafIdentities" : "NSPinnedCAIdentities"] = identities
            pinnedDomains[domain] = .dictionary(rule)
        }
        var ats = PropertyListDictionary()
        ats["NSPinnedDomains"] = .dictionary(pinnedDomains)
        var comment = "<!-- tack plist: \(leafOnly ? "leaf" : "CA") identities of \(inputName(path))"
        if !backups.isEmpty { comment += " + \(backups.count) backup pin\(backups.count == 1 ? "" : "s")" }
        io.emit(comment + " -->")
        io.emit("<key>NSAppTransportSecurity</key>")
        io.emit(String(PropertyList.xmlFragment(.dictionary(ats)).dropLast()))
        return .success
    }
}
