import Foundation
import WaymarkCore
import WaymarkScripting

/// The script `waymark fuzz` writes for a failure it found: the fuzzed script as it was, then
/// the shrunk inputs, each followed by the checks fuzz made, then a check that no plugin
/// error happened. `waymark run` on it fails the same way (exit 1) until the bug is fixed.
package enum FuzzReproducer {
  /// The reproducer's source, to be saved in `folder`. `script` is the fuzzed script's path,
  /// `source` its bytes (kept exactly, whatever they are), `pluginFolders` the folders given
  /// with `--plugins`; relative paths are rewritten relative to `folder`, so the reproducer
  /// runs from where it is saved.
  package static func source(
    script: String, source: LuaSource, pluginFolders: [String], folder: String, report: FuzzReport, command: String
  ) -> LuaSource {
    let scriptFolder = relative(PluginFiles.folder(of: script), from: folder)
    let plugins = pluginFolders.map { relative($0, from: folder) }
    let header = [
      "-- A failure found by: \(command)",
      "-- seed \(report.failingSeed.map(String.init) ?? "?") (rerun: --seed \(report.failingSeed.map(String.init) ?? "?") --runs 1),"
        + " \(report.failingInputs.count) input(s), shrunk to \(report.shrunkInputs.count)",
      "-- \(report.failure?.kind ?? "failure"): \(oneLine(report.failure?.message ?? ""))",
      "-- Run it with: waymark run <this file>  (it fails until the bug is fixed)",
      "",
      "-- The fuzzed script's plugin folders, relative to this file.",
      "local plugin_folders = { \(plugins.map(LuaMapBridge.quoted).joined(separator: ", ")) }",
      "local script_folder = \(LuaMapBridge.quoted(scriptFolder))",
      "local original_map, map = waymark.map, nil",
      "waymark.map = function(options)",
      "  local copy = {}",
      "  for key, value in pairs(options or {}) do copy[key] = value end",
      "  copy.plugins = {}",
      "  for _, path in ipairs(plugin_folders) do copy.plugins[#copy.plugins + 1] = path end",
      "  for _, path in ipairs((options or {}).plugins or {}) do",
      "    copy.plugins[#copy.plugins + 1] = path:sub(1, 1) == \"/\" and path or script_folder .. \"/\" .. path",
      "  end",
      "  map = original_map(copy)",
      "  return map",
      "end",
      "",
      "-- \(script), as it was:",
      ";(function(...)",
    ]
    var lines = [
      "end)(...)",
      "",
      "-- The inputs, shrunk; after each, the checks waymark fuzz made.",
      FuzzDriver.check,
    ]
    for input in report.shrunkInputs {
      lines.append(input)
      lines.append(FuzzDriver.check)
    }
    lines.append("expect_eq(waymark.plugin_errors(), {}, \"plugin errors\")")
    let body = source.bytes.last == UInt8(ascii: "\n") ? source.bytes.dropLast() : source.bytes[...]
    return LuaSource(
      bytes: Array((header.joined(separator: "\n") + "\n").utf8) + body
        + Array(("\n" + lines.joined(separator: "\n") + "\n").utf8))
  }

  /// The file name of the reproducer of `script` for `seed`: `<name>_fuzz_<seed>.lua`.
  package static func fileName(script: String, seed: UInt64) -> String {
    "\(PluginFiles.baseName(of: script))_fuzz_\(seed).lua"
  }

  private static func oneLine(_ text: String) -> String {
    text.replacingOccurrences(of: "\n", with: " ")
  }

  /// `path` relative to `folder` (both as given, relative to the current folder or absolute).
  static func relative(_ path: String, from folder: String) -> String {
    let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
    let base = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
    var common = 0
    while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
    let parts = Array(repeating: "..", count: base.count - common) + target[common...]
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }
}
