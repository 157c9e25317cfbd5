import Foundation
import LuaKit
import WaymarkCore
import WaymarkScripting

/// `waymark check`: loads plugins and scripts without running a scenario and collects every
/// problem with file:line.
package enum ScriptChecker {
  /// What a check found.
  package struct Report: Sendable {
    /// How many Lua files were checked.
    package var files: Int
    /// Every problem, by file then line.
    package var diagnostics: [PluginDiagnostic]
  }

  /// Checks `paths` (files, or folders searched recursively for `*.lua`, hidden folders
  /// and LuaLS `---@meta` definition files left out; a symbolic link that leads outside the
  /// folder searched, or outside its own folder for a file named, is reported unread). A file that calls `waymark.map` is a
  /// script: it is compiled, not run. A file in a `lib/` folder, or that a file beside it
  /// `require`s, is a helper module: compiled, not run. Any other is a plugin: it is loaded
  /// the way the host loads it (its top level runs, sandboxed; `setup` and handlers do not),
  /// so unknown handler names, wrongly typed fields and handlers that are not functions are
  /// reported. Every file then gets the static checks of ``PluginLint``; a load error on a
  /// line where a static check already says what is wrong is not repeated.
  package static func check(_ paths: [String], options: ScriptOptions = ScriptOptions()) -> Report {
    var diagnostics: [PluginDiagnostic] = []
    var files: [(path: String, folder: String)] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        diagnostics.append(
          PluginDiagnostic(
            severity: .error, file: path, line: nil, message: "no such file or folder (looked for \(absolute))"))
        continue
      }
      files +=
        isDirectory.boolValue
        ? PluginFiles.luaFiles(under: path).map { ($0, path) } : [(path, PluginFiles.folder(of: path))]
    }
    var checked = 0
    for (file, folder) in files {
      if let escape = PluginFiles.escape(of: file, from: folder) {
        checked += 1
        diagnostics.append(PluginDiagnostic(severity: .error, file: file, line: nil, message: escape))
        continue
      }
      switch ScriptFiles.readSource(file, maxSize: options.maxScriptSize) {
      case .failure(let error):
        checked += 1
        diagnostics.append(PluginDiagnostic(severity: .error, file: file, line: nil, message: error.message))
      case .success(let source) where source.bytes.starts(with: "---@meta".utf8):
        continue
      case .success(let source):
        checked += 1
        diagnostics += check(source, file: file, options: options)
      }
    }
    diagnostics.sort { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
    return Report(files: checked, diagnostics: diagnostics)
  }

  private static func check(_ source: LuaSource, file: String, options: ScriptOptions) -> [PluginDiagnostic] {
    let kind: PluginLint.FileKind =
      isScript(source) || SandboxGlobals.isTestFile(file) ? .script : isModule(file) ? .module : .plugin
    let loaded =
      kind == .plugin ? PluginHost.check([file], configuration: options.plugins) : compile(source, file: file)
    guard let found = PluginLint.check(source, file: file, kind: kind) else { return loaded }
    let lines = Set(found.compactMap(\.line))
    return loaded.filter { $0.severity != .error || $0.line.map { !lines.contains($0) } ?? true } + found
  }

  /// Whether a source is a script: its code (not a comment or a string) uses `waymark.map`.
  static func isScript(_ source: LuaSource) -> Bool {
    let text = source.text
    guard text.contains("waymark"), let tokens = try? LuaLexer.tokens(source) else {
      return text.contains("waymark.map")
    }
    return zip(tokens, zip(tokens.dropFirst(), tokens.dropFirst(2))).contains { name, rest in
      name.kind == .name && name.text == "waymark" && rest.0.text == "." && rest.1.text == "map"
    }
  }

  /// Whether a file is a helper module: in a `lib/` folder, or required by a file beside it.
  static func isModule(_ file: String) -> Bool {
    let folder = PluginFiles.folder(of: file)
    if file.split(separator: "/").dropLast().contains("lib") { return true }
    let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .filter { $0.hasSuffix(".lua") }.map { PluginFiles.join(folder, $0) }
    let target = URL(fileURLWithPath: file).standardizedFileURL.path
    return siblings.contains { sibling in
      PluginFiles.requiredModules(in: PluginFiles.read(sibling, inside: folder) ?? LuaSource(bytes: [])).contains {
        URL(fileURLWithPath: PluginFiles.modulePath($0, in: folder)).standardizedFileURL.path == target
      }
    }
  }

  /// Compiles a script without running it: syntax errors with their line.
  private static func compile(_ source: LuaSource, file: String) -> [PluginDiagnostic] {
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
