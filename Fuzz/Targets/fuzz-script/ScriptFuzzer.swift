import CFuzzDriver
import Foundation
import WaymarkCore
import WaymarkScenarios
import WaymarkScripting

/// One input of the fuzz target for the script API: the input is a script, run in process by
/// ``ScriptRunner`` as `waymark run` would, with plugins under an exact instruction budget and
/// the script under a wall-clock budget, then written as both traces. A bad script must end
/// with an error in its outcome; a trap, a hang (libFuzzer's `-timeout`), memory past
/// `-rss_limit_mb` or a sanitizer report is a finding.
///
/// The script is named `scripts/fuzz.lua` in the current folder (scripts/fuzz.sh runs the
/// target in a scratch folder holding a copy of `plugins/`), so `plugins = { "../plugins/x" }`
/// loads the shipped plugins and whatever the script writes stays in the scratch folder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var options = ScriptOptions()
  options.scriptSource = LuaSource(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
  options.scriptBudget = .seconds(2)
  options.scriptMemoryLimit = 64 << 20
  options.timeLimit = 120
  options.plugins.instructionBudget = 1_000_000
  options.plugins.instructionCounting = .exact
  options.plugins.timeBudget = .seconds(2)
  options.plugins.memoryLimit = 32 << 20
  let outcome = ScriptRunner.run(scriptPath, options: options)
  _ = TraceText().lines(outcome.records)
  for record in outcome.records { _ = TraceJSON.line(record) }
  return 0
}

/// Where the script claims to live (see ``fuzzScript(_:_:)``).
private let scriptPath = FileManager.default.currentDirectoryPath + "/scripts/fuzz.lua"

/// libFuzzer runs ``fuzzScript(_:_:)`` on every input (scripts/fuzz.sh passes its options).
@main enum ScriptFuzzerMain {
  static func main() {
    exit(waymark_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv) { fuzzScript($0, $1) })
  }
}
