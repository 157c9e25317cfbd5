import WaymarkCore

/// One option of a command `C`, bound to one of its stored properties by key path: `--name
/// VALUE`, a repeatable `--name VALUE`, or a flag `--name`. The parser finds an option by
/// its declaration and writes the typed value through the key path; no command looks an
/// option up by its name.
struct Option<C>: Sendable {
  /// The name as typed, without dashes ("plugins"; a one-letter name takes one dash: "-j").
  let name: String
  /// The value's placeholder ("DIR"), or nil for a flag.
  let placeholder: String?
  /// Whether the option may be given more than once.
  let repeatable: Bool
  /// What it does, for --help.
  let help: String
  /// Writes the value given on the command line into the command (a flag gets "").
  let apply: @Sendable (inout C, String) throws(UsageError) -> Void

  /// The option as a user types it: `--plugins`, `-j`.
  var spelling: String { (name.count == 1 ? "-" : "--") + name }

  /// A flag that sets `keyPath` to true.
  static func flag(_ name: String, _ keyPath: WritableKeyPath<C, Bool> & Sendable, help: String) -> Option {
    Option(name: name, placeholder: nil, repeatable: false, help: help) { command, _ in
      command[keyPath: keyPath] = true
    }
  }

  /// `--name VALUE`, at most once, read by `parse` into `keyPath`. A value `parse` refuses
  /// is a usage error naming the option, the value and what was expected.
  static func value<Value>(
    _ name: String, _ placeholder: String, _ keyPath: WritableKeyPath<C, Value> & Sendable, help: String,
    parse: @escaping @Sendable (String) throws(Refusal) -> Value
  ) -> Option {
    let spelling = (name.count == 1 ? "-" : "--") + name
    return Option(name: name, placeholder: placeholder, repeatable: false, help: help) {
      (command, text) throws(UsageError) in
      do throws(Refusal) {
        command[keyPath: keyPath] = try parse(text)
      } catch {
        throw error.usageError(spelling, text)
      }
    }
  }

  /// `--name VALUE`, at most once, its text stored in `keyPath` as given.
  static func text(
    _ name: String, _ placeholder: String, _ keyPath: WritableKeyPath<C, String?> & Sendable, help: String
  )
    -> Option
  {
    value(name, placeholder, keyPath, help: help) { $0 }
  }

  /// `--name VALUE` any number of times, each value (checked by `check`, which names what
  /// is wrong with it) appended to `keyPath`.
  static func values(
    _ name: String, _ placeholder: String, _ keyPath: WritableKeyPath<C, [String]> & Sendable, help: String,
    check: @escaping @Sendable (String) -> Refusal? = { _ in nil }
  ) -> Option {
    Option(name: name, placeholder: placeholder, repeatable: true, help: help) { (command, text) throws(UsageError) in
      if let refusal = check(text) { throw refusal.usageError("--\(name)", text) }
      command[keyPath: keyPath].append(text)
    }
  }

  /// The same option for a command `Outer` holding a `C` at `keyPath`: a group of options
  /// declared once (``ScriptOptionParsing``, ``HandlerBudgets``) and shared by commands.
  func lifted<Outer>(_ keyPath: WritableKeyPath<Outer, C> & Sendable) -> Option<Outer> {
    let apply = self.apply
    return Option<Outer>(name: name, placeholder: placeholder, repeatable: repeatable, help: help) {
      (command, text) throws(UsageError) in try apply(&command[keyPath: keyPath], text)
    }
  }
}

/// Why an option's value was refused: what was expected ("expected a positive number of
/// seconds"), said after the option and the value, or a whole message of its own.
struct Refusal: Error {
  /// What was expected, or the whole message.
  let reason: String
  /// Whether ``reason`` is the whole message (it names the option itself).
  let isWhole: Bool

  /// A refusal said after the option and the value: "--budget 0: `reason`".
  init(_ reason: String) {
    self.reason = reason
    isWhole = false
  }

  private init(whole message: String) {
    reason = message
    isWhole = true
  }

  /// A refusal whose message names the option itself ("--snapshots needs a folder").
  static func whole(_ message: String) -> Refusal { Refusal(whole: message) }

  /// The usage error of `spelling` given `text`.
  func usageError(_ spelling: String, _ text: String) -> UsageError {
    UsageError(message: isWhole ? reason : "\(spelling) \(text): \(reason)")
  }
}

/// Parsers of the values options share.
enum OptionValue {
  /// A whole number at least `minimum`, refused with "expected `expected`".
  static func whole(atLeast minimum: Int, _ expected: String) -> @Sendable (String) throws(Refusal) -> Int {
    { (text) throws(Refusal) in
      guard let number = Int(text), number >= minimum else { throw Refusal("expected \(expected)") }
      return number
    }
  }

  /// One of the cases of `Choice` by its raw value, refused naming them and the nearest.
  static func choice<Choice: RawRepresentable & CaseIterable & SendableMetatype>(_: Choice.Type)
    -> @Sendable (String) throws(Refusal) -> Choice
  where Choice.RawValue == String {
    { (text) throws(Refusal) in
      guard let choice = Choice(rawValue: text) else {
        let names = Choice.allCases.map(\.rawValue)
        let list = names.dropLast().joined(separator: ", ") + " or " + names.last!
        throw Refusal("expected \(list)\(Suggestion.hint(for: text, among: names))")
      }
      return choice
    }
  }

  /// A behaviour policy's name (ios, android or web).
  static func policy(_ text: String) throws(Refusal) -> String {
    guard BehaviorPolicy.presets[text] != nil else {
      throw Refusal(
        "expected ios, android or web" + Suggestion.hint(for: text, among: BehaviorPolicy.presets.keys.sorted()))
    }
    return text
  }
}

/// The positional arguments of a command `C`: their usage ("SCRIPT", "[PATH]..."), how many
/// it takes, and where they go.
struct Positionals<C>: Sendable {
  /// The usage line's arguments, "" for none.
  let usage: String
  /// How many it takes.
  let count: ClosedRange<Int>
  /// Writes them into the command (their number already checked).
  let apply: @Sendable (inout C, [String]) -> Void

  /// No positional argument.
  static var none: Positionals { Positionals(usage: "", count: 0...0) { _, _ in } }

  /// Exactly one, stored in `keyPath`.
  static func one(_ usage: String, _ keyPath: WritableKeyPath<C, String> & Sendable) -> Positionals {
    Positionals(usage: usage, count: 1...1) { $0[keyPath: keyPath] = $1[0] }
  }

  /// At most one, stored in `keyPath` when given.
  static func optional(_ usage: String, _ keyPath: WritableKeyPath<C, String?> & Sendable) -> Positionals {
    Positionals(usage: usage, count: 0...1) { $0[keyPath: keyPath] = $1.first }
  }

  /// Any number, stored in `keyPath`.
  static func many(_ usage: String, _ keyPath: WritableKeyPath<C, [String]> & Sendable) -> Positionals {
    Positionals(usage: usage, count: 0...Int.max) { $0[keyPath: keyPath] = $1 }
  }
}
