import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The hostile corpus of issue 3 (Fixtures/hostile): each plugin runs against a real map; the
/// process neither crashes nor hangs; a `plugin_error` names plugin, handler and file:line;
/// and the default behaviour happens as if the handler had returned nil.
@Suite struct HostilePluginTests {
  /// Asserts the default of a marker tap (R10): the marker selected with its default window.
  func expectDefaultSelection(_ f: PluginFixture, _ marker: Marker, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(f.map.selectedMarker === marker, sourceLocation: sourceLocation)
    #expect(f.records(.callback(.didTapMarker)).last?.result == .bool(false), sourceLocation: sourceLocation)
    #expect(f.records(.callback(.didTapMarker)).last?.answerer == .null, sourceLocation: sourceLocation)
  }

  // MARK: Runaway code

  @Test func endlessLoopInAVetoIsStoppedAndCountsAsNil() throws {
    let f = try PluginFixture.hostile("loop_veto.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "loop_veto", handler: "did_tap_marker", line: 4)
    #expect(message.contains("time budget of \(PluginHost.Configuration.testBudgetMilliseconds) ms exceeded"))
    expectDefaultSelection(f, f.melbourne)
  }

  @Test func endlessLoopInAContentHandlerFallsBackToTheDefaultWindow() throws {
    let f = try PluginFixture.hostile("loop_content.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "loop_content", handler: "marker_info_window", line: 5)
    #expect(message.contains("time budget"))
    #expect(f.map.infoWindow?.kindName == "default")  // R7: title -> default window
  }

  @Test func endlessLoopInANotificationCannotBeSwallowedByPcall() throws {
    let f = try PluginFixture.hostile("loop_notification.lua")
    try f.map.tap(at: Point(x: 20, y: 800))
    let message = try f.singleError(plugin: "loop_notification", handler: "did_tap_at_coordinate", line: 4)
    #expect(message.contains("time budget"))
    #expect(f.logs.isEmpty)  // the code after pcall never ran
    #expect(f.records(.callback(.didTapAtCoordinate)).count == 1)
  }

  // MARK: Memory

  @Test func stringRepBombHitsTheMemoryCap() throws {
    let f = try PluginFixture.hostile("memory_string_rep.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "memory_string_rep", handler: "did_tap_marker", line: 4)
    #expect(message.contains("memory"))
    expectDefaultSelection(f, f.melbourne)
  }

  @Test func tableGrowthBombHitsTheMemoryCapAndTheStateStaysUsable() throws {
    var configuration = PluginHost.Configuration()
    configuration.memoryLimit = 8 << 20
    configuration.timeBudget = .seconds(5)  // the cap, not the clock, must stop it
    let f = try PluginFixture.hostile("memory_table_growth.lua", configuration: configuration)
    try f.map.tap(f.melbourne)
    // Lua gives no traceback for memory errors: the location is the handler's definition.
    let message = try f.singleError(plugin: "memory_table_growth", handler: "did_tap_marker", line: 3)
    #expect(message.contains("not enough memory"))
    expectDefaultSelection(f, f.melbourne)
    try f.map.tap(f.sydney)  // the same state runs again
    #expect(f.errors.count == 2)
  }

  @Test func unboundedRecursionIsAnError() throws {
    let f = try PluginFixture.hostile("recursion.lua")
    try f.map.tap(f.melbourne)
    let error = try #require(f.errors.first)
    #expect(error.handler == "did_tap_marker")
    #expect(error.message?.contains("recursion.lua:3:") == true)
    expectDefaultSelection(f, f.melbourne)
  }

  // MARK: Loading

  @Test func anErrorInSetupIsAFailedLoadUntilTheFileChanges() throws {
    let folder = try PluginFolder([
      "setup_error.lua": try String(contentsOfFile: HostileCorpus.file("setup_error.lua"), encoding: .utf8)
    ]
    )
    let f = try PluginFixture([:], plus: [folder.file("setup_error.lua")])
    let message = try f.singleError(plugin: "setup_error", handler: "setup", line: 5)
    #expect(message.contains("attempt to index a nil value (local 'config')"))
    #expect(f.records(.pluginUnloaded).count == 1)
    #expect(f.host.plugins.isEmpty)
    try f.map.tap(f.melbourne)
    #expect(f.logs.isEmpty)  // not active: its handlers do not run
    expectDefaultSelection(f, f.melbourne)
    try folder.write("setup_error.lua", "return { did_tap_marker = function() print('back') end }")
    f.host.reloadChangedPlugins()
    #expect(f.host.plugins.map(\.name) == ["setup_error"])
    try f.map.tap(f.sydney)
    #expect(f.logs == ["back"])
  }

  @Test func syntaxErrorIsADiagnosticWithItsLineAndThePluginIsAbsent() throws {
    let f = try PluginFixture.hostile("syntax_error.lua")
    let diagnostic = try #require(f.host.diagnostics.first)
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.line == 5)
    #expect(diagnostic.message.contains("unexpected symbol near 'end'"))
    #expect(diagnostic.description.hasSuffix("syntax_error.lua:5: error: \(diagnostic.message)"))
    _ = try f.singleError(plugin: "syntax_error", handler: "load", line: 5)
    #expect(f.host.plugins.isEmpty)
    try f.map.tap(f.melbourne)
    expectDefaultSelection(f, f.melbourne)
  }

  @Test func endlessLoopsInCloseHandlersOfCoroutinesAreStopped() throws {
    let f = try PluginFixture.hostile("loop_in_close.lua")
    try f.map.tap(f.melbourne)
    let first = try f.singleError(plugin: "loop_in_close", handler: "did_tap_marker", line: 9)
    #expect(first.contains("time budget of \(PluginHost.Configuration.testBudgetMilliseconds) ms exceeded"))
    expectDefaultSelection(f, f.melbourne)
    try f.map.tap(at: Point(x: 10, y: 10))
    let second = try #require(f.errors.last?.message)
    #expect(
      second.contains(
        "loop_in_close.lua:17: time budget of \(PluginHost.Configuration.testBudgetMilliseconds) ms exceeded"))
  }

  @Test func anEndlessLoopInAHandlerNestedInACoroutineIsStopped() throws {
    let f = try PluginFixture.hostile("loop_nested_in_coroutine.lua")
    try f.map.tap(f.melbourne)
    // The stop ends the whole outermost call: the nested handler, then the tap's own.
    let budget = "time budget of \(PluginHost.Configuration.testBudgetMilliseconds) ms exceeded"
    #expect(f.errors.map(\.handler) == ["did_change_camera_position", "did_tap_marker"])
    #expect(f.errors.first?.message?.contains("loop_nested_in_coroutine.lua:12: \(budget)") == true)
    #expect(f.errors.last?.message?.contains(budget) == true)
    expectDefaultSelection(f, f.melbourne)
  }

  @Test func aBacktrackingPatternBombIsStoppedByTheBudget() throws {
    let f = try PluginFixture.hostile("pattern_bomb.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "pattern_bomb", handler: "did_tap_marker", line: 5)
    #expect(message.contains("time budget of \(PluginHost.Configuration.testBudgetMilliseconds) ms exceeded"))
    expectDefaultSelection(f, f.melbourne)
  }

  @Test func aFinalizerNeverRunsSoItCannotHangTheHost() throws {
    var f: PluginFixture? = try PluginFixture.hostile("gc_finalizer.lua")
    try f!.map.tap(f!.melbourne)
    #expect(f!.errors.isEmpty, "the trap was collected without its finalizer running: \(f!.errors)")
    #expect(f!.map.selectedMarker == nil, "the handler ran to its end and vetoed the selection")
    f = nil  // closing every state must not run a finalizer's endless loop
  }

  // MARK: Wrong answers

  @Test func numberFromAVetoIsAWrongTypeError() throws {
    let f = try PluginFixture.hostile("wrong_return_number.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "wrong_return_number", handler: "did_tap_marker", line: 4)  // the return line
    #expect(message.hasSuffix("did_tap_marker returned a number; expected true, false or nil"))
    expectDefaultSelection(f, f.melbourne)
  }

  @Test func malformedContentNamesTheFieldAndFallsThrough() throws {
    let f = try PluginFixture.hostile("malformed_content.lua")
    try f.map.tap(f.sydney)
    let first = try f.singleError(plugin: "malformed_content", handler: "marker_info_window", line: 4)  // the return that gave the table
    #expect(first.contains("content[1].styel: unknown field; did you mean style?"))
    #expect(f.map.infoWindow?.kindName == "default")
    try f.map.tap(f.melbourne)
    let second = try #require(f.errors.last?.message)
    #expect(second.contains("content: a table mixes list items and named fields"))
    #expect(f.records(.callback(.markerInfoWindow)).last?.result == .null)
  }

  @Test func yieldOutsideACoroutineIsAnError() throws {
    let f = try PluginFixture.hostile("yield_outside.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "yield_outside", handler: "did_tap_marker", line: 4)
    #expect(message.contains("yield"))
    expectDefaultSelection(f, f.melbourne)
  }

  // MARK: Escapes

  @Test(arguments: [
    ("reach_io", 4, "io.open is not available: plugins and scripts run in a sandbox without files"),
    ("reach_os_execute", 4, "os.execute is not available: plugins and scripts run in a sandbox"),
    (
      "reach_debug_sethook", 4,
      "debug.sethook is not available in the sandbox: it reaches inside functions, the registry or the host's hooks"
    ),
    ("binary_chunk", 5, "attempt to load a binary chunk"),
  ])
  func reachingOutOfTheSandboxFails(plugin: String, line: Int, expected: String) throws {
    let f = try PluginFixture.hostile("\(plugin).lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: plugin, handler: "did_tap_marker", line: line)
    #expect(message.contains(expected))
    expectDefaultSelection(f, f.melbourne)
  }

  @Test func theStringMetatableIsProtectedAndLibrariesArePerPlugin() throws {
    let good = "return { did_tap_marker = function(map, m) print(('ok'):upper(), string.rep('a', 2)) end }"
    let f = try PluginFixture.hostile("string_metatable.lua", beside: ["good.lua": good])
    try f.map.tap(f.melbourne)
    #expect(f.logs == ["OK\taa", "hijacked:\tfalse"])  // the other plugin's string library is untouched
    let tap = try f.singleError(plugin: "string_metatable", handler: "did_tap_marker", line: 7)
    #expect(tap.contains("attempt to call a nil value"))  // string.upper = nil broke only this plugin
  }

  // MARK: Input and feedback loops

  @Test func inputFromSetupIsRefusedAndTheLoadFails() throws {
    let f = try PluginFixture.hostile("input_in_setup.lua")
    let message = try f.singleError(plugin: "input_in_setup", handler: "setup", line: 2)
    #expect(message.contains("tap cannot be called from inside setup"))
    #expect(f.records(.callback(.didTapAtCoordinate)).isEmpty)
    #expect(f.host.plugins.isEmpty)
  }

  @Test func inputFromTeardownIsRefused() throws {
    let f = try PluginFixture.hostile("input_in_teardown.lua")
    f.host.unloadAll()
    let message = try f.singleError(plugin: "input_in_teardown", handler: "teardown", line: 2)
    #expect(message.contains("pan cannot be called from inside teardown"))
    #expect(f.records(.callback(.willMove)).isEmpty)
  }

  @Test func aFeedbackLoopEndsAfterFiveFailures() throws {
    let f = try PluginFixture.hostile("feedback_loop.lua")
    try f.map.moveCamera(.zoomTo(5))
    #expect(f.errors.count == 6)  // five refusals and the notice that the plugin is disabled
    #expect(f.errors.first?.message?.contains("plugin calls are nested 16 deep") == true)
    #expect(f.errors.last?.message?.contains("disabled after 5 consecutive errors") == true)
    #expect(f.host.plugins.first?.isDisabled == true)
    try f.map.settle()
  }

  @Test func userDataKeysKeepTheirBytes() throws {
    let reader = """
      return { did_tap_marker = function(map, marker)
        local keys = {}
        for k, v in pairs(marker.user_data or {}) do keys[#keys + 1] = #k .. ":" .. v end
        table.sort(keys)
        print(table.concat(keys, " "))
      end, priority = -1 }
      """
    let f = try PluginFixture.hostile("user_data_binary_keys.lua", beside: ["reader.lua": reader])
    try f.map.tap(f.melbourne)
    try f.map.tap(f.sydney)
    try f.map.tap(f.melbourne)
    #expect(f.errors.isEmpty)
    #expect(f.logs.last == "1:1 1:2 2:3")
  }

  // MARK: The map's own rules

  @Test func aRemovedMarkerStaysAValidValue() throws {
    let f = try PluginFixture.hostile("keep_removed_marker.lua")
    try f.map.tap(f.sydney)
    #expect(f.sydney.map == nil)
    try f.map.tap(at: Point(x: 20, y: 800))
    #expect(f.logs == ["sydney\tSydney\ttrue\tfalse"])
    let message = try f.singleError(
      plugin: "keeper", file: "keep_removed_marker", handler: "did_tap_at_coordinate", line: 11)
    #expect(message.contains("marker sydney is not on this map"))
  }

  @Test func inputFromInsideAHandlerIsACleanError() throws {
    let f = try PluginFixture.hostile("reentrant_tap.lua")
    try f.map.tap(f.melbourne)
    let message = try f.singleError(plugin: "reentrant_tap", handler: "did_tap_marker", line: 4)
    #expect(message.contains("tap cannot be called from inside did_tap_marker"))
    expectDefaultSelection(f, f.melbourne)
    #expect(f.records(.callback(.didTapMarker)).count == 1)
  }

  @Test("R13: Selection changed inside marker info window is deferred")
  func selectionChangedInsideMarkerInfoWindowIsDeferred() throws {
    // R13: the change waits until the resolution ends, then applies; the trace says so.
    let f = try PluginFixture.hostile("selection_in_info_window.lua")
    try f.map.tap(f.melbourne)
    #expect(f.errors.isEmpty)
    #expect(f.records(.deferred).count == 1)
    #expect(f.map.selectedMarker === f.sydney)
    #expect(f.map.infoWindow?.marker === f.sydney)
    let resolved = f.map.trace.records.firstIndex {
      $0.event == .callback(.markerInfoWindow) && $0.marker == "melbourne"
    }
    let deferred = f.map.trace.records.firstIndex { $0.event == .deferred }
    #expect(resolved! < deferred!)
  }
}

@Suite struct TeardownTests {
  @Test func aTeardownThatMovesTheMapDoesNotReachClosedPlugins() throws {
    // Plugins leave the asking order before their teardown: the events a teardown causes go
    // only to plugins still loaded.
    let f = try PluginFixture([
      "a.lua": "return { priority = 10, will_move = function() print('a heard will_move') end }",
      "b.lua": "return { teardown = function(map) map.selected_marker = nil; map:move_camera{ zoom = 3 } end }",
    ])
    f.map.selectedMarker = f.melbourne
    f.host.unloadAll()
    #expect(f.host.plugins.isEmpty)
    #expect(f.map.camera.zoom == 3)
    #expect(f.errors.isEmpty)
    #expect(f.logs.isEmpty, "a was unloaded before b's teardown moved the camera")
  }
}
