import Foundation
import Testing
import WaymarkCore

@testable import WaymarkScenarios
@testable import WaymarkScripting

/// `map:clusters{}` from a script (R60-R64): items, clustering, the rendered markers and what
/// they stand for, and the errors of bad options.
@Suite struct ClusterScriptTests {
  /// Six items 0.12 degrees of latitude apart around the camera: one cluster at zoom 5, six
  /// apart at zoom 10; one more far away.
  static let setup = """
    local map = waymark.map{ camera = { target = { lat = -35, lng = 151 }, zoom = 5 } }
    local c = map:clusters{ animate = false }
    local items = {}
    for i = 0, 5 do
      items[#items + 1] = { id = "i" .. i, position = { lat = -35 + (i - 2.5) * 0.12, lng = 151 }, title = "Item " .. i }
    end
    c:add(items)
    c:add{ id = "far", position = { lat = 10, lng = 10 } }
    """

  private func run(_ script: String) throws -> ScriptOutcome {
    let (outcome, _) = try ScriptRunnerTests().run(Self.setup + script)
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(outcome.failures.isEmpty, "\(outcome.failures)")
    return outcome
  }

  @Test("R60, R64: cluster() renders the clusters in view; a cluster marker knows its cluster")
  func clusterMarkers() throws {
    let outcome = try run(
      """
      c:cluster()
      local markers = c:markers()
      expect_eq(#markers, 1, "the far item is out of view")
      expect_eq(markers[1].cluster.count, 6)
      expect_eq(markers[1].cluster.items[1].id, "i0")
      expect_eq(markers[1].cluster_item, nil)
      expect_eq(#c:clusters_at(5), 2)
      expect_eq(#c:clusters_at(10), 7)
      expect_eq(c:clusters_at(5)[1].position.lat, -35 - 2.5 * 0.12, "at the first item, not the centroid")
      """)
    let record = try #require(outcome.records.first { $0.event == .clustersRendered })
    #expect(record["clusters"] == .number(1))
  }

  @Test("R64: zooming in past a rounded zoom clusters again 0.2 s later; items' markers have their ids")
  func zoomingIn() throws {
    let outcome = try run(
      """
      c:cluster()
      map:animate{ zoom = 10 }
      map:settle()
      expect_eq(#c:markers(), 6)
      expect_eq(c:markers()[1].id, "i0")
      expect_eq(c:markers()[1].title, "Item 0")
      expect_eq(c:markers()[1].cluster_item.id, "i0")
      expect_eq(c:remove("far"), true)
      expect_eq(c:remove("far"), false)
      """)
    #expect(outcome.records.filter { $0.event == .clustersRendered }.count == 2)
  }

  @Test("R62, R63: bad options and items are refused, naming the field and the value")
  func badOptions() throws {
    _ = try run(
      """
      local function message(f, ...) local ok, err = pcall(f, ...) expect(not ok) return err end
      expect(message(map.clusters, map, { algorithm = "kmeans" }):find('clusters.algorithm: "kmeans"', 1, true))
      expect(message(map.clusters, map, { buckets = { 10, 5 } }):find("clusters.buckets[2]: 5", 1, true))
      expect(message(map.clusters, map, { distanse = 5 }):find("distanse", 1, true))
      expect(message(c.add, c, { id = "x", position = { lat = 99, lng = 0 } }):find("item.position.lat: 99", 1, true))
      expect(message(c.add, c, { { id = "y" } }):find("items[1].position", 1, true))
      expect(message(c.add, c, { { id = "", position = { lat = 0, lng = 0 } } }):find('items[1].id: "" is empty', 1, true))
      expect(message(map.clusters, map, { distance = 0 }):find("clusters.distance: 0 is not", 1, true))
      expect(message(map.clusters, map, { buckets = { a = 1 } }):find("clusters.buckets: expected a list, got a table with key 'a'", 1, true))
      expect(message(c.clusters_at, c, 40):find("clusters_at.zoom: 40 is outside 0...30", 1, true))

      -- A feature is checked as a marker's options are: never a crash, nothing added.
      local function collection(coordinates, id)
        return { type = "FeatureCollection", features = {
          { type = "Feature", id = "ok", geometry = { type = "Point", coordinates = { 0, 0 } } },
          { type = "Feature", id = id, geometry = { type = "Point", coordinates = coordinates } } } }
      end
      expect(message(c.add, c, collection({ 0, 0 / 0 }, "n")):find("features[2].position.lat: nan", 1, true))
      expect(message(c.add, c, collection({ 1 / 0, 0 }, "i")):find("features[2].position.lng: inf", 1, true))
      expect(message(c.add, c, collection({ 0, 95 }, "p")):find("features[2].position.lat: 95", 1, true))
      expect(message(c.add, c, collection({ 0, 0 }, "")):find('features[2].id: "" is empty', 1, true))
      expect_eq(#c:clusters_at(10), 7, "no feature of a refused collection was added")
      """)
  }

  @Test("R72: a rendered marker's user_data holds its cluster or item; R64: an unchanged rendering records nothing")
  func renderedMarkersUserData() throws {
    let outcome = try run(
      """
      c:cluster()
      local marker = c:markers()[1]
      expect_eq(marker.user_data.count, 6, "a cluster marker holds its cluster")
      expect_eq(marker.user_data.items[1].id, "i0")
      c:cluster()
      c:cluster()
      map:animate{ zoom = 10 }
      map:settle()
      expect_eq(c:markers()[2].user_data.id, "i1", "an item's marker holds its item")
      """)
    #expect(outcome.records.filter { $0.event == .clustersRendered }.count == 2, "cluster() again shows the same")
  }

  @Test("R62: a FeatureCollection's title and snippet come from the properties `fields` names, as add_markers")
  func featureFields() throws {
    _ = try run(
      """
      c:clear()
      c:add({ type = "FeatureCollection", features = {
        { type = "Feature", id = "s1", geometry = { type = "Point", coordinates = { 151, -35 } },
          properties = { name = "Shop One", addr = "1 Main St", title = "ignored" } } } },
        { title = "name", snippet = "addr" })
      local item = c:clusters_at(10)[1].items[1]
      expect_eq(item.title, "Shop One")
      expect_eq(item.snippet, "1 Main St")
      local ok, err = pcall(c.add, c, { { id = "z", position = { lat = 0, lng = 0 } } }, { title = "name" })
      expect(not ok and err:find("add: fields only apply to a GeoJSON FeatureCollection", 1, true), err)
      """)
  }

  @Test("R62: clusters_at lists the tables the script added, and only tables that still describe their item")
  func clustersHoldTheCallersItems() throws {
    _ = try run(
      """
      local function items_at(zoom)
        local found = {}
        for _, cluster in ipairs(c:clusters_at(zoom)) do
          for _, item in ipairs(cluster.items) do found[#found + 1] = item end
        end
        return found
      end
      local at10 = items_at(10)
      expect_eq(#at10, 7)
      for i = 0, 5 do expect(rawequal(at10[i + 1], items[i + 1]), "item i" .. i .. " is the table added") end
      expect_eq(at10[7].id, "far")

      -- One table filled anew for each add stands for the last item it described.
      local reused = { position = { lat = -35, lng = 152 } }
      for _, id in ipairs{ "r1", "r2" } do
        reused.id = id
        c:add(reused)
      end
      local ids = {}
      for _, item in ipairs(items_at(10)) do ids[#ids + 1] = item.id end
      expect_eq(table.concat(ids, " "), "i0 i1 i2 i3 i4 i5 far r1 r2")
      expect(rawequal(items_at(10)[9], reused))
      expect(not rawequal(items_at(10)[8], reused), "r1's table describes r2 now")

      -- An id added again is the new table; a removed item's table is forgotten.
      local again = { id = "i0", position = { lat = -35.3, lng = 151 } }
      c:add(again)
      expect(c:remove("far"))
      local last = items_at(10)
      expect_eq(#last, 8)
      expect(rawequal(last[8], again), "the replacement goes to the end")
      expect_eq(last[1].id, "i1")

      -- A refused list adds nothing, and leaves the tables as they were.
      local ok = pcall(c.add, c, { { id = "new", position = { lat = 0, lng = 0 } }, { id = "bad" } })
      expect(not ok)
      expect_eq(#items_at(10), 8)
      -- R60: a cluster stands at its first item's position, and hands out that item's position
      -- table while it still says so; one whose item moved since gets a table of its own.
      local first = c:clusters_at(5)[1]
      expect(rawequal(first.position, first.items[1].position), "the first item's own position table")
      first.items[1].position.lat = 0
      local moved = c:clusters_at(5)[1]
      expect(not rawequal(moved.position, moved.items[1].position))
      expect_eq(moved.position.lat, -35 + (1 - 2.5) * 0.12, "where the item was added")
      c:clear()
      expect_eq(#c:clusters_at(10), 0)
      c:add(items[2])
      expect(rawequal(c:clusters_at(10)[1].items[1], items[2]))
      """)
  }

  @Test("R62: an item's user_data reaches every copy of it; a state's share is charged and given back")
  func itemUserData() throws {
    _ = try run(
      """
      c:add{ id = "shop", position = { lat = -35, lng = 151.3 }, user_data = { kind = "cafe", seats = 12 } }
      map:move_camera{ target = { lat = -35, lng = 151.3 }, zoom = 12 }
      c:cluster()
      local item = map:marker("shop").cluster_item
      expect_eq(item.user_data.kind, "cafe", "the marker's item is built from the kept copy")
      expect_eq(item.user_data.seats, 12)

      local big = string.rep("x", 33 << 20)
      c:add{ id = "big1", position = { lat = 0, lng = 0 }, user_data = big }
      local ok, err = pcall(c.add, c, { id = "big2", position = { lat = 0, lng = 0 }, user_data = big })
      expect(not ok and err:find("add: user_data", 1, true) ~= nil, err)
      expect(err:find("64 MiB", 1, true) ~= nil, err)
      expect(c:remove("big1"))
      c:add{ id = "big2", position = { lat = 0, lng = 0 }, user_data = big }
      c:add{ id = "big2", position = { lat = 0, lng = 0 }, user_data = big }
      c:clear()
      c:add{ id = "big3", position = { lat = 0, lng = 0 }, user_data = big }
      """)
  }

  @Test("R62: a GeoJSON FeatureCollection's Point features become items, all or nothing")
  func featureCollectionItems() throws {
    _ = try run(
      """
      c:clear()
      local function point(id, lng, properties)
        return { type = "Feature", id = id, geometry = { type = "Point", coordinates = { lng, -35 } },
          properties = properties }
      end
      local shops = { type = "FeatureCollection", features = {
        point("a", 151, { title = "Alpha", snippet = "open", rating = 4 }), point(7, 151.001, nil),
        point(nil, 151.002, { title = "Gamma" }) } }
      c:add(shops)
      local items = c:clusters_at(5)[1].items
      expect_eq(#items, 3)
      expect_eq(items[1].id, "a")
      expect_eq(items[1].title, "Alpha")
      expect_eq(items[1].snippet, "open")
      expect(rawequal(items[1].user_data, shops.features[1].properties), "user_data is the feature's properties")
      expect_eq(items[1].position.lat, -35)
      expect_eq(items[1].position.lng, 151)
      expect_eq(items[2].id, "7", "a number id becomes a string")
      expect(items[3].id:match("^item%-%d+$") ~= nil, "a feature without an id gets one: " .. items[3].id)
      expect(rawequal(c:clusters_at(5)[1].items[1], items[1]), "the same tables on every call")

      local bad = { type = "FeatureCollection", features = {
        point("b", 150, nil), { type = "Feature", geometry = { type = "LineString", coordinates = {} } } } }
      local ok, err = pcall(c.add, c, bad)
      expect(not ok)
      expect(err:find("features[2]: geometry.type", 1, true) ~= nil, err)
      expect_eq(c:clusters_at(5)[1].count, 3, "nothing of a refused collection is added")
      """)
  }
}
