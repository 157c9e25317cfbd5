import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import waymark

/// `waymark test` with cases inside a file (docs/testing.md, "Cases inside a file"):
/// describe / it / before_each / after_each / pending with busted's meaning, a line and a
/// count per case, `--filter`, `--fail-fast`, `--list`, goldens per case, and output that no
/// file name or message can forge.
@Suite struct TestCaseTests {
  static let cart = """
    local map, m
    local log = {}
    before_each(function()
      map = waymark.map{}
      m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
      log[#log + 1] = "outer before"
    end)
    after_each(function() log[#log + 1] = "outer after" end)
    describe("cart", function()
      before_each(function() log[#log + 1] = "inner before" end)
      after_each(function() log[#log + 1] = "inner after" end)
      describe("checkout", function()
        it("opens window", function()
          map:tap(m)
          expect_eq(map.selected_marker, m, "selected")
          expect_eq(log, { "outer before", "inner before" })
        end)
        it("fails", function() expect_eq(1, 2, "one is two") end)
        it("errors", function() error("boom") end)
        pending("refunds")
      end)
    end)
    it("starts on a fresh map", function()
      expect_eq(map.selected_marker, nil, "the previous case's selection")
      expect_eq(#log, 13, "after_each ran after the failure and the error")
    end)

    """

  func suite(_ files: [String: String]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    for (path, text) in files {
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    return folder
  }

  /// The case lines (`  pass   name  time`): name → status word.
  func cases(_ stdout: String) -> [String: String] {
    var found: [String: String] = [:]
    for line in stdout.split(separator: "\n") where line.hasPrefix("  ") {
      let words = line.dropFirst(2).split(separator: " ", maxSplits: 1)
      guard words.count == 2, ["pass", "fail", "error", "skip"].contains(String(words[0])) else { continue }
      let rest = words[1].trimmingCharacters(in: .whitespaces)
      let name = rest.components(separatedBy: "  ").first ?? rest
      found[name] = String(words[0])
    }
    return found
  }

  @Test func eachCaseRunsInBustedsOrderOnAFreshMapAndTheClosingLineCountsCases() throws {
    let folder = try suite(["tests/cart_test.lua": Self.cart, "tests/plain_test.lua": "local map = waymark.map{}\n"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests", "-j", "1"], in: folder)
    #expect(result.status == 1, "an error inside an it fails its case, not the file: \(result.stdout)")
    #expect(
      cases(result.stdout) == [
        "cart checkout opens window": "pass", "cart checkout fails": "fail", "cart checkout errors": "error",
        "cart checkout refunds": "skip", "starts on a fresh map": "pass",
      ], "\(result.stdout)")
    #expect(result.stdout.contains("tests/cart_test.lua:18: one is two: expected 2, got 1"))
    #expect(result.stdout.contains("tests/cart_test.lua:19: boom"))
    #expect(result.stdout.hasPrefix("fail   tests/cart_test.lua"))
    #expect(result.stdout.contains("\npass   tests/plain_test.lua"), "a file without it is one case, as before")
    #expect(result.stdout.hasSuffix("\n3 passed, 2 failed, 1 skipped\n"))
  }

  @Test func aFailingBeforeEachFailsTheCasesItWrapsAndAfterEachStillRuns() throws {
    let folder = try suite([
      "tests/hooks_test.lua": """
      local cleaned = 0
      describe("broken", function()
        before_each(function() error("no fixture") end)
        after_each(function() cleaned = cleaned + 1 end)
        it("one", function() error("never runs") end)
        it("two", function() end)
      end)
      it("counts", function() expect_eq(cleaned, 2) end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(cases(result.stdout) == ["broken one": "error", "broken two": "error", "counts": "pass"])
    #expect(result.stdout.contains("tests/hooks_test.lua:3: no fixture"))
    #expect(!result.stdout.contains("never runs"))
    #expect(result.stdout.hasSuffix("\n1 passed, 2 failed\n"))
  }

  @Test func anErrorOutsideAnyItIsTheFilesErrorAndItInsideItIsRefused() throws {
    let folder = try suite([
      "tests/top_test.lua": "it('fine', function() end)\nerror('top level')\n",
      "tests/nested_test.lua": "it('outer', function() it('inner', function() end) end)\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(result.status == 3)
    #expect(result.stdout.contains("error  tests/top_test.lua"))
    #expect(result.stdout.contains("tests/top_test.lua:2: top level"))
    #expect(result.stdout.contains("cases are declared at the top of a test file or inside describe"))
  }

  @Test func aMapMadeOutsideTheCasesIsRetiredBeforeTheyRunAndSaysSo() throws {
    let folder = try suite([
      "tests/top_test.lua": """
      local map = waymark.map{}
      local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
      it("uses the top map", function() map:tap(m) end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests"], in: folder)
    #expect(cases(result.stdout) == ["uses the top map": "error"])
    #expect(
      result.stdout.contains(
        "tests/top_test.lua:3: this map is no longer current: each case of a test file starts with no map and makes its own"
      ), "\(result.stdout)")
  }

  @Test func junitHasATestcasePerCaseWithSkippedForPending() throws {
    let folder = try suite(["tests/cart_test.lua": Self.cart])
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try CLI.run(["test", "tests", "--junit", "report.xml"], in: folder)
    let shape = JUnitShape()
    let parser = try #require(XMLParser(contentsOf: folder.appendingPathComponent("report.xml")))
    parser.delegate = shape
    #expect(parser.parse())
    #expect(shape.cases.map(\.name).count == 5)
    #expect(shape.cases.allSatisfy { $0.attributes["classname"] == "tests/cart_test.lua" })
    #expect(shape.cases.first { $0.name == "cart checkout fails" }?.problems.map(\.element) == ["failure"])
    #expect(shape.cases.first { $0.name == "cart checkout errors" }?.problems.map(\.element) == ["error"])
    #expect(shape.suites.first?["skipped"] == "1" && shape.suites.first?["tests"] == "5")
    let text = try String(contentsOf: folder.appendingPathComponent("report.xml"), encoding: .utf8)
    #expect(text.contains("<skipped message=\"pending\"/>"))
  }

  @Test func filterRunsOnlyTheMatchingCasesAndABadPatternIsAUsageError() throws {
    let folder = try suite(["tests/cart_test.lua": Self.cart, "tests/plain_test.lua": "local map = waymark.map{}\n"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests", "--filter", "^cart check.*s$", "--filter", "window"], in: folder)
    #expect(
      cases(result.stdout) == [
        "cart checkout opens window": "pass", "cart checkout fails": "fail", "cart checkout errors": "error",
        "cart checkout refunds": "skip",
      ], "\(result.stdout)")
    #expect(!result.stdout.contains("plain_test.lua"), "a file without cases is matched by its path")
    #expect(result.stdout.hasSuffix("\n1 passed, 2 failed, 1 skipped\n"))
    let bad = try CLI.run(["test", "tests", "--filter", "cart%"], in: folder)
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--filter cart%: not a Lua pattern: malformed pattern (ends with '%')"))
  }

  /// Patterns Lua refuses only while matching (33 captures; more choice points than its
  /// matcher nests) are usage errors before any file runs, not a run of nothing that exits 0.
  @Test func aPatternLuaRefusesOnlyWhileMatchingIsAUsageErrorToo() throws {
    let folder = try suite(["tests/cart_test.lua": Self.cart])
    defer { try? FileManager.default.removeItem(at: folder) }
    let captures = String(repeating: "(", count: 33) + "a" + String(repeating: ")", count: 33)
    let many = try CLI.run(["test", "tests", "--filter", captures], in: folder)
    #expect(many.status == 2, "\(many.stdout)")
    #expect(many.stderr.contains("--filter \(captures): not a Lua pattern: too many captures"), "\(many.stderr)")
    let complex = String(repeating: "a?", count: 200)
    let deep = try CLI.run(["test", "tests", "--filter", complex], in: folder)
    #expect(deep.status == 2)
    #expect(deep.stderr.contains("not a Lua pattern: pattern too complex (200 captures, repetitions"), "\(deep.stderr)")
    // 32 captures and 199 choice points are patterns Lua takes: they run (and match).
    let most = String(repeating: "(", count: 32) + "c" + String(repeating: ")", count: 32)
    let fine = try CLI.run(["test", "tests", "--filter", most + String(repeating: "x?", count: 135)], in: folder)
    #expect(fine.status != 2, "\(fine.stderr)")
    #expect(cases(fine.stdout)["cart checkout opens window"] == "pass", "\(fine.stdout)")
  }

  @Test func failFastWithOneJobRunsNothingAfterTheFirstFailedCase() throws {
    let folder = try suite([
      "tests/a_test.lua":
        "it('passes', function() end)\nit('fails', function() expect(false) end)\nit('after', function() end)\n",
      "tests/b_test.lua": "it('later file', function() end)\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    for option in ["-x", "--fail-fast"] {
      let result = try CLI.run(["test", "tests", "-j", "1", option], in: folder)
      #expect(result.status == 1)
      #expect(cases(result.stdout) == ["passes": "pass", "fails": "fail"], "\(result.stdout)")
      #expect(result.stdout.hasSuffix("\n1 passed, 1 failed\n"))
    }
  }

  @Test func listPrintsEveryCaseWithoutRunningAnyBody() throws {
    let folder = try suite([
      "tests/cart_test.lua":
        "describe('cart', function()\n  it('pays', function() error('ran') end)\n  pending('refunds')\nend)\n",
      "tests/plain_test.lua": "local map = waymark.map{}\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try CLI.run(["test", "tests", "--list"], in: folder)
    #expect(result.status == 0, "\(result.stdout)")
    #expect(
      result.stdout
        == "tests/cart_test.lua:2: cart pays\ntests/cart_test.lua:3: cart refunds\ntests/plain_test.lua\n3 case(s) in 2 file(s)\n"
    )
  }

  @Test func eachCaseHasItsOwnGoldenAndUpdateSkipsFailingCases() throws {
    let folder = try suite([
      "tests/tour_test.lua": """
      describe("tour", function()
        it("taps m", function()
          local map = waymark.map{}
          map:tap(map:add_marker{ id = "m", position = { lat = 0, lng = 0 } })
        end)
        it("is wrong", function() waymark.map{}; expect(false, "wrong") end)
      end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let update = try CLI.run(["test", "tests", "--golden", "golden", "--update"], in: folder)
    #expect(update.stdout.contains("wrote golden/tour_test/tour_taps_m.jsonl"), "\(update.stdout)")
    #expect(update.stdout.contains("did not write golden/tour_test/tour_is_wrong.jsonl: it fails"))
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("golden/tour_test/tour_is_wrong.jsonl").path))
    let golden = try String(
      contentsOf: folder.appendingPathComponent("golden/tour_test/tour_taps_m.jsonl"), encoding: .utf8)
    #expect(golden.hasPrefix(#"{"t":0,"event":"did_tap_marker","marker":"m""#), "its own trace, from its own map")
    let again = try CLI.run(["test", "tests", "--golden", "golden", "--filter", "taps"], in: folder)
    #expect(again.status == 0, "\(again.stdout)")
  }

  @Test func mathRandomInACaseDoesNotDependOnTheCasesBeforeIt() throws {
    let folder = try suite([
      "tests/random_test.lua": """
      it("draws first", function() math.random() end)
      it("draws", function() print(math.random(1, 1000000)) end)

      """
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let full = try CLI.run(["test", "tests", "--golden", "g", "--update"], in: folder)
    #expect(full.status == 0, "\(full.stdout)")
    let filtered = try CLI.run(["test", "tests", "--golden", "g", "--filter", "^draws$"], in: folder)
    #expect(filtered.status == 0, "the case's golden is the same run alone: \(filtered.stdout)")
  }

  @Test("Issue 24: a file name cannot forge a TAP line; ESC, CR and BEL reach no terminal raw")
  func fileNamesAndMessagesAreEscapedInEveryOutput() throws {
    let forged = "tests/b\nok 9 - forged\n_test.lua"
    let folder = try suite([
      forged: "expect(false, 'red\\27[32m green\\rpass\\7')\n",
      "tests/c_test.lua": "it('case \\27]0;title\\7\\nok 8 - forged', function() expect(false, 'x\\27[2K') end)\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    for arguments in [["--tap"], [], ["--list"]] {
      let result = try CLI.run(["test", "tests"] + arguments, in: folder)
      for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
        #expect(!line.hasPrefix("ok 9") && !line.hasPrefix("ok 8") && !line.hasPrefix("ok -"), "\(arguments): \(line)")
      }
      for control in ["\u{1B}", "\r", "\u{07}"] {
        #expect(!result.stdout.contains(control), "\(arguments): \(result.stdout.debugDescription)")
      }
    }
    let tap = try CLI.run(["test", "tests", "--tap"], in: folder)
    #expect(tap.stdout.contains("not ok 1 - tests/b\\nok 9 - forged\\n_test.lua"), "\(tap.stdout)")
    #expect(tap.stdout.contains("not ok 2 - tests/c_test.lua: case \\u001b]0;title\\u0007\\nok 8 - forged"))
    let people = try CLI.run(["test", "tests"], in: folder)
    #expect(people.stdout.contains("red\\u001b[32m green\\rpass\\u0007"), "\(people.stdout)")
  }

  @Test func statusWordsAreColouredOnlyWhenAsked() throws {
    let result = TestFileResult(file: "tests/a_test.lua", status: .pass)
    #expect(TestReports.lines(result, width: 0, colour: true).first?.hasPrefix("\u{1B}[32mpass\u{1B}[0m ") == true)
    #expect(TestReports.lines(result, width: 0, colour: false).first == "pass   tests/a_test.lua  0.000 s")
    // Not a terminal (a pipe), or NO_COLOR: no escape at all.
    let folder = try suite(["tests/a_test.lua": "it('a', function() end)\n"])
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(!(try CLI.run(["test", "tests"], in: folder).stdout.contains("\u{1B}")))
    let terminal = try CLI.shell(
      "env -u NO_COLOR TERM=xterm script -qec '\(CLI.executable.path) test tests' /dev/null", in: folder)
    #expect(terminal.output.contains("\u{1B}[32mpass\u{1B}[0m"), "\(terminal.output.debugDescription)")
    let noColor = try CLI.shell(
      "TERM=xterm NO_COLOR=1 script -qec '\(CLI.executable.path) test tests' /dev/null", in: folder)
    #expect(!noColor.output.contains("\u{1B}["), "\(noColor.output.debugDescription)")
  }

  @Test func watchRerunsTheTestFilesThatUseAChangedFile() throws {
    let folder = try suite([
      "tests/a_test.lua": "local shared = require('shared')\nit('uses shared', function() expect_eq(shared, 1) end)\n",
      "tests/shared.lua": "return 1\n",
      "tests/b_test.lua": "it('alone', function() end)\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = try CLI.watch(["test", "tests", "--watch"], in: folder) {
      try Data("return 22\n".utf8).write(to: folder.appendingPathComponent("tests/shared.lua"))
    }
    let runs = text.components(separatedBy: "── run 2: ")
    #expect(runs.count == 2, "\(text)")
    #expect(runs.first?.hasSuffix("2 passed, 0 failed\n") == true, "\(text)")
    #expect(runs.last?.contains("tests/a_test.lua") == true && runs.last?.contains("b_test") == false, "\(text)")
    #expect(text.hasSuffix("0 passed, 1 failed\n"), "the summary of the last run: \(text)")
  }
}
