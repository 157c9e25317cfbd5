import WaymarkCore

/// One option of a subcommand: `--name VALUE` or a flag `--name`.
struct OptionSpec {
  /// The long name, without dashes.
  let name: String
  /// The value's placeholder ("DIR"), or nil for a flag.
  let value: String?
  /// Whether the option may be given more than once.
  var repeatable = false
  /// What it does, for --help.
  let help: String
}

/// What a user can type after `waymark`: a subcommand's options and its positional arguments.
struct CommandSpec {
  /// The subcommand's name.
  let name: String
  /// The usage line's arguments ("SCRIPT").
  let usage: String
  /// One line saying what it does.
  let summary: String
  /// The options it accepts, in the order its help lists them.
  let options: [OptionSpec]
  /// How many positional arguments it takes.
  let positionals: ClosedRange<Int>
  /// Examples for --help.
  let examples: [String]
}

/// Parsed arguments: option values by name, in order, and positionals.
struct ParsedArguments {
  var values: [String: [String]] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []

  func value(_ name: String) -> String? { values[name]?.last }
  func all(_ name: String) -> [String] { values[name] ?? [] }
  func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// A mistake on the command line: printed with the usage hint, exit code 2.
struct UsageError: Error, CustomStringConvertible {
  let message: String
  let command: String?
  var description: String { message }
}

extension CommandSpec {
  /// Parses the arguments after the subcommand's name. `--help` is handled by the caller.
  func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var name = String(argument.drop { $0 == "-" })
      var inline: String?
      if let equals = name.firstIndex(of: "=") {
        inline = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let option = options.first(where: { $0.name == name }) else {
        let hint = Suggestion.hint(for: name, among: options.map(\.name), spelled: { "--\($0)" })
        throw UsageError(message: "unknown option '\(argument)' for 'waymark \(self.name)'\(hint)", command: self.name)
      }
      guard option.value != nil else {
        if inline != nil { throw UsageError(message: "--\(name) takes no value", command: self.name) }
        parsed.flags.insert(name)
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard index < arguments.count else {
          throw UsageError(message: "\(argument) needs a value (\(option.value!))", command: self.name)
        }
        value = arguments[index]
        index += 1
      }
      if !option.repeatable, parsed.values[name] != nil {
        throw UsageError(message: "--\(name) was given twice", command: self.name)
      }
      parsed.values[name, default: []].append(value)
    }
    guard positionals.contains(parsed.positionals.count) else {
      let expected =
        positionals.lowerBound == positionals.upperBound
        ? "\(positionals.lowerBound)" : "\(positionals.lowerBound) to \(positionals.upperBound)"
      let noun = usage.isEmpty ? "arguments" : usage
      throw UsageError(
        message: parsed.positionals.count < positionals.lowerBound
          ? "missing \(noun)"
          : "too many arguments (expected \(expected)): \(parsed.positionals.joined(separator: " "))",
        command: self.name)
    }
    return parsed
  }

  /// The --help text.
  var help: String {
    var lines = [
      "usage: waymark \(name)\(usage.isEmpty ? "" : " \(usage)")\(options.isEmpty ? "" : " [options]")", "", summary,
    ]
    if !options.isEmpty {
      lines += ["", "options:"]
      for option in options {
        let dashes = option.name.count == 1 ? "-" : "--"
        let left = "  \(dashes)\(option.name)\(option.value.map { " \($0)" } ?? "")"
        let pad = String(repeating: " ", count: max(2, 28 - left.count))
        lines.append(left + pad + option.help + (option.repeatable ? " (repeatable)" : ""))
      }
      lines.append("  --help" + String(repeating: " ", count: 20) + "show this help")
    }
    if !examples.isEmpty {
      lines += ["", "examples:"] + examples.map { "  \($0)" }
    }
    return lines.joined(separator: "\n")
  }
}
