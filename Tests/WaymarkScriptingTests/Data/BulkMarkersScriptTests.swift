import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `map:add_markers`: a list of options or a GeoJSON FeatureCollection, all or nothing (R1).
@Suite struct BulkMarkersScriptTests {
  private func run(_ script: String, plugins: [String: String] = [:]) throws -> ScriptOutcome {
    let (outcome, _) = try ScriptRunnerTests().run(script, plugins: plugins)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    return outcome
  }

  static let collection = """
    local collection = waymark.json.decode([[{"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [144.96, -37.81]},
       "properties": {"name": "Cafe A", "snippet": "7-19", "open": true}},
      {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [145.0, -37.9, 12]},
       "properties": {"name": "Cafe B", "title": "B's title"}},
      {"type": "Feature", "geometry": {"type": "Point", "coordinates": [145.1, -37.7]}, "properties": null}
    ]}]])
    """

  @Test("R1: a list of options adds every marker, in order, each as add_marker would")
  func listOfOptions() throws {
    _ = try run(
      """
      local map = waymark.map{}
      local markers = map:add_markers{
        { id = "one", position = { lat = 1, lng = 2 }, title = "One", user_data = { n = 1 } },
        { position = { lat = 3, lng = 4 }, z_index = 2, icon_view = { name = "v", width = 10, height = 10 } },
      }
      expect_eq(#markers, 2)
      expect_eq(markers[1].id, "one")
      expect_eq(markers[1].user_data, { n = 1 })
      expect_eq(markers[2].z_index, 2)
      expect_eq(markers[2].icon_view.name, "v")
      expect_eq(#map:markers(), 2)
      """)
  }

  @Test("R1: Point features become markers: id, title and snippet from the feature, user_data its properties")
  func featureCollection() throws {
    let outcome = try run(
      Self.collection + """

        local map = waymark.map{ camera = { target = { lat = -37.81, lng = 144.96 }, zoom = 12 }, plugins = { "plugins" } }
        local markers = map:add_markers(collection)
        expect_eq(markers[1].id, "a")
        expect_eq(markers[1].title, nil, "no title property")
        expect_eq(markers[1].snippet, "7-19")
        expect_eq(markers[2].id, "7", "a number id becomes its text")
        expect_eq(markers[2].title, "B's title")
        expect_near(markers[2].position.lat, -37.9)
        expect_near(markers[2].position.lng, 145.0)
        expect_eq(markers[1].user_data, { name = "Cafe A", snippet = "7-19", open = true })
        expect_eq(markers[3].user_data, nil)
        map:tap(markers[1])
        """,
      plugins: [
        "p.lua": "return { did_tap_marker = function(map, m) print(m.user_data.name, m.user_data.open) end }"
      ])
    #expect(
      outcome.records.contains { $0.event == .log && $0.message == "Cafe A\ttrue" }, "a plugin sees the properties")
  }

  @Test("fields maps a marker's title and snippet to other properties")
  func fieldsMapProperties() throws {
    _ = try run(
      Self.collection + """

        local map = waymark.map{}
        local markers = map:add_markers(collection, { title = "name", snippet = "name" })
        expect_eq(markers[1].title, "Cafe A")
        expect_eq(markers[2].title, "Cafe B")
        expect_eq(markers[2].snippet, "Cafe B")
        local ok, message = pcall(map.add_markers, map, collection, { snippet = "open" })
        expect(not ok and message:find("item 1: properties.open: expected a string, got boolean", 1, true), message)
        ok, message = pcall(map.add_markers, map, collection, { titel = "name" })
        expect(not ok and message:find("unknown field 'titel'", 1, true), message)
        """)
  }

  @Test("A bad item in the middle is an error naming its index and field, and nothing is added")
  func allOrNothing() throws {
    _ = try run(
      Self.collection + """

        local map = waymark.map{}
        local function refused(items, why)
          local ok, message = pcall(map.add_markers, map, items)
          expect(not ok and message:find(why, 1, true), message)
          expect_eq(#map:markers(), 0, "nothing added after: " .. why)
        end
        refused({ { position = { lat = 1, lng = 1 } }, { position = { lat = 95, lng = 1 } }, { position = { lat = 2, lng = 2 } } },
          "add_markers: item 2: marker.position.lat: 95 is outside -90...90")
        refused({ { position = { lat = 1, lng = 1 } }, { title = "no position" } }, "add_markers: item 2: position is required")
        refused({ { position = { lat = 1, lng = 1 }, titel = "x" } }, "add_markers: item 1: unknown field 'titel'")
        refused({ { id = "x", position = { lat = 1, lng = 1 } }, { id = "x", position = { lat = 1, lng = 1 } } },
          "item 2: id \\"x\\" is given to an earlier item")
        refused({ { position = { lat = 1, lng = 1 } }, "nope" }, "item 2: expected a table of marker options, got string")
        collection.features[2].geometry = { type = "LineString", coordinates = { { 1, 2 }, { 3, 4 } } }
        refused(collection, 'item 2: geometry.type: "LineString": only Point features become markers')
        collection.features[2].geometry = { type = "Point", coordinates = { "x", 2 } }
        refused(collection, "item 2: geometry.coordinates[1]")
        -- A feature's position and texts are checked as any marker's (R1).
        collection.features[2].geometry = { type = "Point", coordinates = { 145, -95 } }
        refused(collection, "add_markers: item 2: marker.position.lat: -95 is outside -90...90")
        collection.features[2].geometry = { type = "Point", coordinates = { 1 / 0, 1 } }
        refused(collection, "add_markers: item 2: marker.position.lng")
        collection.features[2].geometry = { type = "Point", coordinates = { 145, -37 } }
        collection.features[2].id = ""
        refused(collection, "add_markers: item 2: marker.id")
        collection.features[2].id = 7
        collection.features[3].properties = { title = string.rep("x", 70000) }
        refused(collection, "add_markers: item 3: marker.title")
        collection.features[3].properties = nil
        map:add_marker{ id = "taken", position = { lat = 0, lng = 0 } }
        local ok, message = pcall(map.add_markers, map, { { position = { lat = 1, lng = 1 } }, { id = "taken", position = { lat = 1, lng = 1 } } })
        expect(not ok and message:find('item 2: id "taken" is already used by a marker on the map', 1, true), message)
        expect_eq(#map:markers(), 1)
        """)
  }

  /// The map's ids are checked once for all items (whichever side has fewer is looked up in
  /// the other), so the first error is still the first item's: an id on the map before a
  /// later item's bad field or repeated id, and generated ids as well as given ones.
  @Test("An id already on the map is named at its item, before any later item's error, generated ids too")
  func idsOnTheMapAreNamedInItemOrder() throws {
    _ = try run(
      """
      local map = waymark.map{}
      map:add_marker{ position = { lat = 0, lng = 0 } }  -- marker-1, a generated id
      for i = 1, 5 do map:add_marker{ id = "kept" .. i, position = { lat = 0, lng = 0 } } end
      local function refused(items, why)
        local ok, message = pcall(map.add_markers, map, items)
        expect(not ok and message:find(why, 1, true), message)
        expect_eq(#map:markers(), 6, "nothing added after: " .. why)
      end
      local at = { lat = 1, lng = 1 }
      refused({ { id = "a", position = at }, { id = "kept3", position = at }, { position = { lat = 95, lng = 1 } } },
        'add_markers: item 2: id "kept3" is already used by a marker on the map')
      refused({ { id = "kept2", position = at }, { id = "b", position = at }, { id = "b", position = at } },
        'add_markers: item 1: id "kept2" is already used by a marker on the map')
      refused({ { id = "a", position = at }, { id = "marker-1", position = at } },
        'add_markers: item 2: id "marker-1" is already used by a marker on the map')
      -- More items than the map has ids, and fewer: both ways find the same first item.
      local many = {}
      for i = 1, 20 do many[i] = { id = "new" .. i, position = at } end
      many[17].id = "kept5"
      many[12].id = "marker-1"
      refused(many, 'add_markers: item 12: id "marker-1" is already used by a marker on the map')
      many[17].id = "new17"
      refused(many, 'add_markers: item 12: id "marker-1" is already used by a marker on the map')
      many[12].id = "new12"
      many[3].id = "kept1"
      refused(many, 'add_markers: item 3: id "kept1" is already used by a marker on the map')
      refused({ { id = "kept4", position = at } }, 'add_markers: item 1: id "kept4" is already used by a marker on the map')
      expect_eq(#map:add_markers{ { id = "marker-9", position = at }, { id = "fresh", position = at } }, 2)
      """)
  }

  /// docs/plugins.md, "Data files and JSON": add_markers takes a list of options or a
  /// FeatureCollection whose features are a list; anything else says what it got instead.
  @Test("A table that is not a list of items, or features that are not a list, says what it is")
  func notAList() throws {
    _ = try run(
      Self.collection + """

        local map = waymark.map{}
        local function refused(items, message)
          local ok, got = pcall(map.add_markers, map, items)
          expect(not ok and got:find(message, 1, true), got)
          expect_eq(#map:markers(), 0)
        end
        refused({ type = "FeatureCollection", features = { a = 1 } },
          "add_markers: features: expected a list, got a table with key 'a'")
        refused(collection.features[1], "add_markers: expected a list of marker options or a FeatureCollection, "
          .. "got a GeoJSON Feature (wrap it in a FeatureCollection")
        refused({ type = "Point", coordinates = { 1, 2 } }, 'got a table whose type is "Point" (only the Point features')
        refused({ position = { lat = 1, lng = 1 } }, "got one marker's options (map:add_marker adds one")
        refused({ { position = { lat = 1, lng = 1 } }, extra = true },
          "add_markers: expected a list of marker options or a FeatureCollection, got a table with key 'extra'")
        local c = map:clusters{}
        local ok, got = pcall(c.add, c, { type = "FeatureCollection", features = { a = 1 } })
        expect(not ok and got:find("add: features: expected a list, got a table with key 'a'", 1, true), got)
        """)
  }

  /// docs/performance.md: add_markers pauses the collector while it makes the markers'
  /// userdata, all reachable from its result; it must hand the collector back as it was.
  @Test("add_markers leaves the collector running or stopped as it found it, and its markers stay the map's")
  func collectorLeftAsFound() throws {
    _ = try run(
      Self.collection + """

        local map = waymark.map{}
        local first = map:add_markers(collection)
        expect_eq(collectgarbage("isrunning"), true)
        collectgarbage("stop")
        local second = map:add_markers{ { position = { lat = 1, lng = 1 } } }
        expect_eq(collectgarbage("isrunning"), false)
        collectgarbage("restart")
        collectgarbage("collect")
        expect(first[1] == map:marker("a") and second[1] == map:markers()[4], "the same userdata after a collection")
        expect(first[1].user_data == collection.features[1].properties, "a feature's properties are its user_data here")
        """)
  }
}
