import Foundation
import Testing

/// Plugins and scripts as a new user writes them, each with a common mistake:
/// `waymark check` must give exactly one clear line per mistake with file:line and a correct
/// suggestion (`Fixtures/broken/expected.txt` is the golden output), and nothing for the
/// helper modules of `with_helper/`.
@Suite struct BrokenPluginCorpusTests {
  static let folder = CLI.root.appendingPathComponent("Tests/WaymarkCLITests/Fixtures/broken")

  @Test func everyMistakeGetsOneLineWithFileLineAndSuggestion() throws {
    let result = try CLI.run(["check"], in: Self.folder)
    let expected = try String(contentsOf: Self.folder.appendingPathComponent("expected.txt"), encoding: .utf8)
    #expect(result.status == 1)
    #expect(result.stdout == expected, "\(result.stdout)")
    let lines = expected.split(separator: "\n")
    #expect(result.stderr.contains("\(lines.count) problem(s)"))
    for line in lines {
      #expect(line.range(of: #"^[a-z_/0-9]+\.lua:[0-9]+: (error|warning): "#, options: .regularExpression) != nil)
    }
    let broken = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".lua") }
    #expect(broken.count >= 20)
    for file in broken { #expect(expected.contains("\(file):"), "\(file) has no finding") }
    #expect(!expected.contains("with_helper/"), "helper modules are not plugins")
  }

  @Test func aSingleFileAndAHelperFolderCheckAlone() throws {
    let one = try CLI.run(["check", "string_veto.lua"], in: Self.folder)
    #expect(one.status == 1)
    #expect(
      one.stdout
        == "string_veto.lua:5: error: did_tap_marker returns a string here; it must return true (handled), false or nil\n"
    )
    let helpers = try CLI.run(["check"], in: Self.folder.appendingPathComponent("with_helper"))
    #expect(helpers.status == 0, "\(helpers.stdout)")
    #expect(helpers.stderr.contains("checked 3 file(s): no problems"))
  }
}
