import Foundation
import LuaKit
import WaymarkCore

/// `waymark check`: loads plugins and scripts without running a scenario and collects every
/// problem with file:line.
public enum ScriptChecker {
  /// What a check found.
  public struct Report: Sendable {
    /// How many Lua files were checked.
    public var files: Int
    /// Every problem, by file then line.
    public var diagnostics: [PluginDiagnostic]
  }

  /// Checks `paths` (files, or folders searched recursively for `*.lua`). A file that calls
  /// `waymark.map` is a script: it is compiled, not run. Any other is a plugin: it is loaded
  /// the way the host loads it (its top level runs, sandboxed; `setup` and handlers do not),
  /// so unknown handler names, wrongly typed fields and handlers that are not functions are
  /// reported. In both, uses of `map:name` or `map.name` that `Map` does not have are
  /// reported with a suggestion.
  public static func check(_ paths: [String], options: ScriptOptions = ScriptOptions()) -> Report {
    var diagnostics: [PluginDiagnostic] = []
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        diagnostics.append(
          PluginDiagnostic(
            severity: .error, file: path, line: nil, message: "no such file or folder (looked for \(absolute))"))
        continue
      }
      files += isDirectory.boolValue ? luaFiles(under: path) : [path]
    }
    for file in files {
      switch ScriptFiles.readText(file, maxSize: options.maxScriptSize) {
      case .failure(let error):
        diagnostics.append(PluginDiagnostic(severity: .error, file: file, line: nil, message: error.message))
      case .success(let source) where source.contains("waymark.map"):
        diagnostics += compile(source, file: file) + MapNameLint.check(source, file: file)
      case .success(let source):
        diagnostics += PluginHost.check([file], configuration: options.plugins) + MapNameLint.check(source, file: file)
      }
    }
    diagnostics.sort { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
    return Report(files: files.count, diagnostics: diagnostics)
  }

  /// Every `*.lua` file below `folder`, sorted.
  static func luaFiles(under folder: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
    return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".lua") }.sorted()
      .map { PluginFiles.join(folder, $0) }
  }

  /// Compiles a script without running it: syntax errors with their line.
  private static func compile(_ source: String, file: String) -> [PluginDiagnostic] {
    do {
      let state = try LuaState(libraries: [])
      defer { state.close() }
      try state.stack.load(source, chunkName: "@" + file)
      return []
    } catch {
      return [PluginDiagnostic.error(file: file, luaMessage: error.message)]
    }
  }
}
