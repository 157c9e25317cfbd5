import LuaKit
import WaymarkCore
import WaymarkScripting

/// A `plugin_error` or `warning` record of a run, for the people and tools that must see
/// every one of them: `waymark run` prints each on standard error, `waymark test` fails the
/// test that caused an unexpected one.
public struct PluginProblem: Sendable, Hashable {
  /// The record's position in ``ScriptOutcome/records``.
  public var index: Int
  /// The record.
  public var record: TraceRecord
  /// Whether the script declared it with `expect_plugin_error(pattern)` (a matching
  /// `plugin_error`; warnings are never expected).
  public var isExpected: Bool

  /// Whether it is a warning (a plugin that loaded with something that looks wrong).
  public var isWarning: Bool { record.event == .warning }

  /// The handler it happened in (`load`, `setup`, a handler's name, `timer`, ...).
  public var handler: String? {
    guard case .string(let name)? = record.extra.first(where: { $0.key == "handler" })?.value else { return nil }
    return name
  }

  /// One line: `plugin_error: PLUGIN HANDLER: file:line: message`.
  public var line: String {
    let plugin: String
    if case .string(let name)? = record.answerer { plugin = name } else { plugin = "?" }
    var message = record.message ?? ""
    if !LuaLocation.hasLocation(message), !message.hasPrefix(record.fileName ?? "\u{0}"), let file = record.fileName {
      message = "\(file): \(message)"
    }
    return TraceText.escaped("\(record.event): \(plugin)\(handler.map { " \($0)" } ?? ""): \(message)")
  }
}

extension TraceRecord {
  /// The `file` field of plugin records.
  fileprivate var fileName: String? {
    guard case .string(let file)? = extra.first(where: { $0.key == "file" })?.value else { return nil }
    return file
  }
}

extension ScriptSession {
  /// Declares that plugin errors matching `pattern` are expected (`expect_plugin_error`).
  func expectPluginError(_ pattern: String, location: String) {
    expectedPluginErrors.append((pattern, location))
  }

  /// Lists every `plugin_error` and plugin `warning` of the trace not yet listed in
  /// ``ScriptOutcome/pluginProblems``, marking those an `expect_plugin_error` pattern declared
  /// so far matches; a pattern nothing matched is a failed expectation at `time`. Then the
  /// patterns are forgotten: a test file's case classifies its own records with its own.
  func classifyPluginErrors(endingAt time: Double) {
    var matched = Set<Int>()
    let records = trace.records
    defer {
      expectedPluginErrors = []
      classifiedRecords = trace.records.count
    }
    for index in min(classifiedRecords, records.count)..<records.count where isPluginProblem(records[index]) {
      let record = records[index]
      var isExpected = false
      if record.event == .pluginError, let message = record.message {
        for (position, expectation) in expectedPluginErrors.enumerated() where matches(expectation.pattern, message) {
          matched.insert(position)
          isExpected = true
        }
      }
      outcome.pluginProblems.append(PluginProblem(index: index, record: record, isExpected: isExpected))
    }
    for (position, expectation) in expectedPluginErrors.enumerated() where !matched.contains(position) {
      fail(
        "\(expectation.location): expected a plugin_error matching \(LuaMapBridge.quoted(expectation.pattern)), none happened",
        at: time)
    }
  }

  /// The `plugin_error` records so far that no `expect_plugin_error` pattern declared so far
  /// matches (`waymark.plugin_errors()`).
  func unexpectedPluginErrors() -> [PluginProblem] {
    trace.records.enumerated().compactMap { index, record in
      guard record.event == .pluginError else { return nil }
      let message = record.message ?? ""
      guard !expectedPluginErrors.contains(where: { matches($0.pattern, message) }) else { return nil }
      return PluginProblem(index: index, record: record, isExpected: false)
    }
  }

  /// A `plugin_error`, or a `warning` of a plugin (the map's own warnings, such as a tap on
  /// a hidden my-location button, are not a plugin's problem).
  private func isPluginProblem(_ record: TraceRecord) -> Bool {
    if record.event == .pluginError { return true }
    guard record.event == .warning, case .string(_)? = record.answerer else { return false }
    return true
  }

  /// Whether `message` matches the Lua pattern (or, malformed, contains it).
  func matches(_ pattern: String, _ message: String) -> Bool {
    guard let matcher = pluginErrorMatcher, let state, !state.isClosed else { return message.contains(pattern) }
    let stack = state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    stack.push(matcher)
    stack.push(pattern)
    stack.push(message)
    guard (try? stack.call(arguments: 2, results: 1)) != nil else { return message.contains(pattern) }
    return stack.boolean(at: -1)
  }
}
