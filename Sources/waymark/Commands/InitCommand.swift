import Foundation

/// `waymark init [DIR]`: writes a small working project (``ProjectTemplate``) into DIR, or
/// nothing at all when any of its files is already there.
struct InitCommand: Command {
  static let configuration = CommandConfiguration(
    name: "init",
    abstract: "write a small working project: a plugin, a scenario, tests, editor and luacheck settings, CI",
    summary: """
      Writes a small working project into DIR (default: the current folder, made when missing): a plugin in
      plugins/, a scenario in scripts/, a test with a few cases in tests/, the LuaLS definition files in types/
      with the .luarc.json files that load them, a .luacheckrc of the sandbox's globals, and a GitHub Actions
      workflow that runs 'waymark test' in four shards with JUnit reports. In it, at once, 'waymark test tests'
      passes, 'waymark check' and 'luacheck .' report nothing. Overwrites nothing: when any of these files
      exists, names every one and writes none (exit 2).
      """,
    examples: ["waymark init", "waymark init my_map"])

  static let options: [Option<InitCommand>] = []

  static let positionals = Positionals<InitCommand>.optional("[DIR]", \.given)

  /// The folder given, if any.
  var given: String?
  /// Where the project goes: the folder given, or the current one.
  var folder: String { given ?? "." }

  func execute() throws(CommandFailure) -> Int32 {
    let root = URL(fileURLWithPath: folder)
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw CommandFailure(message: "\(folder): a file, not a folder", code: ExitCode.usage)
    }
    if ProjectWriter.kind(of: root.path) == S_IFLNK, !FileManager.default.fileExists(atPath: root.path) {
      throw CommandFailure(message: "\(folder): a symbolic link to nothing, not a folder", code: ExitCode.usage)
    }
    let files = ProjectTemplate.files
    let writer = ProjectWriter(root: root)
    let existing = writer.obstacles(files.map(\.path))
    guard existing.isEmpty else {
      throw CommandFailure(
        message:
          "would overwrite \(existing.map(shown).joined(separator: ", ")); nothing written (move them away or init elsewhere)",
        code: ExitCode.usage)
    }
    if let folder = writer.unwritableFolder(files.map(\.path)) {
      throw CommandFailure(
        message: "cannot write in \(folder): permission denied; nothing written", code: ExitCode.usage)
    }
    do {
      try writer.write(files.map { ($0.path, $0.text) })
    } catch {
      throw CommandFailure(message: error.message + "; nothing written", code: ExitCode.scriptError)
    }
    for file in files { Output.print("wrote \(shown(file.path))") }
    Output.print(
      """

      next\(folder == "." ? "" : ", in \(folder)"):
        waymark test                   the cases of tests/ (waymark.lua names it)
        waymark run scripts/demo.lua   its trace (--html demo.html plays it in a browser)
        waymark check                  plugins/, scripts/ and tests/, without running them
        luacheck .                     the sandbox's globals, from .luacheckrc
      (no `waymark` on your PATH? in Waymark's repository: scripts/install.sh ~/.local)
      """)
    return ExitCode.success
  }

  /// A file of the project as the user names it: its path from the current folder.
  private func shown(_ path: String) -> String {
    folder == "." ? path : (folder as NSString).appendingPathComponent(path)
  }
}
