import Testing
import WaymarkCore

@testable import WaymarkScripting

/// A veto whose sole argument is a marker runs in one C call over the plugins
/// (``PluginHost/order``, ``LuaKit/LuaDispatchOrder``): docs/plugins.md's rules still hold
/// there (Composition: plugins in order, the first `true` wins and later plugins are not
/// asked; Errors, budgets, disabling: errors and wrong types reported with file:line, five
/// failures in a row disable, a success resets the count).
@Suite struct VetoLoopTests {
  /// A plugin of priority `priority` printing `name` and running `body` in did_tap_marker.
  static func plugin(_ name: String, priority: Int, _ body: String) -> String {
    """
    local p = { name = "\(name)", priority = \(priority) }
    function p.did_tap_marker(map, marker)
      print("\(name) " .. marker.id)
      \(body)
    end
    return p
    """
  }

  @Test func pluginsAreAskedInOrderUntilTheFirstTrueAndAFailingOneIsDisabledAfterFive() throws {
    let f = try PluginFixture([
      "a.lua": Self.plugin("a", priority: 4, "return false"),
      "b.lua": Self.plugin("b", priority: 3, "error('broken')"),
      "c.lua": Self.plugin("c", priority: 2, "return true"),
      "d.lua": Self.plugin("d", priority: 1, "return true"),
    ])
    for _ in 0..<7 {
      let answer = f.host.mapView(f.map, receive: .didTapMarker(f.sydney))
      #expect(answer.isHandled && answer.decidedBy == "c")
    }
    let round = ["a sydney", "b sydney", "c sydney"]
    #expect(
      f.logs == Array(repeating: round, count: 5).flatMap { $0 } + ["a sydney", "c sydney"] + ["a sydney", "c sydney"])
    #expect(f.errors.count == 6)  // five failures, then "disabled after 5 consecutive errors"
    #expect(f.errors.first?.message?.contains("b.lua:4: broken") == true)
    #expect(f.errors.last?.message?.contains("disabled after 5 consecutive errors") == true)
    #expect(f.host.plugins.map(\.isDisabled) == [false, true, false, false])
  }

  @Test func aWrongTypeIsReportedAtItsReturnAndTheNextPluginStillDecides() throws {
    let f = try PluginFixture([
      "a.lua": Self.plugin("a", priority: 2, "return 42"),
      "b.lua": Self.plugin("b", priority: 1, "return true"),
    ])
    for _ in 0..<2 {
      #expect(f.host.mapView(f.map, receive: .didTapMarker(f.melbourne)).decidedBy == "b")
    }
    #expect(f.logs == ["a melbourne", "b melbourne", "a melbourne", "b melbourne"])
    #expect(f.errors.count == 2)
    #expect(f.errors.allSatisfy { $0.message?.contains("a.lua:4: did_tap_marker returned a number") == true })
  }

  @Test func aSuccessBetweenFailuresResetsTheCount() throws {
    let f = try PluginFixture([
      "a.lua": """
      local p = { name = "a" }
      local n = 0
      function p.did_tap_marker(map, marker)
        n = n + 1
        if n % 5 ~= 0 then error("not yet") end
        return false
      end
      return p
      """
    ])
    for _ in 0..<20 { _ = f.host.mapView(f.map, receive: .didTapMarker(f.sydney)) }
    #expect(f.errors.count == 16)
    #expect(f.host.plugins.first?.isDisabled == false)
  }

  @Test func aTimeBudgetStopsAHandlerInTheLoopAndTheNextPluginIsAsked() throws {
    var configuration = PluginHost.Configuration.forTests
    configuration.instructionBudget = 100_000
    configuration.instructionCounting = .exact
    let f = try PluginFixture(
      [
        "a.lua": Self.plugin("a", priority: 2, "if marker.id == 'sydney' then while true do end end return false"),
        "b.lua": Self.plugin("b", priority: 1, "return true"),
      ], configuration: configuration)
    for _ in 0..<3 {
      #expect(f.host.mapView(f.map, receive: .didTapMarker(f.sydney)).decidedBy == "b")
    }
    #expect(f.logs == Array(repeating: ["a sydney", "b sydney"], count: 3).flatMap { $0 })
    #expect(f.errors.count == 3)
    #expect(f.errors.allSatisfy { $0.message?.contains("a.lua:") == true })
  }
}
