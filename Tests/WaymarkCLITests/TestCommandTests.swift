import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import waymark

/// `waymark test`: a line per file, the closing `N passed, N failed`, the contract's exit
/// codes, JUnit and TAP reports, shards and golden traces.
@Suite struct TestCommandTests {
  static let buggy = """
    return { name = "buggy", did_tap_marker = function(map, marker) local x = nil; return x.field end }
    """
  static let header = """
    local map = waymark.map{}
    local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }

    """
  static let buggyHeader = """
    local map = waymark.map{ plugins = { "../plugins" } }
    local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }

    """
  static let files: [String: String] = [
    "tests/pass_test.lua": header + "map:tap(m)\nexpect_eq(map.selected_marker, m, 'selected')\n",
    "tests/fail_test.lua": header + "expect_eq({ 1, { 2 } }, { 1, { 3 } }, 'tables')\n",
    "tests/error_test.lua": "local map = waymark.map{\nthis is not Lua\n",
    "tests/plugin_error_test.lua": buggyHeader + "map:tap(m)\n",
    "tests/expected_test.lua": buggyHeader + "expect_plugin_error('attempt to index')\nmap:tap(m)\n",
    "tests/sub/deeper_test.lua": "local map = waymark.map{}\nmap:advance(1)\n",
    "tests/helper.lua": "error('not a test: never run')\n",
  ]

  /// A folder with `plugins/buggy.lua` and the given files.
  func suite(_ files: [String: String] = TestCommandTests.files) throws -> URL {
    let folder = try CLI.temporaryFolder()
    var all = files
    all["plugins/buggy.lua"] = Self.buggy
    for (path, text) in all {
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    return folder
  }

  /// The status word of each file's line.
  func statuses(_ stdout: String) -> [String: String] {
    var found: [String: String] = [:]
    for line in stdout.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard words.count >= 2, ["pass", "fail", "error"].contains(String(words[0])) else { continue }
      found[String(words[1])] = String(words[0])
    }
    return found
  }

  @Test func eachFileGetsALineThenTheSummaryAndTheWorstExitCode() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests", "-j", "2"], in: folder)
    #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
    #expect(
      statuses(result.stdout) == [
        "tests/pass_test.lua": "pass", "tests/fail_test.lua": "fail", "tests/error_test.lua": "error",
        "tests/plugin_error_test.lua": "fail", "tests/expected_test.lua": "pass", "tests/sub/deeper_test.lua": "pass",
      ])
    #expect(result.stdout.hasSuffix("\n3 passed, 3 failed\n"))
    // Each failure with its file:line, and the trace just before it.
    #expect(result.stdout.contains("tests/fail_test.lua:3: tables: expected { 1, { 3 } }, got { 1, { 2 } }"))
    #expect(
      result.stdout.contains(
        "plugin_error: buggy did_tap_marker: plugins/buggy.lua:1: attempt to index a nil value (local 'x')"))
    #expect(result.stdout.contains("│    0.000  did_tap_marker               m            result=false"))
    #expect(result.stdout.contains("tests/error_test.lua:2: '}' expected"))
    // The lines come in path order, whatever order the files finished in.
    let order = result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst().first }
      .filter { $0.hasSuffix(".lua") }
    #expect(order == order.sorted())
  }

  @Test func exitIsZeroWhenAllPassAndOneWhenOneFails() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    let passing = try CLI.run(["test", "tests/pass_test.lua", "tests/expected_test.lua"], in: folder)
    #expect(passing.status == 0)
    #expect(passing.stdout.hasSuffix("\n2 passed, 0 failed\n"))
    let failing = try CLI.run(["test", "tests/pass_test.lua", "tests/plugin_error_test.lua"], in: folder)
    #expect(failing.status == 1)
    #expect(failing.stdout.hasSuffix("\n1 passed, 1 failed\n"))
  }

  @Test func badUsageIsExitTwo() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    for arguments in [["test", "missing"], ["test", "plugins"], ["test", "--shard", "3/2"], ["test", "-j", "0"]] {
      let result = try CLI.run(arguments, in: folder)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
    }
  }

  @Test func theJUnitReportHasATestcasePerFileAndTheFailures() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try CLI.run(["test", "tests", "--junit", "report.xml"], in: folder)
    let data = try Data(contentsOf: folder.appendingPathComponent("report.xml"))
    let report = JUnitShape()
    let parser = XMLParser(data: data)
    parser.delegate = report
    #expect(parser.parse(), "the report is well-formed XML")
    #expect(report.path.isEmpty)
    #expect(report.roots == ["testsuites"])
    let suite = try #require(report.suites.first)
    #expect(report.suites.count == 1)
    #expect(suite["tests"] == "6" && suite["failures"] == "2" && suite["errors"] == "1" && suite["skipped"] == "0")
    #expect(report.cases.map { $0.name }.sorted() == Self.files.keys.filter { $0.hasSuffix("_test.lua") }.sorted())
    for testcase in report.cases {
      #expect(testcase.parent == "testsuite")
      #expect(Double(testcase.attributes["time"] ?? "") != nil)
      #expect(testcase.attributes["classname"]?.hasPrefix("tests") == true)
    }
    let failures = report.cases.filter { !$0.problems.isEmpty }
    #expect(
      failures.map(\.name).sorted() == ["tests/error_test.lua", "tests/fail_test.lua", "tests/plugin_error_test.lua"])
    let pluginError = try #require(report.cases.first { $0.name == "tests/plugin_error_test.lua" })
    #expect(pluginError.problems.map(\.element) == ["failure"])
    #expect(pluginError.problems.first?.attributes["message"]?.contains("attempt to index a nil value") == true)
    #expect(pluginError.problems.first?.text.contains("did_tap_marker") == true, "a trace excerpt")
    #expect(report.cases.first { $0.name == "tests/error_test.lua" }?.problems.map(\.element) == ["error"])
  }

  @Test func tapIsVersion13WithAPlanAndAYAMLBlockPerFailure() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests", "--tap"], in: folder)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // The plan comes last (TAP 13 allows it): how many cases there are is known at the end.
    #expect(lines.first == "TAP version 13")
    #expect(lines.dropLast().last == "1..6")
    let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
    #expect(points.count == 6)
    #expect(points.contains("ok 2 - tests/expected_test.lua"))
    #expect(points.contains("not ok 3 - tests/fail_test.lua"))
    #expect(lines.contains("  severity: fail") && lines.contains("  ---") && lines.contains("  ..."))
    #expect(lines.last == "3 passed, 3 failed")
  }

  @Test func theShardsOfACIMatrixRunEachFileOnce() throws {
    let folder = try suite()
    defer { try? FileManager.default.removeItem(at: folder) }
    var seen: [String] = []
    var sizes: [Int] = []
    for index in 1...4 {
      let result = try CLI.run(["test", "tests", "--shard", "\(index)/4"], in: folder)
      let files = statuses(result.stdout).keys
      sizes.append(files.count)
      seen += files
      // The same shard twice: the same files.
      #expect(
        try Set(statuses(CLI.run(["test", "tests", "--shard", "\(index)/4"], in: folder).stdout).keys) == Set(files))
    }
    #expect(seen.sorted() == Self.files.keys.filter { $0.hasSuffix("_test.lua") }.sorted())
    #expect(sizes.max()! - sizes.min()! <= 1)
  }

  @Test func goldenTracesAreWrittenByUpdateThenCompared() throws {
    let folder = try suite(["tests/tour_test.lua": Self.header + "map:tap(m)\nmap:settle()\n"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let required = try CLI.run(["test", "tests", "--golden", "golden", "--golden-required"], in: folder)
    #expect(required.status == 1)
    #expect(required.stdout.contains("no golden trace golden/tour_test.jsonl (run with --update to write it)"))
    let update = try CLI.run(["test", "tests", "--golden", "golden", "--update"], in: folder)
    #expect(update.status == 0, "\(update.stdout)")
    #expect(update.stdout.contains("wrote golden/tour_test.jsonl"))
    let same = try CLI.run(["test", "tests", "--golden", "golden"], in: folder)
    #expect(same.status == 0, "\(same.stdout)")
    let golden = folder.appendingPathComponent("golden/tour_test.jsonl")
    let text = try String(contentsOf: golden, encoding: .utf8)
    #expect(text.hasPrefix(#"{"t":0,"event":"did_tap_marker","marker":"m","result":false,"plugin":null}"#))
    try Data(text.replacingOccurrences(of: #""result":false"#, with: #""result":true"#).utf8).write(to: golden)
    let differs = try CLI.run(["test", "tests", "--golden", "golden"], in: folder)
    #expect(differs.status == 1)
    #expect(
      differs.stdout.contains(
        "the trace differs from golden/tour_test.jsonl: first difference at record 1 (t=0.000) of"))
    #expect(differs.stdout.contains("│   no other record differs"))
    #expect(differs.stdout.contains("│ -    0.000  did_tap_marker               m            result=true"))
    #expect(differs.stdout.contains("│ +    0.000  did_tap_marker               m            result=false"))
  }

  @Test("A file or case with no golden is compared with nothing and counted, unless --golden-required")
  func aMissingGoldenIsComparedWithNothing() throws {
    let cases =
      "describe('tour', function()\n  it('taps', function()\n" + Self.header
      + "map:tap(m)\n  end)\n  it('waits', function() end)\nend)\n"
    let folder = try suite(["tests/tour_test.lua": Self.header + "map:tap(m)\n", "tests/cases_test.lua": cases])
    defer { try? FileManager.default.removeItem(at: folder) }
    let lenient = try CLI.run(["test", "tests", "--golden", "golden"], in: folder)
    #expect(lenient.status == 0, "\(lenient.stdout)")
    #expect(statuses(lenient.stdout)["tests/tour_test.lua"] == "pass")
    #expect(statuses(lenient.stdout)["tests/cases_test.lua"] == "pass")
    #expect(!lenient.stdout.contains("golden/"), "no line names a golden file")
    let lines = lenient.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.suffix(2) == [
        "3 with no golden trace in golden, compared with nothing (--update writes them, --golden-required fails them)",
        "3 passed, 0 failed",
      ], "\(lenient.stdout)")
    let required = try CLI.run(["test", "tests", "--golden", "golden", "--golden-required"], in: folder)
    #expect(required.status == 1)
    #expect(
      required.stdout.contains("no golden trace golden/cases_test/tour_taps.jsonl (run with --update to write it)"))
    #expect(statuses(required.stdout)["tests/tour_test.lua"] == "fail")
    #expect(statuses(required.stdout)["tests/cases_test.lua"] == "fail")
    let usage = try CLI.run(["test", "tests", "--golden-required"], in: folder)
    #expect(usage.status == 2)
    #expect(usage.stderr.contains("--golden-required asks for golden traces: give their folder with --golden DIR"))
  }

  /// R33: a golden that differs after a long camera animation shows the animation folded
  /// into one line, the first differing record first, then the count of the rest, in the
  /// printed output and in TAP alike.
  @Test func aGoldenDifferenceAfterACameraAnimationIsFoldedAndCounted() throws {
    let script = Self.header + "map:animate({ zoom = 12 }, { duration = 3 })\nmap:settle()\nmap:tap(m)\nmap:settle()\n"
    let folder = try suite(["tests/tour_test.lua": script])
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try CLI.run(["test", "tests", "--golden", "golden", "--update"], in: folder).status == 0)
    let golden = folder.appendingPathComponent("golden/tour_test.jsonl")
    var records = try String(contentsOf: golden, encoding: .utf8).split(separator: "\n").map(String.init)
    // The golden expects the animation to end at zoom 11, and one more record at its end.
    let idle = try #require(records.firstIndex { $0.contains(#""event":"idle_at_camera_position""#) })
    #expect(records.count { $0.contains(#""event":"did_change_camera_position""#) } >= 180)
    records[idle] = records[idle].replacingOccurrences(of: #""zoom":12"#, with: #""zoom":11"#)
    try Data((records + [records[0]]).map { $0 + "\n" }.joined().utf8).write(to: golden)
    let differs = try CLI.run(["test", "tests", "--golden", "golden"], in: folder)
    #expect(differs.status == 1)
    let summary = "first difference at record \(idle + 1) (t=3.000) of \(records.count + 1) expected"
    #expect(differs.stdout.contains("the trace differs from golden/tour_test.jsonl: \(summary)"), "\(differs.stdout)")
    let excerpt = differs.stdout.split(separator: "\n").filter { $0.contains("│") }.map(String.init)
    let removed = try #require(excerpt.firstIndex { $0.contains("│ -") && $0.contains("idle_at_camera_position") })
    #expect(excerpt[removed].contains("zoom 11"), "\(excerpt)")
    #expect(excerpt[removed + 1].contains("│ +") && excerpt[removed + 1].contains("zoom 12"), "\(excerpt)")
    #expect(excerpt[2..<removed].contains { $0.contains("did_change_camera_position   ×180 frames") }, "\(excerpt)")
    #expect(excerpt.count { $0.contains("did_change_camera_position") } == 1, "every frame folded: \(excerpt)")
    #expect(excerpt.last?.hasSuffix("… and 1 more record differs (1 expected, 0 not expected)") == true, "\(excerpt)")
    let tapReport = try CLI.run(["test", "tests", "--golden", "golden", "--tap"], in: folder)
    #expect(tapReport.stdout.contains(summary), "\(tapReport.stdout)")
    #expect(tapReport.stdout.contains("×180 frames"))
    #expect(tapReport.stdout.contains("… and 1 more record differs (1 expected, 0 not expected)"))
    _ = try CLI.run(["test", "tests", "--golden", "golden", "--junit", "report.xml"], in: folder)
    let junit = try String(contentsOf: folder.appendingPathComponent("report.xml"), encoding: .utf8)
    #expect(junit.contains("message=\"the trace differs from golden/tour_test.jsonl: \(summary)"), "\(junit)")
    #expect(junit.contains("×180 frames") && junit.contains("… and 1 more record differs"), "\(junit)")
  }

  @Test func aFileThatGrowsPastItsMemoryIsStoppedAndTheOthersRun() throws {
    let folder = try suite([
      "tests/a_test.lua": "local t = {}\nfor i = 1, 1e8 do t[i] = { i } end\n",
      "tests/b_test.lua": "local map = waymark.map{}\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests", "--memory", "100"], in: folder)
    #expect(result.status == 3)
    #expect(statuses(result.stdout) == ["tests/a_test.lua": "error", "tests/b_test.lua": "pass"])
    #expect(result.stdout.contains("stopped: its process grew to "))
  }

  @Test func aChildThatCrashesOrHangsIsReportedWithWhatHappened() throws {
    // Limits far from what a forked copy of a sanitized test process on a loaded machine
    // needs to start (it took longer than 0.5 s, or held more than 1 GiB, and was stopped
    // before its crash): memory is not this test's subject, and the hang is stopped at 5 s.
    let pool = ChildProcessPool(parallel: 2, timeLimit: 5, memoryLimit: 1 << 40)
    var stops: [Int: (ChildProcess.Ending?, ChildProcessPool.Stop?, String)] = [:]
    // The jobs run in forked copies of this (multi-threaded) test process: C calls only.
    try pool.run(3) { index in
      switch index {
      case 1:  // the test process handles SIGSEGV itself; a crash in a test file would not
        _ = signal(SIGSEGV, SIG_DFL)
        _ = raise(SIGSEGV)
      case 2: _ = sleep(30)
      default: break
      }
      return Array("done".utf8)
    } finished: { index, child, stop in
      stops[index] = (child.ending, stop, String(decoding: child.output, as: UTF8.self))
      return true
    }
    #expect(stops[0]?.0 == .exited(0) && stops[0]?.2 == "done")
    #expect(stops[1]?.0 == .signaled(SIGSEGV) && stops[1]?.1 == nil, "\(String(describing: stops[1]))")
    #expect(stops[2]?.1 == .timedOut(seconds: 5))
  }

  @Test func aWorkerThatCrashesOrHangsTakesOnlyItsFileAndTheRestOfItsQueueRuns() throws {
    // One worker runs the jobs in turn: the crash and the hang each end that worker, and the
    // jobs queued after them go to a new one and finish with their own results.
    let pool = ChildProcessPool(parallel: 1, timeLimit: 5, memoryLimit: 1 << 40)
    var ends: [Int: (ChildProcess.Ending?, ChildProcessPool.Stop?, String)] = [:]
    try pool.run(5) { index in
      switch index {
      case 1:
        _ = signal(SIGSEGV, SIG_DFL)
        _ = raise(SIGSEGV)
      case 3: _ = sleep(30)
      default: break
      }
      return Array("done \(index)".utf8)
    } finished: { index, child, stop in
      ends[index] = (child.ending, stop, String(decoding: child.output, as: UTF8.self))
      return true
    }
    for index in [0, 2, 4] {
      #expect(ends[index]?.0 == .exited(0) && ends[index]?.2 == "done \(index)", "\(String(describing: ends[index]))")
    }
    #expect(ends[1]?.0 == .signaled(SIGSEGV) && ends[1]?.1 == nil, "\(String(describing: ends[1]))")
    #expect(ends[3]?.1 == .timedOut(seconds: 5))
  }
}

/// What a JUnit report holds, read with XMLParser: elements by parent, testcases with their
/// failure and error children.
final class JUnitShape: NSObject, XMLParserDelegate {
  struct Problem {
    var element: String
    var attributes: [String: String]
    var text = ""
  }
  struct TestCase {
    var name: String
    var parent: String
    var attributes: [String: String]
    var problems: [Problem] = []
  }
  var path: [String] = []
  var roots: [String] = []
  var suites: [[String: String]] = []
  var cases: [TestCase] = []

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if path.isEmpty { roots.append(name) }
    switch name {
    case "testsuite": suites.append(attributes)
    case "testcase":
      cases.append(TestCase(name: attributes["name"] ?? "", parent: path.last ?? "", attributes: attributes))
    case "failure" where path.last == "testcase", "error" where path.last == "testcase":
      cases[cases.count - 1].problems.append(Problem(element: name, attributes: attributes))
    default: break
    }
    path.append(name)
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard let last = path.last, last == "failure" || last == "error", !cases.isEmpty,
      !cases[cases.count - 1].problems.isEmpty
    else { return }
    cases[cases.count - 1].problems[cases[cases.count - 1].problems.count - 1].text += string
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    path.removeLast()
  }
}
