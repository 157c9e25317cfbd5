import Foundation
import Testing

/// A script, test file or plugin folder named by a relative path with a folder
/// (`scripts/x.lua`, `--plugins plugins2`) finds and refuses the same files as when named
/// absolutely; relative `package` templates are relative to the working directory, as in Lua
/// (docs/plugins.md, "Helper modules").
@Suite struct RelativePathTests {
  /// A project (an empty `waymark.lua`) holding `files`.
  func project(_ files: [String: String]) throws -> URL {
    let folder = try CLI.temporaryFolder()
    for (path, text) in files.merging(["waymark.lua": "return {}"], uniquingKeysWith: { given, _ in given }) {
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
    return folder
  }

  /// "No C": a C module beside the requiring file is refused naming its file, never "not
  /// found", whether the file is given as `scripts/x.lua` or by its absolute path.
  @Test("A C module beside a script, test or plugin given by a relative path is refused naming the file")
  func cModuleBesideARelativeFile() throws {
    let folder = try project([
      "scripts/creq.lua": "local map = waymark.map{}\nprint(select(2, pcall(require, 'cmod2')))\n",
      "scripts/cmod2.so": "not really a library",
      "tests/more_spec.lua": """
      local ok, e = pcall(require, 'tcmod')
      expect(not ok and e:find("module 'tcmod' is a C library (tests/tcmod.so)", 1, true), e)

      """,
      "tests/tcmod.so": "not really a library",
      "plugins2/p.lua": "print(select(2, pcall(require, 'pcmod')))\nreturn { name = 'p' }\n",
      "plugins2/pcmod.so": "not really a library",
      "scripts/empty.lua": "local map = waymark.map{}\n",
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let refusal = "is a C library (%@): the sandbox loads Lua source only, never C code"
    let run = try CLI.run(["run", "scripts/creq.lua"], in: folder)
    #expect(
      run.stdout.contains("module 'cmod2' " + refusal.replacingOccurrences(of: "%@", with: "scripts/cmod2.so")),
      "\(run.stdout)\(run.stderr)")
    let absolute = try CLI.run(["run", folder.appendingPathComponent("scripts/creq.lua").path], in: folder)
    #expect(absolute.stdout.contains("is a C library (\(folder.path)/scripts/cmod2.so)"), "\(absolute.stdout)")
    let test = try CLI.run(["test", "tests/more_spec.lua"], in: folder)
    #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    let plugins = try CLI.run(["run", "scripts/empty.lua", "--plugins", "plugins2"], in: folder)
    #expect(
      plugins.stdout.contains("module 'pcmod' " + refusal.replacingOccurrences(of: "%@", with: "plugins2/pcmod.so")),
      "\(plugins.stdout)\(plugins.stderr)")
  }

  /// `package.searchpath` answers a relative template from the working directory, the file
  /// `loadfile` then reads, and `require` follows the same template; still only inside the
  /// project and its roots.
  @Test("package.searchpath, loadfile and require read a relative template from the working directory")
  func searchpathFromTheWorkingDirectory() throws {
    let folder = try project([
      "vendor2/vmod.lua": "return { from = 'vendor2' }",
      "scripts/paths.lua": """
      local file = package.searchpath("vmod", "vendor2/?.lua")
      expect_eq(file, "vendor2/vmod.lua", "relative to the working directory, as Lua's")
      expect_eq(loadfile(file)().from, "vendor2", "the file loadfile reads")
      package.path = "vendor2/?.lua;" .. package.path
      expect_eq(require("vmod").from, "vendor2", "require reads the same template the same way")
      local none = package.searchpath("passwd", "../../../../../../../etc/?")
      expect_eq(none, nil, "nothing outside the project and its roots")

      """,
    ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try CLI.run(["run", "scripts/paths.lua"], in: folder)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
  }
}
