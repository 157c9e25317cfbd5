import Testing
import WaymarkCore

@testable import WaymarkScripting

/// The registry: one declaration drives both the installed API and the LuaLS definitions.
@Suite struct LuaAPITests {
  @Test func everyEntryIsReachableFromLuaWithItsKind() throws {
    var checks: [String] = []
    for entry in LuaAPI.entries where entry.owner == "Map" || entry.owner == "Marker" {
      let object = entry.owner == "Map" ? "map" : "m"
      let expected = entry.kind == .method ? "function" : "ok"
      checks.append(
        "r[#r+1] = (\(entry.kind == .method ? "type(\(object).\(entry.name))" : "pcall(function() return \(object).\(entry.name) end) and 'ok'")) == '\(expected)' or '\(entry.owner).\(entry.name)'"
      )
    }
    let (logs, errors, _) = try MarkerBridgeTests.run(
      "local m = map:marker('sydney'); local r = {}\n" + checks.joined(separator: "\n")
        + "\nlocal bad = {} for _, v in ipairs(r) do if v ~= true then bad[#bad+1] = v end end print(table.concat(bad, ' '))"
    )
    #expect(errors.isEmpty)
    #expect(logs == [""])
  }

  @Test func entriesAreUniqueAndDocumented() {
    var seen = Set<String>()
    for entry in LuaAPI.entries {
      #expect(seen.insert("\(entry.owner).\(entry.name)").inserted, "duplicate \(entry.owner).\(entry.name)")
      #expect(!entry.doc.isEmpty)
      #expect(LuaAPI.owners.contains { $0.name == entry.owner })
    }
    #expect(LuaAPI.entry("Map", "tap")?.isInput == true)
    #expect(LuaAPI.entry("Map", "tap")?.doc.contains("map:after(0, fn)") == true)
    #expect(LuaAPI.entry("Marker", "id")?.kind == .readOnlyProperty)
    #expect(LuaAPI.entry("Marker", "opacity")?.kind == .property)
  }

  @Test func handlerSignaturesFollowSectionOne() {
    #expect(LuaAPI.handlers.count == 23)
    #expect(LuaAPI.handlers[5].functionType == "fun(map: Map, marker: Marker): boolean?")
    #expect(
      LuaAPI.handlers[9].functionType == "fun(map: Map, place_id: string, name: string, location: Coordinate): boolean?"
    )
    #expect(LuaAPI.handlers[10].returns == "Content?")
    #expect(LuaAPI.lifecycle.map(\.name) == ["setup", "teardown", "save_state", "on_reload"])
    #expect(
      LuaAPI.entry("Map", "animate")?.functionType
        == "fun(self: Map, update: Camera|CameraUpdate, options: AnimationOptions?)")
  }
}
