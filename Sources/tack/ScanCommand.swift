// `tack scan`: bulk mode. One JSON object per certificate per line, in input order,
// computed on every core.

import TackFormats
import Dispatch
import Foundation
import TackDER
import TackTrust
import TackX509

enum ScanCommand {
    static let help = """
        USAGE: tack scan [--jobs N] [--quiet] [FILE...|DIR...|-]

        Reads certificates in bulk and writes one JSON object per certificate per line, in
        input order. Inputs: PEM files (any number of blocks), DER files, directories (every
        file in them, such as /etc/ssl/certs; a file behind several links, as OpenSSL's
        hash-named links are, is read once), or text with one
        Base64 DER certificate per line (blank lines skipped); with no FILE or with `-`,
        standard input, which is read as it streams: one Base64 line in, one JSON line out,
        so tack scan works as the command of Spark's RDD.pipe or Hadoop streaming.

        Each line has: subject, issuer (RFC 4514), serial (hex), not_before, not_after
        (RFC 3339), key_type, key_bits, signature_algorithm, spki_sha256 (the Base64 pin),
        sha256 (hex fingerprint of the certificate), dns_names, ip_addresses, is_ca, and
        file and index (1-based, per file) to find the input again. A certificate that does
        not parse gives a line with file, index, error (the reason) and offset (the byte
        offset within that certificate's DER, or within the line for bad Base64), and the
        scan goes on.

        A certificate met again in the files of one scan (the same DER, by its SHA-256: a
        directory such as /etc/ssl/certs holds each CA alone and again in the bundle
        ca-certificates.crt) is described once: where it comes again, its line has only
        file, index, sha256 and duplicate_of (the file and index of its first line).
        Standard input is not deduplicated (it streams, one line out per line in).

        At the end, the count, the failures, the duplicates skipped and the rate go to
        standard error; while it runs a progress line is shown there when standard error
        is a terminal.

        OPTIONS:
          --jobs N    worker threads (default: every core, \(ProcessInfo.processInfo.activeProcessorCount) here)
          --quiet     no count, rate or progress on standard error

        EXAMPLES:
          tack scan /etc/ssl/certs
          openssl x509 -in Vectors/certs/p256-leaf.pem -outform der | base64 -w0 | tack scan

        Exit status: 0 when every certificate parsed, 1 if any did not (or an input could not
        be read), 2 on a usage error.
        """

    /// Lines per batch: large enough that a batch split across the workers amortises
    /// the hand-off (about a millisecond of work per worker per chunk at ~50 µs per
    /// certificate), small enough that output starts at once and memory stays flat.
    static let batchSize = 4096

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments, valued: ["--jobs", "--format"], switches: ["--quiet", "--json"])
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        // NDJSON is scan's only output; --format json (or --json) is accepted for symmetry.
        let format = try args.outputFormat()
        let named = try args.value("--format")
        guard format == .json || named == nil else { throw .usage("tack scan writes JSON lines only (--format json)") }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = try args.value("--jobs") {
            guard let count = Int(text), (1...1024).contains(count) else { throw .usage("--jobs needs a number from 1 to 1024, not \(text)") }
            jobs = count
        }
        let quiet = args.isSet("--quiet")
        var scanner = Scanner(workers: jobs, progress: !quiet && io.errorIsTerminal, io: io)
        let paths = try InputDirectory.expanding(args.operands.isEmpty ? ["-"] : args.operands)
        var unreadable = 0
        for path in paths {
            let name = inputName(path)
            if path == "-" {
                do {
                    try scanner.scanStream(name: name)
                } catch {
                    io.warn(error.description)
                    unreadable += 1
                }
                continue
            }
            do {
                scanner.scanFile(try readInput(path, io: io), name: name)
            } catch {
                io.warn(error.description)
                unreadable += 1
            }
        }
        scanner.finish()
        if !quiet {
            let seconds = scanner.elapsedSeconds
            let rate = seconds > 0 ? Double(scanner.count) / seconds : 0
            let duplicates = scanner.duplicates > 0 ? ", \(scanner.duplicates) duplicate\(scanner.duplicates == 1 ? "" : "s") skipped" : ""
            io.warn("scanned \(scanner.count) certificate\(scanner.count == 1 ? "" : "s") (\(scanner.failures) failed\(duplicates)) in "
                 + String(format: "%.2f s: %.0f certificates/s on %d thread%@", seconds, rate, jobs, jobs == 1 ? "" : "s"))
        }
        if unreadable > 0 || scanner.failures > 0 {
            io.warn(CLIError.inputsFailed(unreadable + scanner.failures).description)
            return .failure
        }
        return .success
    }
}

/// One unit of work: the bytes of a certificate (DER) or of a Base64 line.
private enum ScanItem: Sendable {
    case der([UInt8])
    case base64(ArraySlice<UInt8>)
    /// A PEM block or framing error found while splitting the input.
    case failure(String, code: String, offset: Int)
}

/// Splits inputs into items, runs batches of them across the workers, and writes the
/// results in input order.
private struct Scanner {
    let workers: Int
    let progress: Bool
    let io: Console
    private(set) var count = 0
    private(set) var failures = 0
    /// Certificates met again in the files of this scan, described by reference only.
    private(set) var duplicates = 0
    /// The first file and index of each certificate read from a file, by its SHA-256
    /// (standard input streams and is not deduplicated).
    private var firstSeen: [CertificateFingerprint: (file: String, index: Int)] = [:]
    private let start = ContinuousClock.now
    private var lastProgress = ContinuousClock.now

    init(workers: Int, progress: Bool, io: Console) {
        self.workers = workers
        self.progress = progress
        self.io = io
    }

    var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// A whole file: PEM blocks, one DER certificate, or Base64 lines; a certificate
    /// already met in this scan's files is written as a reference when `deduplicating`.
    mutating func scanFile(_ bytes: [UInt8], name: String, deduplicating: Bool = true) {
        if bytes.contains(text: "-----BEGIN ") || bytes.contains(text: "-----END ") {
            var items: [ScanItem] = []
            do {
                for block in try PEM.parse(bytes) where ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"].contains(block.label) {
                    items.append(.der(block.bytes))
                }
            } catch {
                items.append(.failure("\(error)", code: "malformed_pem", offset: error.offset ?? 0))
            }
            run(items, name: name, firstIndex: 1, deduplicating: deduplicating)
        } else if isPlainText(bytes) {
            run(lines(bytes[...]), name: name, firstIndex: 1, deduplicating: deduplicating)
        } else {
            run([.der(bytes)], name: name, firstIndex: 1, deduplicating: deduplicating)
        }
    }

    /// Standard input: PEM or DER (read whole) if it starts with a PEM boundary or
    /// binary, otherwise Base64 lines, processed batch by batch as they arrive (read in
    /// 4 MiB chunks, so memory stays flat whatever the input's size).
    mutating func scanStream(name: String) throws(CLIError) {
        var pending: [UInt8] = []
        var index = 1
        var decided = false
        var isWhole = false
        while true {
            let chunk = try io.readInput(upTo: 4 << 20)
            let atEnd = chunk.isEmpty
            pending += chunk
            if !decided {
                guard let first = pending.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
                    if atEnd { return }
                    continue
                }
                // Wait for enough bytes to see a boundary, or for the end of input.
                if pending.count - first < 64 && !atEnd { continue }
                decided = true
                isWhole = pending[first...].starts(with: Array("-----BEGIN ".utf8))
                    || !isPlainText(pending[first..<min(pending.count, first + 64)])
            }
            if isWhole {
                if atEnd {
                    scanFile(pending, name: name, deduplicating: false)
                    return
                }
                continue
            }
            // Every complete line; the partial last line waits for the next chunk.
            let end = atEnd ? pending.count : (pending.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
            if end > 0 {
                let items = lines(pending[0..<end])
                run(items, name: name, firstIndex: index, deduplicating: false)
                index += items.count
                pending.removeFirst(end)
            }
            if atEnd { return }
        }
    }

    /// The non-blank lines of `bytes` (CR LF or LF), as Base64 items.
    private func lines(_ bytes: ArraySlice<UInt8>) -> [ScanItem] {
        var items: [ScanItem] = []
        var lineStart = bytes.startIndex
        var position = bytes.startIndex
        func add(_ end: Int) {
            var stop = end
            if stop > lineStart, bytes[stop - 1] == 0x0D { stop -= 1 }
            var first = lineStart
            while first < stop, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            while stop > first, bytes[stop - 1] == 0x20 || bytes[stop - 1] == 0x09 { stop -= 1 }
            if stop > first { items.append(.base64(ArraySlice(bytes[first..<stop]))) }
        }
        while position < bytes.endIndex {
            if bytes[position] == 0x0A {
                add(position)
                lineStart = position + 1
            }
            position += 1
        }
        if lineStart < bytes.endIndex { add(bytes.endIndex) }
        return items
    }

    /// Processes `items` on the workers and writes their lines in order.
    private mutating func run(_ items: [ScanItem], name: String, firstIndex: Int, deduplicating: Bool) {
        var offset = 0
        while offset < items.count {
            let batch = items[offset..<min(offset + ScanCommand.batchSize, items.count)]
            runBatch(Array(batch), name: name, firstIndex: firstIndex + offset, deduplicating: deduplicating)
            offset += batch.count
        }
    }

    private mutating func runBatch(_ items: [ScanItem], name: String, firstIndex: Int, deduplicating: Bool) {
        let results = ResultSlots(count: items.count)
        let file = name
        // Contiguous chunks, a few per worker so that a slow chunk does not idle the rest.
        let chunkCount = min(items.count, workers == 1 ? 1 : workers * 4)
        guard chunkCount > 0 else { return }
        let work: @Sendable (Int) -> Void = { chunk in
            let lower = items.count * chunk / chunkCount
            let upper = items.count * (chunk + 1) / chunkCount
            for position in lower..<upper {
                results.set(position, scanLine(items[position], file: file, index: firstIndex + position))
            }
        }
        if chunkCount == 1 {
            work(0)
        } else {
            // concurrentPerform's width is the machine's; --jobs caps it through the
            // chunk count only when lower, so run on a queue of exactly `workers`.
            let group = DispatchGroup()
            let queue = DispatchQueue(label: "tack.scan", attributes: .concurrent)
            let gate = DispatchSemaphore(value: workers)
            for chunk in 0..<chunkCount {
                gate.wait()
                queue.async(group: group) {
                    work(chunk)
                    gate.signal()
                }
            }
            group.wait()
        }
        var output: [UInt8] = []
        output.reserveCapacity(items.count * 600)
        for position in 0..<items.count {
            // In input order, so the first occurrence is the one described in full.
            let result = results.get(position)
            var line = result.line
            if deduplicating, let fingerprint = result.fingerprint {
                let index = firstIndex + position
                if let first = firstSeen[fingerprint] {
                    duplicates += 1
                    line = JSONValue.object([
                        ("file", .string(name)), ("index", .int(index)), ("sha256", .string(fingerprint.hex)),
                        ("duplicate_of", .object([("file", .string(first.file)), ("index", .int(first.index))])),
                    ]).serialized(pretty: false)
                } else {
                    firstSeen[fingerprint] = (name, index)
                }
            }
            output.append(contentsOf: line.utf8)
            output.append(0x0A)
            if result.failed { failures += 1 }
        }
        io.writeOutput(bytes: output)
        count += items.count
        if progress, ContinuousClock.now - lastProgress > .milliseconds(250) {
            lastProgress = .now
            let rate = elapsedSeconds > 0 ? Double(count) / elapsedSeconds : 0
            io.writeError(String(format: "\r%d certificates, %.0f/s ", count, rate))
        }
    }

    mutating func finish() {
        if progress { io.writeError("\r\u{1B}[K") }
    }
}

/// One item's JSON line, whether it is an error line, and the certificate's
/// fingerprint when it parsed (for deduplication).
private struct ScanResult {
    var line = ""
    var failed = false
    var fingerprint: CertificateFingerprint?
}

/// The JSON line for one item. An error line has file, index, code, error (the
/// reason) and offset.
private func scanLine(_ item: ScanItem, file: String, index: Int) -> ScanResult {
    func failure(_ reason: String, code: String, offset: Int) -> ScanResult {
        let line = JSONValue.object([("file", .string(file)), ("index", .int(index)), ("code", .string(code)),
                                     ("error", .string(reason)), ("offset", .int(offset))])
        return ScanResult(line: line.serialized(pretty: false), failed: true)
    }
    let der: [UInt8]
    switch item {
    case .der(let bytes):
        der = bytes
    case .base64(let line):
        do {
            der = try Base64.decode(line)
        } catch {
            return failure("not Base64: \(error)", code: "not_base64", offset: error.offset)
        }
    case .failure(let reason, let code, let offset):
        return failure(reason, code: code, offset: offset)
    }
    switch decodeCertificate(der) {
    case .success(let certificate):
        let summary = CertificateSummary(certificate)
        let fields: [(String, JSONValue)] = [("file", .string(file)), ("index", .int(index))] + summary.jsonFields()
        return ScanResult(line: JSONValue.object(fields).serialized(pretty: false), fingerprint: summary.fingerprint)
    case .failure(.notACertificate(let error)):
        if let kind = InputKind.recognise(der) { return failure(kind.failure(file, expected: "a certificate").description, code: kind.code, offset: 0) }
        return failure(error.description, code: error.code, offset: error.offset)
    case .failure(.undecodableName(let error)):
        return failure("malformed certificate: " + error.description, code: error.code, offset: error.offset)
    }
}

/// Per-item result slots written by the workers (each slot by exactly one worker,
/// read only after they all finish, so no lock is needed).
private final class ResultSlots: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<ScanResult>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: ScanResult())
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ value: ScanResult) { slots[index] = value }

    func get(_ index: Int) -> ScanResult { slots[index] }
}
