import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// Run-time messages that point the right way: at the script's or plugin's own line, at
/// the `return` that gave a wrong value, at every problem of a content table, through the
/// modules a plugin requires, and with what to write instead.
@Suite struct TeachingMessagesTests {
  /// Runs `script` as demo.lua beside a `plugins` folder holding `plugins`.
  func run(_ script: String, plugins: [String: String] = [:]) throws -> ScriptOutcome {
    try ScriptRunnerTests().run(script, plugins: plugins).0
  }

  static let tapScript = """
    local map = waymark.map{ plugins = { "plugins" } }
    local m = map:add_marker{ id = "m", position = { lat = 0, lng = 0 }, title = "M" }
    map:tap(m)
    """

  func pluginErrors(_ outcome: ScriptOutcome) -> [TraceRecord] {
    outcome.records.filter { $0.event == .pluginError }
  }

  func field(_ record: TraceRecord, _ key: String) -> TraceValue? {
    record.extra.first { $0.key == key }?.value
  }

  @Test func expectNearWithTheMessageInPlaceOfTheToleranceBlamesTheScriptsLine() throws {
    let outcome = try run("local x = 2.5\n\nexpect_near(x, 3, \"zoom after the pinch\")\n")
    let error = try #require(outcome.error)
    #expect(error.contains("demo.lua:3: expect_near(actual, expected, tolerance, message): tolerance must be a number"))
    #expect(error.contains("the message comes fourth: expect_near(actual, expected, 1e-9, \"zoom after the pinch\")"))
    #expect(!error.contains("script library"))
  }

  @Test func aFailedExpectationCarriesFileAndLineFields() throws {
    let outcome = try run("local x = 1\nexpect_eq(x, 2, \"x\")\n")
    let record = try #require(outcome.records.first { $0.event == .expectFailed })
    #expect(field(record, "file") == .string(outcome.files.first { $0.hasSuffix("demo.lua") } ?? ""))
    #expect(field(record, "line") == .number(2))
    #expect(TraceJSON.line(record).contains(#""line":2"#))
  }

  @Test func aWrongReturnTypeCitesTheReturnLine() throws {
    let plugin = """
      local plugin = {}
      function plugin.did_tap_marker(map, marker)
        if marker.id == "other" then
          return false
        end
        return 1
      end
      function plugin.marker_info_window(map, marker)
        if marker.id == "x" then return nil end
        return 42
      end
      return plugin
      """
    let outcome = try run(Self.tapScript + "\nmap.selected_marker = m\n", plugins: ["p.lua": plugin])
    let messages = pluginErrors(outcome).compactMap(\.message)
    #expect(
      messages.contains { $0.hasSuffix("p.lua:6: did_tap_marker returned a number; expected true, false or nil") })
    #expect(
      messages.contains {
        $0.contains("p.lua:10: marker_info_window returned invalid content: content: 42 is not a node")
      })
    let veto = try #require(pluginErrors(outcome).first)
    #expect(field(veto, "line") == .number(6))
  }

  @Test func everyProblemOfAContentTableIsReported() throws {
    let plugin = """
      return { marker_info_window = function(map, marker)
        return { { txt = "a" }, { text = "b", styel = "title" }, { image = "i", width = -1, height = 4 } }
      end }
      """
    let outcome = try run(Self.tapScript, plugins: ["p.lua": plugin])
    let message = try #require(pluginErrors(outcome).first?.message)
    #expect(message.contains("content[1].txt: unknown field; did you mean text?"))
    #expect(message.contains("; content[2].styel: unknown field; did you mean style?"))
    #expect(message.contains("; content[3].width: -1 is negative"))
  }

  @Test func anErrorInsideARequiredModuleHasATraceback() throws {
    let plugin = """
      local format = require("format")
      local plugin = {}

      function plugin.did_tap_marker(map, marker)
        map:log(format.label(marker))
      end

      return plugin
      """
    let module =
      "local format = {}\nfunction format.label(marker)\n  return marker.title .. marker.minutes\nend\nreturn format\n"
    let outcome = try run(Self.tapScript, plugins: ["tour.lua": plugin, "format.lua": module])
    let record = try #require(pluginErrors(outcome).first)
    let message = try #require(record.message)
    #expect(message.contains("format.lua:3: Marker has no field 'minutes'"))
    #expect(message.contains("; traceback: "))
    #expect(message.range(of: #"format\.lua:3 < .*tour\.lua:5$"#, options: .regularExpression) != nil, "\(message)")
    if case .string(let file)? = field(record, "file") { #expect(file.hasSuffix("plugins/format.lua")) }
    #expect(field(record, "line") == .number(3))
    // format.lua is required by tour.lua, so it is a module, not a plugin of its own.
    #expect(!outcome.records.contains { $0.event == .pluginLoaded && $0.answerer == .string("format") })
  }

  @Test func anErrorWhileRequiringAModuleNamesTheModuleAndTheRequiringLine() throws {
    let plugin = "local x = 1\nlocal helper = require(\"lib.helper\")\nreturn { setup = function() end }\n"
    let module = "local t = nil\nreturn { value = t.field }\n"
    let folder = try PluginFolder()
    try folder.write("p.lua", plugin)
    try FileManager.default.createDirectory(atPath: folder.file("lib"), withIntermediateDirectories: true)
    try folder.write("lib/helper.lua", module)
    let diagnostics = PluginHost.check([folder.file("p.lua")])
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic.line == 2)
    #expect(diagnostic.message.contains("lib/helper.lua:2: attempt to index a nil value (local 't')"))
    #expect(diagnostic.message.contains("; traceback: "))
  }

  @Test("R28: A camera field with a verb says what to write") func aCameraFieldWithAVerbSaysWhatToWrite() throws {
    let outcome = try run("local map = waymark.map{}\nmap:animate({ zoom_by = 1, zoom = 4 })\n")
    #expect(
      outcome.error?.contains(
        "demo.lua:2: animate: zoom cannot go with zoom_by (one kind of update per table, R28); write { zoom_to = ... }, or { zoom = ... } alone"
      ) == true, "\(outcome.error ?? "")")
  }

  @Test func theMapWhereAMarkerWasMeantSaysWhatHappened() throws {
    let plugin = "return { did_tap_marker = function(marker) print(marker.title) end }"
    let outcome = try run(Self.tapScript, plugins: ["p.lua": plugin])
    let message = try #require(pluginErrors(outcome).first?.message)
    #expect(
      message.hasSuffix(
        "Map has no field 'title' (title is a field of a Marker: this value is a Map; handlers are called as handler(map, ...), the map first)"
      ), "\(message)")
    #expect(!message.contains("tilt"))
  }
}
