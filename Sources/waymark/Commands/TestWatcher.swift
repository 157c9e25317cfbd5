import Foundation

/// `waymark test --watch`: runs the files, then, on each save, reruns the test files that
/// changed or that use a file that changed (a plugin, a module), and new test files under the
/// folders given, printing their reports and the closing line of that run. Changes are seen
/// as `waymark run --watch` sees them (``TraceWatcher/stamp(_:)``).
struct TestWatcher {
  let command: TestCommand
  /// How often files are checked, in seconds.
  var pollInterval = 0.25

  func run(_ files: [String]) throws(CommandFailure) -> Int32 {
    let maxRuns = ProcessInfo.processInfo.environment["WAYMARK_WATCH_MAX_RUNS"].flatMap(Int.init)
    var uses: [String: [String]] = [:]  // a test file → the files it read
    var pending = files
    var runs = 0
    while true {
      runs += 1
      if runs > 1 { Output.print("── run \(runs): \(pending.count) file(s) changed") }
      let results = try command.run(pending)
      let status = try command.report(results)
      for result in results { uses[result.file] = Array(Set(result.files + [result.file])) }
      if let maxRuns, runs >= maxRuns { return status }
      let watched = Array(Set(uses.values.joined()).union(command.paths)).sorted()
      let initial = watched.map(TraceWatcher.stamp)  // before saying so: a save right after counts
      Output.error("watching \(watched.count) file(s) and folder(s); save one to rerun, Ctrl-C to stop")
      let changed = waitForChange(in: watched, from: initial)
      let found = (try? TestFiles.find(command.paths)) ?? Array(uses.keys)
      let inShard = command.shard.map { TestFiles.shard(found, index: $0.index, count: $0.count) } ?? found
      pending = inShard.filter { file in uses[file].map { !changed.isDisjoint(with: $0) } ?? true }
      for file in uses.keys where !inShard.contains(file) { uses[file] = nil }
    }
  }

  /// Blocks until some of `files` differ from their `initial` stamps; returns those.
  private func waitForChange(in files: [String], from initial: [String]) -> Set<String> {
    while true {
      Thread.sleep(forTimeInterval: pollInterval)
      let now = files.map(TraceWatcher.stamp)
      let changed = Set(files.indices.filter { initial[$0] != now[$0] }.map { files[$0] })
      if !changed.isEmpty { return changed }
    }
  }
}
