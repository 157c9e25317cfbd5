import Foundation

/// A project: the folder holding a `waymark.lua`, found by walking up from a script, test
/// or plugin folder (as busted finds `.busted`). The file returns a table whose keys are all
/// optional, its paths relative to the project (or absolute, for a system tree):
///
/// ```lua
/// -- waymark.lua
/// return {
///   modules = { "lib", "/usr/share/lua/5.4" },   -- require roots, after the requiring file's folder
///   data = { "data" },                           -- folders scripts may read
///   plugins = { "plugins/stores" },              -- default plugin folders (--plugins wins)
///   settings = { stores = { radius = 500 } },    -- setup(map, settings) of the plugin named stores
///   clock = { start = "2025-06-02T09:00:00", zone = "Australia/Melbourne" },
///   test = { paths = { "tests" }, golden = "tests/golden" },   -- defaults of waymark test
/// }
/// ```
///
/// The file runs as Lua in a sandbox without a map, files or `os`; its table must be plain
/// data. A mistake (an unknown key, a wrong type, a folder that does not exist) is a
/// ``ProjectError`` naming the file, the key and the value.
public struct Project: Sendable, Equatable {
  /// The project file's name.
  public static let fileName = "waymark.lua"
  /// The keys a project file may have, in the order the documentation lists them.
  public static let keys = ["modules", "data", "plugins", "settings", "clock", "test"]

  /// The project's folder (absolute, standardized).
  public let folder: URL
  /// Roots `require` searches after the requiring file's own folder, in order (`modules`).
  public var moduleRoots: [URL] = []
  /// The folders scripts may read data from (`data`).
  public var dataRoots: [URL] = []
  /// The plugin folders (or `.lua` plugin files) every map loads when the command line
  /// names none (`plugins`).
  public var pluginFolders: [URL] = []
  /// Settings by plugin name (`settings`): `setup(map, settings)` receives a copy of its own.
  public var settings: [String: PlainData] = [:]
  /// The local clock of the project's maps (`clock`), unless a script's `waymark.map{}` has one.
  public var clock: LocalClock?
  /// The defaults of `waymark test` (`test`).
  public var test = TestDefaults()

  /// The defaults `waymark test` takes from a project when its command line does not say.
  public struct TestDefaults: Sendable, Equatable {
    /// The folders and files to test when no PATH is given (`test.paths`).
    public var paths: [URL] = []
    /// The folder of the golden traces (`test.golden`), when `--golden` is not given.
    public var golden: URL?
    /// The keys of `test`.
    static let keys = ["paths", "golden"]
  }

  /// The project file.
  public var file: URL { folder.appendingPathComponent(Self.fileName) }

  /// A project with nothing set, in `folder`.
  public init(folder: URL) {
    self.folder = folder.standardizedFileURL
  }

  /// The project of `path` (a script, a test file, a plugin file or a folder): the nearest
  /// folder holding `waymark.lua`, from the path's own folder up to the root; nil when none
  /// does. A relative path is relative to the current folder. Throws when the file found
  /// is not a valid project file.
  public static func find(from path: String) throws(ProjectError) -> Project? {
    guard let file = locate(from: path) else { return nil }
    return try load(file)
  }

  /// The `waymark.lua` that ``find(from:)`` reads for `path`, or nil.
  public static func locate(from path: String) -> URL? {
    let manager = FileManager.default
    var isDirectory: ObjCBool = false
    var folder = URL(fileURLWithPath: path).standardizedFileURL
    if !(manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue) {
      folder.deleteLastPathComponent()
    }
    while true {
      let file = folder.appendingPathComponent(fileName)
      if manager.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue { return file }
      let parent = folder.deletingLastPathComponent().standardizedFileURL
      if parent.path == folder.path { return nil }
      folder = parent
    }
  }

  /// Reads the project file `file`, or throws what is wrong with it.
  public static func load(_ file: URL) throws(ProjectError) -> Project {
    try ProjectFile(file: file.standardizedFileURL).read()
  }
}

/// What is wrong with a project file: `FILE: KEY: message` (`FILE:LINE: message` for a Lua error).
public struct ProjectError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The whole message, starting with the file.
  public let message: String

  /// An error with this message.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
