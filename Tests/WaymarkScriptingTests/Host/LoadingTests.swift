import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScripting

/// Loading plugin files: diagnostics as values with file:line, warnings with suggestions,
/// disabling after repeated failures, checking without running.
@Suite struct LoadingTests {
  @Test func unknownHandlerNameIsAWarningWithASuggestion() throws {
    let source = """
      local p = {}
      function p.did_tap_markr(map, marker) return true end
      return p
      """
    let f = try PluginFixture(["typo.lua": source])
    let warning = try #require(f.host.diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(warning.message == "did_tap_markr: no such handler; did you mean did_tap_marker?")
    #expect(warning.line == 2)
    #expect(f.host.plugins.count == 1)  // still loaded
    #expect(f.records(.warning).first?.message?.contains("did you mean did_tap_marker?") == true)
  }

  /// A project's `plugins = { "plugins" }` over plugins/NAME/NAME.lua folders loads nothing:
  /// the warning names the folders to give instead; an empty folder (which may fill later)
  /// and a folder with plugin files of its own get none.
  @Test func aFolderOfPluginFoldersIsAWarningNamingThem() throws {
    let folder = try PluginFolder()
    for name in ["stores", "tour", "lib", "empty"] {
      try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
    }
    try folder.write("stores/stores.lua", "return { name = 'stores' }")
    try folder.write("tour/tour.lua", "return { name = 'tour' }")
    try folder.write("lib/helpers.lua", "return {}")
    let map = try MapView(camera: CameraPosition(target: Place.melbourne, zoom: 4))
    let host = PluginHost(map: map, configuration: .forTests)
    let found = host.loadPlugins(from: [folder.path, folder.file("empty")])
    #expect(host.plugins.isEmpty)
    #expect(found.count == 1)
    let warning = try #require(found.first)
    #expect(warning.severity == .warning)
    #expect(warning.file == folder.path)
    #expect(
      warning.message
        == "holds no plugin file, so no plugin is loaded from it (a plugin folder's plugins are the .lua files directly"
        + " in it); name the folders in it that hold plugins instead: \(folder.file("stores")), \(folder.file("tour"))")
    let records = map.trace.records.filter { $0.event == .warning }
    #expect(records.map(\.message) == ["\(folder.path): warning: \(warning.message)"])
    #expect(host.loadPlugins(from: [folder.file("stores")]).isEmpty)
    #expect(host.plugins.map(\.name) == ["stores"])
  }

  @Test func wronglyTypedFieldsAreLoadErrorsWithTheirLine() throws {
    let source = """
      return {
        name = "typed",
        priority = "high",
        did_tap_marker = 42,
      }
      """
    let f = try PluginFixture(["typed.lua": source])
    let errors = f.host.diagnostics.filter { $0.severity == .error }
    #expect(
      errors.map(\.message) == [
        "did_tap_marker must be a function, got number", "priority must be a finite number, got string \"high\"",
      ])
    #expect(errors.map(\.line) == [4, 3])
    #expect(f.host.plugins.isEmpty)
  }

  @Test func aPluginMustReturnATable() throws {
    let f = try PluginFixture(["nothing.lua": "local x = 1\nlocal y = 2\n\n"])
    #expect(
      f.host.diagnostics.first?.message
        == "a plugin must return a table of handlers, got nil (end the file with `return plugin`; helper modules go in lib/)"
    )
    #expect(f.host.diagnostics.first?.line == 2)
  }

  @Test func checkLoadsWithoutRunningSetupOrHandlers() throws {
    let folder = try PluginFolder([
      "ok.lua": "return { setup = function(map) error('setup ran') end }",
      "bad.lua": "return {",
    ])
    let diagnostics = PluginHost.check([folder.path])
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?.file.hasSuffix("bad.lua") == true)
    #expect(diagnostics.first?.line == 1)
  }

  @Test func consecutiveFailuresDisableThePluginUntilReloaded() throws {
    let failing = "return { did_tap_marker = function(map, m) error('nope') end }"
    let f = try PluginFixture(["failing.lua": failing])
    for _ in 1...6 { try f.map.tap(f.melbourne) }
    #expect(f.host.plugins.first?.isDisabled == true)
    let errors = f.errors.compactMap(\.message)
    #expect(errors.count == 6)  // five errors, then the notice; the sixth tap asks nobody
    #expect(errors.last?.contains("disabled after 5 consecutive errors") == true)
    try f.folder.write("failing.lua", "return { did_tap_marker = function(map, m) return true end }")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.first?.isDisabled == false)
    try f.map.tap(f.sydney)
    #expect(f.records(.callback(.didTapMarker)).last?.result == .bool(true))
  }

  @Test func aSuccessResetsTheFailureCount() throws {
    let flaky = "return { did_tap_marker = function(map, m) if m.id == 'sydney' then error('no') end end }"
    let f = try PluginFixture(["flaky.lua": flaky])
    for _ in 1...4 { try f.map.tap(f.sydney) }
    try f.map.tap(f.melbourne)
    for _ in 1...4 { try f.map.tap(f.sydney) }
    #expect(f.host.plugins.first?.isDisabled == false)
  }

  @Test func printGoesToTheTraceWithThePluginName() throws {
    let f = try PluginFixture([
      "p.lua": "return { name = 'talker', setup = function(map) print('hello', 1, nil, true) end }"
    ])
    let log = try #require(f.records(.log).first)
    #expect(log.message == "hello\t1\tnil\ttrue")
    #expect(log.pluginName == "talker")
  }
}
