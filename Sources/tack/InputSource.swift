// Where a command's input comes from: a file, standard input (`-`), or a TLS
// connection's served chain (`--connect`). The commands read their inputs through
// ``InputSource`` once, in order; what an input holds is read in InputObjects.swift.

import Foundation

/// One input of a command: a file, standard input, or a server's served chain.
///
/// Every command that reads certificates (`pin`, `show`, `verify`, `plist`) reads
/// through here, so an input failure reads the same everywhere (`PATH: no such file
/// or directory`, `HOST:PORT: connection refused`) and a connection is just another
/// input: its bytes are the served chain as PEM, leaf first, exactly what `tack
/// fetch` prints.
enum InputSource {
    /// A file path, or `-` for standard input.
    case file(String)
    /// The chain a server serves, fetched by a TLS handshake (`--connect`).
    case connection(Connection)

    /// The inputs named by a command's operands (files, `-`).
    static func files(_ operands: [String]) -> [InputSource] { operands.map(InputSource.file) }

    /// The operands, or the `--connect` server (`tack pin`, `tack show`): one or the
    /// other, never both.
    static func operandsOrConnection(_ args: Arguments, command: String, missing: String) throws(CLIError) -> [InputSource] {
        if let connection = try Connection.option(args) {
            guard args.operands.isEmpty else { throw .usage("tack \(command) takes FILEs or --connect, not both") }
            return [.connection(connection)]
        }
        guard !args.operands.isEmpty else { throw .usage(missing) }
        return files(args.operands)
    }

    /// The name messages and JSON use: the path, `<stdin>`, or `HOST:PORT`.
    var name: String {
        switch self {
        case .file(let path): return inputName(path)
        case .connection(let connection): return connection.address.description
        }
    }

    /// The input's bytes.
    /// - Throws: The operating system's reason a file could not be read, or why the
    ///   connection failed (refused, timed out, not TLS, the handshake's failure).
    func read(io: Console) throws(CLIError) -> [UInt8] {
        switch self {
        case .file(let path): return try readInput(path, io: io)
        case .connection(let connection): return Array(FetchCommand.pemChain(try connection.fetch().certificates).utf8)
        }
    }

    /// Reads every input in order: `body` gets each one's name and bytes, `failed`
    /// the failure of an input that could not be read (in its place in the order),
    /// and the others are still read.
    static func readEach(_ sources: [InputSource], io: Console, failed: (CLIError) -> Void,
                         _ body: (_ name: String, _ bytes: [UInt8]) -> Void) {
        for source in sources {
            do {
                body(source.name, try source.read(io: io))
            } catch {
                failed(error)
            }
        }
    }
}

/// The display name of an input path.
func inputName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

/// Reads a file's bytes, or standard input for `-`. Failures carry the operating
/// system's reason: `PATH: no such file or directory`, `PATH: is a directory`,
/// `PATH: permission denied`.
func readInput(_ path: String, io: Console) throws(CLIError) -> [UInt8] {
    if path == "-" { return try io.readAllInput() }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw CLIError("\(path): \(CLIError.systemReason(errno))", code: "unreadable_input") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw CLIError("\(path): \(CLIError.systemReason(errno))", code: "unreadable_input") }
    if status.st_mode & S_IFMT == S_IFDIR { throw CLIError("\(path): \(CLIError.systemReason(EISDIR))", code: "unreadable_input") }
    var bytes: [UInt8] = []
    if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 { bytes.reserveCapacity(Int(status.st_size)) }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw CLIError("\(path): \(CLIError.systemReason(errno))", code: "unreadable_input")
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

/// Directory inputs: `tack scan DIR`, `--roots DIR`.
enum InputDirectory {
    /// The certificate files of a directory such as `/etc/ssl/certs`: every regular file
    /// (symbolic links followed) not hidden, each read once however many names it has
    /// (OpenSSL's hash-named links, `NAME.pem` links into `/usr/share`), sorted by name;
    /// subdirectories are not entered. `nil` when `path` is not a directory.
    static func files(_ path: String) throws(CLIError) -> [String]? {
        var isDirectory: ObjCBool = false
        guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw CLIError("\(path): cannot list the directory", code: "unreadable_input")
        }
        var seen = Set<String>()
        var files: [String] = []
        for name in names where !name.hasPrefix(".") {
            let file = path.hasSuffix("/") ? path + name : path + "/" + name
            let real = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
            var isSubdirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: real, isDirectory: &isSubdirectory), !isSubdirectory.boolValue,
                  seen.insert(real).inserted else { continue }
            files.append(file)
        }
        guard !files.isEmpty else { throw CLIError("\(path): no file to read in the directory", code: "nothing_found") }
        return files
    }

    /// `paths` with each directory replaced by its files (``files(_:)``).
    static func expanding(_ paths: [String]) throws(CLIError) -> [String] {
        var expanded: [String] = []
        for path in paths {
            if let files = try files(path) { expanded += files } else { expanded.append(path) }
        }
        return expanded
    }
}
