import Foundation
import Testing

/// A suite written for busted (`Fixtures/busted_suite`: a `.busted` with tasks, `*_spec.lua`
/// files using every block and hook, tags, pending cases, errors outside cases, luassert's
/// assertions, spies, stubs, mocks, matchers and a custom assertion, a module found through
/// busted's default `lpath`) gives under
/// `waymark test` the counts busted itself gives, task by task, busted run in the same test
/// (Debian's lua-busted, which scripts/test.sh installs).
@Suite struct BustedSuiteTests {
  static let folder = CLI.root.appendingPathComponent("Tests/WaymarkCLITests/Fixtures/busted_suite")

  /// busted's counts from its status line: successes, failures + errors, pending.
  func bustedCounts(_ arguments: [String]) throws -> (passed: Int, failed: Int, skipped: Int) {
    let run = try CLI.shell((["busted"] + arguments).joined(separator: " "), in: Self.folder)
    let line = try #require(
      run.output.split(separator: "\n").first { $0.contains(" successes / ") || $0.contains(" success / ") })
    let numbers = line.split(separator: " ").compactMap { Int($0) }
    try #require(numbers.count >= 4, "\(run.output)")
    return (numbers[0], numbers[1] + numbers[2], numbers[3])
  }

  @Test(arguments: [
    (task: "default", expected: "11 passed, 5 failed, 2 skipped"),
    (task: "fast", expected: "3 passed, 1 failed"),
    (task: "everything", expected: "11 passed, 7 failed, 2 skipped"),
    (task: "checks", expected: "1 passed, 0 failed"),
  ])
  func eachTaskOfTheBustedFileGivesBustedsCounts(task: String, expected: String) throws {
    let waymark = try CLI.run(["test", "--run", task, "-j", "1"], in: Self.folder)
    #expect(waymark.stdout.hasSuffix("\n" + expected + "\n"), "\(waymark.stdout)")
    let busted = try bustedCounts(["--run=\(task)"])
    let skipped = busted.skipped > 0 ? ", \(busted.skipped) skipped" : ""
    #expect("\(busted.passed) passed, \(busted.failed) failed\(skipped)" == expected, "busted's own counts")
  }

  @Test func withoutRunTheDefaultTaskIsReadAndTheCommandLineWinsOverIt() throws {
    let plain = try CLI.run(["test"], in: Self.folder)
    #expect(plain.stdout.hasSuffix("\n11 passed, 5 failed, 2 skipped\n"), "\(plain.stdout)")
    let tagged = try CLI.run(["test", "--exclude-tags", "nothing", "--tags", "fast"], in: Self.folder)
    #expect(tagged.stdout.hasSuffix("\n3 passed, 1 failed\n"), "\(tagged.stdout)")
    let named = try CLI.run(["test", "spec/order_spec.lua"], in: Self.folder)
    #expect(named.stdout.hasSuffix("\n6 passed, 0 failed\n"), "\(named.stdout)")
  }

  /// busted's `helper` (`.busted`, `--helper`): run before each file, in its globals; a
  /// custom assertion it registers and a global it sets reach every file, as under busted.
  @Test func theHelperRunsBeforeEachFileAsUnderBusted() throws {
    let folder = try TestCaseTests().suite([
      ".busted": "return { default = { helper = 'spec/helper.lua' } }\n",
      "spec/helper.lua": """
      SHARED = { ready = true }
      local assert, say = require("luassert"), require("say")
      say:set("assertion.is_even.positive", "Expected %s to be even")
      assert:register("assertion", "is_even", function(_, arguments) return arguments[1] % 2 == 0 end,
        "assertion.is_even.positive", "assertion.is_even.positive")

      """,
      "spec/a_spec.lua": "it('sees the global', function() assert.is_true(SHARED.ready) end)\n",
      "spec/b_spec.lua": """
      it('uses the assertion', function() assert.is_even(4) end)
      it('fails by it', function() assert.is_even(3) end)

      """,
      "other/boom.lua": "error('helper broke')\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let waymark = try CLI.run(["test", "-j", "1"], in: folder)
    #expect(waymark.stdout.hasSuffix("\n2 passed, 1 failed\n"), "\(waymark.stdout)")
    #expect(waymark.stdout.contains("spec/b_spec.lua:2: Expected (number) 3 to be even"), "\(waymark.stdout)")
    let busted = try CLI.shell("busted", in: folder)
    #expect(busted.output.contains("2 successes / 1 failure / 0 errors"), "busted agrees: \(busted.output)")
    let broken = try CLI.run(["test", "--helper", "other/boom.lua", "spec/a_spec.lua"], in: folder)
    #expect(broken.stdout.contains("other/boom.lua:1: helper broke"), "--helper wins: \(broken.stdout)")
    let missing = try CLI.run(["test", "--helper", "nope.lua"], in: folder)
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("--helper nope.lua: no such file (looked for "), "\(missing.stderr)")
  }

  @Test func aBadBustedFileOrTaskIsAUsageErrorNamingIt() throws {
    let folder = try TestCaseTests().suite([
      "spec/a_spec.lua": "it('a', function() end)\n",
      ".busted": "return { default = { pattern = 3 }, broken = 1 }\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let wrong = try CLI.run(["test"], in: folder)
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains(".busted: default.pattern: expected a string or a list of strings, got number"))
    let missing = try CLI.run(["test", "--run", "nightly"], in: folder)
    #expect(missing.stderr.contains(".busted: task `nightly` not found, or not a table (--run nightly)"))
    try Data("return {".utf8).write(to: folder.appendingPathComponent(".busted"))
    let syntax = try CLI.run(["test"], in: folder)
    #expect(syntax.status == 2)
    #expect(syntax.stderr.contains(".busted:1:"), "\(syntax.stderr)")
  }
}

/// `-o/--output`: busted's outputs of the same results, and `--pattern`.
@Suite struct BustedOutputTests {
  let folder = BustedSuiteTests.folder

  @Test func tapHasBustedsPointsAndPlanForTheSameCases() throws {
    let ours = try CLI.run(["test", "-o", "TAP", "-j", "1"], in: folder).stdout
    let theirs = try CLI.shell("busted -o TAP", in: folder).output
    func shape(_ text: String) -> [String] {
      text.split(separator: "\n").compactMap { line in
        if line.hasPrefix("ok ") { return line.contains("# SKIP") ? "skip" : "ok" }
        if line.hasPrefix("not ok ") { return "not ok" }
        return line.hasPrefix("1..") ? String(line) : nil
      }
    }
    #expect(shape(ours) == shape(theirs), "\(ours)\n---\n\(theirs)")
    #expect(
      ours.contains(
        "not ok 14 - outcomes fails\n# spec/outcomes_spec.lua @ 4\n# Failure message: spec/outcomes_spec.lua:4: arithmetic\n"
      ), "\(ours)")
    #expect(ours.hasSuffix("1..18\n# 11 passed, 5 failed, 2 skipped\n"))
  }

  @Test func terminalOutputsPrintACharacterPerCaseThenTheDetailsThenTheClosingLine() throws {
    let plain = try CLI.run(["test", "--output=plainTerminal", "-j", "1"], in: folder).stdout
    let busted = try CLI.shell("busted -o plainTerminal", in: folder).output
    // assert is luassert's, as busted's: a failed assertion is a failure ("-"), an error "*".
    // busted prints no character for the case whose before_each failed (the last here), but
    // counts its error.
    let characters = busted.prefix { $0 != "\n" }
    #expect(plain.hasPrefix(characters + "*\n"), "busted's characters, in its order: \(plain)")
    #expect(plain.contains("\n11 successes / 3 failures / 2 errors / 2 pending : "))
    #expect(
      plain.contains("\nFailure -> spec/outcomes_spec.lua @ 4\noutcomes fails\nspec/outcomes_spec.lua:4: arithmetic\n"))
    #expect(plain.contains("\nPending -> spec/outcomes_spec.lua @ 7\noutcomes is declared pending\n"))
    #expect(
      plain.contains(
        "\nFailure -> spec/assertions_spec.lua @ 42\nassertions fails an assertion\n"
          + "spec/assertions_spec.lua:43: Expected objects to be the same.\nPassed in:\n"),
      "luassert's lines, as busted's")
    #expect(plain.hasSuffix("\n11 passed, 5 failed, 2 skipped\n"))
    let utf = try CLI.run(["test", "-o", "utfTerminal", "-j", "1"], in: folder).stdout
    #expect(utf.hasPrefix("●●●●◼◼●●●●●●●◼✱◌◌✱\n"), "\(utf)")
  }

  @Test func gtestHasBustedsBracketedLinesAndItsSummary() throws {
    let ours = try CLI.run(["test", "-o", "gtest", "-j", "1"], in: folder).stdout
    let theirs = try CLI.shell("busted -o gtest", in: folder).output
    // The counts and lists after the run, as busted prints them (say's own .busted asks for
    // gtest): the passed count, each list's header, and the footers.
    func summary(_ text: String) -> [String] {
      text.split(separator: "\n").map(String.init).filter {
        $0.hasPrefix("[  PASSED  ]") || $0.hasSuffix(", listed below:")
          || ($0.hasPrefix(" ") && $0.dropFirst().first?.isNumber == true)
      }
    }
    #expect(summary(ours) == summary(theirs), "\(ours)\n---\n\(theirs)")
    #expect(summary(ours).contains(" 3 FAILED TESTS"))
    #expect(
      ours.hasPrefix("[==========] Running tests from scanned files.\n[----------] Global test environment setup.\n"))
    #expect(ours.contains("[ RUN      ] spec/outcomes_spec.lua @ 4: outcomes fails\n"))
    #expect(
      ours.contains("[  FAILED  ] spec/outcomes_spec.lua @ 4: outcomes fails (")
        && ours.contains(" ms)\nspec/outcomes_spec.lua:4: arithmetic"), "the failure's message after its line")
    #expect(ours.hasSuffix("\n11 passed, 5 failed, 2 skipped\n"), "the closing line stays")
  }

  @Test func jsonAndJUnitAreOneDocumentOnStandardOutput() throws {
    let json = try CLI.run(["test", "-o", "json"], in: folder).stdout
    let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect((object["successes"] as? [Any])?.count == 11)
    #expect((object["failures"] as? [Any])?.count == 3)
    #expect((object["errors"] as? [Any])?.count == 2)
    #expect((object["pendings"] as? [Any])?.count == 2)
    let failure = try #require((object["failures"] as? [[String: Any]])?.last)
    #expect(failure["name"] as? String == "outcomes fails")
    #expect((failure["trace"] as? [String: Any])?["currentline"] as? Int == 4)
    let junit = try CLI.run(["test", "-o", "junit"], in: folder).stdout
    #expect(junit.hasPrefix("<?xml") && junit.hasSuffix("</testsuites>\n"), "\(junit)")
    let bad = try CLI.run(["test", "-o", "html"], in: folder)
    #expect(bad.status == 2)
    #expect(
      bad.stderr.contains("-o html: expected plainTerminal, utfTerminal, TAP, json, junit or gtest"), "\(bad.stderr)")
  }

  @Test func aPatternReplacesTheDefaultChoiceOfTestFiles() throws {
    let found = try CLI.run(["test", "--pattern", "^check_", "checks", "spec"], in: folder)
    #expect(found.stdout.hasSuffix("\n1 passed, 0 failed\n"), "\(found.stdout)")
    let none = try CLI.run(["test", "--pattern", "^nothing", "spec"], in: folder)
    #expect(none.status == 2)
    #expect(none.stderr.contains("no .lua file whose name matches ^nothing in spec"), "\(none.stderr)")
  }
}
