import Foundation
import Testing

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `setup(map, settings)`: a plugin receives a plain-data copy of `settings[plugin.name]`
/// from the script's `waymark.map{}`, the project file or the host's configuration, and hot
/// reload hands the new version the same (docs/plugins.md, "Settings").
@Suite struct PluginSettingsTests {
  static let reader = """
    local p = { name = "stores" }
    function p.setup(map, settings)
      print("v1", inspect(settings))
      if settings then settings.radius = 0 end
    end
    return p
    """

  @Test("setup receives a copy of its own settings; a plugin without any receives nil")
  func setupReceivesItsSettings() throws {
    var configuration = PluginHost.Configuration.forTests
    configuration.settings = [
      "stores": .table([.string("radius"): .integer(500), .string("days"): .table([.integer(1): .string("mon")])])
    ]
    let f = try PluginFixture(
      [
        "stores.lua": Self.reader,
        "other.lua": "return { name = 'other', setup = function(map, settings) print('other', settings) end }",
      ], configuration: configuration)
    #expect(f.logs.sorted() == ["other\tnil", "v1\t{ days = { \"mon\" }, radius = 500 }"])
  }

  @Test("Hot reload hands the new version the same settings, unchanged by what the old one did to its copy")
  func reloadHandsTheSame() throws {
    var configuration = PluginHost.Configuration.forTests
    configuration.settings = ["stores": .table([.string("radius"): .integer(500)])]
    let f = try PluginFixture(["stores.lua": Self.reader], configuration: configuration)
    try f.folder.write("stores.lua", Self.reader.replacingOccurrences(of: "\"v1\"", with: "\"v2\""))
    #expect(f.host.reloadChangedPlugins().isEmpty)
    #expect(f.logs == ["v1\t{ radius = 500 }", "v2\t{ radius = 500 }"])
  }

  @Test("A script's settings win over the project's, plugin by plugin")
  func scriptAndProject() throws {
    let folder = try PluginFolder()
    try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
    try folder.write("plugins/stores.lua", Self.reader)
    try folder.write(
      "plugins/hours.lua", "return { name = 'hours', setup = function(map, s) print('hours', inspect(s)) end }")
    try folder.write(
      "waymark.lua",
      "return { plugins = 'plugins', settings = { stores = { radius = 1 }, hours = { open = 9 } } }")
    try folder.write("demo.lua", "local map = waymark.map{ settings = { stores = { radius = 250, name = 'x' } } }")
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    let logs = outcome.records.filter { $0.event == .log }.compactMap(\.message)
    #expect(logs.sorted() == ["hours\t{ open = 9 }", "v1\t{ name = \"x\", radius = 250 }"])
  }

  @Test("Settings that are not plain data stop waymark.map, naming where")
  func notPlainData() throws {
    let folder = try PluginFolder()
    try folder.write("demo.lua", "local map = waymark.map{ settings = { stores = { on_tap = function() end } } }")
    let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
    #expect(
      outcome.error?.contains(
        "demo.lua:1: waymark.map: settings.stores.on_tap: expected plain data (a boolean, number, string or table), got function"
      ) == true, "\(outcome.error ?? "")")
  }

  /// docs/plugins.md, "Settings": keys are strings or integers; a function or table key is an
  /// error naming the plugin and the path, as a boolean or a float key is, never dropped.
  @Test("A settings key that is a function, a table, a boolean or a float stops waymark.map, naming the path")
  func keysMustBeStringsOrIntegers() throws {
    let folder = try PluginFolder()
    let cases = [
      ("{ stores = { [print] = 1 } }", "settings.stores: a key must be a string or an integer, got a function"),
      (
        "{ stores = { hours = { [{}] = 1 } } }",
        "settings.stores.hours: a key must be a string or an integer, got a table"
      ),
      ("{ stores = { [true] = 1 } }", "settings.stores: a key must be a string or an integer, got true"),
      ("{ stores = { [1.5] = 1 } }", "settings.stores: a key must be a string or an integer, got 1.5"),
    ]
    for (settings, message) in cases {
      try folder.write("demo.lua", "local map = waymark.map{ settings = \(settings) }")
      let outcome = ScriptRunner.run(folder.file("demo.lua"), options: .forTests)
      #expect(outcome.error?.contains("demo.lua:1: waymark.map: " + message) == true, "\(outcome.error ?? "")")
    }
  }
}
