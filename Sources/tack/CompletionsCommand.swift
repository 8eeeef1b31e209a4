// `tack completions bash|zsh|fish`: shell completion scripts, generated from the
// commands and the options their help lists, so they never disagree with the help.

import Foundation

enum CompletionsCommand {
    static let help = """
        USAGE: tack completions bash|zsh|fish

        Prints a completion script for the shell: command names, the words that follow
        some (policy convert, vectors wycheproof|limbo, completions bash|zsh|fish), each
        command's options as its --help lists them, the values of the options that take
        one of a fixed set (the formats, the revocation policies, the key types, lint's
        rule ids), and file names for operands.

        EXAMPLES:
          tack completions bash
          tack completions zsh
          tack completions fish

        To install, for example:
          bash   tack completions bash > ~/.local/share/bash-completion/completions/tack
          zsh    tack completions zsh > "${fpath[1]}/_tack"
          fish   tack completions fish > ~/.config/fish/completions/tack.fish

        Exit status: 0 on success, 2 on a usage error.
        """

    static func run(_ arguments: [String], io: Console) throws(CLIError) -> ExitCode {
        let args = try Arguments(arguments)
        if args.wantsHelp {
            io.emit(help)
            return .success
        }
        guard args.operands.count == 1, let shell = args.operands.first else {
            throw .usage("tack completions needs a shell: bash, zsh or fish")
        }
        switch shell {
        case "bash": io.emit(bash())
        case "zsh": io.emit(zsh())
        case "fish": io.emit(fish())
        default: throw .usage("unknown shell \(shell) (bash, zsh, fish)")
        }
        return .success
    }

    /// Every command with its one-line summary, from `tack help`'s COMMANDS section.
    static var commands: [(name: String, summary: String)] {
        var result: [(String, String)] = []
        var inCommands = false
        for line in topLevelHelp.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "COMMANDS:" { inCommands = true; continue }
            guard inCommands else { continue }
            guard line.hasPrefix("  ") else { break }
            let trimmed = line.drop { $0 == " " }
            let name = trimmed.prefix { $0 != " " }
            let summary = trimmed.dropFirst(name.count).drop { $0 == " " }
            result.append((String(name), String(summary)))
        }
        return result
    }

    /// The options a command's help lists in its USAGE lines and its OPTIONS table, in
    /// order of first mention (options only named in prose, such as another
    /// command's, are not offered).
    static func options(_ command: String) -> [String] {
        guard let subcommand = Tack.subcommands.first(where: { $0.name == command }) else { return [] }
        let optionLines = subcommand.help.split(separator: "\n").filter { $0.drop { $0 == " " }.hasPrefix("--") }
        var found: [String] = []
        for line in [Substring(subcommand.usage)] + optionLines {
            var rest = line
            while let range = rest.range(of: "--") {
                let name = rest[range.upperBound...].prefix { $0.isLowercase || $0.isNumber || $0 == "-" }
                if name.first?.isLowercase == true, !found.contains("--" + name) { found.append("--" + String(name)) }
                rest = rest[range.upperBound...]
            }
        }
        return found + (found.contains("--help") ? [] : ["--help"])
    }

    /// The values option `option` of `command` takes, as its help writes them
    /// (`--format text|json`, `--revocation none|soft|hard`), in order; the lint rule
    /// ids for `lint --disable`; empty for an option whose value is free (a file, a time).
    static func values(_ command: String, option: String) -> [String] {
        if command == "lint" && option == "--disable" { return LintRule.allCases.map(\.rawValue) }
        guard let subcommand = Tack.subcommands.first(where: { $0.name == command }) else { return [] }
        var found: [String] = []
        var rest = Substring(subcommand.usage)
        while let range = rest.range(of: option + " ") {
            rest = rest[range.upperBound...]
            let word = rest.prefix { !$0.isWhitespace && $0 != "]" }
            guard word.contains("|") else { continue }
            for value in word.split(separator: "|") where value.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) {
                if !found.contains(String(value)) { found.append(String(value)) }
            }
        }
        return found
    }

    /// The words that may follow `tack COMMAND` (`convert`; `wycheproof`, `limbo`;
    /// `bash`, `zsh`, `fish`), from its USAGE lines: a lowercase word, or words joined
    /// by `|`, right after the command's name.
    static func subwords(_ command: String) -> [String] {
        guard let subcommand = Tack.subcommands.first(where: { $0.name == command }) else { return [] }
        var found: [String] = []
        for line in subcommand.usage.split(separator: "\n") {
            guard let range = line.range(of: "tack \(command) ") else { continue }
            let word = line[range.upperBound...].prefix { !$0.isWhitespace }
            for value in word.split(separator: "|") where value.first?.isLowercase == true && value.allSatisfy({ $0.isLowercase || $0 == "-" }) {
                if !found.contains(String(value)) { found.append(String(value)) }
            }
        }
        return found
    }

    /// Every (command, option, values) with values to offer.
    static var valuedOptions: [(command: String, option: String, values: [String])] {
        commands.flatMap { command in
            options(command.name).compactMap { option in
                let list = values(command.name, option: option)
                return list.isEmpty ? nil : (command.name, option, list)
            }
        }
    }

    static func bash() -> String {
        var cases = ""
        for command in commands where !options(command.name).isEmpty || !subwords(command.name).isEmpty {
            cases += "        \(command.name)) options=\"\(options(command.name).joined(separator: " "))\"; "
                + "subwords=\"\(subwords(command.name).joined(separator: " "))\" ;;\n"
        }
        var valueCases = ""
        for entry in valuedOptions {
            valueCases += "        \(entry.command):\(entry.option)) COMPREPLY=($(compgen -W \"\(entry.values.joined(separator: " "))\" -- \"$current\")); return ;;\n"
        }
        return """
            # bash completion for tack (tack completions bash)
            _tack() {
                local current=${COMP_WORDS[COMP_CWORD]}
                local previous=${COMP_WORDS[COMP_CWORD-1]}
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$current"))
                    return
                fi
                case "${COMP_WORDS[1]}:$previous" in
            \(valueCases)    esac
                local options="" subwords=""
                case "${COMP_WORDS[1]}" in
            \(cases)    esac
                if [ "$COMP_CWORD" -eq 2 ] && [ -n "$subwords" ] && [[ "$current" != -* ]]; then
                    COMPREPLY=($(compgen -W "$subwords" -- "$current"))
                    return
                fi
                if [[ "$current" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$current"))
                else
                    COMPREPLY=($(compgen -f -- "$current"))
                fi
            }
            complete -o filenames -F _tack tack
            """
    }

    static func zsh() -> String {
        let described = commands.map { "        '\($0.name):\($0.summary.replacingOccurrences(of: "'", with: "'\\''"))'" }.joined(separator: "\n")
        var cases = ""
        for command in commands where !options(command.name).isEmpty || !subwords(command.name).isEmpty {
            cases += "        \(command.name)) options=(\(options(command.name).joined(separator: " "))); "
                + "subwords=(\(subwords(command.name).joined(separator: " "))) ;;\n"
        }
        var valueCases = ""
        for entry in valuedOptions {
            valueCases += "        \(entry.command):\(entry.option)) compadd -- \(entry.values.joined(separator: " ")); return ;;\n"
        }
        return """
            #compdef tack
            # zsh completion for tack (tack completions zsh)
            _tack() {
                local -a commands options subwords
                commands=(
            \(described)
                )
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    return
                fi
                case "$words[2]:$words[CURRENT-1]" in
            \(valueCases)    esac
                case $words[2] in
            \(cases)    esac
                if (( CURRENT == 3 )) && (( ${#subwords} )) && [[ $PREFIX != -* ]]; then
                    compadd -- $subwords
                    return
                fi
                if [[ $PREFIX == -* ]]; then
                    compadd -- $options
                else
                    _files
                fi
            }
            _tack "$@"
            """
    }

    static func fish() -> String {
        var lines = ["# fish completion for tack (tack completions fish)", "complete -c tack -f"]
        let names = commands.map(\.name).joined(separator: " ")
        for command in commands {
            lines.append("complete -c tack -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d '\(command.summary.replacingOccurrences(of: "'", with: "\\'"))'")
        }
        for command in commands {
            let subwords = subwords(command.name)
            if !subwords.isEmpty {
                lines.append("complete -c tack -n '__fish_seen_subcommand_from \(command.name); and not __fish_seen_subcommand_from "
                             + subwords.joined(separator: " ") + "' -a '\(subwords.joined(separator: " "))'")
            }
            for option in options(command.name) {
                let values = values(command.name, option: option)
                let takes = values.isEmpty ? "" : " -x -a '\(values.joined(separator: " "))'"
                lines.append("complete -c tack -n '__fish_seen_subcommand_from \(command.name)' -l \(option.dropFirst(2))\(takes)")
            }
            if command.name != "help" && command.name != "version" && command.name != "completions" {
                lines.append("complete -c tack -n '__fish_seen_subcommand_from \(command.name)' -F")
            }
        }
        return lines.joined(separator: "\n")
    }
}
