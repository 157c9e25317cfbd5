/// The `:` commands of `waymark repl`: the one list that the help, the suggestions for a
/// misspelt command and the dispatch all read, so a new command is a case here and its arm
/// in `Repl`'s exhaustive switch.
enum ColonCommand: String, CaseIterable {
  case reload, trace, time, help, quit

  /// The command `word` names (`q` is short for `quit`), or nil for none.
  init?(word: String) {
    if word == "q" { self = .quit } else { self.init(rawValue: word) }
  }

  /// The command as typed, with its arguments.
  var usage: String {
    switch self {
    case .trace: ":trace text|json"
    case .reload, .time, .help, .quit: ":" + rawValue
    }
  }

  /// What it does, in a line.
  var summary: String {
    switch self {
    case .reload: "reload every plugin now (changed files also reload by themselves between lines)"
    case .trace: "how trace records are printed (text by default)"
    case .time: "the map's virtual time and whether anything is pending"
    case .help: "this help"
    case .quit: "leave (Ctrl-D too)"
    }
  }

  /// One line per command, aligned, for `:help`.
  static var list: String {
    allCases.map { "  " + $0.usage + String(repeating: " ", count: max(1, 21 - $0.usage.count)) + $0.summary }
      .joined(separator: "\n")
  }
}
