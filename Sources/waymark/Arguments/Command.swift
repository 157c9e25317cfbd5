import WaymarkCore

/// A subcommand of `waymark`, declared as a type in the shape of swift-argument-parser: its
/// name and help, its options bound to its stored properties by key path, its positional
/// arguments. The command line is parsed from these declarations alone, and --help is
/// written from them; a new command is its own file and a line in ``WaymarkCLI/commands``.
protocol Command {
  /// The name, the abstract, the summary and the examples of --help.
  static var configuration: CommandConfiguration { get }
  /// The options, in the order --help lists them.
  static var options: [Option<Self>] { get }
  /// The positional arguments.
  static var positionals: Positionals<Self> { get }

  /// The command with every option at its default.
  init()
  /// Checks what the options say together and works out what follows from them, once
  /// every argument is stored; a mistake is a usage error.
  mutating func validate() throws(UsageError)
  /// Does the command's work; the exit code.
  func execute() throws(CommandFailure) -> Int32
}

/// What --help says of a command beside its options.
struct CommandConfiguration {
  /// The name typed after `waymark`.
  let name: String
  /// What it does in a line, for the overview ('waymark --help').
  let abstract: String
  /// What it does, for its --help.
  let summary: String
  /// Examples for --help.
  let examples: [String]
}

extension Command {
  /// Nothing to check by default.
  mutating func validate() throws(UsageError) {}

  /// The name typed after `waymark`.
  static var name: String { configuration.name }
  /// The usage line's arguments ("SCRIPT", "[PATH]...", "" for none).
  static var arguments: String { positionals.usage }
  /// Every option as a user types it (`--plugins`, `-j`), in the order --help lists them.
  static var spellings: [String] { options.map(\.spelling) }

  /// Parses the arguments after the command's name into a command, checked.
  static func parse(_ arguments: [String]) throws(UsageError) -> Self {
    var command = Self()
    var given: Set<String> = []
    var positionals: [String] = []
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
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
        throw UsageError(message: "unknown option '\(argument)' for 'waymark \(self.name)'\(hint)")
      }
      guard let placeholder = option.placeholder else {
        if inline != nil { throw UsageError(message: "--\(name) takes no value") }
        try option.apply(&command, "")
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard index < arguments.count else { throw UsageError(message: "\(argument) needs a value (\(placeholder))") }
        value = arguments[index]
        index += 1
      }
      if !option.repeatable, given.contains(name) { throw UsageError(message: "--\(name) was given twice") }
      given.insert(name)
      try option.apply(&command, value)
    }
    let expected = Self.positionals
    guard expected.count.contains(positionals.count) else {
      let range = expected.count
      let count =
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
      throw UsageError(
        message: positionals.count < range.lowerBound
          ? "missing \(expected.usage.isEmpty ? "arguments" : expected.usage)"
          : "too many arguments (expected \(count)): \(positionals.joined(separator: " "))")
    }
    expected.apply(&command, positionals)
    try command.validate()
    return command
  }

  /// The --help text, written from the declarations.
  static var help: String {
    let usage = positionals.usage
    var lines = [
      "usage: waymark \(name)\(usage.isEmpty ? "" : " \(usage)")\(options.isEmpty ? "" : " [options]")", "",
      configuration.summary,
    ]
    if !options.isEmpty {
      lines += ["", "options:"]
      for option in options {
        let left = "  \(option.spelling)\(option.placeholder.map { " \($0)" } ?? "")"
        let pad = String(repeating: " ", count: max(2, 28 - left.count))
        lines.append(left + pad + option.help + (option.repeatable ? " (repeatable)" : ""))
      }
      lines.append("  --help" + String(repeating: " ", count: 20) + "show this help")
    }
    if !configuration.examples.isEmpty {
      lines += ["", "examples:"] + configuration.examples.map { "  \($0)" }
    }
    return lines.joined(separator: "\n")
  }

  /// Parses `arguments` (those after the command's name) and runs the command; the exit
  /// code, every failure printed on standard error with the command's name.
  static func main(_ arguments: [String]) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      Output.print(help)
      return ExitCode.success
    }
    do {
      return try parse(arguments).execute()
    } catch let error as UsageError {
      Output.error("waymark \(name): \(Output.terminalSafe(error.message))")
      Output.error("run 'waymark \(name) --help' for its options")
      return ExitCode.usage
    } catch let error as CommandFailure {
      Output.error("waymark \(name): \(Output.terminalSafe(error.message))")
      return error.code
    } catch {
      Output.error("waymark \(name): \(Output.terminalSafe("\(error)"))")
      return ExitCode.scriptError
    }
  }
}
