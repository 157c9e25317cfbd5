import Foundation
import Testing

@testable import waymark

/// What a worker of `waymark test` may report of a file is bounded: long messages are cut,
/// failures past a count are counted on one line, a report still too large is refused with a
/// message. One file with 3,000 failing 60 KB messages made the parent peak at 730 MB.
@Suite struct TestReportBoundsTests {
  static let long = String(repeating: "é", count: 30_000)  // 60 KB of UTF-8

  @Test func thousandsOfLongFailuresBecomeAShortReport() throws {
    var result = TestFileResult(file: "tests/loud_test.lua", status: .fail)
    result.failures = (0..<3_000).map {
      .init(kind: .expectation, message: "\($0): " + Self.long, excerpt: [Self.long])
    }
    result.cases = (0..<100).map { number in
      .init(
        name: "case \(number) " + Self.long, line: number, status: .fail,
        failures: (0..<50).map { _ in .init(kind: .expectation, message: Self.long) })
    }
    let bounded = TestReportBounds.bounded(result)
    #expect(bounded.failures.count == TestReportBounds.failuresShown + 1)
    #expect(bounded.failures.last?.message == "... 2980 more failures (a case shows 20, a file 500 in all)")
    let first = try #require(bounded.failures.first)
    #expect(first.message.utf8.count <= TestReportBounds.textBytes + 40)
    #expect(first.message.hasPrefix("0: é") && first.message.hasSuffix(" more bytes)"))
    #expect(first.excerpt.allSatisfy { $0.utf8.count <= TestReportBounds.lineBytes + 40 })
    let shown =
      bounded.failures.count - 1 + bounded.cases.reduce(0) { $0 + $1.failures.count { !$0.message.hasPrefix("... ") } }
    #expect(shown == TestReportBounds.failuresInFile, "500 failures shown in the whole file")
    #expect(
      bounded.cases.allSatisfy { $0.status == .fail && !$0.failures.isEmpty }, "every failed case shows it failed")
    #expect(
      bounded.cases.last?.failures == [
        .init(kind: .expectation, message: "... 50 more failures (a case shows 20, a file 500 in all)")
      ])
    #expect(TestReportBounds.encoded(result).count < 4 << 20)
  }

  @Test func aReportStillTooLargeIsAnErrorSayingSo() throws {
    var result = TestFileResult(file: "tests/huge_test.lua", status: .pass)
    let name = String(repeating: "n", count: TestReportBounds.textBytes)
    result.cases = (0..<9_000).map { .init(name: name + "\($0)", line: $0, status: .pass) }
    let report = try JSONDecoder().decode(TestFileResult.self, from: Data(TestReportBounds.encoded(result)))
    #expect(report.status == .error)
    #expect(report.failures.first?.message.hasPrefix("its report took 3") == true, "\(report.failures)")
    #expect(report.failures.first?.message.contains("more than the 32 MiB a test file may report") == true)
  }

  @Test func aFileOfManyLongFailuresPrintsTheFirstTwentyCutThenACount() throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("waymark.map{}\nfor i = 1, 25 do expect(false, i .. string.rep('x', 10000)) end\n".utf8).write(
      to: folder.appendingPathComponent("loud_test.lua"))
    let result = try CLI.run(["test", "."], in: folder)
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count { $0.contains("loud_test.lua:2: ") && !$0.contains("│") } == 20, "\(lines.count)")
    #expect(lines.contains { $0.hasSuffix("... 5 more failures (a case shows 20, a file 500 in all)") })
    #expect(lines.allSatisfy { $0.utf8.count < 5000 }, "every message cut")
    #expect(lines.last == "0 passed, 1 failed")
  }

  @Test func shortTextIsLeftWhole() {
    #expect(TestReportBounds.cut("short", to: 10) == "short")
    #expect(TestReportBounds.cut("ééé", to: 3) == "é… (4 more bytes)", "cut at a character's start")
  }
}
