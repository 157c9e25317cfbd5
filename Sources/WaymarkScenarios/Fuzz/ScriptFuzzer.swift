import LuaKit
import WaymarkCore
import WaymarkScripting

/// How `ScriptFuzzer` fuzzes a script.
package struct FuzzOptions: Sendable {
  /// How many runs, each from a fresh run of the script (`--runs`).
  package var runs = 100
  /// How many inputs each run makes after the script's own code (`--events`).
  package var events = 50
  /// Run `r` (from 0) uses the seed `seed + r`: the same seed makes the same runs.
  package var seed: UInt64 = 0
  /// How the script runs (plugins, policy, budgets).
  package var script = ScriptOptions()
  /// The most replays shrinking may make.
  package var maxShrinkReplays = 2000
  /// The defaults.
  package init() {}
}

/// What went wrong first in a fuzz run: a `plugin_error`, a failed expectation (the
/// script's or an invariant's), or an error in the script's own callbacks.
package struct FuzzFailure: Sendable, Hashable {
  /// `plugin_error`, `expectation` or `script_error`.
  package var kind: String
  /// What it said: the plugin_error line, the expectation's message.
  package var message: String
  /// What makes two failures the same one: the kind and where (a plugin error's plugin,
  /// handler and file:line; an expectation's message without its location).
  package var signature: String
}

/// The result of fuzzing a script.
package struct FuzzReport: Sendable {
  /// The runs made.
  package var runs = 0
  /// The inputs made in all.
  package var inputs = 0
  /// Inputs the map refused (an error raised by the input itself, not by a plugin).
  package var refusedInputs = 0
  /// The first failure found, nil when every run passed.
  package var failure: FuzzFailure?
  /// The seed of the run that failed.
  package var failingSeed: UInt64?
  /// The inputs of that run up to the failure.
  package var failingInputs: [String] = []
  /// The shortest input sequence found that fails the same way (delta debugging).
  package var shrunkInputs: [String] = []
  /// How many replays shrinking took.
  package var shrinkReplays = 0
  /// Why the script could not be fuzzed (it does not run, or makes no map); nil otherwise.
  package var problem: String?
}

/// `waymark fuzz`: runs a script, then drives its map with random but valid input (taps on
/// markers, windows, the map, points of interest and overlays; long presses; drags of
/// draggable markers; pans, pinches, rotations, tilts; camera updates; selection from code;
/// time), and checks after every input that no plugin raised, no expectation failed, the
/// map's own invariants hold and so do the script's (`waymark.invariant`). A failure is
/// shrunk to a shortest sequence of inputs that fails the same way, by delta debugging
/// (Zeller's ddmin, as Hypothesis and QuickCheck shrink), replaying from a fresh run each
/// time: runs are deterministic, so the same seed always makes the same runs.
package enum ScriptFuzzer {
  /// Fuzzes the script at `path`; stops at the first failing run.
  package static func fuzz(_ path: String, options: FuzzOptions, progress: (String) -> Void = { _ in }) -> FuzzReport {
    var report = FuzzReport()
    for run in 0..<max(1, options.runs) {
      let seed = options.seed &+ UInt64(run)
      let driver = FuzzDriver(.generate(seed: seed, count: options.events))
      let outcome = drive(path, driver, options.script)
      report.runs += 1
      report.inputs += driver.inputs.count
      report.refusedInputs += driver.refused
      if let problem = driver.problem ?? (driver.failure == nil ? outcome.error : nil) {
        report.problem = problem
        return report
      }
      guard let found = driver.failure else { continue }
      report.failure = found.failure
      report.failingSeed = seed
      report.failingInputs = Array(driver.inputs.prefix(found.index + 1))
      progress("run \(run + 1) (seed \(seed)) failed after \(found.index + 1) input(s): \(found.failure.message)")
      var replays = 0
      report.shrunkInputs = shrink(report.failingInputs, limit: options.maxShrinkReplays, replays: &replays) { inputs in
        let replay = FuzzDriver(.replay(inputs))
        _ = drive(path, replay, options.script)
        return replay.failure?.failure.signature == found.failure.signature
      }
      report.shrinkReplays = replays
      return report
    }
    return report
  }

  /// Runs the script, then `inputs` one by one with the checks `fuzz` makes, and returns the
  /// first failure, if any (what a reproducer does).
  package static func replay(_ path: String, inputs: [String], options: ScriptOptions) -> FuzzFailure? {
    let driver = FuzzDriver(.replay(inputs))
    _ = drive(path, driver, options)
    return driver.failure?.failure
  }

  private static func drive(_ path: String, _ driver: FuzzDriver, _ options: ScriptOptions) -> ScriptOutcome {
    var options = options
    options.afterScript = { session in driver.drive(session) }
    return ScriptRunner.run(path, options: options)
  }

  /// Zeller's ddmin: a subsequence of `inputs` on which `fails` still holds, from which no
  /// single chunk of the last granularity can be removed; at most `limit` calls of `fails`.
  static func shrink(_ inputs: [String], limit: Int, replays: inout Int, fails: ([String]) -> Bool) -> [String] {
    var current = inputs
    var granularity = 2
    func attempt(_ candidate: [String]) -> Bool {
      guard replays < limit else { return false }
      replays += 1
      return fails(candidate)
    }
    if attempt([]) { return [] }
    while current.count >= 2 {
      let size = (current.count + granularity - 1) / granularity
      let chunks = stride(from: 0, to: current.count, by: size).map {
        Array(current[$0..<min($0 + size, current.count)])
      }
      var reduced = false
      for chunk in chunks where attempt(chunk) {
        current = chunk
        granularity = 2
        reduced = true
        break
      }
      if !reduced {
        for index in chunks.indices {
          let complement = chunks.enumerated().filter { $0.offset != index }.flatMap(\.element)
          if attempt(complement) {
            current = complement
            granularity = max(granularity - 1, 2)
            reduced = true
            break
          }
        }
      }
      if !reduced {
        if granularity >= current.count || replays >= limit { break }
        granularity = min(granularity * 2, current.count)
      }
    }
    return current
  }
}

/// Drives one run: from the end of the script's own code, makes or replays inputs and checks
/// after each. Unchecked Sendable: used on the one thread that runs the script.
final class FuzzDriver: @unchecked Sendable {
  enum Mode {
    case generate(seed: UInt64, count: Int)
    case replay([String])
  }

  let mode: Mode
  /// The inputs made, in order.
  private(set) var inputs: [String] = []
  /// How many of them the map refused.
  private(set) var refused = 0
  /// The first failure and the index of the input after which it showed (-1: before any).
  private(set) var failure: (index: Int, failure: FuzzFailure)?
  /// Why the run could not be fuzzed.
  private(set) var problem: String?

  init(_ mode: Mode) { self.mode = mode }

  /// The Lua run after each input: the map's and the script's invariants.
  static let check = "waymark.check_invariants(map)"

  func drive(_ session: ScriptSession) {
    inputs = []
    refused = 0
    failure = nil
    problem = nil
    guard let map = session.current?.map, let bridge = session.bridge, let state = session.state,
      let environment = session.environment
    else {
      problem = "the script makes no map to fuzz (call waymark.map{...})"
      return
    }
    var scanned = 0
    _ = run(Self.check, state, environment, bridge)
    if let found = scan(session, from: &scanned) {
      failure = (-1, found)
      return
    }
    var random = FuzzRandom(seed: 0)
    let count: Int
    switch mode {
    case .generate(let seed, let total):
      random = FuzzRandom(seed: seed)
      count = total
    case .replay(let list): count = list.count
    }
    for index in 0..<count {
      let input: String
      switch mode {
      case .generate:
        let managers = bridge.clusterManagers.filter { $0.map === map }
        input = FuzzInputs.next(for: map, clusterManagers: managers, &random)
      case .replay(let list): input = list[index]
      }
      inputs.append(input)
      if !run(input, state, environment, bridge) { refused += 1 }
      _ = run(Self.check, state, environment, bridge)
      if let found = scan(session, from: &scanned) {
        failure = (index, found)
        return
      }
    }
  }

  /// Runs `code` with `map` bound to the current map; false if it raised.
  private func run(_ code: String, _ state: LuaState, _ environment: LuaRef, _ bridge: LuaMapBridge) -> Bool {
    let stack = state.stack
    let base = stack.top
    defer { stack.setTop(base) }
    do {
      stack.push(environment)
      try stack.load("local map = ...\n" + code, chunkName: "=(fuzz input)", environmentAt: -1)
      bridge.pushMap(on: stack)
      try stack.call(arguments: 1, results: 0)
      return true
    } catch {
      return false
    }
  }

  /// The first failure among the records after `scanned`.
  private func scan(_ session: ScriptSession, from scanned: inout Int) -> FuzzFailure? {
    let records = session.trace.records
    defer { scanned = records.count }
    for record in records[min(scanned, records.count)...] {
      let message = record.message ?? ""
      switch record {
      case TraceEvent.pluginError:
        guard !session.expectedPluginErrors.contains(where: { session.matches($0.pattern, message) }) else { continue }
        let problem = PluginProblem(index: 0, record: record, isExpected: false)
        let plugin: String
        if case .string(let name)? = record.answerer { plugin = name } else { plugin = "?" }
        let place = LuaLocation.hasLocation(message) ? String(message.prefix { $0 != " " }) : message
        return FuzzFailure(
          kind: "plugin_error", message: problem.line,
          signature: "plugin_error \(plugin) \(problem.handler ?? "") \(place)")
      case TraceEvent.expectFailed, TraceEvent.scriptError:
        let kind = record.event == .expectFailed ? "expectation" : "script_error"
        let text = LuaLocation.split(message).text
        // A check fuzz made has no line worth showing; the script's own keep theirs.
        return FuzzFailure(
          kind: kind, message: message.hasPrefix("(fuzz input)") ? text : message, signature: "\(kind) \(text)")
      default: continue
      }
    }
    return nil
  }
}
