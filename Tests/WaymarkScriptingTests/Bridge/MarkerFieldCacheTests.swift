import Foundation
import LuaKit
import Testing
import WaymarkCore
import WaymarkTesting

@testable import WaymarkScripting

/// The hot marker fields (id, title, snippet, position, user_data) are read from a cache in
/// each Lua state (LuaMapBridge.cachedFields): whatever changes a marker, and however, the
/// next read in every state sees the change.
@Suite struct MarkerFieldCacheTests {
  /// Reads every field of its markers, and changes them at random: the same code in two
  /// plugins (two states), so each sees the other's changes and its own.
  static func plugin(_ name: String) -> String {
    """
    local p = { name = "\(name)" }
    local markers
    function p.setup(map) markers = map:markers() end
    function p.show_all()
      local lines = {}
      for _, m in ipairs(markers) do
        local pos = m.position
        pos.lat = 1000 -- a copy: the next read must not see it
        lines[#lines + 1] = string.format("%s|%s|%s|%.17g|%.17g|%s", m.id, tostring(m.title),
          tostring(m.snippet), m.position.lat, m.position.lng, tostring(m.user_data))
      end
      return table.concat(lines, "\\n")
    end
    function p.mutate(seed)
      local m = markers[seed % #markers + 1]
      local kind, value = (seed // 7) % 5, seed % 1000
      if kind == 0 then m.title = "t" .. value
      elseif kind == 1 then m.snippet = (value % 2 == 0) and ("s" .. value) or nil
      elseif kind == 2 then m.position = { lat = value % 80 - 40, lng = value % 300 - 150 }
      elseif kind == 3 then m.user_data = "u" .. value
      else m.user_data = nil end
    end
    return p
    """
  }

  /// What the Lua code above prints for the markers, from the Swift side.
  static func expected(_ markers: [Marker]) -> String {
    markers.map { m in
      let userData: String
      switch (m.userData as? SharedUserData)?.value {
      case .string(let bytes)?: userData = String(decoding: bytes, as: UTF8.self)
      default: userData = "nil"
      }
      return [
        m.id, m.title ?? "nil", m.snippet ?? "nil", String(format: "%.17g", m.position.latitude),
        String(format: "%.17g", m.position.longitude), userData,
      ].joined(separator: "|")
    }.joined(separator: "\n")
  }

  /// Calls `name(arguments)` of a plugin's table; returns its string result, if any.
  @discardableResult
  static func call(_ host: PluginHost, _ plugin: String, _ name: String, _ argument: Int? = nil) throws -> String? {
    let stack = try #require(host.luaState(ofPlugin: plugin)).stack
    let base = stack.top
    defer { stack.setTop(base) }
    stack.pushGlobals()
    _ = stack.rawGetField("__waymark_plugin", ofTableAt: -1)
    _ = stack.rawGetField(name, ofTableAt: -1)
    if let argument { stack.push(argument) }
    try stack.call(arguments: argument == nil ? 0 : 1, results: 1)
    return stack.string(at: -1)
  }

  @Test("R1: after random changes by any path, every state reads the marker as Swift sees it")
  func aChangeIsNeverMissed() throws {
    let f = try PluginFixture(
      ["a.lua": Self.plugin("a"), "b.lua": Self.plugin("b")], configuration: .deterministic)
    let draggable = try (0..<3).map { i in
      var options = MarkerOptions(
        position: Coordinate(latitude: -30 - Double(i), longitude: 140 + 2 * Double(i)), title: "d\(i)")
      options.draggable = true
      return try f.map.addMarker(options)
    }
    // The plugins were set up before these markers existed: load them again to see all.
    f.host.unloadAll()
    f.host.loadPlugins(from: [f.folder.path])
    let markers = f.map.markers
    var rng = SplitMix64(seed: 0x4341_4348_45)
    for step in 0..<600 {
      let marker = markers[Int(rng.next() % UInt64(markers.count))]
      switch rng.next() % 8 {
      case 0:  // Swift, on the map or not
        try marker.update {
          $0.title = "swift\(step)"
          $0.snippet = step % 3 == 0 ? nil : "snippet\(step)"
        }
      case 1:
        try marker.update {
          $0.position = Coordinate(latitude: Double(step % 50) - 25, longitude: 100 + Double(step % 40))
        }
      case 2: try Self.call(f.host, "a", "mutate", Int(rng.next() % 100_000))
      case 3: try Self.call(f.host, "b", "mutate", Int(rng.next() % 100_000))
      case 4 where marker.map != nil:  // an animation, stopped halfway
        try f.map.animate(marker, to: Coordinate(latitude: -20, longitude: 130), duration: 1)
        try f.map.advance(by: 0.3)
      case 5 where draggable.contains { $0 === marker } && marker.map != nil:
        try f.map.moveCamera(.setTarget(marker.position))
        try? f.map.drag(marker, to: Coordinate(latitude: -28, longitude: 135), duration: 0.5)
        try f.map.advance(by: 0.25)
      case 6:  // removed, or added back
        if marker.map == nil { try f.map.add(marker) } else { try f.map.remove(marker) }
      default: try f.map.advance(by: 0.1)
      }
      for plugin in ["a", "b"] {
        let seen = try Self.call(f.host, plugin, "show_all")
        #expect(seen == Self.expected(markers), "step \(step), plugin \(plugin)")
        if seen != Self.expected(markers) { return }
      }
    }
    #expect(f.errors.isEmpty, "\(f.errors)")
  }

  @Test(
    "R1: a cached position is handed out as a copy; reads after a failed write see the old value; errors keep their line"
  )
  func copiesAndFailedWrites() throws {
    let (logs, _, _) = try MarkerBridgeTests.run(
      """
      local m = map:marker("sydney")
      local first = m.position
      first.lat = 0
      print(m.position.lat, m.position ~= m.position, m.title, m.title)
      print(pcall(function() m.position = { lat = 100, lng = 0 } end))
      print(m.position.lat, m.title)
      m.title = "Harbour"
      print(m.title, m.snippet)
      print(pcall(function() return m.titel end))
      """)
    #expect(logs.count == 5)
    #expect(logs[0] == "-33.8683\ttrue\tSydney\tSydney")
    #expect(logs[2] == "-33.8683\tSydney")
    #expect(logs[3] == "Harbour\tnil")
    #expect(logs[4].hasSuffix("t.lua:11: Marker has no field 'titel'; did you mean title?"), "\(logs[4])")
  }
}
