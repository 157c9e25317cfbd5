import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// The read-evaluate-print loop of `waymark repl` over a live session: prompts (on a
/// terminal), unfinished chunks continued as the `lua` interpreter does, `:` commands, hot
/// reload between lines, and each line's trace records printed after its results.
struct Repl {
  /// How trace records are printed.
  enum TraceFormat: String, CaseIterable { case text, json }

  let session: LiveSession
  /// Whether standard input is a terminal: then prompts are shown.
  let isInteractive: Bool
  /// Line editing, history and completion, on a terminal (nil: plain line reading).
  let editor: LineEditor?
  var format = TraceFormat.text

  /// A REPL over `session`; on a terminal (`isInteractive`) it edits lines through libedit,
  /// with the history in `historyFile`.
  init(session: LiveSession, isInteractive: Bool, historyFile: String?) {
    self.session = session
    self.isInteractive = isInteractive
    editor = isInteractive ? LineEditor(historyFile: historyFile) { session.completions(of: $0) } : nil
  }

  static let prompt = "> "
  static let continuation = ">> "

  static let help = """
    Each line is Lua, run in the script's environment: map, the fields of the table the script returns,
    its top-level locals, its globals, inspect. TAB completes names and fields (on a terminal). An expression's values are shown with inspect; the trace records a line caused
    follow it. A line that does not finish a chunk continues on the next (as lua does).

    """ + ColonCommand.list

  /// Reads and runs lines until the end of input or `:quit`.
  mutating func run() {
    // The script's own records are what `waymark run` prints; the REPL shows each line's,
    // and of the script's only what went wrong in plugins.
    let records = session.takeRecords()
    let problems = records.filter { $0.event == .pluginError || $0.event == .warning }
    for line in TraceText().lines(problems).dropFirst() { Output.error(line) }
    let startup = records.count
    if isInteractive {
      Output.error(
        "waymark repl: \(session.script) ran (\(startup) trace records) and its map is live; a line of Lua at a time, :help for the commands"
      )
    }
    var chunk: [[UInt8]] = []
    while true {
      let prompt = chunk.isEmpty ? Self.prompt : Self.continuation
      let read = if let editor { editor.readLine(prompt: prompt) } else { Self.readInputLine() }
      guard let line = read else {
        if isInteractive { Self.write("\n") }
        return
      }
      printRecords(reloading: true)
      if chunk.isEmpty, line.first == UInt8(ascii: ":") {
        if !command(String(decoding: line, as: UTF8.self)) { return }
        continue
      }
      chunk.append(line)
      switch session.evaluate(LuaSource(bytes: Array(chunk.joined(separator: [UInt8(ascii: "\n")])))) {
      case .incomplete: continue
      case .values(let values): if !values.isEmpty { Output.print(values.joined(separator: "\t")) }
      case .failure(let message): Output.error(TraceText.escaped(message))
      }
      chunk.removeAll()
      printRecords(reloading: false)
    }
  }

  /// A line of standard input as bytes, which Lua takes whatever they are (without its `\n`
  /// or `\r\n`); nil at the end of input.
  private static func readInputLine() -> [UInt8]? {
    var byte = getchar()
    guard byte != EOF else { return nil }
    var line: [UInt8] = []
    while byte != EOF, byte != Int32(UInt8(ascii: "\n")) {
      line.append(UInt8(truncatingIfNeeded: byte))
      byte = getchar()
    }
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    return line
  }

  /// Runs a `:` command; false to leave.
  private mutating func command(_ line: String) -> Bool {
    let words = line.dropFirst().split(separator: " ").map(String.init)
    let name = words.first ?? ""
    guard let command = ColonCommand(word: name) else {
      let hint = Suggestion.hint(for: name, among: ColonCommand.allCases.map(\.rawValue))
      Output.error(":\(name): no such command\(hint); :help lists them")
      return true
    }
    switch command {
    case .quit: return false
    case .help: Output.print(Self.help)
    case .reload:
      let problems = session.reloadAllPlugins()
      if session.plugins.isEmpty { Output.print("no plugins to reload") }
      for problem in problems where problem.severity == .error { Output.error(problem.description) }
      printRecords(reloading: false)
    case .trace:
      guard words.count == 2, let format = TraceFormat(rawValue: words[1]) else {
        Output.error(":trace: expected text or json (now \(format.rawValue))")
        return true
      }
      self.format = format
    case .time:
      guard let map = session.map else {
        Output.print("no map (call waymark.map{...})")
        return true
      }
      let now = formatNumber(map.clock.now, decimals: 6)
      Output.print("t = \(now) s\(map.isSettled ? ", settled" : ", still moving (map:settle() to finish)")")
    }
    return true
  }

  /// Prints the records made since the last print; first reloads changed plugins if asked.
  private func printRecords(reloading: Bool) {
    if reloading { session.reloadChangedPlugins() }
    let records = session.takeRecords()
    guard !records.isEmpty else { return }
    switch format {
    case .json: for record in records { Output.print(TraceJSON.line(record)) }
    case .text: for line in TraceText().lines(records).dropFirst() { Output.print(line) }
    }
  }

  private static func write(_ text: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
  }
}
