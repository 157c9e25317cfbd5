import Foundation
import Testing

/// The example project `examples/store_locator` works as its README promises, through the
/// commands a user types in its folder: its tests pass with `waymark test` (no PATH: the
/// project's test paths), its scenario runs to its end with its expectations met, and
/// `waymark check` finds nothing. It uses a `lib/` module, Debian's Penlight and dkjson, CSV
/// and GeoJSON data, settings and a Melbourne clock: what a real project brings (issue 32).
@Suite struct StoreLocatorExampleTests {
  static let folder = CLI.root.appendingPathComponent("examples/store_locator")

  @Test("waymark test in the example's folder runs its tests, all green")
  func itsTestsPass() throws {
    let result = try CLI.run(["test", "--budget", "2000"], in: Self.folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.hasSuffix("\n10 passed, 0 failed\n"), "\(result.stdout)")
  }

  @Test("its scenario runs in Melbourne time: an open store's window, a vetoed tap on a closed one")
  func itsScenarioRuns() throws {
    let result = try CLI.run(["run", "scripts/locator.lua", "--budget", "2000"], in: Self.folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains(#"{"stores":6,"suburbs":3,"time":"08:30 AEST"}"#), "\(result.stdout)")
    #expect(result.stdout.contains("Lygon Roasters is closed at 18:30 (open 09:00-17:00)"), "\(result.stdout)")
  }

  @Test("waymark check finds nothing in it")
  func itChecksClean() throws {
    let result = try CLI.run(["check"], in: Self.folder)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test("waymark check requires the project's modules: a mistake in one is named with its file and line")
  func aBrokenModuleIsNamed() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("store_locator")
    try FileManager.default.copyItem(at: Self.folder, to: copy)
    let module = copy.appendingPathComponent("lib/opening_hours/init.lua")
    let text = try String(contentsOf: module, encoding: .utf8)
    try text.replacingOccurrences(
      of: "local opening_hours = {}\n", with: "local opening_hours = {}\nlocal broken = nil + 1\n"
    )
    .write(to: module, atomically: true, encoding: .utf8)
    let result = try CLI.run(["check"], in: copy)
    #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
    // Lua shortens a long chunk name from its start: the file's end is what is sure to be shown.
    #expect(result.stdout.hasPrefix("plugins/stores/stores.lua:3: error: "), "\(result.stdout)")
    #expect(
      result.stdout.contains(
        "store_locator/lib/opening_hours/init.lua:7: attempt to perform arithmetic on a nil value"),
      "\(result.stdout)")
  }
}
