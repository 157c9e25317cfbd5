import Foundation
import Testing

/// Nothing a checkout holds (a symbolic link, a file name) and nothing a test file does makes
/// `waymark test`, `check` or `run` write, read or list a file outside its folder.
@Suite struct OutsideTheFolderTests {
  static let tapTest = """
    local map = waymark.map{}
    local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 } }
    map:tap(m)

    """

  /// A temporary project holding `files`, and a temporary folder beside it standing for the
  /// rest of the machine (a home folder, /etc).
  func project(_ files: [String: String]) throws -> (project: URL, outside: URL) {
    let project = try CLI.temporaryFolder(), outside = try CLI.temporaryFolder()
    for (path, text) in files {
      let file = project.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    return (project, outside)
  }

  func remove(_ folders: (project: URL, outside: URL)) {
    try? FileManager.default.removeItem(at: folders.project)
    try? FileManager.default.removeItem(at: folders.outside)
  }

  func link(_ path: String, in folder: URL, to target: URL) throws {
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent(path).path, withDestinationPath: target.path)
  }

  func isLink(_ url: URL) -> Bool {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
  }

  // MARK: Golden traces

  @Test func updateNeverWritesThroughALinkInTheGoldenFolder() throws {
    let folders = try project([
      "tests/tour_test.lua": Self.tapTest,
      "tests/cart_test.lua": "it('opens', function()\n" + Self.tapTest + "end)\n",
    ])
    defer { remove(folders) }
    let rc = folders.outside.appendingPathComponent("bashrc")
    try Data("keep me\n".utf8).write(to: rc)
    try FileManager.default.createDirectory(
      at: folders.project.appendingPathComponent("golden"), withIntermediateDirectories: true)
    try link("golden/tour_test.jsonl", in: folders.project, to: rc)
    try link("golden/cart_test", in: folders.project, to: folders.outside)
    let update = try CLI.run(["test", "tests", "--golden", "golden", "--update"], in: folders.project)
    #expect(update.status == 1, "\(update.stdout)")
    #expect(
      update.stdout.contains(
        "golden/tour_test.jsonl: cannot write the golden trace: golden/tour_test.jsonl is a symbolic link, "
          + "and golden traces are never written through one (remove it)"), "\(update.stdout)")
    #expect(update.stdout.contains("golden/cart_test is a symbolic link"), "\(update.stdout)")
    #expect(try String(contentsOf: rc, encoding: .utf8) == "keep me\n", "the link's target is untouched")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folders.outside.path) == ["bashrc"])
    #expect(isLink(folders.project.appendingPathComponent("golden/tour_test.jsonl")), "the link is left as it was")
    // Without the links, --update writes plain files, and leaves no temporary file behind.
    try FileManager.default.removeItem(at: folders.project.appendingPathComponent("golden/tour_test.jsonl"))
    try FileManager.default.removeItem(at: folders.project.appendingPathComponent("golden/cart_test"))
    let again = try CLI.run(["test", "tests", "--golden", "golden", "--update"], in: folders.project)
    #expect(again.status == 0, "\(again.stdout)")
    let golden = folders.project.appendingPathComponent("golden")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: golden.path).sorted() == ["cart_test", "tour_test.jsonl"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent("cart_test").path) == [
        "opens.jsonl"
      ])
  }

  // MARK: Coverage

  @Test func coverageListsOnlyTheProjectsFilesAndReadsNoOther() throws {
    let folders = try project([:])
    defer { remove(folders) }
    let secret = folders.outside.appendingPathComponent("hostname")
    try Data("KEY=secret\n".utf8).write(to: secret)
    let test = Self.tapTest + "load('local a = 1\\nreturn a', '@\(secret.path)')()\n"
    try Data(test.utf8).write(to: folders.project.appendingPathComponent("tap_test.lua"))
    let forged = "a\nSF:hostname\nDA:1,1\nend_of_record\n_test.lua"
    try Data(Self.tapTest.utf8).write(to: folders.project.appendingPathComponent(forged))
    let result = try CLI.run(["test", ".", "--coverage", "coverage.info"], in: folders.project)
    #expect(result.status == 0, "\(result.stdout)")
    let lcov = try String(contentsOf: folders.project.appendingPathComponent("coverage.info"), encoding: .utf8)
    let sources = lcov.split(separator: "\n").filter { $0.hasPrefix("SF:") }
    #expect(sources == ["SF:\(folders.project.standardizedFileURL.path)/tap_test.lua"], "\(lcov)")
    #expect(!lcov.contains(secret.path))
    #expect(
      result.stderr.contains(
        "a\\nSF:hostname\\nDA:1,1\\nend_of_record\\n_test.lua is left out of coverage.info: its name holds"),
      "\(result.stderr)")
  }

  // MARK: Plugins behind links

  @Test func checkAndRunRefuseAPluginLinkedFromOutsideWithoutReadingIt() throws {
    let folders = try project([
      "plugins/good.lua": "return { name = 'good' }\n",
      "scripts/demo.lua": "local map = waymark.map{ plugins = { '../plugins' } }\nmap:advance(1)\n",
    ])
    defer { remove(folders) }
    let secret = folders.outside.appendingPathComponent("env.lua")
    try Data("KEY=secret\nreturn {}\n".utf8).write(to: secret)
    try link("plugins/stolen.lua", in: folders.project, to: secret)
    let check = try CLI.run(["check"], in: folders.project)
    #expect(check.status != 0)
    let output = check.stdout + check.stderr
    #expect(
      output.contains("plugins/stolen.lua: error: is a symbolic link that leads outside plugins; it is not read"),
      "\(output)")
    #expect(!output.contains("KEY") && !output.contains("secret"), "nothing of the target is quoted: \(output)")
    let run = try CLI.run(["run", "scripts/demo.lua"], in: folders.project)
    let said = run.stdout + run.stderr
    #expect(said.contains("stolen.lua: error: is a symbolic link that leads outside"), "\(said)")
    #expect(said.contains("plugin_loaded") && said.contains("good"), "the other plugin loads: \(said)")
    #expect(!said.contains("KEY") && !said.contains("secret"), "\(said)")
  }

  @Test func aLinkThatStaysInsideItsFolderIsRead() throws {
    let folders = try project([
      "plugins/lib/real.lua": "return { name = 'linked' }\n",
      "scripts/demo.lua": "local map = waymark.map{ plugins = { '../plugins' } }\nmap:advance(1)\n",
    ])
    defer { remove(folders) }
    try link(
      "plugins/linked.lua", in: folders.project, to: folders.project.appendingPathComponent("plugins/lib/real.lua"))
    let run = try CLI.run(["run", "scripts/demo.lua"], in: folders.project)
    #expect(run.status == 0, "\(run.stdout + run.stderr)")
    #expect(run.stdout.contains("plugin_loaded") && run.stdout.contains("linked"), "\(run.stdout)")
  }
}
