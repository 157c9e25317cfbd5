import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// `waymark run --watch`: reruns the script whenever it or a plugin (or a module a plugin
/// requires) changes, and prints what changed in the trace since the last run.
struct TraceWatcher {
  let command: RunCommand
  /// How often files are checked, in seconds.
  var pollInterval = 0.25

  func run() throws(CommandFailure) -> Int32 {
    let maxRuns = ProcessInfo.processInfo.environment["WAYMARK_WATCH_MAX_RUNS"].flatMap(Int.init)
    var previous: [String]?
    var runs = 0
    var status = ExitCode.success
    while true {
      let outcome = ScriptRunner.run(command.script, options: command.options)
      runs += 1
      let lines = command.render(outcome).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if let previous {
        let changes = LineDiff.changes(from: previous, to: lines)
        let removed = changes.filter { if case .removed = $0 { true } else { false } }.count
        let added = changes.filter { if case .added = $0 { true } else { false } }.count
        Output.print(
          "── run \(runs): \(removed == 0 && added == 0 ? "the trace did not change" : "\(removed) line(s) removed, \(added) added")"
        )
        for line in LineDiff.render(changes) { Output.print(line) }
      } else {
        try command.write(outcome)
      }
      if command.traceFile != nil, previous != nil { try command.write(outcome) }
      try command.writeReplay(outcome)
      status = command.report(outcome)
      previous = lines
      if let maxRuns, runs >= maxRuns { return status }
      let files = Array(Set(outcome.files + [command.script])).sorted()
      // Stamped before saying so: an edit made as soon as "watching" is printed is a change.
      let stamps = files.map(Self.stamp)
      Output.error("watching \(files.count) file(s) and folder(s); edit one to rerun, Ctrl-C to stop")
      waitForChange(in: files, from: stamps)
    }
  }

  /// Blocks until one of `files` changes (modification time, size, or existence) from the
  /// `initial` stamps.
  private func waitForChange(in files: [String], from initial: [String]) {
    while files.map(Self.stamp) == initial { Thread.sleep(forTimeInterval: pollInterval) }
  }

  /// What changes when a file is edited, created or deleted; for a folder, its `*.lua` names.
  static func stamp(_ file: String) -> String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: file)) ?? []
      return names.filter { $0.hasSuffix(".lua") }.sorted().joined(separator: "\n")
    }
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: file) else { return "missing" }
    let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
    return "\(date) \(attributes[.size] as? Int ?? -1)"
  }
}
