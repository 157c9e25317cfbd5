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
    #expect(LuaAPI.handlers.count == 27)
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

  @Test func everyClassNamedInATypeIsDeclared() {
    // The option shapes are declared once; a type that names a class nobody declares would
    // leave editors (and readers of the definitions) guessing.
    let declared = Set(LuaAPI.shapes.map(\.name) + LuaAPI.owners.map(\.name) + ["Content"])
    var types = LuaAPI.entries.flatMap { entry in entry.parameters.map(\.type) + [entry.type ?? ""] }
    types += LuaAPI.handlers.flatMap { handler in handler.parameters.map(\.type) + [handler.returns ?? ""] }
    types += LuaAPI.shapes.flatMap { $0.fields.map(\.type) }
    for type in types {
      let words = type.split(whereSeparator: { !$0.isLetter && $0 != "_" }).map(String.init)
      for word in words where word.first!.isUppercase {
        #expect(declared.contains(word), "\(word) in \(type) is not a declared shape")
      }
    }
    #expect(Set(LuaAPI.shapes.map(\.name)).count == LuaAPI.shapes.count)
  }

  @Test func readersAcceptExactlyTheDeclaredFields() throws {
    let (logs, errors, _) = try MarkerBridgeTests.run(
      """
      print(pcall(map.pinch, map, 1, { point = { x = 1, y = 2 }, duration = 0, dureation = 1 }))
      print(pcall(map.add_poi, map, { place_id = "p", name = "n", location = { 0, 0 }, title = "t" }))
      print(pcall(map.add_circle, map, { center = { 0, 0 }, radius = 1, path = {} }))
      print(pcall(map.add_polyline, map, { path = { { 0, 0 } }, width = 2, title = "t", tappable = true, z_index = 1, id = "x", stroke_color = "#000000", fill_color = "#FFFFFF" }))
      """)
    #expect(errors.isEmpty)
    #expect(logs[0].hasSuffix("pinch options: unknown field 'dureation'; did you mean duration?"), "\(logs[0])")
    #expect(logs[1].hasSuffix("add_poi: unknown field 'title'; expected one of place_id, name, location"), "\(logs[1])")
    #expect(logs[2].contains("add_circle: unknown field 'path'"), "\(logs[2])")
    #expect(logs[3] == "true\toverlay \"x\"", "\(logs[3])")
  }
}
