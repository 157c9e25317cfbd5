import WaymarkCore
import WaymarkScripting

/// A plugin of a live map: which version answers now, and whether an edit failed to load.
public struct LivePlugin: Sendable, Hashable, Codable {
  /// The plugin's `name` (else its file name), or the file name of a file that never loaded.
  public var name: String
  /// The plugin file.
  public var file: String
  /// Which load of this file answers now: 1 for the first, one more for each reload; 0 when
  /// no version of the file loaded.
  public var version: Int
  /// A short digest of the text of the live version (the plugin and the modules it
  /// required), to tell versions apart at a glance; empty when none loaded.
  public var digest: String
  /// Higher is asked first.
  public var priority: Double
  /// The handlers it defines.
  public var handlers: [String]
  /// Whether it was disabled after repeated failures (until its file changes).
  public var isDisabled: Bool
  /// The error of the text on disk when it failed to load (file:line: message): the
  /// version above keeps answering. Nil when the live version is the file's text.
  public var error: String?
}

/// Follows the plugins of a live map across reloads: counts the versions of each file and
/// remembers the errors of edits that failed to load until a later edit loads.
struct LivePluginTracker {
  /// The instance last seen for each file (weak: a reloaded one is released), its version
  /// and the digest of the text it loaded (a failed reload updates the instance's sources).
  private var live: [String: (instance: Weak, version: Int, digest: String)] = [:]
  /// The error of the failed edit of each file, until a version loads.
  private var errors: [String: String] = [:]

  final class Weak {
    weak var instance: PluginInstance?
    init(_ instance: PluginInstance) { self.instance = instance }
  }

  /// Counts a new version for each file whose instance changed since the last call.
  mutating func refresh(_ host: PluginHost?) {
    guard let host else { return }
    for instance in host.instances {
      let seen = live[instance.file]
      guard seen?.instance.instance !== instance else { continue }
      live[instance.file] = (Weak(instance), (seen?.version ?? 0) + 1, Self.digest(instance.sources))
      errors[instance.file] = nil
    }
  }

  /// Remembers the errors of a reload's diagnostics, by the plugin they belong to (a
  /// diagnostic of a required module belongs to the plugin that required it).
  mutating func note(_ diagnostics: [PluginDiagnostic], host: PluginHost) {
    for diagnostic in diagnostics where diagnostic.severity == .error {
      let owner =
        host.instances.first { $0.file == diagnostic.file || $0.sources[diagnostic.file] != nil }?.file
        ?? diagnostic.file
      errors[owner] = diagnostic.description
    }
  }

  /// The plugins of `host` in asking order, then the files that failed to load.
  func plugins(of host: PluginHost?) -> [LivePlugin] {
    guard let host else { return [] }
    var result = host.plugins.map { info in
      LivePlugin(
        name: info.name, file: info.file, version: live[info.file]?.version ?? 1,
        digest: live[info.file]?.digest ?? "", priority: info.priority, handlers: info.handlers,
        isDisabled: info.isDisabled, error: errors[info.file])
    }
    for file in host.failedFiles.keys.sorted() where !host.instances.contains(where: { $0.file == file }) {
      let message =
        errors[file] ?? host.diagnostics.last { $0.file == file && $0.severity == .error }?.description
      result.append(
        LivePlugin(
          name: PluginFiles.baseName(of: file), file: file, version: 0, digest: "", priority: 0, handlers: [],
          isDisabled: false, error: message ?? "\(file): did not load"))
    }
    return result
  }

  /// FNV-1a over the sources in path order, as 8 hex digits.
  static func digest(_ sources: [String: LuaSource]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for path in sources.keys.sorted() {
      for byte in path.utf8 + [0] + (sources[path]?.bytes ?? []) + [0] {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    let hex = String(hash >> 32, radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }
}
