import Foundation
import Testing

/// A pure-Lua library with its busted specs, written as such libraries ship them
/// (`Fixtures/busted_library`: the module at the root, `spec/` with a `.busted` holding keys
/// waymark does not read, compatibility locals such as `local unpack = unpack or
/// table.unpack`, a helper required as `'spec/support/samples'`, luassert's `same()` on
/// tables with protected metatables), gives under `waymark test` the counts busted gives
/// when run from the library's root on the same Lua 5.4 (Debian's busted defaults to Lua
/// 5.1, whose `unpack` exists).
@Suite struct BustedLibraryTests {
  static let folder = CLI.root.appendingPathComponent("Tests/WaymarkCLITests/Fixtures/busted_library")

  /// The number of successes, failures, errors and pendings of a busted `-o json` document.
  static func counts(ofJSON text: String) throws -> [Int] {
    let start = try #require(text.firstIndex(of: "{"), "\(text)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any], "\(text)")
    return ["successes", "failures", "errors", "pendings"].map { (object[$0] as? [Any])?.count ?? -1 }
  }

  @Test func theLibrarysSpecsGiveBustedsCountsOnLua54() throws {
    let waymark = try CLI.run(["test", "-o", "json", "-j", "1"], in: Self.folder)
    let ours = try Self.counts(ofJSON: waymark.stdout)
    #expect(ours == [10, 1, 1, 1], "\(waymark.stdout)\n\(waymark.stderr)")
    let busted = try CLI.shell("lua5.4 \"$(command -v busted)\" -o plainTerminal", in: Self.folder)
    #expect(
      busted.output.contains("\n10 successes / 1 failure / 1 error / 1 pending : "),
      "busted's own counts: \(busted.output)")
  }
}
