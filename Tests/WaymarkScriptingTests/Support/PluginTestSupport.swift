import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// Places and maps shared by the tests (the cities of the samples, S1-S6).
enum Place {
  static let melbourne = Coordinate(latitude: -37.81969, longitude: 144.966085)
  static let sydney = Coordinate(latitude: -33.8683, longitude: 151.2086)
  static let brisbane = Coordinate(latitude: -27.4710107, longitude: 153.0234489)
}

/// A map at Melbourne, zoom 4, with Sydney and Melbourne markers (S1), and a host.
struct PluginFixture {
  let map: MapView
  let host: PluginHost
  let folder: PluginFolder
  let sydney: Marker
  let melbourne: Marker

  init(
    _ files: [String: String], plus extraFiles: [String] = [],
    configuration: PluginHost.Configuration = .forTests
  ) throws {
    map = try MapView(camera: CameraPosition(target: Place.melbourne, zoom: 4))
    sydney = try map.addMarker(MarkerOptions(position: Place.sydney, id: "sydney", title: "Sydney"))
    melbourne = try map.addMarker(MarkerOptions(position: Place.melbourne, id: "melbourne", title: "Melbourne"))
    folder = try PluginFolder(files)
    host = PluginHost(map: map, configuration: configuration)
    if !files.isEmpty { host.loadPlugins(from: [folder.path]) }
    if !extraFiles.isEmpty { host.loadPlugins(files: extraFiles) }
  }

  /// A fixture with one plugin of the hostile corpus, and optional well-behaved plugins.
  static func hostile(
    _ name: String, beside files: [String: String] = [:],
    configuration: PluginHost.Configuration = .forTests
  ) throws -> PluginFixture {
    try PluginFixture(files, plus: [HostileCorpus.file(name)], configuration: configuration)
  }

  /// The only `plugin_error`, which must name the plugin, the handler and file:line.
  func singleError(
    plugin: String, file: String? = nil, handler: String, line: Int, sourceLocation: SourceLocation = #_sourceLocation
  )
    throws -> String
  {
    #expect(errors.count == 1, "errors: \(errors.map { $0.message ?? "" })", sourceLocation: sourceLocation)
    let error = try #require(errors.first, sourceLocation: sourceLocation)
    #expect(error.pluginName == plugin, sourceLocation: sourceLocation)
    #expect(error.handler == handler, sourceLocation: sourceLocation)
    let message = error.message ?? ""
    #expect(message.contains("\(file ?? plugin).lua:\(line):"), "message: \(message)", sourceLocation: sourceLocation)
    return message
  }

  /// Trace records of one event.
  func records(_ event: TraceEvent) -> [TraceRecord] { map.trace.records.filter { $0.event == event } }

  /// The `plugin_error` records.
  var errors: [TraceRecord] { records(.pluginError) }

  /// The messages of `log` records.
  var logs: [String] { records(.log).compactMap(\.message) }
}

/// A temporary folder of plugin files, removed on deinit. Short paths keep Lua's chunk
/// names (60 bytes at most) whole in messages.
final class PluginFolder {
  let path: String

  init(_ files: [String: String] = [:]) throws {
    path = "/tmp/wm-" + String(UUID().uuidString.prefix(8)).lowercased()
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, source) in files { try write(name, source) }
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes (or replaces) a file.
  func write(_ name: String, _ source: String) throws {
    try source.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
  }

  /// Writes (or replaces) a file of these exact bytes.
  func write(_ name: String, bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
  }

  /// Deletes a file.
  func remove(_ name: String) throws { try FileManager.default.removeItem(atPath: path + "/" + name) }

  /// The path of a file in the folder.
  func file(_ name: String) -> String { path + "/" + name }
}

/// The hostile plugins of issue 3, next to this file's folder (not SwiftPM resources).
enum HostileCorpus {
  static let folder: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/hostile").path

  static func file(_ name: String) -> String { folder + "/" + name }
}

extension TraceRecord {
  /// The `handler` extra field of a `plugin_error`.
  var handler: String? {
    extra.first { $0.key == "handler" }.flatMap { field in
      if case .string(let name) = field.value { return name }
      return nil
    }
  }

  /// The `plugin` field as a string.
  var pluginName: String? {
    if case .string(let name)? = answerer { return name }
    return nil
  }
}

extension PluginHost.Configuration {
  /// The wall-clock budget of ``forTests`` in milliseconds: 250, times the factor in
  /// `WAYMARK_TEST_TIME_SCALE`, which `scripts/test.sh --sanitize` sets (a sanitizer build
  /// runs several times slower, and a load of 24 MB of text passed 250 ms under
  /// AddressSanitizer on a loaded machine).
  static let testBudgetMilliseconds: Int = {
    let scale = ProcessInfo.processInfo.environment["WAYMARK_TEST_TIME_SCALE"].flatMap(Int.init) ?? 1
    return 250 * max(scale, 1)
  }()

  /// The defaults with a budget of ``testBudgetMilliseconds``: runaway handlers are still
  /// stopped, and a loaded machine that stalls a well-behaved handler for 50 ms does not
  /// fail a test.
  static var forTests: PluginHost.Configuration {
    var configuration = PluginHost.Configuration()
    configuration.timeBudget = .milliseconds(testBudgetMilliseconds)
    return configuration
  }

  /// For tests whose subject is not time: an exact instruction budget decides, with the same
  /// verdict on every machine (a loaded one, a sanitizer build many times slower), and the
  /// wall clock is only the safety net, wide enough for a sanitizer build on a loaded
  /// machine (a 600,000-key table took ASan more than 10 s to build under load).
  static var deterministic: PluginHost.Configuration {
    var configuration = PluginHost.Configuration()
    configuration.instructionBudget = 100_000_000
    configuration.instructionCounting = .exact
    configuration.timeBudget = .seconds(120)
    return configuration
  }
}
