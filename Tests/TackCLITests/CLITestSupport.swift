import Foundation
import TackFormats
import TackTestSupport
import Testing

@testable import tack

/// What one in-process `tack` run gave: its exit status and its two streams.
struct CLIRun {
    let status: ExitCode
    let output: String
    let errors: String
    /// The failure the command threw, if any.
    let failure: CLIError?

    /// Standard output as one JSON document.
    func json() throws -> JSONValue { try JSONReader.parse(output) }

    /// Standard output as JSON lines (NDJSON).
    func jsonLines() throws -> [JSONValue] {
        try output.split(separator: "\n").map { try JSONReader.parse(String($0)) }
    }
}

enum CLI {
    /// The repository root as the working directory, set once: the commands take the
    /// relative paths `tack help` prints (`Vectors/certs/…`).
    static let root: String = {
        let path = RepositoryPaths.root.path
        _ = FileManager.default.changeCurrentDirectoryPath(path)
        return path
    }()

    /// Runs `tack ARGUMENTS` in-process, standard input reading `input`.
    static func run(_ arguments: [String], input: [UInt8] = [], color: Bool = false) -> CLIRun {
        _ = root
        let io = Console.capturing(input: input, color: color)
        let status = Tack.run(arguments, io: io)
        return CLIRun(status: status, output: io.output, errors: io.errors, failure: io.failure)
    }

    /// Runs `tack ARGUMENTS`, expects `status` and JSON on standard output valid under
    /// `Vectors/cli-schemas/SCHEMA.schema.json`, and returns that JSON.
    static func json(_ arguments: [String], status: ExitCode = .success, schema: String,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        let run = run(arguments)
        #expect(run.status == status, "\(arguments): \(run.errors)", sourceLocation: sourceLocation)
        let document = try run.json()
        let problems = try Schema.load(schema).problems(document)
        #expect(problems == [], "\(arguments) against \(schema).schema.json", sourceLocation: sourceLocation)
        return document
    }

    /// The text of a file under the repository.
    static func text(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }
}

/// The subset of JSON Schema (2020-12) the CLI's schemas use: `type` (a name or a
/// list), `properties`, `required`, `additionalProperties` (false or a schema),
/// `items`, `enum`, `const`, `minimum`, `minItems`, `anyOf`, `$defs` and local `$ref`
/// (`#/$defs/NAME`). Any other keyword is refused, so a schema never silently asks
/// for more than is checked.
struct Schema {
    let root: JSONValue

    static let known: Set<String> = [
        "$schema", "$id", "title", "description", "$defs", "$ref", "type", "properties", "required",
        "additionalProperties", "items", "enum", "const", "minimum", "minItems", "anyOf",
    ]

    static func load(_ name: String) throws -> Schema {
        let text = try CLI.text("Vectors/cli-schemas/\(name).schema.json")
        return Schema(root: try JSONReader.parse(text))
    }

    /// Every place `value` breaks the schema, as `PATH: reason`; empty when it holds.
    func problems(_ value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: root, at: "$", into: &found)
        return found
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/$defs/") else { return nil }
        return root["$defs"]?[String(reference.dropFirst("#/$defs/".count))]
    }

    private static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.integer == nil ? "number" : "integer"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into found: inout [String]) {
        guard let keywords = schema.objectValue else {
            if schema.boolValue == false { found.append("\(path): not allowed") }
            return
        }
        for member in keywords where !Schema.known.contains(member.key) {
            found.append("\(path): the schema uses \(member.key), which the checker does not know")
        }
        if let reference = schema["$ref"]?.stringValue {
            guard let target = resolve(reference) else {
                found.append("\(path): unresolved $ref \(reference)")
                return
            }
            check(value, against: target, at: path, into: &found)
        }
        if let type = schema["type"] {
            let allowed = type.stringValue.map { [$0] } ?? type.arrayValue?.compactMap(\.stringValue) ?? []
            let actual = Schema.typeName(value)
            if !allowed.contains(actual) {
                found.append("\(path): \(actual), expected \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            found.append("\(path): \(value.serialized(pretty: false)) is not one of \(JSONValue.array(options).serialized(pretty: false))")
        }
        if let constant = schema["const"], constant != value {
            found.append("\(path): \(value.serialized(pretty: false)) is not \(constant.serialized(pretty: false))")
        }
        if let minimum = schema["minimum"]?.integerValue, let number = value.integerValue, number < minimum {
            found.append("\(path): \(number) < \(minimum)")
        }
        if let alternatives = schema["anyOf"]?.arrayValue {
            let holds = alternatives.contains { alternative in
                var scratch: [String] = []
                check(value, against: alternative, at: path, into: &scratch)
                return scratch.isEmpty
            }
            if !holds { found.append("\(path): matches none of anyOf") }
        }
        if case .array(let items) = value {
            if let minimum = schema["minItems"]?.integerValue, items.count < minimum {
                found.append("\(path): \(items.count) items, fewer than \(minimum)")
            }
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { check(item, against: itemSchema, at: "\(path)[\(index)]", into: &found) }
            }
        }
        if case .object(let fields) = value {
            for required in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where value[required] == nil {
                found.append("\(path): lacks \(required)")
            }
            let properties = schema["properties"]
            for member in fields {
                if let propertySchema = properties?[member.key] {
                    check(member.value, against: propertySchema, at: "\(path).\(member.key)", into: &found)
                } else if let additional = schema["additionalProperties"] {
                    check(member.value, against: additional, at: "\(path).\(member.key)", into: &found)
                }
            }
        }
    }
}

@Suite("JSON Schema checker")
struct SchemaCheckerTests {
    @Test("each keyword refuses what it should")
    func keywords() throws {
        let schema = Schema(root: try JSONReader.parse("""
            {"type": "object", "required": ["a"], "additionalProperties": false,
             "properties": {"a": {"type": "integer", "minimum": 1},
                            "b": {"type": "array", "minItems": 1, "items": {"enum": ["x", "y"]}},
                            "c": {"$ref": "#/$defs/c"}},
             "$defs": {"c": {"anyOf": [{"type": "null"}, {"const": "z"}]}}}
            """))
        #expect(schema.problems(try JSONReader.parse(#"{"a": 1, "b": ["x"], "c": null}"#)) == [])
        #expect(schema.problems(try JSONReader.parse(#"{"a": 0}"#)) == ["$.a: 0 < 1"])
        #expect(schema.problems(try JSONReader.parse(#"{"b": []}"#)) == ["$: lacks a", "$.b: 0 items, fewer than 1"])
        #expect(schema.problems(try JSONReader.parse(#"{"a": 1, "b": ["w"]}"#)) == [#"$.b[0]: "w" is not one of ["x","y"]"#])
        #expect(schema.problems(try JSONReader.parse(#"{"a": 1, "c": "q"}"#)) == ["$.c: matches none of anyOf"])
        #expect(schema.problems(try JSONReader.parse(#"{"a": 1, "d": 1}"#)) == ["$.d: not allowed"])
        #expect(schema.problems(try JSONReader.parse(#"{"a": "1"}"#)) == ["$.a: string, expected integer"])
        let unknown = Schema(root: try JSONReader.parse(#"{"pattern": "x"}"#))
        #expect(unknown.problems(.string("x")) == ["$: the schema uses pattern, which the checker does not know"])
    }
}
